package swarm

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
)

// Upstream stands for the registry where a request's source is named.
const Upstream peer.ID = ""

// Layer is what a session fetches.
type Layer struct {
	Digest    digest.Digest
	Size      int64
	PieceSize int64
}

// Pieces is how many pieces the layer has.
func (l Layer) Pieces() int { return int((l.Size + l.PieceSize - 1) / l.PieceSize) }

// PieceLen is the length of piece i: PieceSize but for a short last one.
func (l Layer) PieceLen(i int) int64 {
	return min(l.PieceSize, l.Size-int64(i)*l.PieceSize)
}

// Request is a piece to ask of a source.
type Request struct {
	Piece int
	From  peer.ID // Upstream: the registry
	// Hedge: the piece is already asked of another source that is late.
	Hedge bool
	// Only: no other holder this node follows offers the piece, so a
	// holder past its share sends it still (Share).
	Only bool
}

// Failure is why a request brought no piece; it decides what becomes of
// the source.
type Failure int

const (
	// Unavailable: the source does not have the piece, or could not be
	// reached. It is asked again only once its have-set says it has it.
	Unavailable Failure = iota
	// Busy: the source sends this piece to another node now, or its
	// uplink's queue is full; it is asked for the piece again after the
	// time it takes to send one (or its next have-set, if sooner). Waiting
	// for the next have-set alone never ends at a holder that is complete.
	Busy
	// Corrupt: the bytes did not match the piece's digest. The source is
	// never asked again for this layer.
	Corrupt
	// Gone: the source left (closed, killed). Never asked again.
	Gone
	// Full: every upload slot of the source is taken: as Busy, and, once
	// a rate is known, it is asked for no piece until one should be free
	// (a piece time at its rate). Asked again for other pieces, holders
	// answered busy about four times per piece sent (simulator, 100 nodes,
	// 8 s size ÷ link: p99 1.39× against 1.26× with this).
	Full
	// Cut: the source passed the piece on as it arrived there, and that
	// arrival failed (its own source broke off, or the piece was bad): as
	// Unavailable, and the piece is asked from then on only of holders
	// that have it, not of others passing it on. A piece a corrupting
	// member sent lives on otherwise: in the sixteen-node lab its bytes
	// went from node to node, each asking for it a node still passing it
	// on that was about to be cut (1,104 bodies cut short, 1,508 asks of
	// nodes that no longer had it, in one run), and the bytes that kept
	// arriving held off the stall rule for 70 s after every node had left
	// the member.
	Cut
	// Slow: the source did not answer in time, or its connection broke
	// under the request. Asked again as Busy; and the node asks fewer
	// pieces at once (halved, down to the next-needed one) until pieces
	// arrive again (one more per piece, up to Requests). Behind a link at
	// a tenth of the others', a node that asked its usual number at once
	// of each of three layers had its holders give up writing to it and
	// reset their connections, and brought in none of its largest layer
	// in thirteen minutes.
	Slow
)

// HolderState is what a holder said of itself: its have-set, whether it
// takes pieces from the upstream, and its load.
type HolderState struct {
	Have Bitfield
	// Receiving are the pieces arriving at the holder now, which it passes
	// on as they arrive.
	Receiving Bitfield
	// Seed: the holder takes from the upstream the pieces no node has.
	Seed bool
	// Yields: the holder, a seed, leaves the upstream to another
	// (Session.Yields) and reads no more there for now.
	Yields bool
	// Upstream is how many bytes the holder has read from the upstream: a
	// seed's progress between its pieces; a seed that has read none yet
	// (it may wait for a request to the registry) does not share its
	// pieces with the seeds that read.
	Upstream int64
	// Reading are the seeds of the layer the holder knows of (through the
	// holders it follows, itself included), each with the most bytes of
	// the layer it says it has read from the upstream (Session.Reading).
	// At most MaxReaders, furthest along first.
	Reading []SeedRead
	// Load is how many requests the holder is serving or has queued.
	Load int
	// Cap is the most bytes per second the holder sends to peers, all
	// together (its upload cap); 0: none.
	Cap int64
	// Intake is how many bytes per second the holder receives, from the
	// upstream and from peers, for every layer it fetches; 0: not told.
	Intake int64
	// Spent: the holder has sent its share of the layer (Config.Share)
	// and sends only pieces its asker finds nowhere else.
	Spent bool
	// Crowded: the holder is followed by as many nodes as it lets follow
	// it (Config.MaxFollowers), this one not among them.
	Crowded bool
}

type holder struct {
	id       peer.ID
	state    HolderState
	active   bool
	excluded bool // corrupt or gone
	corrupt  bool // excluded for bad pieces: what it reads is no progress
	stated   bool // in Session.stated
	inflight int
	rate     float64  // bytes per second of its completed pieces, 0: not known
	rank     string   // its place in the layer's rendezvous order (stallAfter)
	read     readRate // how fast it reads from the upstream, as a seed
	// refused are the pieces h answered Busy for, not asked of h again
	// before the time, its next state (StateAnswered, at most a few a
	// second) or a have-set that grew. Not at any have-set: every piece's
	// answer, a busy one too, carries one, and each busy answer of a
	// holder of all of the layer let the node ask again at once for the
	// other pieces refused (a capped holder in the six-node lab received
	// about a megabyte of requests per connection). Cleared only by time,
	// the simulator's three-layer rollout of 100 nodes went from 1.79× to
	// 2.21× (p99).
	refused map[int]time.Time
	// full: not asked before, its slots all taken (Full).
	full time.Time
	// brought is how many pieces it brought since this node last changed
	// whom it follows (rotate).
	brought int
}

// sends is how fast the pieces a seed takes from the upstream leave it:
// its average read rate there, or its upload cap if lower; false: not
// known. The average, not the last second: in the sixteen-node lab a seed
// whose downlink filled with other layers' pieces read at a fifth of the
// others for seconds, and followers that took that for a slow seed read
// the layer beside it (1.37 and 1.59 copies in two runs of four).
func (h *holder) sends() (float64, bool) { return h.read.capped(h.read.avg, h.state.Cap) }

// capped is rate, or limit if lower (limit 0: none); false: neither known.
func (r *readRate) capped(rate float64, limit int64) (float64, bool) {
	switch {
	case limit > 0 && (!r.measured || float64(limit) < rate):
		return float64(limit), true
	case r.measured:
		return rate, true
	}
	return 0, false
}

