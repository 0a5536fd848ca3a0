// Package window holds what this node has of the layers it fetches by
// pieces: which verified pieces it holds (its have-set), the bytes of
// those it holds ahead of what it has written to its ingest (the window,
// in memory, within a budget for the whole node), the pieces arriving
// (passed on to peers as they come), the piece tables it knows, and the
// holders it knows. The fetcher puts pieces and writes them in order; the
// content service answers peers from it.
package window

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/swarm"
)

// ErrOverBudget: the node holds its budget of pieces in memory already.
var ErrOverBudget = fmt.Errorf("piece window budget exhausted: %w", errdefs.ErrResourceExhausted)

// MaxHolders bounds the holders a layer passes on to peers that ask.
const MaxHolders = 8

// Registry is the layers this node fetches by pieces now.
type Registry struct {
	budget int64
	// received counts the bytes this node has received for the layers it
	// fetches, from the upstream and from peers (Received); awaited the
	// bytes of pieces asked of peers that have not arrived (Awaited).
	received atomic.Int64
	awaited  atomic.Int64

	mu     sync.Mutex
	held   int64
	layers map[digest.Digest]*Layer
	intake intakeMeter
	// early are the peers that asked for layers before this node began
	// them (AskedEarly), for at most maxEarly layers, oldest first in
	// earlyOrder.
	early      map[digest.Digest][]peer.ID
	earlyOrder []digest.Digest
}

// maxEarly bounds the layers whose early askers are kept: a few images'
// worth. A layer forgotten costs what it cost before they were kept.
const maxEarly = 64

// Received is the count of bytes this node has received for the layers
// it fetches by pieces: whoever receives adds to it.
func (r *Registry) Received() *atomic.Int64 { return &r.received }

// Intake is how many bytes per second this node received lately (over
// the last second or more), for every layer, from every source.
func (r *Registry) Intake(now time.Time) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.intake.rate(now, r.received.Load())
}

// Awaited is the count of bytes of pieces this node has asked of peers
// and not received yet: whoever asks adds to it, and takes off what
// arrives and what will not.
func (r *Registry) Awaited() *atomic.Int64 { return &r.awaited }

// Behind is how long the answer to a piece asked now waits behind the
// bytes awaited already, at the most this node has received in a second
// (zero before it has received any). Holders send into its downlink's
// queue and into their own connections to it, all of it ahead of the
// answer's headers.
func (r *Registry) Behind(now time.Time) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.intake.rate(now, r.received.Load())
	if r.intake.most <= 0 {
		return 0
	}
	return time.Duration(float64(r.awaited.Load()) / float64(r.intake.most) * float64(time.Second))
}

// intakeMeter is a rate over spans of a second or more: a second holds a
// few pieces at any link rate the swarm serves well, and the lab's
// shaped links let bursts of a second's bytes through.
type intakeMeter struct {
	at    time.Time
	bytes int64
	last  int64
	most  int64 // the most of last
}

func (m *intakeMeter) rate(now time.Time, total int64) int64 {
	if m.at.IsZero() {
		m.at, m.bytes = now, total
		return 0
	}
	if d := now.Sub(m.at); d >= time.Second {
		m.last = int64(float64(total-m.bytes) / d.Seconds())
		m.most = max(m.most, m.last)
		m.at, m.bytes = now, total
	}
	return m.last
}

// DefaultBudget is a node's memory for pieces held ahead of what is
// written: one and a half windows of the largest pieces (64 of 4 MiB, a
// layer of 1 GiB or more), or a window each for three such layers fetched
// at once (the transfer service's limit) at a third of that piece size.
const DefaultBudget = 384 << 20

// New returns a registry that holds at most budget bytes of pieces in
// memory, over all layers.
func New(budget int64) *Registry {
	return &Registry{budget: budget, layers: map[digest.Digest]*Layer{}, early: map[digest.Digest][]peer.ID{}}
}

