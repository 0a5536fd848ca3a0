package fetcher

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/pulling"
)

// askFirstRanked asks the swarm.Config.Probe nodes ranked first for desc
// in ord, before this one (any, for a node that spares its uplink),
// whether they receive or hold it, and returns those that do (found) and
// those that do not but pull from its repository now (pulls: they may
// start it soon).
func (pf *PeerFirst) askFirstRanked(ctx context.Context, desc ocispec.Descriptor, ord *nodeOrder) (found, pulls []peer.ID) {
	if pf.f.opts.Peers == nil || ord == nil || pulling.Key(pf.repo.Registry, pf.repo.Name) == "" {
		return nil, nil
	}
	var before []peer.AddrInfo
	for _, info := range pf.f.opts.Peers() {
		if ord.before(info.ID) || pf.f.opts.SpareUplink {
			before = append(before, info)
		}
	}
	slices.SortFunc(before, func(a, b peer.AddrInfo) int { return ord.compare(b.ID, a.ID) })
	before = before[:min(len(before), pf.f.opts.Swarm.Probe)]
	ctx, cancel := context.WithTimeout(ctx, pf.f.opts.LookupTimeout)
	defer cancel()
	held := make([]bool, len(before))
	pulling := make([]bool, len(before))
	var wg sync.WaitGroup
	for i, info := range before {
		wg.Go(func() {
			h, err := pf.f.client.Probe(ctx, info.ID, pf.repo, desc)
			held[i] = err == nil // it holds the layer or receives it
			pulling[i] = h.Pulling
		})
	}
	wg.Wait()
	for i, info := range before {
		switch {
		case held[i]:
			found = append(found, info.ID)
		case pulling[i]:
			pulls = append(pulls, info.ID)
		}
	}
	return found, pulls
}

// nodeOrder is where nodes stand in a layer's order, as this node sees
// it: by their nearness to the layer's key (Options.Distance).
type nodeOrder struct {
	score  func(peer.ID) string
	self   string
	scores map[peer.ID]string
}

// orderBy is the order of nodes for desc by scoreOf, or nil without one.
func (pf *PeerFirst) orderBy(desc ocispec.Descriptor, scoreOf func(digest.Digest, peer.ID) string) *nodeOrder {
	if scoreOf == nil || pf.f.opts.Self == "" {
		return nil
	}
	score := func(p peer.ID) string { return scoreOf(desc.Digest, p) }
	return &nodeOrder{score: score, self: score(pf.f.opts.Self), scores: map[peer.ID]string{}}
}

func (o *nodeOrder) of(p peer.ID) string {
	s, ok := o.scores[p]
	if !ok {
		s = o.score(p)
		o.scores[p] = s
	}
	return s
}

// before reports whether p comes before this node.
func (o *nodeOrder) before(p peer.ID) bool { return o.of(p) > o.self }

// compare orders nodes before this one nearest first.
func (o *nodeOrder) compare(a, b peer.ID) int { return strings.Compare(o.of(a), o.of(b)) }

// sleepUntil waits until t; false if ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}
