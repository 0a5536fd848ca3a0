package swarm

import (
	"container/heap"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/pieces"
)

// A rollout simulator: N nodes, each running a Session per layer exactly
// as a node does, start one image at the same moment, in virtual time on
// one goroutine (discrete events), so that 10,000 nodes fit on two cores.
//
// What is modelled, and the shortcuts taken:
//   - Links: every node and the registry send and receive at a rate per
//     direction; a transfer's rate is the smaller of its sender's uplink
//     and its receiver's downlink, each shared by the transfers on it as
//     TCP flows share a bottleneck (water-filling). A holder sends at
//     most Config.Uploads pieces at once and answers Full beyond, as the
//     content service does.
//   - The upstream: a seed's pieces come over one body, one after
//     another, as the fetcher's upstream reader reads them; a piece out of
//     order opens a new body, a hop away.
//   - Latency: a request, an answer or a state reaches the other end one
//     hop delay after it is sent. CPU, disk and hashing are free (the lab
//     measures them).
//   - States, as the fetcher asks them: a node keeps one state request
//     in flight to each holder it follows (and none to one it stopped
//     following), held by the holder until it
//     has a piece more (or StateHold), asked StateSpacing after the one
//     before; every answer to a piece request carries the holder's state
//     as the answer began, but for its load.
//   - Discovery: a node's announcement becomes findable after a delay
//     drawn per node; a lookup takes lookupDelay and returns at most
//     LookupHolders of the findable holders, at random. Routing tables are
//     Kademlia's shape over random IDs (up to 20 peers per bucket of
//     common-prefix length), and a node probes the Config.Probe nodes of
//     its table ranked highest for the layer (nearest the layer's key, as
//     router.DistanceScore orders them). IDs are 64 bits, not 256.
//   - Holders pass on the names they know when a node first asks their
//     state (both ways), and not after (the fetcher's states carry names
//     every time), gossipNames at a time, as Session.Names
//     picks them (readers of the upstream first, the rest at random).
//   - States and refusals take a hop each way but no room on the links;
//     the simulator counts them per holder (the busiest one's answers a
//     second are in the report), as the lab counts their bytes.
//   - Pieces are verified by a flag (a corrupting member's pieces carry
//     it), not by hashing, and need no table: a node of the product may
//     wait for the table that covers a piece passed on to it while the
//     seed read it (the seed signs it once written), up to a state's
//     round trip.
//   - A piece passed on while it arrives (relay) moves no faster than
//     the transfer that feeds it, and is offered once that transfer has
//     started (the product: once its first byte came); its last byte is
//     not held back for the check.

const (
	gossipNames = 8
	bucketSize  = 20
)

type simParams struct {
	nodes       int
	layers      []int64 // sizes
	link        float64 // bytes per second, each direction
	registry    float64 // the registry's uplink
	hop         time.Duration
	announceMin time.Duration
	announceMax time.Duration
	lookupDelay time.Duration
	cfg         Config
	seed        uint64

	slow    int     // nodes at a tenth of the link
	kill    float64 // share of nodes killed at killAt
	killAt  time.Duration
	corrupt int // members that corrupt every piece they send
	// corruptSeed: the first node to become a seed corrupts every piece
	// it sends (its table is true).
	corruptSeed bool
	timeLimit   time.Duration
	debug       func(*sim)
	onStart     func(*sim)
	// relay: a holder passes a piece on while it arrives; the receiver
	// verifies it, and a relay that finds it bad ends what it passes on.
	relay bool
}

type simResult struct {
	fetchEnd      []time.Duration // per surviving, non-slow node
	slowEnd       []time.Duration
	failed        int
	upstreamBytes int64
	maxUploaded   int64
	peakHeldBytes int64
	// vainBytes are the bytes of pieces that arrived twice, and of
	// requests cancelled on their way (another source brought the piece
	// first, or the holder was left), as the fetcher counts them.
	vainBytes int64
	// mostAnswers is the most states and refusals one node answered a
	// second, over the rollout (until the last fetch ended).
	mostAnswers float64
	imageSize   int64
	events      int
}

type event struct {
	at  time.Duration
	seq int
	fn  func()
}

type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

type link struct {
	rate      float64
	transfers map[*transfer]struct{}
}

type transfer struct {
	id        int
	src, dst  *simNode // src nil: the registry
	layer     int
	piece     int
	remaining float64
	rate      float64
	since     time.Duration
	version   int
	bad       bool
	done      bool
	// sent tells the sender's FirstCopies how the copy ended.
	sent func(ok bool)
	// feeder is the transfer that brings the piece to its sender, which
	// passes it on as it arrives; dependents are the transfers it feeds.
	feeder     *transfer
	dependents []*transfer
	// state is its sender's state as the piece's answer began.
	state HolderState
	// body is the upstream body it comes over; queued: it has not begun.
	body   *upstreamBody
	queued bool
}