// AskedEarly records that peer id asked for the state of layer dgst,
// which this node does not fetch (yet). A node that waits for this one,
// ranked before it, asks so; if this node begins the layer later, after
// the other stalled and took it from the upstream, the fetch finds it
// among the layer's askers (Layer.TakeAskers) and follows it instead of
// reading the layer a second time. A nil registry records nothing.
func (r *Registry) AskedEarly(dgst digest.Digest, id peer.ID) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.layers[dgst]; ok {
		return
	}
	ids, ok := r.early[dgst]
	if !ok {
		if len(r.earlyOrder) == maxEarly {
			delete(r.early, r.earlyOrder[0])
			r.earlyOrder = r.earlyOrder[1:]
		}
		r.earlyOrder = append(r.earlyOrder, dgst)
	}
	if len(ids) < MaxHolders && !slices.Contains(ids, id) {
		r.early[dgst] = append(ids, id)
	}
}

// Held is how many bytes of pieces the registry holds in memory.
func (r *Registry) Held() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.held
}

// Begin registers the fetch of a layer by pieces; End ends it. A second
// fetch of the same digest while one is under way gets an error: one
// fetch of a layer at a time feeds peers.
func (r *Registry) Begin(dgst digest.Digest, size int64, ns string, labels map[string]string) (*Layer, error) {
	n := pieces.SwarmPieceCount(size)
	if n == 0 || size > pieces.MaxSwarmLayerSize {
		return nil, fmt.Errorf("layer %s of %d bytes is not fetched by pieces", dgst, size)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.layers[dgst]; ok {
		return nil, fmt.Errorf("layer %s is fetched by pieces already", dgst)
	}
	l := &Layer{
		reg: r, Digest: dgst, Size: size, PieceSize: pieces.SwarmPieceSize(size), Pieces: n,
		Namespace: ns, Labels: labels,
		have: swarm.NewBitfield(n), mem: map[int][]byte{}, tables: map[peer.ID]pieces.Table{},
		arriving: map[int]*Arrival{},
	}
	if ids, ok := r.early[dgst]; ok {
		l.askers, l.followed = ids, true
		delete(r.early, dgst)
		r.earlyOrder = slices.DeleteFunc(r.earlyOrder, func(d digest.Digest) bool { return d == dgst })
	}
	r.layers[dgst] = l
	return l, nil
}

// Lookup is the layer of dgst fetched by pieces now, if any. A nil
// registry has none.
func (r *Registry) Lookup(dgst digest.Digest) (*Layer, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	l, ok := r.layers[dgst]
	return l, ok
}

// Layer is one layer fetched by pieces.
type Layer struct {
	reg       *Registry
	Digest    digest.Digest
	Size      int64
	PieceSize int64
	Pieces    int
	// Namespace and Labels describe the layer for the sharing policy.
	Namespace string
	Labels    map[string]string

	mu     sync.Mutex
	have   swarm.Bitfield
	mem    map[int][]byte
	seed   bool
	yields bool // SetYields
	// seedSince is when this node became a seed of the layer, and firsts
	// what it has sent since (swarm.FirstCopies).
	seedSince time.Time
	firsts    *swarm.FirstCopies
	// upstream counts the bytes read from the upstream so far, whole
	// pieces or not: a seed's progress between pieces.
	upstream atomic.Int64
	// reading is what the fetcher last knew the seeds to have read of the
	// layer (SetReading); never changed once set.
	reading []swarm.SeedRead
	tables  map[peer.ID]pieces.Table
	holders []peer.ID
	// askers are the peers that asked for the layer since the fetcher
	// last took them: nodes fetching it too, which the fetcher follows
	// and names to others.
	askers []peer.ID
	// followed: a peer has asked for the layer (Followed).
	followed bool
	ended    bool
	// grown is closed when the have-set grows, a piece begins arriving, a
	// table is added, or the fetch ends (Grown).
	grown chan struct{}
	// arriving are the pieces arriving now, passed on as they come
	// (Arriving).
	arriving map[int]*Arrival
	// tabled is closed when a table is added or the fetch ends
	// (AwaitTable).
	tabled chan struct{}
}

// State is what a layer's holder tells a peer of it.
type State struct {
	Have swarm.Bitfield
	// Receiving are the pieces arriving at the holder now, which it
	// passes on as they come (Arrival).
	Receiving swarm.Bitfield
	Seed      bool
	// Yields: the holder, a seed, leaves the upstream to another for now
	// (swarm.HolderState.Yields).
	Yields bool
	// Upstream is how many bytes of the layer the holder has read from the
	// upstream so far.
	Upstream int64
	// Reading are the seeds of the layer the holder knows of, each with
	// the bytes of it read from the upstream (swarm.HolderState.Reading).
	Reading []swarm.SeedRead
	// Cap is the holder's upload cap in bytes per second; 0: none.
	Cap int64
	// Intake is how many bytes per second the holder receives, for every
	// layer, from the upstream and from peers; told by seeds only, 0: not.
	Intake int64
	// Spent: the holder has sent its share of the layer in this rollout
	// (swarm.Share).
	Spent bool
	// Crowded: the holder lets no more peers follow it, the asker not
	// among them (swarm.Followers).
	Crowded bool
	Holders []peer.ID
	Tables  []pieces.Table
	// TablesFrom: on the way to a peer, the tables' digests begin at this
	// piece (State.TablesPast).
	TablesFrom int
}

// PieceLen is the length of piece i.
func (l *Layer) PieceLen(i int) int64 { return min(l.PieceSize, l.Size-int64(i)*l.PieceSize) }

// Put holds piece i, verified, in memory, and adds it to the have-set.
func (l *Layer) Put(i int, b []byte) error {
	if i < 0 || i >= l.Pieces || int64(len(b)) != l.PieceLen(i) {
		return fmt.Errorf("piece %d of %d bytes for layer %s: %w", i, len(b), l.Digest, pieces.ErrPieceMismatch)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return fmt.Errorf("layer %s: fetch ended", l.Digest)
	}
	if l.have.Has(i) {
		return nil // held already, in memory or written
	}
	l.reg.mu.Lock()
	if l.reg.held+int64(len(b)) > l.reg.budget {
		l.reg.mu.Unlock()
		return ErrOverBudget
	}
	l.reg.held += int64(len(b))
	l.reg.mu.Unlock()
	l.mem[i] = b
	l.have.Set(i)
	l.grew()
	return nil
}

// Grown is closed once the layer's have-set holds more than held pieces,
// a piece begins arriving, a table is added, or the fetch ended: a peer's
// state request waits on it.
func (l *Layer) Grown(held int) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended || l.have.Count() > held {
		return closed
	}
	if l.grown == nil {
		l.grown = make(chan struct{})
	}
	return l.grown
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// grew wakes the state requests waiting on the have-set; l.mu is held.
func (l *Layer) grew() {
	if l.grown != nil {
		close(l.grown)
		l.grown = nil
	}
}

// Arriving registers piece i as arriving into buf, to be passed on as it
// comes; nil (on which every method does nothing) if the piece is held or
// arriving already (a hedge's second request) or the fetch ended. The
// caller records its bytes and ends it (Arrival.Arrived, Arrival.End).
func (l *Layer) Arriving(i int, buf []byte) *Arrival {
	if i < 0 || i >= l.Pieces || int64(len(buf)) != l.PieceLen(i) {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended || l.have.Has(i) || l.arriving[i] != nil {
		return nil
	}
	a := newArrival(buf)
	a.onEnd = func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.arriving[i] == a {
			delete(l.arriving, i)
		}
	}
	l.arriving[i] = a
	l.grew() // followers learn that this node offers the piece
	return a
}

// Arrival is piece i as it arrives, if it does.
func (l *Layer) Arrival(i int) (*Arrival, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a, ok := l.arriving[i]
	return a, ok
}

// AwaitTable waits until a table this node knows covers piece i, the
// fetch ends or ctx ends, and reports whether one covers it.
func (l *Layer) AwaitTable(ctx context.Context, i int) bool {
	for {
		l.mu.Lock()
		covered := slices.ContainsFunc(slices.Collect(maps.Values(l.tables)), func(t pieces.Table) bool { return i < len(t.Digests) })
		if covered || l.ended {
			l.mu.Unlock()
			return covered
		}
		if l.tabled == nil {
			l.tabled = make(chan struct{})
		}
		tabled := l.tabled
		l.mu.Unlock()
		select {
		case <-tabled:
		case <-ctx.Done():
			return false
		}
	}
}

// Piece is piece i's bytes if they are held in memory.
func (l *Layer) Piece(i int) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.mem[i]
	return b, ok
}

