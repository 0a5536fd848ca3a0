package fetcher

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/containerd/containerd/v2/core/content"
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

// parallelFetch writes the blob from offset into w from several peers at
// once, each sending ranges of it, and the chunks go into w in order (the
// store's commit verifies the whole). It returns once the blob is written,
// or when every peer has failed (w then holds what arrived in order, and
// the caller continues from there).
func (pf *PeerFirst) parallelFetch(ctx context.Context, src *sources, w content.Writer, offset int64, peers []peer.ID, wrote map[peer.ID]int64) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	plan := rangeplan.New(offset, src.desc.Size, rangeChunk, chunksAheadPerPeer*len(peers), len(peers))

	var streamOnly peerSet
	defer func() { src.giveBack(streamOnly.list()) }()
	var workers sync.WaitGroup
	for _, p := range peers {
		log.G(ctx).WithFields(log.Fields{"peer": p, "digest": src.desc.Digest, "offset": offset, "ranges": true}).Debug("p2p: receiving blob")
		workers.Add(1)
		go func() {
			defer workers.Done()
			for {
				i, buf, ok := plan.Take()
				if !ok {
					return
				}
				start, _ := plan.Bounds(i)
				err := pf.readRange(ctx, p, src, start, buf)
				if err != nil {
					plan.GiveBack(i)
					if errors.Is(err, peerclient.ErrArriving) {
						// It is downloading this blob itself: stream from it.
						streamOnly.add(p)
						return
					}
					if ctx.Err() == nil {
						pf.f.stats.Failovers.Add(1)
						pf.judge(p, src.desc.Digest, err)
						failover(ctx, p, start, err)
						entry := log.G(ctx).WithError(err).WithFields(log.Fields{"peer": p, "digest": src.desc.Digest, "offset": start})
						if isStall(err) {
							pf.f.stats.Stalls.Add(1)
							entry.Warn("p2p: peer stopped sending a range, continuing elsewhere with the others")
						} else {
							entry.Warn("p2p: peer failed a range, continuing elsewhere with the others")
						}
					}
					return
				}
				plan.Deliver(i, p, buf)
			}
		}()
	}
	defer func() {
		cancel()
		plan.Close()
		workers.Wait()
	}()

	for i := 0; i < plan.Chunks(); i++ {
		buf, from, err := plan.Next(i)
		if err != nil {
			return err
		}
		if _, err := w.Write(buf); err != nil {
			return fmt.Errorf("write %s: %w", src.desc.Digest, err)
		}
		wrote[from] += int64(len(buf))
		plan.Written(i, buf)
	}
	return nil
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

// readRange reads one chunk; a panic in it is that chunk's failure.
func (pf *PeerFirst) readRange(ctx context.Context, p peer.ID, src *sources, start int64, buf []byte) (err error) {
	ctx, span := startPeerRequest(ctx, p, src.desc, start, int64(len(buf)))
	defer func() { endRequest(ctx, span, err) }()
	defer recovery.Catch(ctx, "p2p: range request failed", &err)
	return pf.f.client.ReadRange(ctx, p, pf.repo, src.desc, start, buf)
}