// readRate is how fast a seed reads from the upstream: rate over the last
// span of at least half of Stall (a slow seed is known before its
// followers would stall on it), avg since its first byte seen (the
// measure of a fast seed: a seed's first second, alone on the registry's
// link, is faster than its share once the others start).
type readRate struct {
	first, at         time.Time
	firstBytes, bytes int64
	rate, avg         float64 // bytes per second
	measured          bool
}

func (r *readRate) observe(now time.Time, total int64, span time.Duration) {
	if r.at.IsZero() || total < r.bytes {
		r.first, r.at, r.firstBytes, r.bytes = now, now, total, total
		return
	}
	if d := now.Sub(r.at); d >= span {
		r.rate, r.measured = float64(total-r.bytes)/d.Seconds(), true
		r.avg = float64(total-r.firstBytes) / now.Sub(r.first).Seconds()
		r.at, r.bytes = now, total
	}
}

// offers reports whether h has piece i, or passes it on as it arrives and
// no piece i passed on to this node was cut short (Cut).
func (s *Session) offers(h *holder, i int) bool {
	return h.state.Have.Has(i) || h.state.Receiving.Has(i) && !s.cut.Has(i)
}

type flight struct {
	from  peer.ID
	start time.Time
}

// Session is one node's fetch of one layer.
type Session struct {
	cfg   Config
	layer Layer
	self  peer.ID
	n     int

	have    Bitfield
	written int // pieces written in order from the start
	// cut are the pieces passed on to this node that were cut short
	// (Cut): asked only of holders that have them.
	cut      Bitfield
	inflight map[int][]flight
	// asking bounds the requests in flight: Requests, less after Slow
	// failures.
	asking int
	// layers is how many layers this node fetches by pieces at once
	// (SetLayers): they share Requests.
	layers  int
	holders map[peer.ID]*holder
	order   []*holder // holders in the order found, for the active set
	// active are the holders asked (Config.Holders), in the order found;
	// every holder of order before next is active or excluded. stated are
	// the holders that sent a state: the only ones with pieces, a seed's
	// flag or a rate.
	active []*holder
	next   int
	stated []*holder
	// live counts the holders not excluded, ahead those of them ranked
	// before this node (stallAfter).
	live, ahead int

	decided bool // the first lookup and probes are in
	seed    bool
	reading bool // a piece came from the upstream: this node reads the layer there
	// pending are the nodes found behind this one while it probes the
	// nodes ranked first (Start, Probed).
	pending []Found
	// upstreamBytes is what this node has read of the layer from the
	// upstream, whole pieces or not (ReadFromUpstream).
	upstreamBytes int64
	upstream      holder // the registry as a source: its slots and rate
	lastArrival   time.Time
	// stalledFor is the piece the stall rule last asked of the upstream
	// (-1: none): it is read to its end (LeavesUpstream).
	stalledFor int
	// yielded is when this seed last stopped reading the upstream because
	// it yields to another (takesUpstream).
	yielded time.Time
	// upstreamFailed is when reading the upstream last failed
	// (UpstreamFailed).
	upstreamFailed time.Time
	// seedWhy is the rule that made this node a seed last (SeedReason).
	seedWhy string

	// readBytes and read are what this node read from the upstream, and
	// how fast; uploadCap is its own upload cap (0: none).
	readBytes int64
	read      readRate
	uploadCap int64
	spare     bool // SpareUplink
	// fastest is the fastest a seed of this node's pull sends its pieces
	// (ComparePull); a seed far slower is slow (Config.SlowSeed) when
	// the registry has room for another reader (SetRegistryRoom).
	fastest float64
	room    bool
	// intake is this node's Intake (SetIntake), mostIntake the most any
	// node of the layer told or this one had.
	intake, mostIntake int64
	// slowSince is when this node found every seed reading the layer slow.
	slowSince time.Time

	// rank is this node's place in the layer's rendezvous order.
	rank string
	// tiebreak orders pieces of equal rarity differently on every node,
	// so that nodes with the same view still ask for different pieces.
	tiebreak []uint64
	// names draws the holders this node names to others.
	names *rand.Rand
	// stateTook are the round trips of the last states asked of holders:
	// eight, not tuned; a slow one is forgotten after eight faster ones,
	// a few polls of the holders followed.
	stateTook [8]time.Duration
	stateN    int
	// rotated is when this node last changed whom it follows (rotate).
	rotated time.Time
	// readBuf is Reading's scratch space.
	readBuf []SeedRead
}

// NewSession starts the fetch of layer by self at now.
func NewSession(cfg Config, layer Layer, self peer.ID, now time.Time) *Session {
	n := layer.Pieces()
	s := &Session{
		cfg: cfg, layer: layer, self: self, n: n,
		have: NewBitfield(n), cut: NewBitfield(n), inflight: map[int][]flight{}, asking: cfg.Requests, layers: 1, holders: map[peer.ID]*holder{},
		upstream: holder{id: Upstream, active: true}, lastArrival: now, stalledFor: -1, tiebreak: make([]uint64, n),
		rank: string(pieceScore(layer.Digest, -1, self)), rotated: now,
	}
	for i := range s.tiebreak {
		s.tiebreak[i] = binary.BigEndian.Uint64(pieceScore(layer.Digest, i, self))
	}
	seed := pieceScore(layer.Digest, -2, self)
	s.names = rand.New(rand.NewPCG(binary.BigEndian.Uint64(seed), binary.BigEndian.Uint64(seed[8:])))
	return s
}

// pieceScore is p's rendezvous score for piece i of layer (-1: for the
// layer): every node computes the same, so seeds agree on which of them
// reads the layer.
func pieceScore(layer digest.Digest, i int, p peer.ID) []byte {
	h := sha256.New()
	h.Write([]byte(layer))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(i))
	h.Write(b[:])
	h.Write([]byte(p))
	return h.Sum(nil)
}

// AddHolders adds nodes that hold or fetch the layer: found by a lookup,
// named by a holder, or a probed node that pulls it.
func (s *Session) AddHolders(ids ...peer.ID) {
	for _, id := range ids {
		if id == s.self || id == Upstream {
			continue
		}
		if _, ok := s.holders[id]; ok {
			continue
		}
		h := &holder{id: id, rank: string(pieceScore(s.layer.Digest, -1, id))}
		s.holders[id] = h
		s.order = append(s.order, h)
		s.live++
		if h.rank > s.rank {
			s.ahead++
		}
	}
	s.fillActive()
}

// Decided says the first lookup and probes are in: with no holder known,
// this node takes the layer from the upstream (a lone miss waits for
// nobody).
func (s *Session) Decided(now time.Time) {
	if s.decided {
		return
	}
	s.decided = true
	s.lastArrival = now
	if s.liveHolders() == 0 {
		s.becomeSeed(now, "no holder found")
	}
}