// Has reports whether piece i is held, in memory or written.
func (l *Layer) Has(i int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.have.Has(i)
}

// Written says piece i is in the ingest now: its memory is released, and
// it stays in the have-set (peers get it from the ingest).
func (l *Layer) Written(i int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.have.Set(i) {
		l.grew()
	}
	l.release(i)
}

func (l *Layer) release(i int) {
	b, ok := l.mem[i]
	if !ok {
		return
	}
	delete(l.mem, i)
	l.reg.mu.Lock()
	l.reg.held -= int64(len(b))
	l.reg.mu.Unlock()
}

// SetYields says whether this node, a seed of the layer, leaves the
// upstream to another seed for now.
func (l *Layer) SetYields(yields bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.yields = yields
}

// SetSeed says whether this node takes pieces of the layer from the
// upstream.
func (l *Layer) SetSeed(seed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seed = seed
	if seed && l.seedSince.IsZero() {
		l.seedSince = time.Now()
	}
}

// StartSend reports whether piece i may be sent to asker now: a seed
// sends a piece again, or a piece to an asker receiving one, only as
// swarm.FirstCopies allows (uploads is how many pieces this node sends at
// once). end is then called with whether the copy reached its receiver
// whole.
func (l *Layer) StartSend(now time.Time, i, uploads int, asker string) (end func(ok bool), ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.seed {
		return func(bool) {}, true
	}
	if l.firsts == nil {
		l.firsts = swarm.NewFirstCopies(uploads, swarm.DefaultConfig().Share)
	}
	var rate float64
	if d := now.Sub(l.seedSince); d > 0 {
		rate = float64(l.upstream.Load()) / d.Seconds()
	}
	if !l.firsts.Allow(now, i, l.PieceLen(i), rate, asker) {
		return nil, false
	}
	done := l.firsts.Start(now, i, asker)
	return func(ok bool) {
		l.mu.Lock()
		defer l.mu.Unlock()
		done(ok)
	}, true
}

