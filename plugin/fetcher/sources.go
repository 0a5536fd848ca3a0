package fetcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/recovery"
)

// errNoSource means every provider (and, where allowed, the upstream) was
// tried.
var errNoSource = errors.New("no source left")

// upstreamID names the upstream among the sources.
const upstreamID peer.ID = ""

// sources hands out the providers of one descriptor in order, skipping the
// penalized and the failed, with hedging of slow starts.
type sources struct {
	pf    *PeerFirst
	desc  ocispec.Descriptor
	peers []peer.ID
	next  int
	// upstreamUsed: the upstream was opened once; it is the last resort.
	upstreamUsed bool
	// parallelUsed: the providers were asked for ranges in parallel once.
	parallelUsed bool
	// ranked: the providers were asked what they hold (rank); complete
	// are those that hold all of it.
	ranked   bool
	complete map[peer.ID]bool
	// reserve: providers found beyond the first MaxProviders, asked when
	// none of those can be taken.
	reserve []peer.ID
}

func newSources(pf *PeerFirst, desc ocispec.Descriptor, providers []peer.AddrInfo) *sources {
	s := &sources{pf: pf, desc: desc}
	for _, p := range providers {
		if !pf.f.penalties.Avoid(p.ID, desc.Digest) {
			s.peers = append(s.peers, p.ID)
		}
	}
	pf.f.opts.Shuffle(len(s.peers), func(i, j int) { s.peers[i], s.peers[j] = s.peers[j], s.peers[i] })
	// The rest are kept in reserve (see rank). After bad bytes of the
	// layer, every holder found is asked at once: the few worth following
	// (holders of all of it, or receiving it again after bad bytes
	// themselves) may be anywhere in the order.
	if limit := pf.f.opts.MaxProviders; len(s.peers) > limit && !pf.f.isSuspect(desc.Digest) {
		s.peers, s.reserve = s.peers[:limit], s.peers[limit:]
	}
	return s
}

func (s *sources) remaining() int { return len(s.peers) - s.next }

// add makes providers found later sources too.
func (s *sources) add(found []peer.AddrInfo) {
	known := map[peer.ID]bool{}
	for _, p := range s.peers {
		known[p] = true
	}
	for _, info := range found {
		if !known[info.ID] && !s.pf.f.penalties.Avoid(info.ID, s.desc.Digest) {
			s.peers = append(s.peers, info.ID)
			known[info.ID] = true
		}
	}
}

// giveBack returns providers that forParallel handed out and that were
// not used up, to be tried one at a time.
func (s *sources) giveBack(peers []peer.ID) {
	s.peers = append(s.peers, peers...)
}

// forParallel hands out every remaining provider at once, when at least
// two are left and at least minSize bytes from offset remain; once per
// fetch. Those that fail are not asked again for this blob.
//
// Only holders known to hold all of it (see rank) are taken: a holder still
// receiving it has only a prefix to give, and is streamed from.
func (s *sources) forParallel(offset, minSize int64) []peer.ID {
	if s.parallelUsed || minSize <= 0 || s.desc.Size-offset < minSize {
		return nil
	}
	var complete, rest []peer.ID
	for _, p := range s.peers[s.next:] {
		if s.complete[p] {
			complete = append(complete, p)
		} else {
			rest = append(rest, p)
		}
	}
	if len(complete) < 2 {
		return nil
	}
	s.parallelUsed = true
	s.peers = append(s.peers[:s.next], rest...)
	return complete
}