// becomeSeed makes this node a seed, for why (SeedReason), at now (zero:
// not known).
func (s *Session) becomeSeed(now time.Time, why string) {
	s.seed, s.seedWhy = true, why
	if !now.IsZero() {
		s.seedWhy += fmt.Sprintf("; last progress %s before", now.Sub(s.lastArrival).Round(time.Millisecond))
	}
}

// Seed reports whether this node may take pieces from the upstream.
func (s *Session) Seed() bool { return s.seed }

// SeedReason says which rule made this node a seed last, for its log.
func (s *Session) SeedReason() string { return s.seedWhy }

// Reads reports whether a piece came to this node from the upstream: it
// reads the layer there.
func (s *Session) Reads() bool { return s.reading }

// ReadFromUpstream tells the session how many bytes of the layer this node
// has read from the upstream so far, whole pieces or not: what its state
// tells peers, who count a seed as reading from its first byte. A seed
// judges itself alike: one that counted only whole pieces yielded, having
// read 41 KB of its first, to a seed ranked after it that had yielded to
// it already, and the sixteen-node lab saw an 8 MiB layer's seeds open and
// close bodies for a minute and seven nodes read it.
func (s *Session) ReadFromUpstream(n int64) { s.upstreamBytes = max(s.upstreamBytes, n) }

// readSome reports whether this node has read any of the layer from the
// upstream, as its peers see it.
func (s *Session) readSome() bool { return s.reading || s.upstreamBytes > 0 }

// Seeds counts the live holders that say they take pieces from the
// upstream, and those of them that have read some there.
func (s *Session) Seeds() (seeds, reading int) {
	for _, h := range s.stated {
		if !h.excluded && h.state.Seed {
			seeds++
			if h.state.Upstream > 0 {
				reading++
			}
		}
	}
	return seeds, reading
}

// Have is this node's have-set, to send to others.
func (s *Session) Have() Bitfield { return s.have }

// Complete reports whether every piece is held.
func (s *Session) Complete() bool { return s.have.Count() == s.n }

// Written is how many pieces from the start have been written.
func (s *Session) Written() int { return s.written }

// Active are the holders whose have-sets the driver keeps fresh.
func (s *Session) Active() []peer.ID {
	var ids []peer.ID
	for _, h := range s.active {
		ids = append(ids, h.id)
	}
	return ids
}

// Known are every holder not excluded: the names a node passes on.
func (s *Session) Known() []peer.ID {
	var ids []peer.ID
	for _, h := range s.order {
		if !h.excluded {
			ids = append(ids, h.id)
		}
	}
	return ids
}

// Names are up to k holders to name to a node that asks: those that read
// the layer from the upstream first (a node that does not know them sees
// no seed, stalls, and reads the layer again: at sixteen nodes in the lab
// a node that turned seed late stayed unknown to some), then the others
// at random. Holders named by the pieces they hold, the most first, drew
// every node to the same few (simulator, 100 nodes: p50 5.41× against
// 1.76× at random, the seed uploading 5.8 copies).
func (s *Session) Names(k int) []peer.ID {
	known := s.Known()
	s.names.Shuffle(len(known), func(i, j int) { known[i], known[j] = known[j], known[i] })
	slices.SortStableFunc(known, func(a, b peer.ID) int {
		return s.reader(b) - s.reader(a)
	})
	return known[:min(len(known), k)]
}

// reader is 1 if holder id reads the layer from the upstream.
func (s *Session) reader(id peer.ID) int {
	if st := s.holders[id].state; st.Seed && st.Upstream > 0 {
		return 1
	}
	return 0
}

func (s *Session) liveHolders() int { return s.live }

// fillActive keeps Config.Holders holders active, in the order found.
func (s *Session) fillActive() {
	for s.next < len(s.order) && len(s.active) < s.cfg.Holders {
		h := s.order[s.next]
		s.next++
		if !h.excluded {
			h.active = true
			s.active = append(s.active, h)
		}
	}
}

// reserve reports whether a holder found and not followed may be.
func (s *Session) reserve() bool {
	for _, h := range s.order[s.next:] {
		if !h.excluded {
			return true
		}
	}
	return false
}

// Update records a holder's state, as its have-set answer says, at now.
// A holder gaining pieces is progress: the swarm is moving, and the stall
// rule waits on.
func (s *Session) Update(now time.Time, id peer.ID, st HolderState) {
	s.AddHolders(id)
	h, ok := s.holders[id]
	if !ok {
		return
	}
	if !h.stated {
		h.stated = true
		s.stated = append(s.stated, h)
	}
	s.mostIntake = max(s.mostIntake, st.Intake)
	// A holder gaining pieces, taking them from the upstream now, or
	// reading more of them there is progress: the pieces are on their way.
	// A seed's first piece can take seconds when the registry's link is
	// shared by many seeds; its bytes show it is not stuck.
	if !h.excluded && (st.Have.Count() > h.state.Have.Count() || (st.Seed && !h.state.Seed) || st.Upstream > h.state.Upstream || s.readMore(st.Reading, h.state.Reading)) {
		s.lastArrival = now
	}
	if st.Seed && !h.state.Seed && st.Upstream == 0 {
		// A seed that has just taken the layer has read nothing yet: its
		// first bytes wait for the registry's answer, then for its next
		// state. In the sixteen-node lab at 8 Mbit/s the answer came
		// 0.1–1.9 s after the claim, and followers that stalled 2 s later
		// read the layer beside it (three readers of one layer in a run).
		// The claim counts as progress for a stall time more.
		s.lastArrival = now.Add(s.cfg.Stall)
	}
	if st.Seed && st.Upstream > 0 {
		h.read.observe(now, st.Upstream, s.cfg.Stall/2)
	}
	if st.Crowded && h.active && s.reserve() {
		// Followed no longer, but still known: its seed flag and its
		// progress count for the stall rule, and others pass them on.
		s.active = slices.DeleteFunc(s.active, func(a *holder) bool { return a == h })
		h.active = false
		s.fillActive()
	}
	if st.Have.Count() > h.state.Have.Count() {
		h.refused = nil // it moves: asked again at once, as before a piece time
	} else {
		maps.DeleteFunc(h.refused, func(_ int, until time.Time) bool { return !now.Before(until) })
	}
	h.state = st
}