// upstreamBody is a node's body of a layer from the upstream, as the
// fetcher reads it: the pieces asked in order come over it one after
// another with no new request; a piece out of order is a new (range)
// request, a hop away.
type upstreamBody struct {
	next    int           // the piece after the last one asked over it
	opensAt time.Duration // when its first bytes may come
	queue   []*transfer
	reading *transfer
}

// fetching is how many layers n fetches by pieces now.
func (n *simNode) fetching() int {
	k := 0
	for _, sess := range n.sessions {
		if !sess.Complete() {
			k++
		}
	}
	return k
}

type simNode struct {
	id         peer.ID
	index      int
	up, down   *link
	sessions   []*Session
	alive      bool
	corrupt    bool
	slow       bool
	pulling    bool
	findable   time.Duration
	table      []int  // routing table: indexes of other nodes
	key        uint64 // its place in the DHT's key space
	subscribed []map[*simNode]bool
	// waiting[layer] are the followers whose state requests this node
	// holds, with the pieces each knew it to hold.
	waiting   []map[*simNode]*waiter
	uploading int
	uploaded  int64
	// answers are the states and refusals it answered: requests that
	// brought no piece.
	answers int
	// followers[layer] are the nodes that follow it (Config.MaxFollowers).
	followers []*Followers
	doneAt    time.Duration
	done      bool
	pending   []bool          // per layer: a pump is scheduled
	bodies    []*upstreamBody // per layer: its body from the upstream
	// fromUpstream[layer] are the bytes of its pieces finished from the
	// upstream.
	fromUpstream []int64
	// started[layer]: it has begun fetching the layer, and answers states
	// of it.
	started []bool
	// pull is what the sessions of its layers share.
	pull *Pull
	// seedSince[layer] is when it became a seed of the layer (-1: not),
	// and firsts[layer] what it sent as one, as the content service keeps
	// them (window.Layer).
	seedSince []time.Duration
	firsts    []*FirstCopies
	// shares[layer] is what it sent of the layer (Config.Share).
	shares []*Share
}

// intake is how many bytes per second n receives now, as a node's window
// registry measures it (window.Registry.Intake), but at once rather than
// over a second.
func (n *simNode) intake() int64 {
	total := 0.0
	for t := range n.down.transfers {
		total += t.rate
	}
	return int64(total)
}

type sim struct {
	p      simParams
	rng    *rand.Rand
	now    time.Duration
	epoch  time.Time
	q      eventQueue
	seq    int
	nodes  []*simNode
	byID   map[peer.ID]*simNode
	reg    *link
	layers []Layer
	res    simResult
	// inflight transfers by (node, layer, piece, source) to cancel them.
	flights map[flightKey]*transfer
	// seeded: a node became a seed (simParams.corruptSeed).
	seeded bool
}

type flightKey struct {
	dst   *simNode
	layer int
	piece int
	src   peer.ID
}

func (s *sim) at(d time.Duration, fn func()) {
	s.seq++
	heap.Push(&s.q, &event{at: s.now + d, seq: s.seq, fn: fn})
}

func (s *sim) clock() time.Time { return s.epoch.Add(s.now) }

