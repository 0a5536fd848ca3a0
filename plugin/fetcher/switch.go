package fetcher

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// switchMargin: a stream from a holder still receiving the layer is left
// for another holder when this one has at most this much more than was
// received from it (it is the bottleneck), and the other at least twice
// this much more. An eighth of a smaller layer.
const switchMargin = 8 << 20

func marginFor(size int64) int64 { return min(switchMargin, size/8) }

// switchCheck is how often a stream from a holder still receiving the
// layer is compared with the other holders.
const switchCheck = time.Second

// copyFrom copies the layer from body, a stream from p, into w from
// offset. A stream from a holder that is still receiving the layer itself
// runs at that holder's own download rate: if another holder is far ahead,
// the stream is closed and that holder is returned, to continue from at the
// current offset (a slow node then slows only the nodes that have no better
// source). It returns the bytes written.
func (pf *PeerFirst) copyFrom(ctx context.Context, w io.Writer, body io.ReadCloser, src *sources, p peer.ID, offset int64) (n int64, better peer.ID, err error) {
	if p == upstreamID {
		n, err = pipelinedCopy(w, body, src.desc.Size-offset)
		return n, "", err
	}
	others := src.untried()
	ord := pf.order(src.desc)
	// Only a stream from a holder still receiving the layer is compared
	// with the others; every stream is watched for stalls.
	compare := !src.complete[p] && (len(others) > 0 || ord != nil)
	var (
		got     atomic.Int64
		mu      sync.Mutex
		stalled bool
		done    = make(chan struct{})
		wg      sync.WaitGroup
		// what the stream had brought at the last check, and since when
		lastGot  int64
		progress = time.Now()
		slow     = &slowWatch{peak: &pf.peakStream, factor: slowFactor, got: []int64{0}} // from the stream's start
		pull     = &slowWatch{peak: &pf.peakPull, factor: roomFactor, got: []int64{pf.arrived.Load()}}
		// what p held at the last check, and for how many checks in a
		// row it gained slowly
		lastAvailable int64
		sourceSlow    int
		headSlow      int // checks in a row p was a slow first node
		bottleneck    int // checks in a row p was the bottleneck
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer recovery.Log(ctx, "p2p: comparing holders failed")
		tick := time.NewTicker(switchCheck)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			// A stream that brings nothing for the holder-stall bound is
			// left, whatever its connection says: a connection's idle
			// timer sees only its own bytes, and a source that keeps it
			// busy without sending this blob would hold the pull forever.
			if g := got.Load(); g != lastGot {
				lastGot, progress = g, time.Now()
			} else if time.Since(progress) >= pf.f.opts.HolderStall {
				mu.Lock()
				stalled = true
				mu.Unlock()
				body.Close()
				return
			}
			if !compare {
				continue
			}
			pos := offset + got.Load()
			lagging := slow.tick(got.Load())
			// The pull brings in far less than at its best: its link has
			// room.
			roomy := pull.tick(pf.arrived.Load())
			current, err := pf.probe(ctx, p, src)
			log.G(ctx).WithError(err).WithFields(log.Fields{"peer": p, "digest": src.desc.Digest, "offset": pos,
				"available": current.Available, "load": current.Load, "lagging": lagging, "bottleneck": bottleneck}).
				Debug("p2p: checked the holder streamed from")
			if err != nil {
				continue // says nothing: keep it
			}
			if ord != nil {
				others = pf.rediscover(ctx, src, others, p)
				// A holder that feeds others too, when a nearer one is
				// ahead: nodes that chose at the same moment doubled up.
				if current.Load >= 2 {
					if q := pf.nearerHolder(ctx, src, ord, others, p, pos); q != "" {
						mu.Lock()
						better = q
						mu.Unlock()
						body.Close()
						return
					}
				}
			}
			// How fast p itself gains: one that just found a faster
			// source of its own is not left for being slow.
			gained := current.Available - lastAvailable
			lastAvailable = current.Available
			if slowFactor*gained < pf.peakStream.Load() {
				sourceSlow++
			} else {
				sourceSlow = 0
			}
			// The first node of the layer's chain (it fetches from the
			// upstream, nobody is before it), gaining at less than a fifth
			// of this pull's fastest stream: its link is slower than the
			// others'.
			if ord != nil && isHead(ord, p, others) && headSlowFactor*gained < pf.peakStream.Load() {
				headSlow++
			} else {
				headSlow = 0
			}
			// Far ahead, p is not the bottleneck, unless this stream crawls
			// all the same: p's uplink is (a slow node that others follow
			// for being ahead).
			ahead := current.Available >= src.desc.Size || current.Available > pos+marginFor(src.desc.Size)
			if ahead && !lagging {
				bottleneck = 0
				continue // not the bottleneck: keep it
			}
			// Two checks in a row: a chain's nodes drift apart and back
			// as their links serve other layers too.
			if bottleneck++; bottleneck < 2 {
				continue
			}
			if ahead {
				pf.uplinkSlow(ctx, p)
			}
			if o := pf.fasterHolder(ctx, src, ord, others, pos); o != "" {
				src.outpaced(p)
				mu.Lock()
				better = o
				mu.Unlock()
				body.Close() // the copy returns; the fetch continues from o
				return
			}
			// Nobody is ahead: the upstream sends the rest, and the nodes
			// after this one follow it. Either p is a slow first node and
			// this pull waits on it with room on its link (a first node
			// held back by the upstream's link holds back the whole pull,
			// which then has no room), or this layer crawls while the rest
			// of the pull comes fast, and p gains as slowly (a slow node,
			// or one behind one). A holder with nothing yet is neither:
			// it waits for its own first bytes (from the upstream, whose
			// link then serves the first nodes of the other layers too),
			// and another upstream copy would share that link with it. Its
			// followers wait with it, as long as the stall bounds allow.
			left, started := src.desc.Size-pos, current.Available > 0
			slowFirst := started && headSlow >= 2 && roomy && left > 2*marginFor(src.desc.Size)
			crawling := started && lagging && sourceSlow >= slowTicks && left > 4*marginFor(src.desc.Size)
			if (slowFirst || crawling) && !src.upstreamUsed {
				if slowFirst {
					pf.uplinkSlow(ctx, p)
				}
				src.outpaced(p)
				src.toUpstream = true
				body.Close()
				return
			}
		}
	}()
	n, err = pipelinedCopy(&countedWriter{w: w, n: &got}, body, src.desc.Size-offset)
	close(done)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if stalled {
		err = fmt.Errorf("%w: no byte of %s from %s for %s", errHolderStalled, src.desc.Digest, p, pf.f.opts.HolderStall)
	}
	return n, better, err
}

