package fetcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// errNoSource means every provider was tried.
var errNoSource = errors.New("no source left")

// sources hands out the providers of an object read whole, in random order
// (spreading the load over holders), skipping the penalized and the failed,
// with hedging of slow starts.
type sources struct {
	pf    *PeerFirst
	desc  ocispec.Descriptor
	peers []peer.ID
	next  int
}

func newSources(pf *PeerFirst, desc ocispec.Descriptor, providers []peer.AddrInfo) *sources {
	s := &sources{pf: pf, desc: desc}
	for _, p := range providers {
		if !pf.f.penalties.Avoid(p.ID, desc.Digest) {
			s.peers = append(s.peers, p.ID)
		}
	}
	pf.f.opts.Shuffle(len(s.peers), func(i, j int) { s.peers[i], s.peers[j] = s.peers[j], s.peers[i] })
	s.peers = s.peers[:min(len(s.peers), pf.f.opts.MaxProviders)]
	return s
}

func (s *sources) remaining() int { return len(s.peers) - s.next }

type opened struct {
	body   io.ReadCloser
	from   peer.ID
	err    error
	cancel context.CancelFunc // ends its request
}

// openPeer returns the body of the first provider that answers for the
// content. A provider that is slow to answer gets company: after HedgeDelay
// the next one is asked too, and the first to answer wins; the others'
// requests are ended at once, not left to hold a slot of their holders
// until they time out.
func (s *sources) openPeer(ctx context.Context) (io.ReadCloser, peer.ID, error) {
	results := make(chan opened, len(s.peers))
	inflight := 0
	cancels := map[peer.ID]context.CancelFunc{} // the providers are distinct
	launch := func() bool {
		if s.next >= len(s.peers) {
			return false
		}
		p := s.peers[s.next]
		s.next++
		inflight++
		ctx, cancel := context.WithCancel(ctx)
		cancels[p] = cancel
		go func() {
			var (
				body  io.ReadCloser
				err   error
				start = time.Now()
			)
			ctx, span := startPeerRequest(ctx, p, s.desc, 0, 0)
			defer func() { results <- opened{traced(ctx, span, body, s.desc.Size, err), p, err, cancel} }()
			defer recovery.Catch(ctx, "p2p: request to a peer failed", &err)
			body, err = s.pf.f.client.Open(ctx, p, s.pf.repo, s.desc, 0)
			if err != nil {
				err = fmt.Errorf("after %s: %w", time.Since(start).Round(time.Millisecond), err)
			}
		}()
		return true
	}
	if !launch() {
		return nil, "", errNoSource
	}
	hedge := time.NewTimer(s.pf.f.opts.HedgeDelay)
	defer hedge.Stop()
	for inflight > 0 {
		select {
		case r := <-results:
			inflight--
			if r.err == nil {
				if inflight > 0 {
					for p, cancel := range cancels {
						if p != r.from {
							cancel()
						}
					}
					go discard(results, inflight)
				}
				return cancelOnClose{r.body, r.cancel}, r.from, nil
			}
			r.cancel()
			if ctx.Err() == nil {
				s.pf.judge(r.from, s.desc.Digest, r.err)
				failover(ctx, r.from, 0, r.err)
			}
			log.G(ctx).WithError(r.err).WithFields(log.Fields{"peer": r.from, "digest": s.desc.Digest}).Debug("p2p: peer did not serve")
			if inflight == 0 {
				launch()
			}
		case <-hedge.C:
			if launch() {
				s.pf.f.stats.Hedges.Add(1)
				log.G(ctx).WithField("digest", s.desc.Digest).Debug("p2p: first provider slow, asking another")
			}
		}
	}
	return nil, "", errNoSource
}

// cancelOnClose ends its request's context when it is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error {
	defer c.cancel()
	return c.ReadCloser.Close()
}

// discard closes the bodies of hedged requests that lost the race.
func discard(results <-chan opened, n int) {
	defer recovery.Log(context.Background(), "p2p: closing a hedged request failed")
	for i := 0; i < n; i++ {
		if r := <-results; r.err == nil {
			r.body.Close()
		}
	}
}

// isStall reports whether err is a source that stopped sending.
func isStall(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