func runSim(p simParams) simResult {
	s := &sim{p: p, rng: rand.New(rand.NewPCG(p.seed, 7)), epoch: time.Unix(0, 0), byID: map[peer.ID]*simNode{}, flights: map[flightKey]*transfer{}}
	s.reg = &link{rate: p.registry, transfers: map[*transfer]struct{}{}}
	for k, size := range p.layers {
		d := digest.FromString(fmt.Sprintf("layer %d of run %d", k, p.seed))
		s.layers = append(s.layers, Layer{Digest: d, Size: size, PieceSize: pieces.SwarmPieceSize(size)})
		s.res.imageSize += size
	}
	for i := range p.nodes {
		n := &simNode{id: peer.ID(fmt.Sprintf("node-%05d-%d", i, p.seed)), index: i, alive: true}
		rate := p.link
		if i < p.slow {
			rate, n.slow = p.link/10, true
		}
		n.up = &link{rate: rate, transfers: map[*transfer]struct{}{}}
		n.down = &link{rate: rate, transfers: map[*transfer]struct{}{}}
		n.findable = -1
		for range s.layers {
			n.subscribed = append(n.subscribed, map[*simNode]bool{})
			n.waiting = append(n.waiting, map[*simNode]*waiter{})
		}
		n.pending = make([]bool, len(s.layers))
		n.bodies = make([]*upstreamBody, len(s.layers))
		for range s.layers {
			n.followers = append(n.followers, NewFollowers(p.cfg.MaxFollowers()))
		}
		for range s.layers {
			n.seedSince = append(n.seedSince, -1)
			n.firsts = append(n.firsts, NewFirstCopies(p.cfg.Uploads, p.cfg.Share))
		}
		for _, l := range s.layers {
			n.shares = append(n.shares, NewShare(l, p.cfg.Share))
		}
		n.fromUpstream = make([]int64, len(s.layers))
		n.started = make([]bool, len(s.layers))
		n.pull = NewPull()
		s.nodes = append(s.nodes, n)
		s.byID[n.id] = n
	}
	// Corrupting members are drawn from the non-slow nodes.
	for _, i := range s.rng.Perm(p.nodes - p.slow)[:p.corrupt] {
		s.nodes[p.slow+i].corrupt = true
	}
	s.routingTables()
	for _, n := range s.nodes {
		s.at(0, func() { s.begin(n) })
	}
	if p.kill > 0 {
		s.at(p.killAt, func() {
			k := int(float64(p.nodes) * p.kill)
			for _, i := range s.rng.Perm(p.nodes)[:k] {
				s.killNode(s.nodes[i])
			}
		})
	}
	if p.onStart != nil {
		p.onStart(s)
	}
	for s.q.Len() > 0 {
		e := heap.Pop(&s.q).(*event)
		if e.at > p.timeLimit {
			break
		}
		s.now = e.at
		s.res.events++
		e.fn()
	}
	for _, n := range s.nodes {
		switch {
		case !n.alive:
		case !n.done:
			s.res.failed++
		case n.slow:
			s.res.slowEnd = append(s.res.slowEnd, n.doneAt)
		default:
			s.res.fetchEnd = append(s.res.fetchEnd, n.doneAt)
		}
		s.res.maxUploaded = max(s.res.maxUploaded, n.uploaded)
	}
	slices.Sort(s.res.fetchEnd)
	if len(s.res.fetchEnd) > 0 {
		span := s.res.fetchEnd[len(s.res.fetchEnd)-1].Seconds()
		for _, n := range s.nodes {
			s.res.mostAnswers = max(s.res.mostAnswers, float64(n.answers)/span)
		}
	}
	if p.debug != nil {
		p.debug(s)
	}
	return s.res
}

// routingTables gives each node up to bucketSize peers per bucket of
// common-prefix length of random 64-bit IDs, as Kademlia's table has them.
func (s *sim) routingTables() {
	ids := make([]uint64, len(s.nodes))
	for i := range ids {
		ids[i] = s.rng.Uint64()
		s.nodes[i].key = ids[i]
	}
	order := s.rng.Perm(len(s.nodes))
	for i, n := range s.nodes {
		var buckets [65][]int
		for _, j := range order {
			if j == i {
				continue
			}
			cpl := leadingZeros(ids[i] ^ ids[j])
			if len(buckets[cpl]) < bucketSize {
				buckets[cpl] = append(buckets[cpl], j)
			}
		}
		for _, b := range buckets {
			n.table = append(n.table, b...)
		}
	}
}

func leadingZeros(x uint64) int {
	n := 0
	for x != 0 && x&(1<<63) == 0 {
		x <<= 1
		n++
	}
	if x == 0 {
		return 64
	}
	return n
}

func (s *sim) begin(n *simNode) {
	n.pulling = true
	now := s.clock()
	for k, l := range s.layers {
		n.sessions = append(n.sessions, NewSession(s.p.cfg, l, n.id, now))
		_ = k
	}
	announce := s.p.announceMin
	if s.p.announceMax > s.p.announceMin {
		announce += time.Duration(s.rng.Int64N(int64(s.p.announceMax - s.p.announceMin)))
	}
	n.findable = s.now + announce
	// The lookup and the probes run at once; the node decides when both
	// are in.
	lookupAt := s.p.lookupDelay
	probeAt := 2 * s.p.hop
	var found []*simNode
	s.at(lookupAt, func() {
		var findable []*simNode
		for _, o := range s.nodes {
			if o != n && o.alive && o.findable >= 0 && o.findable <= s.now {
				findable = append(findable, o)
			}
		}
		s.rng.Shuffle(len(findable), func(i, j int) { findable[i], findable[j] = findable[j], findable[i] })
		found = findable[:min(len(findable), LookupHolders)]
	})
	for k, l := range s.layers {
		above := s.probeTargets(n, l.Digest)
		s.at(max(lookupAt, probeAt)+time.Nanosecond, func() {
			sess := n.sessions[k]
			n.started[k] = true // it answers states of the layer
			score := dhtScore(l.Digest)
			var fs []Found
			for _, o := range found {
				fs = append(fs, Found{ID: o.id, Before: score(o) > score(n), State: s.stateAtStart(o, k)})
			}
			if sess.Start(s.clock(), fs) {
				var held []Found
				var pulls []peer.ID
				for _, o := range above {
					if !o.alive || !o.pulling {
						continue
					}
					if st := s.stateAtStart(o, k); st != nil {
						held = append(held, Found{ID: o.id, Before: true, State: st})
					} else {
						pulls = append(pulls, o.id)
					}
				}
				sess.Probed(s.clock(), held, pulls)
			}
			s.subscribeActive(n, k)
			s.pump(n, k)
		})
	}
}