// UpstreamBytes is the count of bytes read from the upstream, for the
// reader to add to as they arrive.
func (l *Layer) UpstreamBytes() *atomic.Int64 { return &l.upstream }

// SetReading records what the seeds of the layer this node knows of have
// read from the upstream, to pass on (swarm.Session.Reading); the slice
// is the layer's from then on.
func (l *Layer) SetReading(seeds []swarm.SeedRead) {
	l.mu.Lock()
	l.reading = seeds
	l.mu.Unlock()
}

// SetHolders records the holders this node knows, to pass on.
func (l *Layer) SetHolders(ids []peer.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.holders = slices.Clone(ids[:min(len(ids), MaxHolders)])
}

// Asked records that peer id asked for the layer's state or a piece. At
// most MaxHolders wait to be taken: the fetcher takes them every few
// hundred milliseconds, and a node that asks keeps asking.
func (l *Layer) Asked(id peer.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.followed = true
	if len(l.askers) < MaxHolders && !slices.Contains(l.askers, id) {
		l.askers = append(l.askers, id)
	}
}

// Followed reports whether a peer has asked for the layer: only then is
// a table of its pieces worth publishing.
func (l *Layer) Followed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.followed
}

// TakeAskers returns the peers that asked since the last call.
func (l *Layer) TakeAskers() []peer.ID {
	l.mu.Lock()
	defer l.mu.Unlock()
	ids := l.askers
	l.askers = nil
	return ids
}