// Reading are the seeds of the layer this node knows of, itself
// included, each with the most bytes of the layer it has read from the
// upstream, as the seed or the holders this node follows told
// (HolderState.Reading); at most MaxReaders, those furthest along. Passed
// on in this node's state, it shows the nodes that follow it that the
// layer moves though no holder they follow has gained a piece yet: with a
// hundred nodes at 100 s size ÷ link, a seed's first pieces took longer
// than a stall to reach the holders some nodes followed, and a second
// node read the whole layer beside it, neither following the other
// (simulator, one 64 MiB layer: 1.99 upstream copies, p50 2.09×).
//
// A seed this node caught sending bad pieces is left out, and is no
// progress when others tell of it: the bytes a corrupting seed read were
// passed on as the layer moving by nodes that had all dropped it, and
// none stalled until it had read the whole layer (simulator, 100 nodes,
// 1 s size ÷ link, the first seed corrupting every piece: p99 60.38×
// before, 3.98× with this).
func (s *Session) Reading() []SeedRead {
	r := s.readBuf[:0]
	add := func(id peer.ID, n int64) {
		for k := range r {
			if r[k].Seed == id {
				r[k].Bytes = max(r[k].Bytes, n)
				return
			}
		}
		r = append(r, SeedRead{Seed: id, Bytes: n})
	}
	if s.seed && s.upstreamBytes > 0 {
		add(s.self, s.upstreamBytes)
	}
	for _, h := range s.stated {
		if h.excluded {
			continue
		}
		if h.state.Seed && h.state.Upstream > 0 {
			add(h.id, h.state.Upstream)
		}
		for _, sr := range h.state.Reading {
			if sr.Seed != s.self && !s.caught(sr.Seed) {
				add(sr.Seed, sr.Bytes)
			}
		}
	}
	s.readBuf = r
	if len(r) == 0 {
		return nil
	}
	slices.SortFunc(r, func(a, b SeedRead) int {
		if c := cmp.Compare(b.Bytes, a.Bytes); c != 0 {
			return c
		}
		return strings.Compare(string(a.Seed), string(b.Seed))
	})
	return slices.Clone(r[:min(len(r), MaxReaders)])
}

// SeedRead is how many bytes of the layer a seed has read from the
// upstream.
type SeedRead struct {
	Seed  peer.ID
	Bytes int64
}

// MaxReaders bounds the seeds a state tells of (HolderState.Reading): a
// layer has one seed reading it at a time, and a few more while seeds
// hand over or a slow one is replaced; the bound is on a peer's input.
const MaxReaders = 8

// readMore reports whether now tells of a seed, not one this node caught
// sending bad pieces, that has read more than before told.
func (s *Session) readMore(now, before []SeedRead) bool {
	for _, sr := range now {
		if sr.Seed == s.self || s.caught(sr.Seed) {
			continue
		}
		var was int64
		if i := slices.IndexFunc(before, func(b SeedRead) bool { return b.Seed == sr.Seed }); i >= 0 {
			was = before[i].Bytes
		}
		if sr.Bytes > was {
			return true
		}
	}
	return false
}

// caught reports whether id sent this node bad pieces of the layer.
func (s *Session) caught(id peer.ID) bool {
	h, ok := s.holders[id]
	return ok && h.corrupt
}

// Moving records that bytes of a piece asked of a holder arrived at now:
// the fetch is slow, not stalled.
func (s *Session) Moving(now time.Time) { s.lastArrival = now }

// StateAnswered records that holder id answered a state asked of it: the
// pieces it refused are asked of it again.
func (s *Session) StateAnswered(id peer.ID) {
	if h, ok := s.holders[id]; ok {
		h.refused = nil
	}
}

// SetUploadCap tells the session this node's own upload cap (bytes per
// second to peers, all together; 0: none).
func (s *Session) SetUploadCap(bytesPerSecond int64) { s.uploadCap = bytesPerSecond }

// SetLayers says how many layers (this one included) the node fetches by
// pieces now: Requests bounds the pieces in flight into its downlink, not
// into each layer's. The next-needed piece is asked whatever the bound.
func (s *Session) SetLayers(n int) { s.layers = max(n, 1) }

// SpareUplink makes this node, capped or serving nothing, the last of the
// nodes it knows to take the layer from the upstream when they stall.
func (s *Session) SpareUplink() { s.spare = true }

// seedRate is how fast the fastest seed this session knows (this node
// included) read the layer from the upstream, on average since it began;
// 0: none measured (ComparePull).
func (s *Session) seedRate() float64 {
	best := 0.0
	if s.read.measured {
		best = s.read.avg
	}
	for _, h := range s.stated {
		if h.read.measured && !h.excluded {
			best = max(best, h.read.avg)
		}
	}
	return best
}

// SetFastestSeed sets how fast the fastest seed of this node's pull (this
// layer's and the others') sends its pieces, as ComparePull does.
func (s *Session) SetFastestSeed(rate float64) { s.fastest = rate }

// readingRate is how fast the layer is read from the upstream now: the
// fastest current rate of the seeds that read it (this node included);
// 0 when none reads (ComparePull).
func (s *Session) readingRate() float64 {
	best := 0.0
	if s.seed && s.reading && s.read.measured && !s.Yields() {
		best = s.read.rate
	}
	for _, h := range s.stated {
		if !h.excluded && h.state.Seed && h.read.measured && h.state.Have.Count() < s.n {
			best = max(best, h.read.rate)
		}
	}
	return best
}

// SetIntake tells the session how many bytes per second this node
// receives now, from the upstream and from peers, for every layer.
func (s *Session) SetIntake(bytesPerSecond int64) {
	s.intake = bytesPerSecond
	s.mostIntake = max(s.mostIntake, bytesPerSecond)
}

// SetRegistryRoom tells the session whether the registry has room for
// another reader: the seeds of this node's pull read, in all, at less
// than half the most they have read at once. A seed slow for its share of
// a full registry link gains nothing from a second reader beside it: in
// the sixteen-node lab at 20 Mbit/s, where the registry's link is the
// nodes', followers that read a layer beside a seed slowed by its own
// downloads cost 1.26 and 1.37 copies and no time.
func (s *Session) SetRegistryRoom(room bool) { s.room = room }

// slow reports whether h is a seed whose pieces leave it at less than
// 1/SlowSeed of the fastest seed's rate. One that stopped reading (it
// yielded, or waits) is slow once measured.
// A seed capped below the fastest seed's read rate is slow too: a
// follower reading the layer itself would pass it on faster.
func (s *Session) slow(h *holder) bool {
	r, ok := h.sends()
	return h.state.Seed && ok && s.slower(r, h.state.Cap, h.state.Intake)
}