// stateAtStart is the state o's answer tells a node that starts layer k,
// read at once (the fetcher asks it within the lookup timeout); nil when o
// has not started the layer.
func (s *sim) stateAtStart(o *simNode, k int) *HolderState {
	if !o.alive || !o.started[k] {
		return nil
	}
	st := s.stateOf(o, k)
	return &st
}

// dhtScore ranks nodes for a layer: nearer the layer's key in the DHT's
// key space ranks higher, as router.DistanceScore orders nodes (the
// complement of the XOR distance, big-endian, compares as the distance
// reversed).
func dhtScore(layer digest.Digest) func(*simNode) string {
	h := sha256.Sum256([]byte(layer))
	key := binary.BigEndian.Uint64(h[:8])
	return func(o *simNode) string {
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], ^(key ^ o.key))
		return string(b[:])
	}
}

// probeTargets are the Probe nodes of n's table ranked highest for the
// layer, if they rank above n.
func (s *sim) probeTargets(n *simNode, layer digest.Digest) []*simNode {
	score := dhtScore(layer)
	mine := score(n)
	var above []*simNode
	for _, j := range n.table {
		if o := s.nodes[j]; score(o) > mine {
			above = append(above, o)
		}
	}
	sort.Slice(above, func(a, b int) bool { return score(above[a]) > score(above[b]) })
	return above[:min(len(above), s.p.cfg.Probe)]
}

// subscribeActive follows the have-sets of n's active holders of layer k.
func (s *sim) subscribeActive(n *simNode, k int) {
	if !n.alive {
		return
	}
	for _, id := range n.sessions[k].Active() {
		o := s.byID[id]
		if n.subscribed[k][o] || !o.alive {
			continue
		}
		n.subscribed[k][o] = true
		s.at(s.p.hop, func() {
			if !o.alive || !n.alive {
				if !o.alive && n.alive {
					s.fail(n, k, o.id)
				}
				return
			}
			// Names both ways, then o's state reaches n a hop later.
			give := s.names(o, k, n)
			take := s.names(n, k, o)
			if o.pulling && len(o.sessions) > k {
				o.sessions[k].AddHolders(take...)
				s.subscribeActive(o, k)
			}
			st := s.stateOf(o, k)
			st.Crowded = !o.followers[k].Admit(s.clock(), string(n.id))
			s.at(s.p.hop, func() {
				if !n.alive {
					return
				}
				n.sessions[k].AddHolders(give...)
				n.sessions[k].Update(s.clock(), o.id, st)
				s.subscribeActive(n, k)
				s.pump(n, k)
				if !st.Crowded {
					s.at(StateSpacing, func() { s.askState(n, k, o) })
				}
			})
		})
	}
}

// waiter is a state request held by a holder: the pieces its asker knew
// the holder to hold, and when it asks again once answered.
type waiter struct {
	known int
	next  time.Duration
}

// askState asks holder o its state of layer k for n, as the fetcher does:
// o holds the request until it has more pieces than n knows of, or
// StateHold; n asks again StateSpacing after it asked (StatePoll after,
// of a holder of the whole layer).
func (s *sim) askState(n *simNode, k int, o *simNode) {
	if !n.alive || !o.alive || n.sessions[k].Complete() {
		return
	}
	if h, ok := n.sessions[k].holders[o.id]; ok && !h.active {
		n.subscribed[k][o] = false // followed no longer: asked again once followed
		return
	}
	known := 0
	if h, ok := n.sessions[k].holders[o.id]; ok {
		known = h.state.Have.Count()
	}
	next := StateSpacing
	if known == s.layers[k].Pieces() {
		next = StatePoll
	}
	asked := s.now
	s.at(s.p.hop, func() {
		if !o.alive {
			return
		}
		if !o.followers[k].Admit(s.clock(), string(n.id)) {
			st := s.stateOf(o, k)
			st.Crowded = true
			o.answers++
			s.at(s.p.hop, func() {
				if n.alive {
					n.sessions[k].Update(s.clock(), o.id, st)
					s.pump(n, k)
				}
			})
			return
		}
		w := &waiter{known: known, next: asked + next}
		o.waiting[k][n] = w
		if o.sessions[k].Have().Count() > known {
			s.answerState(o, k, n)
			return
		}
		s.at(StateHold, func() {
			if o.waiting[k][n] == w {
				s.answerState(o, k, n)
			}
		})
	})
}