// AddTable records a table, verified by the caller, in place of an
// earlier one of the same publisher that it extends.
func (l *Layer) AddTable(t pieces.Table) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if old, ok := l.tables[t.Publisher]; ok && (!t.Extends(old) || len(t.Digests) == len(old.Digests)) {
		return
	}
	l.tables[t.Publisher] = t
	if l.tabled != nil {
		close(l.tabled)
		l.tabled = nil
	}
	// Held states are answered: a follower may hold a piece, passed on as
	// it arrived, that no table it knows covers yet. The last piece of a
	// layer grows no have-set after it.
	l.grew()
}

// CoveredDigests are the digests of the longest table this node knows
// (see oci.KnownQuery and oci.SuffixQuery). The caller does not change
// them.
func (l *Layer) CoveredDigests() []digest.Digest {
	l.mu.Lock()
	defer l.mu.Unlock()
	var longest []digest.Digest
	for _, t := range l.tables {
		if len(t.Digests) > len(longest) {
			longest = t.Digests
		}
	}
	return slices.Clip(longest)
}

// PieceDigest is piece i's digest in a table this node knows: the first
// by publisher order that covers it.
func (l *Layer) PieceDigest(i int) (digest.Digest, peer.ID, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range slices.Sorted(maps.Keys(l.tables)) {
		if t := l.tables[id]; i < len(t.Digests) {
			return t.Digests[i], id, true
		}
	}
	return "", "", false
}

// Check verifies piece i against the tables this node knows: ErrPieceUnknown
// when none covers it.
func (l *Layer) Check(i int, b []byte) error {
	want, from, ok := l.PieceDigest(i)
	if !ok {
		return fmt.Errorf("piece %d of %s: %w", i, l.Digest, pieces.ErrPieceUnknown)
	}
	if int64(len(b)) != l.PieceLen(i) || digest.FromBytes(b) != want {
		return fmt.Errorf("piece %d of %s does not match the table of %s: %w", i, l.Digest, from, pieces.ErrPieceMismatch)
	}
	return nil
}

// Holder is st as the swarm's policy takes it, with the holder's load.
func (st State) Holder(load int) swarm.HolderState {
	return swarm.HolderState{Have: st.Have, Receiving: st.Receiving, Seed: st.Seed, Yields: st.Yields, Upstream: st.Upstream, Reading: st.Reading, Load: load, Cap: st.Cap, Intake: st.Intake, Spent: st.Spent, Crowded: st.Crowded}
}

// State is a snapshot of the layer for a peer.
func (l *Layer) State() State {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := State{Have: l.have.Clone(), Receiving: swarm.NewBitfield(l.Pieces), Seed: l.seed, Yields: l.seed && l.yields, Upstream: l.upstream.Load(), Reading: l.reading, Holders: slices.Clone(l.holders)}
	for i := range l.arriving {
		st.Receiving.Set(i)
	}
	if l.seed {
		st.Intake = l.reg.Intake(time.Now())
	}
	for _, id := range slices.Sorted(maps.Keys(l.tables)) {
		st.Tables = append(st.Tables, l.tables[id])
	}
	return st
}

// End ends the fetch: the memory is released, the pieces arriving are
// passed on no further, and peers no longer find it.
func (l *Layer) End() {
	for _, a := range l.end() {
		a.End(false) // l.mu released: an arrival's end takes it
	}
}

func (l *Layer) end() (arriving map[int]*Arrival) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return nil
	}
	l.ended = true
	l.grew()
	if l.tabled != nil {
		close(l.tabled)
		l.tabled = nil
	}
	arriving, l.arriving = l.arriving, map[int]*Arrival{}
	for i := range l.mem {
		l.release(i)
	}
	l.reg.mu.Lock()
	defer l.reg.mu.Unlock()
	if l.reg.layers[l.Digest] == l {
		delete(l.reg.layers, l.Digest)
	}
	return arriving
}
