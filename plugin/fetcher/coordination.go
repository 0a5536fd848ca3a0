package fetcher

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/pulling"
)

// awaitLeader is the coordination of nodes that miss the same layer at
// once (see Options.Rank). The node ranked r of n waits its turn,
// followWait(window, r, n) from the start of its fetch, and then looks:
// it returns the providers found, or none, and then the upstream is this
// node's. Waiting for the turn even when a leader appears sooner orders the
// nodes' choices: each finds the ones before it already receiving (see
// sources.rank), and follows the nearest.
func (pf *PeerFirst) awaitLeader(ctx context.Context, desc ocispec.Descriptor, start time.Time) (found []peer.AddrInfo) {
	opts := pf.f.opts
	if opts.Rank == nil || opts.CoordinationWindow <= 0 || desc.Size < opts.CoordinationMinSize {
		return nil
	}
	rank, of := opts.Rank(desc.Digest)
	if rank == 0 || of < 2 {
		return nil
	}
	// A miss that no node ranked before this one shares goes upstream at
	// once: a rollout's nodes pull from the layer's repository (its
	// manifest came first), so the nodes ranked first say so, or hold
	// the layer, well before their turn.
	if _, _, rollout := pf.askFirstRanked(ctx, desc, pf.order(desc)); !rollout {
		pf.f.stats.LoneMisses.Add(1)
		log.G(ctx).WithFields(log.Fields{"digest": desc.Digest, "rank": rank, "of": of, "asked": time.Since(start)}).
			Debug("p2p: no node ranked before this one pulls from the repository, fetching upstream at once")
		return nil
	}
	wait := followWait(opts.CoordinationWindow, rank, of)
	pf.f.stats.CoordinationWaits.Add(1)
	ctx, span := startCoordinate(ctx, rank, of, wait)
	defer func() { endCoordinate(span, time.Since(start), found) }()
	if !sleepUntil(ctx, start.Add(wait)) {
		return nil
	}
	found, _, err := pf.lookupUpTo(ctx, desc.Digest, turnLookupLimit)
	if ord := pf.order(desc); ord != nil {
		// Nodes ordered after this one are waiting for their own turn.
		found = slices.DeleteFunc(found, func(info peer.AddrInfo) bool { return !ord.before(info.ID) })
	}
	if err != nil || len(found) == 0 {
		found, _, _ = pf.askFirstRanked(ctx, desc, pf.order(desc))
	}
	if len(found) == 0 {
		log.G(ctx).WithFields(log.Fields{"digest": desc.Digest, "rank": rank, "of": of, "waited": time.Since(start)}).
			Debug("p2p: no other node started this layer, fetching upstream")
		return nil
	}
	pf.f.stats.CoordinatedHits.Add(1)
	log.G(ctx).WithFields(log.Fields{"digest": desc.Digest, "rank": rank, "of": of, "waited": time.Since(start)}).
		Debug("p2p: another node started this layer, following it")
	return found
}

// awaitTurn is awaitLeader for a node whose first lookup found holders of
// the layer: when every one of them is still receiving it (a rollout has
// begun), a node ranked after the first waits its turn, then looks again,
// so that it can follow the nearest node before it. It runs once per
// fetch, before the first source is chosen.
func (pf *PeerFirst) awaitTurn(ctx context.Context, src *sources) {
	opts := pf.f.opts
	if src.turnTaken || opts.Rank == nil || pf.order(src.desc) == nil || opts.CoordinationWindow <= 0 {
		return
	}
	src.turnTaken = true
	rank, of := opts.Rank(src.desc.Digest)
	if rank == 0 || of < 2 {
		return
	}
	src.rank(ctx, 0)
	if src.anyComplete() {
		return // no rollout: the best holder now
	}
	wait := followWait(opts.CoordinationWindow, rank, of)
	ctx, span := startCoordinate(ctx, rank, of, wait)
	if sleepUntil(ctx, src.started.Add(wait)) {
		if found, _, err := pf.lookupUpTo(ctx, src.desc.Digest, turnLookupLimit); err == nil {
			src.add(found)
			src.ranked = false // ranked again with what is known now
		}
	}
	endCoordinate(span, time.Since(src.started), nil)
}

// firstRankedAsked is how many of the nodes ranked first for a layer a
// node asks directly at its turn: the first one fetches it upstream at
// once, the next two go at the earliest turns.
const firstRankedAsked = 3

// askFirstRanked asks the nodes ranked first for desc in ord, before this one,
// whether they receive or hold it, and returns those that do (found) and
// those that do not but pull from its repository now (pulls: they may
// start it soon). rollout reports whether any of them holds it, receives
// it or pulls from its repository, or whether this node cannot tell (then
// it coordinates, as if they did).
func (pf *PeerFirst) askFirstRanked(ctx context.Context, desc ocispec.Descriptor, ord *nodeOrder) (found, pulls []peer.AddrInfo, rollout bool) {
	if pf.f.opts.Peers == nil || ord == nil || pulling.Key(pf.repo.Registry, pf.repo.Name) == "" {
		return nil, nil, true
	}
	var before []peer.AddrInfo
	for _, info := range pf.f.opts.Peers() {
		if ord.before(info.ID) {
			before = append(before, info)
		}
	}
	slices.SortFunc(before, func(a, b peer.AddrInfo) int { return ord.compare(b.ID, a.ID) })
	before = before[:min(len(before), firstRankedAsked)]
	ctx, cancel := context.WithTimeout(ctx, pf.f.opts.LookupTimeout)
	defer cancel()
	held := make([]bool, len(before))
	pulling := make([]bool, len(before))
	answered := make([]bool, len(before))
	var wg sync.WaitGroup
	for i, info := range before {
		wg.Go(func() {
			h, err := pf.f.client.Probe(ctx, info.ID, pf.repo, desc)
			held[i] = err == nil // it holds the layer or receives it: follow it, as a found provider
			pulling[i] = h.Pulling
			answered[i] = err == nil || errors.Is(err, peerclient.ErrStale)
		})
	}
	wg.Wait()
	for i, info := range before {
		switch {
		case held[i]:
			found = append(found, info)
		case pulling[i]:
			pulls = append(pulls, info)
		}
		// A node that does not answer may be busy with the rollout.
		rollout = rollout || held[i] || pulling[i] || !answered[i]
	}
	return found, pulls, rollout
}

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

// nodeOrder is where nodes stand in a layer's order (the order
// Rank counts in), as this node sees it.
type nodeOrder struct {
	score  func(peer.ID) string
	self   string
	scores map[peer.ID]string
}

// order is the order of nodes for desc, or nil when nodes do not
// coordinate over it.
func (pf *PeerFirst) order(desc ocispec.Descriptor) *nodeOrder {
	return pf.orderBy(desc, pf.f.opts.Score)
}

// orderBy is the order of nodes for desc by scoreOf, or nil.
func (pf *PeerFirst) orderBy(desc ocispec.Descriptor, scoreOf func(digest.Digest, peer.ID) string) *nodeOrder {
	opts := pf.f.opts
	if scoreOf == nil || opts.Self == "" || desc.Size < opts.CoordinationMinSize {
		return nil
	}
	score := func(p peer.ID) string { return scoreOf(desc.Digest, p) }
	return &nodeOrder{score: score, self: score(opts.Self), scores: map[peer.ID]string{}}
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