// answerState answers the state n asked of o.
func (s *sim) answerState(o *simNode, k int, n *simNode) {
	next := o.waiting[k][n].next
	delete(o.waiting[k], n)
	o.answers++
	st := s.stateOf(o, k)
	s.at(s.p.hop, func() {
		if !n.alive {
			return
		}
		sess := n.sessions[k]
		sess.StateTook(2 * s.p.hop) // the round trip, without the time held
		sess.Update(s.clock(), o.id, st)
		sess.StateAnswered(o.id)
		s.pump(n, k)
		s.at(max(next-s.now, 0), func() { s.askState(n, k, o) })
	})
}

// answered tells n, with the answer of holder o to a request, o's state
// as the answer carries it: all but its load, which only a state asked
// of it tells.
func (s *sim) answered(n *simNode, k int, o *simNode, st HolderState) {
	sess := n.sessions[k]
	if h, ok := sess.holders[o.id]; ok {
		st.Load = h.state.Load
	}
	sess.Update(s.clock(), o.id, st)
}

func (s *sim) names(from *simNode, k int, to *simNode) []peer.ID {
	if len(from.sessions) <= k {
		return nil
	}
	known := from.sessions[k].Names(gossipNames + 1)
	known = slices.DeleteFunc(slices.Clone(known), func(id peer.ID) bool { return id == to.id })
	return append(known[:min(len(known), gossipNames)], from.id)
}

func (s *sim) stateOf(n *simNode, k int) HolderState {
	sess := n.sessions[k]
	st := HolderState{Have: sess.Have().Clone(), Seed: sess.Seed(), Yields: sess.Yields(), Load: n.uploading, Upstream: s.upstreamRead(n, k), Spent: n.shares[k].Spent(s.clock()), Intake: n.intake(), Reading: sess.Reading()}
	if s.p.relay {
		st.Receiving = NewBitfield(s.layers[k].Pieces())
		for t := range n.down.transfers {
			if t.layer == k && !t.done && !t.bad {
				st.Receiving.Set(t.piece)
			}
		}
	}
	return st
}

// upstreamRead is what n has read of layer k from the upstream, the
// pieces on their way included.
func (s *sim) upstreamRead(n *simNode, k int) int64 {
	read := n.fromUpstream[k]
	for t := range n.down.transfers {
		if t.src == nil && t.layer == k && !t.done {
			read += int64(float64(s.layers[k].PieceLen(t.piece)) - max(t.remaining-t.rate*(s.now-t.since).Seconds(), 0))
		}
	}
	return read
}

// pump starts what n's session of layer k asks for, and schedules its wake.
func (s *sim) pump(n *simNode, k int) {
	if !n.alive {
		return
	}
	sess := n.sessions[k]
	if sess.Seed() && n.seedSince[k] < 0 {
		n.seedSince[k] = s.now
		if s.p.corruptSeed && !s.seeded {
			n.corrupt = true
		}
		s.seeded = true
	}
	if sess.LeavesUpstream(s.clock()) {
		s.leaveUpstream(n, k)
	}
	sess.SetLayers(n.fetching())
	sess.SetIntake(n.intake())
	sess.ReadFromUpstream(s.upstreamRead(n, k)) // as the fetcher tells it: what its state says
	sess.ComparePull(n.pull)
	if n.receivingFromPeers(k) {
		sess.Moving(s.clock()) // as the fetcher tells it of each piece's bytes
	}
	for _, r := range sess.Next(s.clock()) {
		s.request(n, k, r)
	}
	s.subscribeActive(n, k) // whom it follows may have changed (rotate)
	if w := sess.Wake(s.clock()); !w.IsZero() && !n.pending[k] {
		n.pending[k] = true
		d := max(w.Sub(s.clock()), time.Millisecond)
		s.at(d, func() {
			n.pending[k] = false
			s.pump(n, k)
		})
	}
}

func (s *sim) request(n *simNode, k int, r Request) {
	if r.From == Upstream {
		s.readUpstream(n, k, r.Piece)
		return
	}
	s.at(s.p.hop, func() {
		if !n.alive {
			return
		}
		src := s.byID[r.From]
		if !src.alive {
			s.at(s.p.hop, func() { s.fail(n, k, src.id) })
			return
		}
		var feeder *transfer
		if !src.sessions[k].Have().Has(r.Piece) && s.p.relay {
			feeder = src.arriving(k, r.Piece)
		}
		if !src.sessions[k].Have().Has(r.Piece) && feeder == nil {
			s.refuse(src, n, k, r.Piece, Unavailable)
			return
		}
		s.serve(src, n, k, r, feeder)
	})
}