// errHolderStalled: a peer's stream brought no byte for the holder-stall
// bound (Options.HolderStall). It is a stall (isStall).
var errHolderStalled = fmt.Errorf("peer stopped sending: %w", os.ErrDeadlineExceeded)

// fasterHolder returns, of the holders at least twice the margin ahead of
// pos that feed at most one other node, the least loaded (the nearest
// before this node among equals, with an order). A busier one is never
// taken: behind a slow node, every node of the chain below it finds the
// nodes above it far ahead, and only the first below it needs to move —
// the others catch up with it. A holder left for being slow is not taken
// again, however far ahead.
func (pf *PeerFirst) fasterHolder(ctx context.Context, src *sources, ord *nodeOrder, candidates []peer.ID, pos int64) peer.ID {
	var (
		best     peer.ID
		bestLoad int
	)
	for _, o := range candidates {
		if src.leftBehind(o) {
			continue
		}
		h, err := pf.probe(ctx, o, src)
		if err != nil || h.Available < pos+2*marginFor(src.desc.Size) || h.Load > 1 {
			continue
		}
		if best == "" || h.Load < bestLoad || (h.Load == bestLoad && ord != nil && ord.before(o) &&
			(!ord.before(best) || ord.compare(o, best) < 0)) {
			best, bestLoad = o, h.Load
		}
	}
	return best
}