// selfSlow is slow for this node as a seed.
func (s *Session) selfSlow() bool {
	r, ok := s.read.capped(s.read.avg, s.uploadCap)
	return s.seed && s.reading && ok && s.slower(r, s.uploadCap, s.intake)
}

// slower: a seed that sends at sends, capped at limit, and receives
// intake is slow. Read rates alone misjudge seeds that share the
// registry's link: in the sixteen-node lab (all links alike) seeds read at
// a fifth of the fastest and followers read their layers beside them in
// one run of three (1.06 copies). A seed slowed by its share still
// receives other layers' pieces at its link's rate; a seed on a slow link
// receives nothing faster. An intake not told (an older node, or none
// measured yet) leaves read rates to judge.
func (s *Session) slower(sends float64, limit, intake int64) bool {
	slowLink := intake <= 0 || float64(intake)*s.cfg.SlowSeed < float64(s.mostIntake)
	return (s.room && slowLink && sends*s.cfg.SlowSeed < s.fastest) || (limit > 0 && float64(limit) < s.fastest)
}

// Received records piece i from src, verified, at now. It returns the
// other requests for the piece, now useless, for the driver to cancel.
func (s *Session) Received(now time.Time, i int, src peer.ID) (cancel []Request) {
	for _, f := range s.inflight[i] {
		h := s.source(f.from)
		if h != nil {
			h.inflight--
		}
		if f.from == src {
			if h != nil {
				h.brought++
				s.measure(h, s.layer.PieceLen(i), now.Sub(f.start))
			}
			if src != Upstream {
				s.asking = min(s.asking+1, s.cfg.Requests)
			}
			continue
		}
		cancel = append(cancel, Request{Piece: i, From: f.from})
	}
	delete(s.inflight, i)
	if s.have.Set(i) {
		s.lastArrival = now
		s.reading = s.reading || src == Upstream
		if src == Upstream {
			s.readBytes += s.layer.PieceLen(i)
			s.read.observe(now, s.readBytes, s.cfg.Stall/2)
		}
	}
	return cancel
}

// measure folds one piece's transfer into h's rate.
func (s *Session) measure(h *holder, n int64, took time.Duration) {
	if took <= 0 {
		took = time.Microsecond
	}
	r := float64(n) / took.Seconds()
	if h.rate == 0 {
		h.rate = r
		return
	}
	h.rate = 0.5*h.rate + 0.5*r
}

// Failed records that the request for piece i from src brought nothing.
func (s *Session) Failed(now time.Time, i int, src peer.ID, why Failure) {
	fl := s.inflight[i]
	for k, f := range fl {
		if f.from == src {
			fl = slices.Delete(fl, k, k+1)
			if h := s.source(src); h != nil {
				h.inflight--
			}
			break
		}
	}
	if len(fl) == 0 {
		delete(s.inflight, i)
	} else {
		s.inflight[i] = fl
	}
	h, ok := s.holders[src]
	if !ok {
		return
	}
	switch why {
	case Unavailable, Cut:
		h.state.Have = nil // asked again once its have-set says so
		if why == Cut {
			s.cut.Set(i)
		}
	case Busy, Slow, Full:
		if why == Slow {
			s.asking = max(s.asking/2, 1)
		}
		if h.refused == nil {
			h.refused = map[int]time.Time{}
		}
		// One piece time at its rate; before any rate is measured (1 byte
		// a second), at most a quarter of Stall, about as often as its
		// state is asked.
		wait := time.Duration(float64(s.layer.PieceLen(i)) / s.rateOf(h) * float64(time.Second))
		h.refused[i] = now.Add(min(wait, s.cfg.Stall/4))
		if why == Full && s.rateOf(h) > 1 {
			// Not before a rate is known: the guess, Stall/4, kept sixteen
			// nodes off their seed at the start (1 s layers: 3.71× p99,
			// against 2.44× with this).
			h.full = h.refused[i]
		}
	case Corrupt, Gone:
		s.exclude(h, why)
	}
}

// Lost records that src left or cannot be trusted (why is Gone or
// Corrupt): its requests are over and it is never asked again.
func (s *Session) Lost(src peer.ID, why Failure) {
	h, ok := s.holders[src]
	if !ok {
		return
	}
	for i, fl := range s.inflight {
		fl = slices.DeleteFunc(fl, func(f flight) bool { return f.from == src })
		if len(fl) == 0 {
			delete(s.inflight, i)
		} else {
			s.inflight[i] = fl
		}
	}
	h.inflight = 0
	s.exclude(h, why)
}

// exclude leaves h for the rest of the layer, why being Gone or Corrupt.
func (s *Session) exclude(h *holder, why Failure) {
	h.corrupt = h.corrupt || why == Corrupt
	if h.excluded {
		return
	}
	if h.active {
		s.active = slices.DeleteFunc(s.active, func(a *holder) bool { return a == h })
	}
	h.excluded, h.active = true, false
	s.live--
	if h.rank > s.rank {
		s.ahead--
	}
	s.fillActive()
	if s.liveHolders() == 0 {
		s.becomeSeed(time.Time{}, "every holder gone") // nobody left to wait for
	}
}

// Wrote records that the first k pieces are written: the window moves.
func (s *Session) Wrote(k int) {
	s.written = max(s.written, min(k, s.n))
}

func (s *Session) source(id peer.ID) *holder {
	if id == Upstream {
		return &s.upstream
	}
	return s.holders[id]
}