// refuse answers n's request for a piece of layer k with why, and src's
// state, as the content service does.
func (s *sim) refuse(src, n *simNode, k, piece int, why Failure) {
	src.answers++
	st := s.stateOf(src, k)
	s.at(s.p.hop, func() {
		s.answered(n, k, src, st)
		n.sessions[k].Failed(s.clock(), piece, src.id, why)
		s.pump(n, k)
	})
}

// serve answers n's request r for a piece of layer k that src has or
// receives (feeder).
func (s *sim) serve(src, n *simNode, k int, r Request, feeder *transfer) {
	l := s.layers[k]
	firsts, seed := src.firsts[k], src.seedSince[k] >= 0
	if src.uploading >= s.p.cfg.Uploads || (seed && !firsts.Allow(s.clock(), r.Piece, l.PieceLen(r.Piece), src.readRate(s, k), string(n.id))) ||
		!src.shares[k].Take(s.clock(), l.PieceLen(r.Piece), r.Only) {
		why := Busy
		if src.uploading >= s.p.cfg.Uploads {
			why = Full
		}
		s.refuse(src, n, k, r.Piece, why)
		return
	}
	t := &transfer{src: src, dst: n, layer: k, piece: r.Piece, remaining: float64(l.PieceLen(r.Piece)), bad: src.corrupt, feeder: feeder, state: s.stateOf(src, k)}
	if seed {
		t.sent = firsts.Start(s.clock(), r.Piece, string(n.id))
	}
	if feeder != nil {
		feeder.dependents = append(feeder.dependents, t)
	}
	s.flights[flightKey{n, k, r.Piece, src.id}] = t
	s.startTransfer(t)
}

// fail tells n that src is gone, for every request of layer k to it.
func (s *sim) fail(n *simNode, k int, src peer.ID) {
	if !n.alive {
		return
	}
	for key, t := range s.flights {
		if key.dst == n && key.layer == k && key.src == src {
			delete(s.flights, key)
			t.done = true
		}
	}
	n.sessions[k].Lost(src, Gone)
	s.subscribeActive(n, k)
	s.pump(n, k)
}

// leaveUpstream ends n's transfers of layer k from the upstream, as the
// fetcher closes its body when it yields to another seed.
func (s *sim) leaveUpstream(n *simNode, k int) {
	left := false
	if b := n.bodies[k]; b != nil { // what it asked, not begun, first: nothing reads on
		for _, t := range b.queue {
			if !t.done {
				delete(s.flights, flightKey{n, k, t.piece, Upstream})
				t.done = true
				left = true
			}
		}
		b.queue = nil
		n.bodies[k] = nil
	}
	for _, t := range transfersOf(n.down) {
		if t.src == nil && t.layer == k {
			delete(s.flights, flightKey{n, k, t.piece, Upstream})
			// What the registry sent of the piece counts: it left.
			s.res.upstreamBytes += int64(float64(s.layers[k].PieceLen(t.piece)) - max(t.remaining-t.rate*(s.now-t.since).Seconds(), 0))
			s.cancel(t)
			left = true
		}
	}
	if left {
		n.sessions[k].StopUpstream(s.clock())
	}
}

// readUpstream asks the upstream for piece i of layer k for n: over n's
// body when the body is at i, else over a new one.
func (s *sim) readUpstream(n *simNode, k, i int) {
	b := n.bodies[k]
	if b == nil || b.next != i {
		b = &upstreamBody{opensAt: s.now + s.p.hop}
		n.bodies[k] = b
		s.at(s.p.hop, func() { s.readOn(n, b) })
	}
	b.next = i + 1
	t := &transfer{dst: n, layer: k, piece: i, remaining: float64(s.layers[k].PieceLen(i)), body: b, queued: true}
	s.flights[flightKey{n, k, i, Upstream}] = t
	b.queue = append(b.queue, t)
	s.readOn(n, b)
}

// readOn begins the next piece asked over b once the one before is in.
func (s *sim) readOn(n *simNode, b *upstreamBody) {
	if b == nil || !n.alive || s.now < b.opensAt || b.reading != nil && !b.reading.done {
		return
	}
	for len(b.queue) > 0 {
		t := b.queue[0]
		b.queue = b.queue[1:]
		if t.done {
			continue
		}
		t.queued = false
		b.reading = t
		s.startTransfer(t)
		return
	}
}

