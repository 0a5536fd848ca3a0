package fetcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
)

// copyBufferSize matches the content store's own copy buffer.
const copyBufferSize = 1 << 20

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