// Next is the requests to start at now.
func (s *Session) Next(now time.Time) []Request {
	if !s.decided {
		return nil
	}
	var reqs []Request
	lo, hi := s.written, min(s.n, s.written+s.cfg.Window)
	urgent := -1
	for i := lo; i < hi; i++ {
		if !s.have.Has(i) {
			urgent = i
			break
		}
	}
	if urgent < 0 {
		return nil
	}
	if s.seed && !s.readSome() && s.readerKnown() {
		// A seed that has read nothing leaves the layer to one that reads,
		// for good: one that only yielded, stalled later and read a piece,
		// read on while busy holders held the pieces it lacked (sixteen
		// nodes: 0.27 copies of a 96 MiB image more in one run of five).
		s.seed = false
	}
	stalled := now.Sub(s.lastArrival) >= s.stallAfter()
	if stalled && !s.seed && !s.readerKnown() {
		s.becomeSeed(now, "stalled, no seed reads") // nobody brought a piece for Stall: this node reads the layer
	}
	if s.onlySlowReaders() && !s.seed {
		// Pieces trickle in from a slow seed, so nothing stalls: this
		// node reads the layer too after the stall time (the first
		// ranked of its followers goes first), and the slow seed yields.
		if s.slowSince.IsZero() {
			s.slowSince = now
		}
		if now.Sub(s.slowSince) >= s.stallAfter() {
			s.becomeSeed(now, fmt.Sprintf("only slow seeds read (%s; the pull's fastest %.0f B/s)", s.seedRates(), s.fastest))
		}
	} else {
		s.slowSince = time.Time{}
	}
	if fl := s.inflight[urgent]; len(fl) == 0 {
		if r, ok := s.assign(now, urgent, false); ok {
			reqs = append(reqs, r)
		}
	}
	bound := min(s.asking, (s.cfg.Requests+s.layers-1)/s.layers)
	var left []int // not asked: the bound is reached, or nobody may be asked
	for _, i := range s.candidates(lo, hi) {
		if s.requests() >= bound {
			left = append(left, i)
			continue
		}
		if r, ok := s.assign(now, i, false); ok {
			reqs = append(reqs, r)
		} else {
			left = append(left, i)
		}
	}
	if s.requests() < bound && len(left) > 0 {
		s.rotate(now)
	}
	// A late urgent piece is asked of a second source only when the
	// node has nothing else to ask (room under the bound, or no other
	// piece offered): a hedge's loser is bytes in vain, and while other
	// pieces fill the downlink, the late one holds nothing up but the
	// write position.
	if fl := s.inflight[urgent]; len(fl) == 1 && s.overdue(fl[0], urgent, now) && (s.requests() < bound || !s.offered(left)) {
		if r, ok := s.assign(now, urgent, true); ok {
			reqs = append([]Request{r}, reqs...)
		}
	}
	return reqs
}

// RotateEvery is how often at most a node that wants pieces its holders
// do not send it (room under Requests, and pieces of its window left
// unasked: no holder followed has them, or those that have them are busy,
// full or at PerHolder) stops following the holder that brought it the
// fewest pieces since and follows the next one found instead. A node
// follows the first holders it finds; at 1,000 nodes about half of the
// uplinks' free slots were at holders that no node wanting their pieces
// followed. Simulator, one 64 MiB layer at 8 s size ÷ link, 5 ms hop,
// p99 (seeds of the run): 300 nodes 1.35–1.37× → 1.31–1.36× (three),
// 1,000 nodes 1.48×, 1.45× → 1.43×, 1.40× (two); at 1 s size ÷ link no
// change (1,000 nodes 2.23× → 2.24×). Rotating every 250 ms, 500 ms and
// 2 s gave 1.42×, 1.36× and 1.33× at 300 nodes (one seed; 1 s 1.32×).
const RotateEvery = time.Second

// rotate stops following, at most every RotateEvery, the holder followed
// that brought the fewest pieces since the last time, and follows the
// next holder found in reserve; the one left goes to the back of the
// reserve. A seed, and a holder with a request in flight, are kept.
func (s *Session) rotate(now time.Time) {
	if now.Sub(s.rotated) < RotateEvery || !s.reserve() {
		return
	}
	s.rotated = now
	var least *holder
	for _, h := range s.active {
		if !h.state.Seed && h.inflight == 0 && (least == nil || h.brought < least.brought) {
			least = h
		}
	}
	for _, h := range s.active {
		h.brought = 0
	}
	if least == nil {
		return
	}
	s.active = slices.DeleteFunc(s.active, func(a *holder) bool { return a == least })
	least.active = false
	k := slices.Index(s.order, least)
	s.order = append(slices.Delete(s.order, k, k+1), least)
	s.next--
	s.fillActive()
}

// requests is how many requests are in flight.
func (s *Session) requests() int {
	n := 0
	for _, fl := range s.inflight {
		n += len(fl)
	}
	return n
}

// candidates are the window's pieces not held and not asked for, rarest
// first among the holders known.
func (s *Session) candidates(lo, hi int) []int {
	var c []int
	count := make([]int, hi-lo)
	for i := lo; i < hi; i++ {
		if s.have.Has(i) || len(s.inflight[i]) > 0 {
			continue
		}
		c = append(c, i)
		for _, h := range s.active {
			if s.offers(h, i) {
				count[i-lo]++
			}
		}
	}
	slices.SortFunc(c, func(a, b int) int {
		ca, cb := count[a-lo], count[b-lo]
		if ca != cb {
			return ca - cb
		}
		if ca == 0 {
			return a - b // from the upstream, in order: one stream reads on
		}
		if s.tiebreak[a] < s.tiebreak[b] {
			return -1
		}
		return 1
	})
	return c
}

// offered reports whether a holder followed offers one of pieces.
func (s *Session) offered(pieces []int) bool {
	for _, i := range pieces {
		for _, h := range s.active {
			if s.offers(h, i) {
				return true
			}
		}
	}
	return false
}

// assign picks the source of piece i: the holder that should bring it
// soonest, or the upstream when this node is the seed that takes it there.
func (s *Session) assign(now time.Time, i int, hedge bool) (Request, bool) {
	var best *holder
	var bestTime float64
	others, unspent := s.offeredBeyond(i)
	for _, h := range s.active {
		if h.inflight >= s.cfg.PerHolder || !s.offers(h, i) || s.asked(i, h.id) {
			continue
		}
		// A seed's uplink is the only way out for the pieces it took from
		// the upstream: it is asked only for pieces no other holder has.
		if h.state.Seed && others {
			continue
		}
		if h.state.Spent && unspent {
			continue
		}
		if until, ok := h.refused[i]; ok && now.Before(until) {
			continue
		}
		if now.Before(h.full) {
			continue
		}
		t := float64(h.inflight+h.state.Load+1) / s.rateOf(h)
		if best == nil || t < bestTime {
			best, bestTime = h, t
		}
	}
	if best != nil {
		r := s.start(now, i, best, hedge)
		r.Only = s.offeredOnlyBy(i, best)
		return r, true
	}
	if s.upstream.inflight < s.cfg.PerHolder && !s.asked(i, Upstream) && s.takesUpstream(i, now) {
		if s.stalled(i, now) {
			s.stalledFor = i
		}
		return s.start(now, i, &s.upstream, hedge), true
	}
	return Request{}, false
}