// receivingFromPeers reports whether bytes of layer k's pieces flow to n
// from peers now.
func (n *simNode) receivingFromPeers(k int) bool {
	for t := range n.down.transfers {
		if t.layer == k && t.src != nil && !t.done && t.rate > 0 {
			return true
		}
	}
	return false
}

// arriving is the transfer bringing piece i of layer k to n now, if any.
func (n *simNode) arriving(k, i int) *transfer {
	for _, t := range transfersOf(n.down) {
		if t.layer == k && t.piece == i && !t.done && !t.bad {
			return t
		}
	}
	return nil
}

func (s *sim) upOf(t *transfer) *link {
	if t.src == nil {
		return s.reg
	}
	return t.src.up
}

func (s *sim) startTransfer(t *transfer) {
	s.seq++
	t.id = s.seq
	if t.src != nil {
		t.src.uploading++
	}
	t.since = s.now
	s.upOf(t).transfers[t] = struct{}{}
	t.dst.down.transfers[t] = struct{}{}
	s.reshare(s.upOf(t), t.dst.down)
	if s.p.relay && t.dst.alive {
		s.notify(t.dst, t.layer, true)
	}
}

// reshare brings every transfer on the links up to now and gives each
// its new rate and end. A link's rate is split by water-filling: a
// transfer held below an equal share by its other end (its receiver's
// downlink, or its sender's uplink, split equally there) gets what it can
// use and the rest goes to the others, as TCP flows share a bottleneck.
// Only the transfers on the links that changed are recomputed.
func (s *sim) reshare(links ...*link) {
	var ts []*transfer
	seen := map[*transfer]bool{}
	for _, l := range links {
		for t := range l.transfers {
			if !seen[t] {
				seen[t] = true
				ts = append(ts, t)
			}
		}
	}
	slices.SortFunc(ts, func(a, b *transfer) int { return a.id - b.id })
	for _, t := range ts {
		t.remaining -= t.rate * (s.now - t.since).Seconds()
		t.since = s.now
	}
	for _, t := range ts {
		up, down := s.upOf(t), t.dst.down
		t.rate = min(
			waterfill(up, t, func(u *transfer) float64 { return equalShare(u.dst.down) }),
			waterfill(down, t, func(u *transfer) float64 { return equalShare(s.upOf(u)) }))
		t.version++
		v := t.version
		d := time.Duration(max(t.remaining, 0) / t.rate * float64(time.Second))
		if f := t.feeder; f != nil && !f.done {
			// Bytes are passed on as they arrive: no faster than they
			// come, and the last a hop after the feeder's last.
			t.rate = min(t.rate, f.rate)
			fd := time.Duration(max(f.remaining-f.rate*(s.now-f.since).Seconds(), 0) / f.rate * float64(time.Second))
			d = max(time.Duration(max(t.remaining, 0)/t.rate*float64(time.Second)), fd+s.p.hop)
		}
		s.at(d, func() {
			if t.version == v && !t.done && (t.feeder == nil || t.feeder.done) {
				s.endTransfer(t)
			}
		})
	}
}

func equalShare(l *link) float64 { return l.rate / float64(max(1, len(l.transfers))) }

// waterfill is t's share of l when each transfer u on it can use at most
// limit(u).
func waterfill(l *link, t *transfer, limit func(*transfer) float64) float64 {
	caps := make([]float64, 0, len(l.transfers))
	mine := limit(t)
	for u := range l.transfers {
		caps = append(caps, limit(u))
	}
	slices.Sort(caps)
	left, n := l.rate, len(caps)
	for _, c := range caps {
		fair := left / float64(n)
		if c >= fair {
			return min(mine, fair)
		}
		left -= c
		n--
	}
	return mine
}

func (s *sim) endTransfer(t *transfer) {
	t.done = true
	up := s.upOf(t)
	delete(up.transfers, t)
	delete(t.dst.down.transfers, t)
	src := Upstream
	size := s.layers[t.layer].PieceLen(t.piece)
	if t.src != nil {
		src = t.src.id
		t.src.uploading--
		t.src.uploaded += size
		if t.sent != nil {
			t.sent(true)
		}
	} else {
		s.res.upstreamBytes += size
		t.dst.fromUpstream[t.layer] += size
		defer s.readOn(t.dst, t.body)
	}
	s.reshare(up, t.dst.down)
	delete(s.flights, flightKey{t.dst, t.layer, t.piece, src})
	s.releaseDependents(t, true)
	n, k := t.dst, t.layer
	if !n.alive {
		return
	}
	sess := n.sessions[k]
	if t.src != nil {
		s.answered(n, k, t.src, t.state)
	}
	if t.bad {
		sess.Failed(s.clock(), t.piece, src, Corrupt)
		s.subscribeActive(n, k)
		s.pump(n, k)
		return
	}
	if sess.Have().Has(t.piece) {
		s.res.vainBytes += size
	}
	for _, c := range sess.Received(s.clock(), t.piece, src) {
		if ct, ok := s.flights[flightKey{n, k, c.Piece, c.From}]; ok {
			delete(s.flights, flightKey{n, k, c.Piece, c.From})
			s.cancel(ct)
		}
	}
	// Written in order as far as the pieces held reach.
	w := sess.Written()
	for w < s.layers[k].Pieces() && sess.Have().Has(w) {
		w++
	}
	sess.Wrote(w)
	s.res.peakHeldBytes = max(s.res.peakHeldBytes, int64(sess.Held())*s.layers[k].PieceSize)
	s.notify(n, k, false)
	if !n.done && s.allComplete(n) {
		n.done, n.doneAt = true, s.now
	}
	s.pump(n, k)
}

