package fetcher

import (
	"context"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// awaitLeader is the coordination of nodes that miss the same layer at
// once (see Options.Rank). It returns the providers that appeared while
// this node waited its turn, or none: then the upstream is this node's.
func (pf *PeerFirst) awaitLeader(ctx context.Context, desc ocispec.Descriptor) (found []peer.AddrInfo) {
	opts := pf.f.opts
	if opts.Rank == nil || opts.CoordinationWindow <= 0 || desc.Size < opts.CoordinationMinSize {
		return nil
	}
	rank, of := opts.Rank(desc.Digest)
	if rank == 0 || of < 2 {
		return nil
	}
	wait := followWait(opts.CoordinationWindow, rank, of)
	deadline := time.Now().Add(wait)
	pf.f.stats.CoordinationWaits.Add(1)
	ctx, span := startCoordinate(ctx, rank, of, wait)
	defer func() { endCoordinate(span, wait-time.Until(deadline), found) }()
	const poll = 25 * time.Millisecond
	for {
		left := time.Until(deadline)
		if left <= 0 {
			log.G(ctx).WithFields(log.Fields{"digest": desc.Digest, "rank": rank, "of": of, "waited": wait}).
				Debug("p2p: no other node started this layer, fetching upstream")
			return nil
		}
		t := time.NewTimer(min(poll, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		lctx, cancel := context.WithTimeout(ctx, min(opts.LookupTimeout, max(time.Until(deadline), poll)))
		found, err := pf.f.finder.FindProviders(lctx, desc.Digest, opts.MaxProviders)
		cancel()
		if err == nil && len(found) > 0 {
			pf.f.stats.CoordinatedHits.Add(1)
			log.G(ctx).WithFields(log.Fields{"digest": desc.Digest, "rank": rank, "of": of, "waited": wait - time.Until(deadline)}).
				Debug("p2p: another node started this layer, following it")
			return found
		}
	}
}

// followFloor is the least a node ranked after the first waits for its
// announcement: announcing takes a DHT lookup and a round of requests,
// longer on links that are busy with the layer itself. Without a floor, at
// 16 nodes the second in line would wait 31 ms and go upstream too.
const followFloor = 200 * time.Millisecond

// followWait is how long the node ranked rank of of waits for another's
// announcement: past the floor, spread over the rest of the window.
func followWait(window time.Duration, rank, of int) time.Duration {
	floor := min(window, followFloor)
	return floor + (window-floor)*time.Duration(rank)/time.Duration(of)
}
