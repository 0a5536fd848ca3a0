package fetcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/shoal-dev/shoal/plugin/peerclient"
)

// copyBufferSize matches the content store's own copy buffer.
const copyBufferSize = 1 << 20

// ingest writes a layer into the content store from peers, continuing at
// the current offset with the next source whenever one fails or stalls, and
// lets the store's commit be the one hash of every byte. A commit that finds
// the wrong digest discards the ingest, penalizes the peers that wrote it, and
// starts over with the remaining sources. The upstream is the last source.
// It returns nil once the blob is committed.
func (pf *PeerFirst) ingest(ctx context.Context, src *sources) error {
	desc := src.desc
	ref := "p2p-" + remotes.MakeRefKey(ctx, desc)
	start := time.Now()
	// Each round either commits, or drops at least one source for good, so
	// the loop ends: the peers are finite and the upstream is used once.
	for {
		wrote, err := pf.ingestOnce(ctx, src, ref)
		if err == nil {
			pf.logSources(ctx, wrote.bytes, time.Since(start))
			pf.mu.Lock()
			pf.committed = append(pf.committed, desc)
			pf.mu.Unlock()
			return nil
		}
		if !errdefs.IsFailedPrecondition(err) || len(wrote.bytes) == 0 {
			return err
		}
		// The bytes do not match the descriptor: nobody who wrote them is
		// asked for this digest again.
		if _, ok := wrote.bytes[upstreamID]; ok {
			pf.f.stats.Corrupt.Add(1)
			return fmt.Errorf("commit %s: %w", desc.Digest, err)
		}
		for p, n := range wrote.bytes {
			if n > 0 {
				pf.judge(p, desc.Digest, peerclient.ErrCorrupt)
				failover(ctx, p, 0, peerclient.ErrCorrupt)
				src.drop(p)
			}
		}
		log.G(ctx).WithError(err).WithField("digest", desc.Digest).WithField("peers", keys(wrote.bytes)).
			Error("p2p: content from peers failed verification, discarded; fetching again")
	}
}

// ingestOnce writes the blob into a fresh ingest and commits it. Whatever
// the outcome short of a commit, the ingest is discarded.
func (pf *PeerFirst) ingestOnce(ctx context.Context, src *sources, ref string) (wrote *sent, err error) {
	desc := src.desc
	store := pf.f.opts.Store
	wrote = newSent()
	w, err := content.OpenWriter(ctx, store, content.WithRef(ref), content.WithDescriptor(desc))
	if err != nil {
		if errdefs.IsAlreadyExists(err) {
			return wrote, nil
		}
		return wrote, fmt.Errorf("open ingest %s: %w", ref, err)
	}
	if pf.shareInFlight(desc) {
		// Peers that start later stream from here too.
		defer pf.f.opts.InFlight.Begin(ctx, ref, desc, pf.sourceLabels())()
	}
	if pf.arrival != nil {
		defer pf.arrival(ctx, ref, desc)()
	}
	committed := false
	defer func() {
		w.Close()
		if !committed {
			// Nothing partial or unverified stays behind.
			if err := store.Abort(context.WithoutCancel(ctx), ref); err != nil && !errdefs.IsNotFound(err) {
				log.G(ctx).WithError(err).WithField("ref", ref).Warn("p2p: could not discard ingest")
			}
		}
	}()

	st, err := w.Status()
	if err != nil {
		return wrote, err
	}
	if err := pf.fill(ctx, src, w, st.Offset, wrote); err != nil {
		return wrote, err
	}
	// Labelled with its source at once, as containerd labels what it pulls.
	if err := w.Commit(ctx, desc.Size, desc.Digest, content.WithLabels(pf.sourceLabels())); err != nil && !errdefs.IsAlreadyExists(err) {
		return wrote, err
	}
	committed = true
	return wrote, nil
}