// releaseDependents lets the transfers t fed finish at their own pace, or,
// when t brought bad bytes or none, ends them: the relay verified the
// piece, found it bad, and passes nothing more on.
func (s *sim) releaseDependents(t *transfer, ok bool) {
	for _, d := range t.dependents {
		if d.done {
			continue
		}
		if t.bad || !ok {
			dst, k, piece, from := d.dst, d.layer, d.piece, d.src.id
			s.cancel(d)
			delete(s.flights, flightKey{dst, k, piece, from})
			s.at(s.p.hop, func() {
				if dst.alive {
					dst.sessions[k].Failed(s.clock(), piece, from, Cut)
					s.pump(dst, k)
				}
			})
			continue
		}
		s.reshare(s.upOf(d), d.dst.down)
	}
}

func (s *sim) cancel(t *transfer) {
	if t.done {
		return
	}
	t.done = true
	defer s.releaseDependents(t, false)
	if t.queued {
		return
	}
	if t.body != nil {
		defer s.readOn(t.dst, t.body)
	}
	if _, ok := s.upOf(t).transfers[t]; ok {
		left := max(t.remaining-t.rate*(s.now-t.since).Seconds(), 0)
		s.res.vainBytes += int64(float64(s.layers[t.layer].PieceLen(t.piece)) - left)
		delete(s.upOf(t).transfers, t)
		delete(t.dst.down.transfers, t)
		if t.src != nil {
			t.src.uploading--
		}
		if t.sent != nil {
			t.sent(false)
		}
		s.reshare(s.upOf(t), t.dst.down)
	}
}

// readRate is how fast n has read layer k from the upstream since it
// became a seed of it, as the content service measures it.
func (n *simNode) readRate(s *sim, k int) float64 {
	if d := s.now - n.seedSince[k]; n.seedSince[k] >= 0 && d > 0 {
		return float64(n.fromUpstream[k]) / d.Seconds()
	}
	return 0
}

func (s *sim) allComplete(n *simNode) bool {
	for _, sess := range n.sessions {
		if !sess.Complete() {
			return false
		}
	}
	return true
}

// notify answers the states held by n (askState) now that it holds more
// of layer k, or, with force, now that it receives more (simParams.relay).
func (s *sim) notify(n *simNode, k int, force bool) {
	count := n.sessions[k].Have().Count()
	waiting := make(map[*simNode]bool, len(n.waiting[k]))
	for o, w := range n.waiting[k] {
		waiting[o] = force || count > w.known
	}
	for _, o := range byIndex(waiting) {
		if waiting[o] {
			s.answerState(n, k, o)
		}
	}
}

// byIndex is the nodes of set in a fixed order: events scheduled for the
// same moment then run in the same order on every run.
func byIndex(set map[*simNode]bool) []*simNode {
	nodes := make([]*simNode, 0, len(set))
	for o := range set {
		nodes = append(nodes, o)
	}
	slices.SortFunc(nodes, func(a, b *simNode) int { return a.index - b.index })
	return nodes
}

// transfersOf is the transfers on l in the order they started.
func transfersOf(l *link) []*transfer {
	ts := make([]*transfer, 0, len(l.transfers))
	for t := range l.transfers {
		ts = append(ts, t)
	}
	slices.SortFunc(ts, func(a, b *transfer) int { return a.id - b.id })
	return ts
}

func (s *sim) killNode(n *simNode) {
	n.alive = false
	for _, l := range []*link{n.up, n.down} {
		for _, t := range transfersOf(l) {
			s.cancel(t)
			if t.dst != n && t.dst.alive {
				dst, k := t.dst, t.layer
				s.at(s.p.hop, func() { s.fail(dst, k, n.id) })
			}
		}
	}
}
