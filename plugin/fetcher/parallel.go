package fetcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/rangeplan"
	"github.com/shoal-dev/shoal/plugin/recovery"
)

// rangeChunk is how much one range request asks for.
const rangeChunk = 4 << 20

// chunksAheadPerPeer bounds the memory a parallel fetch holds: chunks
// received but not yet written, or being received, per peer.
const chunksAheadPerPeer = 2

// maxRangePeers bounds the peers one parallel fetch takes ranges from.
const maxRangePeers = 4

// lateChunk: a chunk the writer waits on this long is asked of a second
// peer too (a slow or stalled holder then slows nobody for long).
const lateChunk = 2 * time.Second

// discoveryInterval is how often a parallel fetch looks for holders that
// appeared since it started (nodes that started the same layer later).
const discoveryInterval = time.Second

// parallelFetch writes the blob from offset into w from several peers at
// once, each sending ranges of it, and the chunks go into w in order (the
// store's commit verifies the whole). Peers still receiving the blob
// themselves are asked only for what they hold; holders that appear while
// it runs join in. It returns once the blob is written, or when every peer
// has failed (w then holds what arrived in order, and the caller continues
// from there).
func (pf *PeerFirst) parallelFetch(ctx context.Context, src *sources, w io.Writer, offset int64, peers []peer.ID, wrote *sent) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	plan := rangeplan.New(offset, src.desc.Size, rangeChunk, chunksAheadPerPeer*len(peers), len(peers), lateChunk)

	var (
		streamOnly peerSet
		workers    sync.WaitGroup
		mu         sync.Mutex
		using      = map[peer.ID]bool{}
	)
	defer func() { src.giveBack(streamOnly.list()) }()
	start := func(p peer.ID) {
		using[p] = true
		log.G(ctx).WithFields(log.Fields{"peer": p, "digest": src.desc.Digest, "offset": offset, "ranges": true}).Debug("p2p: receiving blob")
		workers.Add(1)
		go func() {
			defer workers.Done()
			pf.rangeWorker(ctx, p, src, plan, &streamOnly)
		}()
	}
	for _, p := range peers {
		start(p)
	}
	// Holders that start the same layer later join: the more holders, the
	// less each one's uplink carries.
	workers.Add(1)
	go func() {
		defer workers.Done()
		defer recovery.Log(ctx, "p2p: looking for more holders failed")
		tick := time.NewTicker(discoveryInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			mu.Lock()
			full := len(using) >= maxRangePeers
			mu.Unlock()
			if full {
				return
			}
			found, _, _ := pf.lookup(ctx, src.desc.Digest)
			mu.Lock()
			for _, info := range found {
				if len(using) < maxRangePeers && !using[info.ID] && !pf.f.penalties.Avoid(info.ID, src.desc.Digest) {
					plan.AddWorker(chunksAheadPerPeer)
					start(info.ID)
				}
			}
			mu.Unlock()
		}
	}()
	defer func() {
		cancel()
		plan.Close()
		workers.Wait()
	}()

	at := offset
	for i := 0; i < plan.Chunks(); i++ {
		buf, from, err := plan.Next(ctx, i)
		if err != nil {
			return err
		}
		if _, err := w.Write(buf); err != nil {
			return fmt.Errorf("write %s: %w", src.desc.Digest, err)
		}
		wrote.add(from, at, int64(len(buf)))
		at += int64(len(buf))
		plan.Written(i, buf)
	}
	return nil
}

// rangeWorker fetches the chunks the plan hands it from p until none is
// left for p or p fails. What p holds is asked first: a holder still
// receiving the blob is asked only for chunks it has.
func (pf *PeerFirst) rangeWorker(ctx context.Context, p peer.ID, src *sources, plan *rangeplan.Plan, streamOnly *peerSet) {
	available, err := pf.available(ctx, p, src)
	if err != nil {
		plan.Quit()
		pf.rangeFailed(ctx, p, src, src.desc.Size, err, streamOnly)
		return
	}
	var waiting time.Time // since when p had nothing left to give
	for {
		i, buf, st := plan.Take(available)
		switch st {
		case rangeplan.Done:
			return
		case rangeplan.Wait:
			if waiting.IsZero() {
				waiting = time.Now()
			} else if time.Since(waiting) > pf.f.opts.HolderStall {
				plan.Quit() // a holder that stopped receiving
				return
			}
			t := time.NewTimer(50 * time.Millisecond)
			select {
			case <-ctx.Done():
				t.Stop()
				plan.Quit()
				return
			case <-t.C:
			}
			if available, err = pf.available(ctx, p, src); err != nil {
				plan.Quit()
				pf.rangeFailed(ctx, p, src, src.desc.Size, err, streamOnly)
				return
			}
			continue
		}
		waiting = time.Time{}
		start, _ := plan.Bounds(i)
		held, err := pf.readRange(ctx, p, src, start, buf)
		if err != nil {
			plan.GiveBack(i)
			pf.rangeFailed(ctx, p, src, start, err, streamOnly)
			return
		}
		available = max(available, held)
		plan.Deliver(i, p, buf)
	}
}

// available asks p how much of the blob it holds.
func (pf *PeerFirst) available(ctx context.Context, p peer.ID, src *sources) (int64, error) {
	h, err := pf.probe(ctx, p, src)
	return h.Available, err
}

// probe asks p what it holds of the blob, and how many it is sending it to.
func (pf *PeerFirst) probe(ctx context.Context, p peer.ID, src *sources) (h peerclient.Holding, err error) {
	defer recovery.Catch(ctx, "p2p: asking a peer what it holds failed", &err)
	return pf.f.client.Probe(ctx, p, pf.repo, src.desc)
}

// rangeFailed records that p failed a range at offset.
func (pf *PeerFirst) rangeFailed(ctx context.Context, p peer.ID, src *sources, offset int64, err error, streamOnly *peerSet) {
	if errors.Is(err, peerclient.ErrArriving) {
		// A node of an older release, downloading this blob itself: it
		// serves it only as a stream.
		streamOnly.add(p)
		return
	}
	if ctx.Err() != nil {
		return
	}
	pf.f.stats.Failovers.Add(1)
	pf.judge(p, src.desc.Digest, err)
	failover(ctx, p, offset, err)
	entry := log.G(ctx).WithError(err).WithFields(log.Fields{"peer": p, "digest": src.desc.Digest, "offset": offset})
	if isStall(err) {
		pf.f.stats.Stalls.Add(1)
		entry.Warn("p2p: peer stopped sending a range, continuing elsewhere with the others")
	} else {
		entry.Warn("p2p: peer failed a range, continuing elsewhere with the others")
	}
}

// peerSet is the providers found to be still receiving the blob, handed
// back to be streamed from.
type peerSet struct {
	mu    sync.Mutex
	peers []peer.ID
}

func (s *peerSet) add(p peer.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.peers = append(s.peers, p)
}

func (s *peerSet) list() []peer.ID {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peers
}

// readRange reads one chunk and learns how much p holds; a panic in it is
// that chunk's failure.
func (pf *PeerFirst) readRange(ctx context.Context, p peer.ID, src *sources, start int64, buf []byte) (held int64, err error) {
	ctx, span := startPeerRequest(ctx, p, src.desc, start, int64(len(buf)))
	defer func() { endRequest(ctx, span, err) }()
	defer recovery.Catch(ctx, "p2p: range request failed", &err)
	return pf.f.client.ReadRange(ctx, p, pf.repo, src.desc, start, buf)
}