// slowWatch tells a stream that crawls from the pull's other streams: over
// its last slowTicks checks it brought less than a sixth of what the
// fastest stream of the pull brought a check, at its best (peak, shared
// by the pull's streams). A node on a slow link finds all its streams
// alike, and none slow. Fed with what the whole pull received, it tells a
// pull with room on its link.
type slowWatch struct {
	peak   *atomic.Int64
	factor int64
	got    []int64 // at each check
}

const slowTicks = 3

func (w *slowWatch) tick(got int64) bool {
	w.got = append(w.got, got)
	if len(w.got) > slowTicks {
		w.got = w.got[1:]
	}
	if len(w.got) < 2 {
		return false
	}
	// A stream shorter than the window counts towards the peak too: the
	// fast ones are often short.
	rate := (w.got[len(w.got)-1] - w.got[0]) / int64(len(w.got)-1)
	peak := w.peak.Load()
	for rate > peak && !w.peak.CompareAndSwap(peak, rate) {
		peak = w.peak.Load()
	}
	return len(w.got) == slowTicks && w.factor*rate < peak
}

// slowFactor: a stream is slow at less than this fraction of the fastest.
// Streams of one pull share the node's downlink, and vary: a chain that
// re-forms brings a third of its share for a while.
const slowFactor = 6

// roomFactor: a pull has room on its link when it brings in less than
// this fraction of what it did at its best.
const roomFactor = 3

// headSlowFactor: the first node of a chain is slow at less than this
// fraction of the pull's fastest stream. Its followers can only wait for
// it or go to the upstream; a slow link is ten times slower, while the
// first nodes of an image's layers share the registry's link (three
// layers: a third each), which another upstream copy would share too.
const headSlowFactor = 5

// isHead reports whether p comes first in the order among the holders
// known: it is the first node of the layer's chain, and gets it from the
// upstream.
func isHead(ord *nodeOrder, p peer.ID, holders []peer.ID) bool {
	for _, q := range holders {
		if ord.compare(q, p) > 0 {
			return false
		}
	}
	return true
}

// chainMargin: a nearer holder is followed only when it is at least this
// far ahead of this node, so that two nodes never follow each other.
const chainMargin = 1 << 20

// rediscover adds to known the holders that announced the blob since, but
// p and those avoided.
func (pf *PeerFirst) rediscover(ctx context.Context, src *sources, known []peer.ID, p peer.ID) []peer.ID {
	found, _, err := pf.lookup(ctx, src.desc.Digest)
	if err != nil {
		return known
	}
	have := map[peer.ID]bool{p: true}
	for _, o := range known {
		have[o] = true
	}
	for _, info := range found {
		if !have[info.ID] && !pf.f.penalties.Avoid(info.ID, src.desc.Digest) {
			known = append(known, info.ID)
			have[info.ID] = true
		}
	}
	return known
}

// nearerHolder returns the holder nearest before this node in the order,
// and nearer than p, that is at least chainMargin ahead of pos and was not
// left behind for being slow (sources.outpaced): following
// it instead of p re-forms the chain of a rollout after nodes that chose
// at the same moment doubled up on one holder.
func (pf *PeerFirst) nearerHolder(ctx context.Context, src *sources, ord *nodeOrder, candidates []peer.ID, p peer.ID, pos int64) peer.ID {
	var nearer []peer.ID
	for _, q := range candidates {
		if ord.before(q) && (!ord.before(p) || ord.compare(q, p) < 0) && !src.leftBehind(q) {
			nearer = append(nearer, q)
		}
	}
	slices.SortFunc(nearer, ord.compare)
	for _, q := range nearer {
		if h, err := pf.probe(ctx, q, src); err == nil && h.Available >= pos+chainMargin {
			return q
		}
	}
	return ""
}

type countedWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c *countedWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(int64(n))
	return n, err
}