// rank asks every provider left what it holds of the blob and how many it
// is sending it to, and orders them: the least loaded first, the furthest
// along among equals. A holder still receiving
// it with nothing past offset is left out: it has nothing to give yet,
// and it may be waiting for this node. Providers that fail to answer, or
// answer late, go last. For a suspect digest (bad bytes from peers here
// lately) only holders of all of it, and holders receiving it again after
// bad bytes themselves, stay. When none of them can be taken, the
// providers in reserve are asked too. It runs once per fetch, and again
// when sources are added.
func (s *sources) rank(ctx context.Context, offset int64) {
	// With a suspect digest even one holder is asked: what it holds
	// decides whether it is followed.
	if s.ranked || s.remaining() == 0 || (s.remaining() < 2 && !s.pf.f.isSuspect(s.desc.Digest)) {
		return
	}
	s.ranked = true
	peers := append([]peer.ID(nil), s.peers[s.next:]...)
	type answer struct {
		p   peer.ID
		h   peerclient.Holding
		err error
	}
	answers := make(chan answer, len(peers))
	for _, p := range peers {
		go func() {
			h, err := s.pf.probe(ctx, p, s)
			answers <- answer{p, h, err}
		}()
	}
	// A provider slow to answer is not waited for longer than a hedge: it
	// goes last, unranked.
	wait := time.NewTimer(s.pf.f.opts.HedgeDelay)
	defer wait.Stop()
	type ranked struct {
		p peer.ID
		h peerclient.Holding
	}
	var ok []ranked
	answered := map[peer.ID]bool{}
	s.complete = map[peer.ID]bool{}
collect:
	for range peers {
		select {
		case a := <-answers:
			if a.err != nil {
				// Asked last, and judged then if it fails again: a holder
				// between the end of its download and its inventory's
				// record of it answers 404 for a moment.
				continue
			}
			answered[a.p] = true
			ok = append(ok, ranked{a.p, a.h})
			s.complete[a.p] = a.h.Available >= s.desc.Size
		case <-wait.C:
			break collect
		case <-ctx.Done():
			break collect
		}
	}
	order := map[peer.ID]int{}
	for i, p := range peers {
		order[p] = i
	}
	sort.Slice(ok, func(i, j int) bool {
		a, b := ok[i], ok[j]
		if a.h.Load != b.h.Load {
			return a.h.Load < b.h.Load
		}
		if a.h.Available != b.h.Available {
			return a.h.Available > b.h.Available
		}
		return order[a.p] < order[b.p] // as found: already in random order
	})
	if s.pf.f.isSuspect(s.desc.Digest) {
		// Bad bytes of this layer came from peers here lately: a holder
		// still receiving it may be passing them on, unless it receives it
		// again after bad bytes itself.
		ok = slices.DeleteFunc(ok, func(r ranked) bool { return !s.complete[r.p] && !r.h.Rechecked })
		for _, p := range peers {
			answered[p] = true // the silent are not asked either
		}
	}
	ok = slices.DeleteFunc(ok, func(r ranked) bool { return !s.complete[r.p] && r.h.Available <= offset })
	if len(ok) == 0 && len(s.reserve) > 0 {
		// None of those asked can be taken: the reserve may hold the
		// layer whole, as a node that pulled it before does.
		s.peers = append(s.peers, s.reserve...)
		s.reserve = nil
		s.ranked = false
		s.rank(ctx, offset)
		return
	}
	s.peers = s.peers[:s.next]
	held := make([]string, 0, len(ok))
	for _, r := range ok {
		s.peers = append(s.peers, r.p)
		held = append(held, fmt.Sprintf("%s:%d/%d", r.p, r.h.Available, r.h.Load))
	}
	log.G(ctx).WithFields(log.Fields{"digest": s.desc.Digest, "offset": offset, "asked": len(peers), "answered": len(answered),
		"ranked": held}).Debug("p2p: holders ranked (peer:available/load)")
	for _, p := range peers {
		if !answered[p] {
			s.peers = append(s.peers, p) // one late to answer says nothing of what it holds
		}
	}
}

// drop removes p from the sources not yet tried (after it delivered bad bytes).
func (s *sources) drop(p peer.ID) {
	for i := s.next; i < len(s.peers); i++ {
		if s.peers[i] == p {
			s.peers = append(s.peers[:i], s.peers[i+1:]...)
			return
		}
	}
}

type opened struct {
	body io.ReadCloser
	from peer.ID
	err  error
}

// openPeer returns the body of the first provider that answers for the
// content from offset. A provider that is slow to answer gets company: after
// HedgeDelay the next one is asked too, and the first to answer wins.
func (s *sources) openPeer(ctx context.Context, offset int64) (io.ReadCloser, peer.ID, error) {
	results := make(chan opened, len(s.peers))
	inflight := 0
	launch := func() bool {
		if s.next >= len(s.peers) {
			return false
		}
		p := s.peers[s.next]
		s.next++
		inflight++
		go func() {
			var (
				body  io.ReadCloser
				err   error
				start = time.Now()
			)
			ctx, span := startPeerRequest(ctx, p, s.desc, offset, 0)
			defer func() { results <- opened{traced(ctx, span, body, s.desc.Size-offset, err), p, err} }()
			defer recovery.Catch(ctx, "p2p: request to a peer failed", &err)
			body, err = s.pf.f.client.Open(ctx, p, s.pf.repo, s.desc, offset)
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
					go discard(results, inflight)
				}
				return r.body, r.from, nil
			}
			if ctx.Err() == nil {
				s.pf.judge(r.from, s.desc.Digest, r.err)
				failover(ctx, r.from, offset, r.err)
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

// discard closes the bodies of hedged requests that lost the race.
func discard(results <-chan opened, n int) {
	defer recovery.Log(context.Background(), "p2p: closing a hedged request failed")
	for i := 0; i < n; i++ {
		if r := <-results; r.err == nil {
			r.body.Close()
		}
	}
}

// openUpstream opens the upstream at offset, once per fetch.
func (s *sources) openUpstream(ctx context.Context, offset int64) (rc io.ReadCloser, err error) {
	if s.upstreamUsed {
		return nil, errNoSource
	}
	s.upstreamUsed = true
	ctx, span := startUpstream(ctx, s.desc, offset, "every provider failed")
	defer func() { rc = traced(ctx, span, rc, s.desc.Size-offset, err) }()
	rc, err = s.pf.upstream.Fetch(ctx, s.desc)
	if err != nil {
		return nil, err
	}
	rc = withIdleTimeout(rc, s.pf.f.opts.UpstreamIdleTimeout)
	if offset > 0 {
		if err := skipTo(rc, offset); err != nil {
			rc.Close()
			return nil, fmt.Errorf("resume %s upstream at %d: %w", s.desc.Digest, offset, err)
		}
	}
	return rc, nil
}

func skipTo(rc io.ReadCloser, offset int64) error {
	if s, ok := rc.(io.Seeker); ok {
		n, err := s.Seek(offset, io.SeekStart)
		if err == nil && n != offset {
			err = fmt.Errorf("seeked to %d", n)
		}
		return err
	}
	_, err := io.CopyN(io.Discard, rc, offset)
	return err
}

// isStall reports whether err is a source that stopped sending.
func isStall(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