// offeredBeyond reports whether an active holder that is not a seed
// offers piece i, and whether one that has not sent its share and may be
// asked does: a seed is not, when others offer the piece. (Counting the
// seed as unspent left a piece that a spent node and the seed alone held
// asked of neither: in the simulator, sixteen nodes waited for the stall
// rule at each such piece, and took 13× size ÷ link.)
func (s *Session) offeredBeyond(i int) (beyondSeeds, unspent bool) {
	for _, h := range s.active {
		if s.offers(h, i) && !h.state.Seed {
			beyondSeeds = true
			unspent = unspent || !h.state.Spent
		}
	}
	if beyondSeeds {
		return true, unspent
	}
	for _, h := range s.active {
		if s.offers(h, i) && !h.state.Spent {
			return false, true
		}
	}
	return false, false
}

// offeredOnlyBy reports whether no holder followed but h offers piece i
// that this node may ask (a seed is not asked when others offer it).
func (s *Session) offeredOnlyBy(i int, h *holder) bool {
	for _, o := range s.active {
		if o != h && s.offers(o, i) && (!o.state.Seed || h.state.Seed) {
			return false
		}
	}
	return true
}

func (s *Session) start(now time.Time, i int, h *holder, hedge bool) Request {
	h.inflight++
	s.inflight[i] = append(s.inflight[i], flight{from: h.id, start: now})
	return Request{Piece: i, From: h.id, Hedge: hedge}
}

func (s *Session) asked(i int, id peer.ID) bool {
	for _, f := range s.inflight[i] {
		if f.from == id {
			return true
		}
	}
	return false
}

// takesUpstream reports whether this node takes piece i from the upstream:
// a seed does unless it yields to another (Yields); any node does when i
// is the next needed piece and nothing moved for Stall.
//
// A seed that stopped reading because it yielded reads again, short of a
// stall, only a stall time later. Whether it yields turns on the rates of
// the pull's seeds, its own among them, and its own stops with it: in the
// sixteen-node lab at 20 Mbit/s a seed that yielded and read again within
// milliseconds opened 898 registry bodies for one layer, each abandoned
// with its bytes in flight (1.92 upstream copies).
func (s *Session) takesUpstream(i int, now time.Time) bool {
	if now.Sub(s.upstreamFailed) < s.cfg.Stall {
		return false
	}
	return s.stalled(i, now) || s.seed && !s.Yields() && now.Sub(s.yielded) >= s.cfg.Stall
}

// stalled reports whether i is the next needed piece and nothing moved for
// the stall time.
func (s *Session) stalled(i int, now time.Time) bool {
	return i == s.firstMissing() && now.Sub(s.lastArrival) >= s.stallAfter()
}

// Yields reports whether this seed leaves the upstream to another seed
// that reads the layer there and has read more of it (of two that read as
// much, the one ranked first), or to a holder of all of it. One seed reads
// a layer over one body: seeds that split a layer in blocks passed over
// each other's blocks, each skip a new range request whose bytes in flight
// the registry counted as sent (six-node lab: 1.33 and 1.41 copies).
// Counts only grow and each seed weighs its own now against the other's
// as last told, so two seeds cannot both yield by this rule; by rank they
// could, when the first's registry body was slow to start (sixteen-node
// lab: 1.04 and 1.07 copies in two runs of five). A holder of all of the
// layer hands the rest over sooner than the registry, unless it is capped
// below the pull's seeds (a just-restarted holder of a 5 GiB layer, found
// late, left its asker reading 1.9 GB of it from the registry).
func (s *Session) Yields() bool {
	if !s.seed {
		return false
	}
	for _, h := range s.stated {
		if s.reads(h) && (s.readLess(h) || s.selfSlow() || s.spare) {
			return true
		}
		if !h.excluded && h.state.Have.Count() == s.n && !(h.state.Cap > 0 && float64(h.state.Cap) < s.fastest) {
			return true
		}
	}
	return false
}

// readLess reports whether this node has read less of the layer from the
// upstream than h says it has (as much: h is ranked first).
func (s *Session) readLess(h *holder) bool {
	return h.state.Upstream > s.upstreamBytes || h.state.Upstream == s.upstreamBytes && h.rank > s.rank
}

// onlySlowReaders reports whether the seeds reading the layer are all
// slow, and no live holder has all of it.
func (s *Session) onlySlowReaders() bool {
	slow := false
	for _, h := range s.stated {
		if h.excluded {
			continue
		}
		if s.reads(h) || h.state.Have.Count() == s.n {
			return false
		}
		slow = slow || (h.state.Seed && h.state.Upstream > 0)
	}
	return slow
}

// seedRates lists the average read rates of the seeds of the layer this
// node knows, for its log.
func (s *Session) seedRates() string {
	var rates []string
	for _, h := range s.stated {
		if !h.excluded && h.state.Seed && h.read.measured {
			rates = append(rates, fmt.Sprintf("%.0f B/s", h.read.avg))
		}
	}
	return "seeds at " + strings.Join(rates, ", ")
}

// readerKnown reports whether a live holder is a seed that reads the
// layer from the upstream, or holds all of it (a seed that has finished
// the layer says it holds it, no longer that it reads it). A node that
// stalls while one does takes the piece it waits for from the upstream
// but does not become a seed: it would read on, and a seed ranked after
// it would yield to it, from further along the layer. At sixteen nodes,
// nodes starved while their holders had finished the layer read the rest
// of it (0.20 copies of the image in one run of five).
func (s *Session) readerKnown() bool {
	for _, h := range s.stated {
		if s.reads(h) || (!h.excluded && h.state.Have.Count() == s.n) {
			return true
		}
	}
	return false
}

// reads reports whether h is a seed that reads the layer from the
// upstream, and is not slow. A seed that says it yields does not: nodes
// judge whether a seed is slow each from its own measures (rates seen
// through states, its own pull's fastest seed and intake), and a seed
// that judged itself slow could yield to one that judged it fast and
// yielded to it, leaving nobody reading; by what each says of itself, one
// of them reads.
func (s *Session) reads(h *holder) bool {
	return !h.excluded && h.state.Seed && !h.state.Yields && h.state.Upstream > 0 && !s.slow(h)
}

// LeavesUpstream reports whether this node should stop reading the
// upstream at now: it is not stalled (the stall rule takes the next
// needed piece there), and it is a seed that yields or no seed at all (it
// took the piece it stalled on, or gave up its seed's claim; an idle body
// holds one of containerd's requests to the registry).
//
// The piece the stall rule asked there is read to its end first: a stall
// time measured through full links varies with every state's round trip,
// and a node that left as soon as it measured no stall, and came back
// when it measured one again, opened a new body every few hundred
// milliseconds, each abandoned with the bytes in flight (sixteen-node lab
// at 8 Mbit/s: 1.94 upstream copies).
func (s *Session) LeavesUpstream(now time.Time) bool {
	if now.Sub(s.lastArrival) >= s.stallAfter() || s.asked(s.stalledFor, Upstream) {
		return false
	}
	return !s.seed || s.Yields()
}