// fill writes the blob into w from offset to its end, continuing at the
// current offset with the next source whenever one fails or stalls, and
// records in wrote who sent which bytes. The upstream is the last source. It
// verifies nothing: its caller's commit does.
func (pf *PeerFirst) fill(ctx context.Context, src *sources, w io.Writer, offset int64, wrote *sent) error {
	desc := src.desc
	pos := &offsetWriter{w: &countedWriter{w: w, n: &pf.arrived}, offset: offset}
	logger := log.G(ctx).WithField("digest", desc.Digest)
	for pos.offset < desc.Size {
		offset := pos.offset
		src.rank(ctx, offset)
		if peers := src.forParallel(offset, pf.f.opts.ParallelMinSize); peers != nil {
			err := pf.parallelFetch(ctx, src, pos, offset, peers, wrote)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if pos.err != nil {
				return pos.err
			}
			if err != nil {
				logger.WithError(err).Warn("p2p: parallel ranges failed, continuing from one source")
			}
			continue
		}
		body, from, err := src.openPeer(ctx, offset)
		if errors.Is(err, errNoSource) {
			body, err = src.openUpstream(ctx, offset)
			from = upstreamID
		}
		if err != nil {
			if errors.Is(err, errNoSource) {
				return fmt.Errorf("every provider of %s failed", desc.Digest)
			}
			return err
		}
		logger.WithFields(log.Fields{"peer": from, "offset": offset}).Debug("p2p: receiving blob")
		n, err := pf.copyFrom(ctx, pos, body, src, from, offset)
		body.Close()
		wrote.add(from, offset, n)
		if pos.err != nil {
			return pos.err // the writer's failure, not the source's
		}
		if offset+n >= desc.Size {
			continue // every byte is in: the commit judges them
		}
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if from == upstreamID {
			return fmt.Errorf("upstream failed while finishing %s at offset %d: %w", desc.Digest, offset+n, err)
		}
		pf.f.stats.Failovers.Add(1)
		pf.judge(from, desc.Digest, err) // mid-body: fails over, costs the peer nothing
		failover(ctx, from, offset+n, err)
		entry := logger.WithError(err).WithFields(log.Fields{"peer": from, "offset": offset + n, "remaining_providers": src.remaining()})
		if isStall(err) {
			pf.f.stats.Stalls.Add(1)
			entry.Warn("p2p: peer stopped sending mid-blob, continuing elsewhere")
		} else {
			entry.Warn("p2p: peer failed mid-blob, continuing elsewhere")
		}
	}
	return nil
}

// offsetWriter is where a fill stands in the blob; err is its writer's
// first failure, which ends the fill (no source is to blame).
type offsetWriter struct {
	w      io.Writer
	offset int64
	err    error
}

func (o *offsetWriter) Write(b []byte) (int, error) {
	n, err := o.w.Write(b)
	o.offset += int64(n)

	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

func (pf *PeerFirst) logSources(ctx context.Context, wrote map[peer.ID]int64, took time.Duration) {
	fromSource(ctx, sourceOf(wrote))
	for p, n := range wrote {
		if n == 0 {
			continue
		}
		if p == upstreamID {
			pf.f.stats.UpstreamBytes.Add(n)
			pf.tally.upstream.Add(n)
			log.G(ctx).WithField("upstream_bytes", n).Info("p2p: blob from the upstream, no peer could send it")
			continue
		}
		pf.f.stats.PeerBytes.Add(n)
		pf.tally.fromPeer(p, n)
		log.G(ctx).WithFields(log.Fields{"peer": p, "peer_bytes": n, "took": took.Round(time.Millisecond)}).Info("p2p: fetched from peer")
	}
}

func keys(m map[peer.ID]int64) []string {
	var out []string
	for p := range m {
		out = append(out, p.String())
	}
	return out
}

// Finish removes the ingests containerd opened for the layers this fetcher
// committed itself: containerd opens its ingest before it asks for the
// bytes, and left it empty. Call it when the pull is over and containerd
// has closed them.
func (pf *PeerFirst) Finish(ctx context.Context) {
	pf.mu.Lock()
	committed := pf.committed
	pf.committed = nil
	pf.mu.Unlock()
	for _, desc := range committed {
		ref := remotes.MakeRefKey(ctx, desc)
		if err := pf.f.opts.Store.Abort(ctx, ref); err != nil && !errdefs.IsNotFound(err) {
			log.G(ctx).WithError(err).WithField("ref", ref).Debug("p2p: could not remove an unused ingest")
		}
	}
}