// StopUpstream records that the requests to the upstream ended unanswered:
// the driver stopped reading there (this node yields to another seed).
//
// The stall time starts again: a node that left the upstream takes a piece
// there again only after a whole stall time without progress.
func (s *Session) StopUpstream(now time.Time) {
	s.lastArrival = now
	if s.seed && s.Yields() {
		s.yielded = now
	}
	s.dropUpstream(now)
}

// UpstreamFailed records that reading the upstream failed at now: its
// requests ended unanswered. Their pieces are asked of the holders that
// offer them, and the upstream again only a stall time later. It reports
// whether the fetch fails: the upstream failed before and nothing moved
// since. In the sixteen-node lab a node behind a link at a tenth of the
// others' could not connect to the registry once ("no route to host"
// through its full queue), and its pull failed while peers held every
// piece it lacked.
func (s *Session) UpstreamFailed(now time.Time) (fails bool) {
	fails = !s.upstreamFailed.IsZero() && !s.lastArrival.After(s.upstreamFailed)
	s.upstreamFailed = now
	s.dropUpstream(now)
	return fails
}

// dropUpstream ends the requests in flight to the upstream, unanswered.
func (s *Session) dropUpstream(now time.Time) {
	for i, fl := range s.inflight {
		if slices.ContainsFunc(fl, func(f flight) bool { return f.from == Upstream }) {
			s.Failed(now, i, Upstream, Unavailable)
		}
	}
}

// StateTook records how long a holder took to answer a state asked of it.
// Silence is known only once states asked after it have come back: the
// stall rule waits that much longer. In the sixteen-node lab at 20 Mbit/s
// a state took 1–1.5 s to come back through links full of pieces, and
// nodes stalled at 2 s without the state that would have shown them a
// seed (each such node read the layer again).
func (s *Session) StateTook(d time.Duration) {
	s.stateTook[s.stateN%len(s.stateTook)] = d
	s.stateN++
}

// stateLatency is the longest of the last round trips of states.
func (s *Session) stateLatency() time.Duration {
	return slices.Max(s.stateTook[:])
}

// stallAfter is how long this node waits with no progress before it takes
// pieces from the upstream itself: Stall, and a share of Stall for every
// live holder it knows that ranks before it (by rendezvous on the layer).
// Nodes that stall together then go one after the other, and the first's
// seed flag and pieces reach the others before their turn: in the lab,
// six nodes waiting on a node that had not started the layer all went
// upstream at the same moment (1.80 copies).
func (s *Session) stallAfter() time.Duration {
	before := s.ahead
	if s.spare {
		before = s.live // a node that spares its uplink goes last
	}
	return s.cfg.Stall + s.cfg.Stall*time.Duration(before)/time.Duration(s.live+1) + s.stateLatency()
}

func (s *Session) firstMissing() int {
	for i := s.written; i < s.n; i++ {
		if !s.have.Has(i) {
			return i
		}
	}
	return -1
}

// rateOf is h's measured rate, or, before its first piece, the best rate
// measured of any holder: a new holder is tried as if it were as good;
// never more than its upload cap. A capped holder taken for as fast as
// the others was asked for pieces others had, and asked again after a
// busy answer every few milliseconds: in the six-node lab a node capped
// at a tenth of its link answered thousands of requests busy, and its
// uplink carried pieces others could send while its own seed's waited.
func (s *Session) rateOf(h *holder) float64 {
	r := h.rate
	if r <= 0 {
		r = 1.0
		for _, o := range s.stated {
			r = max(r, o.rate)
		}
	}
	if h.state.Cap > 0 {
		r = min(r, float64(h.state.Cap))
	}
	return r
}

// overdue reports whether f, the only request for piece i, has taken
// longer than its source should (hedgeAfter).
func (s *Session) overdue(f flight, i int, now time.Time) bool {
	return now.Sub(f.start) >= s.hedgeAfter(f, i)
}

// hedgeAfter is how long f may take to bring piece i before a second
// source is asked: Hedge times what its source should take at its
// measured rate, or, before its first piece, at the best rate measured of
// any holder (a new holder that is slow is found out in a few piece
// times, not after Stall). Not Stall at most: a rate is measured per
// piece, with the downlink shared by every piece in flight, and at
// 8 Mbit/s a 512 KiB piece alongside seven others takes four seconds, and
// a Stall bound hedged such pieces as a rule: in the sixteen-node lab the
// bytes of cancelled requests went from 0.03-0.11 copies of the image per
// node to 0.01-0.09 without it (one run each). A holder that sends
// nothing at all is cut off by the data path's idle timeout.
func (s *Session) hedgeAfter(f flight, i int) time.Duration {
	h := s.source(f.from)
	if h == nil {
		return s.cfg.Stall
	}
	rate := s.rateOf(h)
	if rate <= 1 {
		return s.cfg.Stall // no rate measured yet
	}
	return time.Duration(s.cfg.Hedge * float64(s.layer.PieceLen(i)) / rate * float64(time.Second))
}

// Wake is when, after now, Next may have new requests though nothing was
// observed: a stall or a late urgent piece. Zero: only an observation
// changes what Next answers.
func (s *Session) Wake(now time.Time) time.Time {
	if !s.decided || s.Complete() {
		return time.Time{}
	}
	var wake time.Time
	consider := func(at time.Time) {
		if at.After(now) && (wake.IsZero() || at.Before(wake)) {
			wake = at
		}
	}
	consider(s.lastArrival.Add(s.stallAfter()))
	if !s.upstreamFailed.IsZero() {
		consider(s.upstreamFailed.Add(s.cfg.Stall))
	}
	if !s.slowSince.IsZero() {
		consider(s.slowSince.Add(s.stallAfter()))
	}
	for _, h := range s.stated {
		for _, at := range h.refused {
			consider(at)
		}
		consider(h.full)
	}
	if u := s.firstMissing(); u >= 0 {
		if fl := s.inflight[u]; len(fl) == 1 {
			consider(fl[0].start.Add(s.hedgeAfter(fl[0], u)))
		}
	}
	return wake
}

// Held is how many pieces past the write position this node holds: the
// window's memory, in pieces.
func (s *Session) Held() int {
	n := 0
	for i := s.written; i < s.n; i++ {
		if s.have.Has(i) {
			n++
		}
	}
	return n
}
