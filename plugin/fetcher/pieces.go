package fetcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/containerd/v2/pkg/tracing"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/recovery"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/window"
)

// pieceFetch is the fetch of one layer by pieces: package swarm decides
// which piece next and from whom; this moves the bytes, verifies each
// piece against a signed piece table before it is held or served, and
// hands the layer to containerd in order, as a body. Every call into the
// session happens on the run goroutine; requests post their outcome to it.
type pieceFetch struct {
	pf     *PeerFirst
	desc   ocispec.Descriptor
	ref    string // containerd's ingest of the layer
	layer  *window.Layer
	sess   *swarm.Session
	ctx    context.Context
	cancel context.CancelFunc
	events chan func()
	done   chan struct{} // run ended
	end    func()        // the layer's offer to peers
	// fetched ends its count among the layers fetched by pieces
	// (Fetcher.fetchingByPieces), once it holds every piece or gives up.
	fetched func()
	began   time.Time
	// decided is when the first lookup and probes were in.
	decided time.Time

	// run goroutine only.
	flights map[flightID]context.CancelFunc
	polling map[peer.ID]bool
	// pollSent is when the last state of each holder was asked, and
	// namesAsked when the last that asked for the holders it names.
	pollSent   map[peer.ID]time.Time
	namesAsked map[peer.ID]time.Time
	// stateCount is how many states holders have answered.
	stateCount int
	named      time.Time // when the holders to name to others were last drawn
	// incoming counts the bytes of pieces arriving from peers, whole or
	// not (request goroutines add to it), and incomingSeen what the
	// session was last told of: on a link at a tenth of the others' a
	// piece takes seconds, and a node that counted only whole pieces took
	// the time between them for a stall and read the layer from the
	// registry.
	incoming     atomic.Int64
	incomingSeen int64
	states       map[peer.ID]swarm.HolderState
	upstream     *upstreamPieces

	// upstreamBytes and byPeer are what pieces came from the upstream and
	// from each peer (run goroutine): the fetch span's source and the
	// log's account.
	upstreamBytes int64
	byPeer        map[peer.ID]int64
	// endSpan ends the fetch's span, with its outcome, when the run ends.
	endSpan func(error)

	seeded bool        // run goroutine: the node tells peers it is a seed
	yields bool        // run goroutine: the node tells peers it yields (swarm.Session.Yields)
	reads  bool        // run goroutine: a piece came from the upstream
	signs  atomic.Bool // a piece came from the upstream: the reader signs tables
	// alone: no peer is known to hold the layer or to follow this node's
	// fetch of it (set false by the run goroutine, never back). The pieces
	// asked of the upstream are then read by the reader itself, straight
	// into containerd's buffer (readDirect), as a fetch without peers is.
	alone     atomic.Bool
	unsigned  bool // pieces were written since the last table signed (f.mu)
	closeOnce sync.Once

	mu       sync.Mutex
	ready    *sync.Cond // a piece was put, or the fetch failed or ended
	next     int        // the piece the reader is in
	off      int        // how far into it
	released int        // the pieces before it are out of memory, in the ingest
	failed   error
	builder  *pieces.TableBuilder
	// fromRegistry are the pieces asked of the upstream, not yet read.
	fromRegistry map[int]bool
	// direct is the upstream body the reader reads itself while the fetch
	// is alone, until the upstream reader takes it over; directPiece is
	// the piece it is in the middle of (-1: none), directBusy whether it
	// reads the body now. directOpening cancels the body the reader waits
	// for (containerd sends three requests to a registry at once, and a
	// fourth waits), and directLeft says it was cancelled because peers
	// appeared: the piece is theirs or the upstream reader's then.
	direct        *openBody
	directPiece   int
	directBusy    bool
	directOpening context.CancelFunc
	directLeft    bool
}

// openBody is an upstream body of the layer, the offset it is at, and
// what ends its request.
type openBody struct {
	rc     io.ReadCloser
	at     int64
	cancel context.CancelFunc
}

// errDirectLeft: the reader stopped waiting for the upstream's body, for
// peers appeared.
var errDirectLeft = errors.New("the upstream body was left to peers")

type flightID struct {
	piece int
	from  peer.ID
}

// errPiecesClosed: the body was closed before the layer was read.
var errPiecesClosed = errors.New("fetch by pieces closed")

// fetchByPieces starts the fetch of desc by pieces from the holders found
// (and those ranked first that pull it), and returns its body. arrival
// ends the layer's offer to peers.
func (pf *PeerFirst) fetchByPieces(ctx context.Context, desc ocispec.Descriptor, holders []peer.AddrInfo, arrival func(), endSpan func(error)) (io.ReadCloser, error) {
	ns, _ := namespaces.Namespace(ctx)
	labels := pf.sourceLabels()
	layer, err := pf.f.opts.Windows.Begin(desc.Digest, desc.Size, ns, labels)
	if err != nil {
		return nil, err
	}
	if arrival == nil {
		arrival = func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	lyr := swarm.Layer{Digest: desc.Digest, Size: desc.Size, PieceSize: layer.PieceSize}
	f := &pieceFetch{
		pf: pf, desc: desc, ref: remotes.MakeRefKey(ctx, desc), layer: layer, sess: swarm.NewSession(pf.f.opts.Swarm, lyr, pf.f.opts.Self, time.Now()),
		ctx: ctx, cancel: cancel, events: make(chan func(), 64), done: make(chan struct{}), end: sync.OnceFunc(arrival),
		flights: map[flightID]context.CancelFunc{}, polling: map[peer.ID]bool{}, pollSent: map[peer.ID]time.Time{}, namesAsked: map[peer.ID]time.Time{},
		states: map[peer.ID]swarm.HolderState{}, builder: pieces.NewTableBuilder(desc.Digest, desc.Size),
		fromRegistry: map[int]bool{}, began: time.Now(), endSpan: endSpan, byPeer: map[peer.ID]int64{}, directPiece: -1,
	}
	f.ready = sync.NewCond(&f.mu)
	pf.f.fetchingByPieces.Add(1)
	f.fetched = sync.OnceFunc(func() { pf.f.fetchingByPieces.Add(-1) })
	f.sess.SetUploadCap(pf.f.opts.UploadCap)
	if pf.f.opts.SpareUplink {
		f.sess.SpareUplink()
	}
	f.decide(ctx, holders)
	f.alone.Store(len(f.sess.Known()) == 0)
	log.G(ctx).WithFields(log.Fields{"digest": desc.Digest, "holders": len(f.sess.Known()), "seed": f.sess.Seed(), "pieces": layer.Pieces}).
		Debug("p2p: fetching a layer by pieces")
	recovery.Go(ctx, "p2p: fetching a layer by pieces", f.run)
	return f, nil
}

// decide tells the session who holds the layer, and it decides whether
// this node takes the layer from the upstream (swarm.Session.Start): the
// holders found, and the peers that asked this node for the layer before
// it began (they fetch it, and one may have waited for this node, stalled
// and taken it from the upstream: window.Registry.AskedEarly), each with
// its state and its rank; then, if the session asks, the nodes ranked
// first.
func (f *pieceFetch) decide(ctx context.Context, holders []peer.AddrInfo) {
	var ids []peer.ID
	for _, h := range holders {
		ids = append(ids, h.ID)
	}
	for _, id := range f.layer.TakeAskers() {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	// A node whose table of this layer failed its digest check here
	// (DiscardCorrupt) is followed no more.
	ids = slices.DeleteFunc(ids, func(id peer.ID) bool { return f.pf.f.penalties.IsCorrupt(id, f.desc.Digest) })
	ord := f.pf.orderBy(f.desc, f.pf.f.opts.Distance)
	found := f.found(ctx, ids, func(id peer.ID) bool { return ord == nil || ord.before(id) })
	if f.sess.Start(time.Now(), found) {
		held, pulls := f.pf.askFirstRanked(ctx, f.desc, ord)
		probed := f.found(ctx, held, func(peer.ID) bool { return true })
		f.sess.Probed(time.Now(), probed, pulls)
		found = append(found, probed...)
	}
	f.decided = time.Now()
	if f.sess.Seed() {
		f.pf.f.stats.LoneMisses.Add(1)
	}
	for _, h := range found {
		if h.State != nil {
			f.states[h.ID] = *h.State
			f.pollSent[h.ID] = f.decided
		}
	}
}

// found is ids with their states (asked at once, within the lookup
// timeout) and whether each ranks before this node.
func (f *pieceFetch) found(ctx context.Context, ids []peer.ID, before func(peer.ID) bool) []swarm.Found {
	states := f.statesOf(ctx, ids)
	out := make([]swarm.Found, len(ids))
	for i, id := range ids {
		out[i] = swarm.Found{ID: id, Before: before(id), State: states[i]}
	}
	return out
}

// statesOf asks each of ids its state of the layer at once, within the
// lookup timeout; nil for those that did not answer one.
func (f *pieceFetch) statesOf(ctx context.Context, ids []peer.ID) []*swarm.HolderState {
	out := make([]*swarm.HolderState, len(ids))
	ctx, cancel := context.WithTimeout(ctx, f.pf.f.opts.LookupTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			st, load, err := f.pf.f.client.SwarmState(ctx, id, f.pf.repo, f.desc, f.layer.CoveredDigests())
			if err == nil && f.addTables(id, st.Tables) {
				hs := st.Holder(load)
				out[i] = &hs
			}
		})
	}
	wg.Wait()
	return out
}

// Read hands the layer to containerd in order, each piece once it is held.
func (f *pieceFetch) Read(p []byte) (int, error) {
	n, wrote, direct, err := f.read(p)
	if direct {
		f.post(func() { f.received(time.Now(), wrote-1, swarm.Upstream) })
	}
	if wrote > 0 {
		f.post(func() { f.sess.Wrote(wrote) })
	}
	return n, err
}

// read copies what is held at the reader's place; wrote > 0 when a piece
// was finished, the count written from the start, and direct when that
// piece was read from the upstream here (readDirect).
func (f *pieceFetch) read(p []byte) (n, wrote int, direct bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for {
		if f.next >= f.layer.Pieces {
			return 0, 0, false, io.EOF
		}
		if f.failed != nil {
			return 0, 0, false, f.failed
		}
		if f.directPiece == f.next || (f.off == 0 && f.fromRegistry[f.next] && f.alone.Load() && !f.layer.Has(f.next)) {
			n, wrote, err := f.readDirect(p)
			if errors.Is(err, errDirectLeft) {
				continue
			}
			return n, wrote, wrote > 0, err
		}
		if b, ok := f.layer.Piece(f.next); ok {
			n := copy(p, b[f.off:])
			return n, f.handed(p[:n]), false, nil
		}
		f.ready.Wait()
	}
}

// handed records b as handed to containerd, the next bytes of the layer;
// it returns the count of pieces written from the start once b ends one,
// else 0. Called with f.mu held.
func (f *pieceFetch) handed(b []byte) (wrote int) {
	f.builder.Write(b)
	f.off += len(b)
	if int64(f.off) < f.layer.PieceLen(f.next) {
		return 0
	}
	f.written(f.next)
	f.next, f.off = f.next+1, 0
	f.ready.Broadcast() // room in the window for the upstream's next piece
	return f.next
}

// readDirect reads the piece at the reader's place from the upstream body
// straight into p: a fetch alone holds no piece in memory, as a fetch
// without peers holds none (a layer read through piece buffers cost a
// lone node a third more CPU than stock containerd's fetch; make bench
// ONLY=miss). Piece by piece it is as if the upstream reader had put it:
// Read tells the session, and the table and have-set grow. Called with
// f.mu held; the body is read without it.
func (f *pieceFetch) readDirect(p []byte) (n, wrote int, err error) {
	i := f.next
	if f.directPiece != i {
		delete(f.fromRegistry, i)
		f.directPiece = i
	}
	want := p[:min(int64(len(p)), f.layer.PieceLen(i)-int64(f.off))]
	off := int64(i)*f.layer.PieceSize + int64(f.off)
	var opening context.Context // a body to open first, at off
	if f.direct == nil || f.direct.at != off {
		opening, f.directOpening = context.WithCancel(f.ctx)
	}
	f.directBusy = true
	f.mu.Unlock()
	n, err = f.readUpstream(opening, f.directOpening, want, off)
	f.mu.Lock()
	f.directBusy, f.directOpening = false, nil
	defer f.ready.Broadcast() // an upstream reader waiting to take the body over
	if f.directLeft {
		f.directLeft = false
		f.closeDirect()
		if n == 0 {
			if f.off == 0 {
				f.directPiece = -1
				f.fromRegistry[i] = true // asked of the upstream still, by the session
			}
			return 0, 0, errDirectLeft
		}
		err = nil
	}
	if err != nil {
		f.closeDirect()
		if f.failed == nil {
			if f.ctx.Err() == nil {
				log.G(f.ctx).WithError(err).WithField("digest", f.desc.Digest).Warn("p2p: fetching a layer's pieces from the upstream failed")
			}
			f.failed = fmt.Errorf("fetch %s from the upstream: %w", f.desc.Digest, err)
		}
		return 0, 0, f.failed
	}
	f.signs.Store(true) // the table covers what came from the upstream
	if wrote = f.handed(p[:n]); wrote > 0 {
		f.directPiece = -1
		if f.next >= f.layer.Pieces {
			f.closeDirect()
		}
	}
	return n, wrote, nil
}

// readUpstream reads into p from the direct body, at offset off; given
// opening, it opens a body there first, which cancel ends. It is called
// without f.mu held, by the reader only.
func (f *pieceFetch) readUpstream(opening context.Context, cancel context.CancelFunc, p []byte, off int64) (int, error) {
	if opening != nil {
		f.closeDirect()
		rc, err := f.openUpstream(opening, nil, 0, off)
		if err != nil {
			cancel()
			return 0, err
		}
		f.direct = &openBody{rc: rc, at: off, cancel: cancel}
	}
	n, err := io.ReadAtLeast(f.direct.rc, p, 1)
	f.direct.at += int64(n)
	if n > 0 {
		return n, nil
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // before the piece's end
	}
	return 0, err
}

// closeDirect closes the direct body, if any. Called with f.mu held, the
// body not in use.
func (f *pieceFetch) closeDirect() {
	if f.direct != nil {
		f.direct.rc.Close()
		f.direct.cancel()
		f.direct = nil
	}
}

// ingestLag is how much of what was handed to containerd stays in memory:
// containerd's content.Copy reads 1 MiB of a body before it writes any of
// it to the ingest (core/content/helpers.go), and a piece in neither place
// could not be served (peers were answered 404 for the pieces just handed
// on, and stopped asking this node until its next have-set).
const ingestLag = 1 << 20

// written records piece i as handed to containerd: the memory of the
// pieces ingestLag behind it is released (they are in the ingest), and a
// seed publishes the table of what it has written, signed.
func (f *pieceFetch) written(i int) {
	handed := int64(i)*f.layer.PieceSize + f.layer.PieceLen(i)
	for ; f.released <= i && int64(f.released+1)*f.layer.PieceSize+ingestLag <= handed; f.released++ {
		f.layer.Written(f.released)
	}
	f.unsigned = true
	f.publishTable()
}

// publishTable signs the table of what a seed has written, once a peer
// follows the layer: each signature covers the whole table so far, and
// lone misses that signed after every piece spent 2.4% of their CPU there
// (make bench ONLY=miss, a profile of every case). Called with f.mu held.
func (f *pieceFetch) publishTable() {
	if !f.unsigned || !f.signs.Load() || f.pf.f.opts.SignTable == nil || !f.layer.Followed() {
		return
	}
	f.unsigned = false
	t, err := f.pf.f.opts.SignTable(f.builder.Table())
	if err != nil {
		log.G(f.ctx).WithError(err).Warn("p2p: could not sign a piece table")
		return
	}
	f.layer.AddTable(t)
}

// keepTable keeps the table of the layer's bytes once containerd holds the
// layer: a body is closed after its commit (remotes.Fetch), which checked
// those bytes against the digest. Closed before, it keeps nothing, and the
// content service computes the table when a peer asks.
func (f *pieceFetch) keepTable() {
	opts := f.pf.f.opts
	if opts.Tables == nil || opts.SignTable == nil || opts.Store == nil {
		return
	}
	f.mu.Lock()
	t := f.builder.Table()
	f.mu.Unlock()
	if !t.Complete() {
		return
	}
	ctx := context.WithoutCancel(f.ctx)
	if _, err := opts.Store.Info(ctx, f.desc.Digest); err != nil {
		return
	}
	t, err := opts.SignTable(t)
	if err == nil {
		err = opts.Tables.Put(t)
	}
	if err != nil {
		log.G(ctx).WithError(err).WithField("digest", f.desc.Digest).Warn("p2p: could not keep a layer's piece table")
	}
}

// Close ends the fetch; the layer stops being offered to peers.
func (f *pieceFetch) Close() error {
	f.closeOnce.Do(func() {
		f.cancel()
		<-f.done
		f.fail(errPiecesClosed)
		f.mu.Lock()
		if !f.directBusy { // else the reader closes it, its read cut off by the cancel
			f.closeDirect()
		}
		f.mu.Unlock()
		f.keepTable()
		f.rememberSigners()
		f.layer.End()
		f.end()
	})
	return nil
}

// rememberSigners keeps, once the whole layer was handed to containerd,
// who signed the tables its pieces were checked against, for
// DiscardCorrupt.
func (f *pieceFetch) rememberSigners() {
	f.mu.Lock()
	whole := f.next >= f.layer.Pieces
	f.mu.Unlock()
	var signers []peer.ID
	for _, t := range f.layer.State().Tables {
		if t.Publisher != f.pf.f.opts.Self {
			signers = append(signers, t.Publisher)
		}
	}
	if whole && len(signers) > 0 {
		f.pf.remember(delivery{desc: f.desc, ref: f.ref, signers: signers})
	}
}

// addTables adds the tables of holder id's state. One signed by a node
// whose table of this layer failed its digest check here (DiscardCorrupt)
// is refused, and id is penalized for the layer: what it holds is that
// node's bytes.
func (f *pieceFetch) addTables(id peer.ID, ts []pieces.Table) (ok bool) {
	for _, t := range ts {
		if f.pf.f.penalties.IsBadTable(t.Publisher, f.desc.Digest) {
			if id != t.Publisher {
				f.pf.judge(id, f.desc.Digest, fmt.Errorf("%s vouches for the table of %s: %w", id, t.Publisher, peerclient.ErrCorrupt))
			}
			return false
		}
	}
	for _, t := range ts {
		f.layer.AddTable(t)
	}
	return true
}

func (f *pieceFetch) fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failed == nil {
		f.failed = err
	}
	f.ready.Broadcast()
}

func (f *pieceFetch) wake() {
	f.mu.Lock()
	f.ready.Broadcast()
	f.mu.Unlock()
}

// post runs fn on the run goroutine.
func (f *pieceFetch) post(fn func()) {
	select {
	case f.events <- fn:
	case <-f.ctx.Done():
	}
}

// run drives the session until the body is closed.
func (f *pieceFetch) run(ctx context.Context) {
	defer close(f.done)
	defer f.endTrace()
	defer f.fetched()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		now := time.Now()
		if n := f.incoming.Load(); n > f.incomingSeen {
			f.pf.f.stats.PieceBytesArrived.Add(n - f.incomingSeen)
			f.incomingSeen = n
			f.sess.Moving(now)
		}
		if askers := f.layer.TakeAskers(); len(askers) > 0 {
			f.sess.AddHolders(askers...)
			f.mu.Lock()
			f.publishTable() // the first asker finds what was written before it asked
			f.mu.Unlock()
		}
		if f.alone.Load() && len(f.sess.Known()) > 0 {
			// Peers now: pieces read ahead of the reader, in memory, serve them.
			f.alone.Store(false)
			f.mu.Lock()
			if f.directOpening != nil {
				f.directLeft = true
				f.directOpening()
			}
			handOver := f.directBusy || f.directPiece >= 0 || f.direct != nil || len(f.fromRegistry) > 0 // f.direct is the reader's while busy
			f.mu.Unlock()
			if handOver {
				f.startUpstream()
			}
		}
		f.sess.ComparePull(f.pf.pull)
		f.sess.SetIntake(f.pf.f.opts.Windows.Intake(now))
		if seed := f.sess.Seed(); seed != f.seeded {
			// Peers learn it either way: a seed that gave its claim up
			// and still said it was one had a seed ranked after it
			// yield to it, and nobody read the layer until they stalled
			// (sixteen-node lab: seven nodes read parts of a 24 MiB layer).
			f.seeded = seed
			f.layer.SetSeed(seed)
			if seed {
				f.logSeed(ctx, now)
			}
		}
		if yields := f.sess.Yields(); yields != f.yields {
			f.yields = yields
			f.layer.SetYields(yields)
		}
		f.sess.ReadFromUpstream(f.layer.UpstreamBytes().Load())
		f.layer.SetReading(f.sess.Reading())
		if f.upstream != nil && f.sess.LeavesUpstream(now) {
			f.leaveUpstream(ctx, now)
		}
		if f.sess.Complete() {
			f.fetched()
		}
		f.sess.SetLayers(int(f.pf.f.fetchingByPieces.Load()))
		for _, r := range f.sess.Next(now) {
			f.start(r)
		}
		if now.Sub(f.named) >= swarm.StatePoll { // drawn at random: as often as states are asked, not on every event
			f.layer.SetHolders(f.sess.Names(window.MaxHolders))
			f.named = now
		}
		if !f.sess.Complete() { // once it is, only the reader and the peers it serves are left
			wait := swarm.StatePoll
			if p := f.poll(now); !p.IsZero() {
				wait = min(wait, max(time.Until(p), time.Millisecond))
			}
			if w := f.sess.Wake(now); !w.IsZero() {
				wait = min(wait, max(time.Until(w), time.Millisecond))
			}
			timer.Reset(wait)
		}
		select {
		case fn := <-f.events:
			fn()
			for more := true; more; {
				select {
				case fn := <-f.events:
					fn()
				default:
					more = false
				}
			}
		case <-timer.C:
		case <-ctx.Done():
			for _, cancel := range f.flights {
				cancel()
			}
			if f.upstream != nil {
				f.upstream.stop()
			}
			f.fail(ctx.Err()) // a reader waiting for a piece returns
			return
		}
	}
}

// endTrace ends the fetch's span, with where its pieces came from, and
// logs what each peer sent, as a fetch from one peer does.
func (f *pieceFetch) endTrace() {
	took := time.Since(f.began).Round(time.Millisecond)
	logger := log.G(f.ctx).WithField("digest", f.desc.Digest)
	for p, n := range f.byPeer {
		logger.WithFields(log.Fields{"peer": p, "peer_bytes": n, "took": took}).Info("p2p: fetched from peer")
	}
	if f.upstreamBytes > 0 {
		logger.WithFields(log.Fields{"upstream_bytes": f.upstreamBytes, "took": took}).Info("p2p: pieces from the upstream")
	}
	if f.endSpan == nil {
		return
	}
	switch {
	case len(f.byPeer) > 0 && f.upstreamBytes > 0:
		fromSource(f.ctx, "peers+upstream")
	case f.upstreamBytes > 0:
		fromSource(f.ctx, "upstream")
	case len(f.byPeer) > 0:
		fromSource(f.ctx, "peers")
	}
	f.mu.Lock()
	err := f.failed
	f.mu.Unlock()
	if f.sess.Complete() {
		err = nil // every piece held: containerd closing the body is the end
	}
	f.endSpan(err)
}

// logSeed says that this node became a seed of the layer, with what it
// knew then: why a layer has more than one seed is read from these.
func (f *pieceFetch) logSeed(ctx context.Context, now time.Time) {
	seeds, reading := f.sess.Seeds()
	polls, oldest := 0, time.Duration(0)
	for id, on := range f.polling {
		if on {
			polls++
			oldest = max(oldest, now.Sub(f.pollSent[id]))
		}
	}
	log.G(ctx).WithFields(log.Fields{"digest": f.desc.Digest, "after": now.Sub(f.began).Round(time.Millisecond),
		"decided": f.decided.Sub(f.began).Round(time.Millisecond), "holders": len(f.sess.Known()), "active": len(f.sess.Active()),
		"seeds": seeds, "reading": reading, "written": f.sess.Written(), "states": f.stateCount,
		"polls": polls, "oldest_poll": oldest.Round(time.Millisecond), "why": f.sess.SeedReason()}).
		Debug("p2p: this node takes from the upstream the pieces of a layer no peer brings")
}

// leaveUpstream stops reading the upstream, for another seed reads the
// layer there or this node took only a piece it waited for: the body is
// closed, which gives its request back to containerd's limit of three per
// node (one still waiting for it is never sent), and the pieces asked of
// it are asked again of peers.
func (f *pieceFetch) leaveUpstream(ctx context.Context, now time.Time) {
	f.upstream.stop()
	f.upstream = nil
	f.mu.Lock()
	clear(f.fromRegistry)
	f.ready.Broadcast() // the reader, waiting for a piece to read, returns
	f.mu.Unlock()
	f.sess.StopUpstream(now)
	log.G(ctx).WithFields(log.Fields{"digest": f.desc.Digest, "after": now.Sub(f.began).Round(time.Millisecond), "reads": f.sess.Reads(), "yields": f.sess.Yields(), "written": f.sess.Written(),
		"upstream_bytes": f.layer.UpstreamBytes().Load()}).Debug("p2p: this node stops reading a layer from the upstream")
}

// start sends a request the session asked for.
func (f *pieceFetch) start(r swarm.Request) {
	if r.From == swarm.Upstream {
		f.fromUpstream(r.Piece)
		return
	}
	if r.Hedge {
		f.pf.f.stats.Hedges.Add(1)
	}
	ctx, cancel := context.WithCancel(f.ctx)
	f.flights[flightID{r.Piece, r.From}] = cancel
	recovery.Go(ctx, "p2p: fetching a piece", func(ctx context.Context) {
		buf := make([]byte, f.layer.PieceLen(r.Piece))
		// Passed on to peers as it comes, from its first byte: offered
		// when asked, a holder may answer busy or late, and the peers
		// that asked this node for the piece would wait on nothing (in
		// the sixteen-node lab, their requests timed out every two
		// seconds, and so did those of the nodes that asked them).
		var arrival *window.Arrival
		offered := false
		defer func() { arrival.End(false) }()
		ctx, span := startPeerRequest(ctx, r.From, f.desc, int64(r.Piece)*f.layer.PieceSize, int64(len(buf)))
		windows := f.pf.f.opts.Windows
		behind := windows.Behind(time.Now())
		awaited := windows.Awaited()
		awaited.Add(int64(len(buf)))
		var got int64
		defer func() { awaited.Add(got - int64(len(buf))) }()
		arrived := func(n int) {
			f.incoming.Add(int64(n))
			windows.Received().Add(int64(n))
			awaited.Add(-int64(n))
			got += int64(n)
			if !offered && got > 0 {
				offered = true
				arrival = f.layer.Arriving(r.Piece, buf) // nil if a hedge's other request offers it
				n = int(got)
			}
			arrival.Arrived(n)
		}
		st, err := f.pf.f.client.Piece(ctx, r.From, f.pf.repo, f.desc, r.Piece, peerclient.PieceAsk{Only: r.Only, Arrived: arrived, Behind: behind}, buf)
		if err == nil {
			span.SetAttributes(tracing.Attribute(attrBytes, len(buf)))
			err = f.verify(ctx, r.Piece, buf)
		}
		arrival.End(err == nil)
		endRequest(ctx, span, err)
		f.post(func() { f.answered(r, buf, got, st, err) })
	})
}

// verify checks piece i against the tables this node knows. A piece that
// no table covers yet waits for one, at most tableWait: a seed passes a
// piece on as it reads it, and signs it into its table once it has
// written it.
func (f *pieceFetch) verify(ctx context.Context, i int, b []byte) error {
	err := f.layer.Check(i, b)
	if !errors.Is(err, pieces.ErrPieceUnknown) {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, tableWait)
	defer cancel()
	if f.layer.AwaitTable(ctx, i) {
		return f.layer.Check(i, b)
	}
	return err
}

// tableWait is the longest a piece waits for a table that covers it. The
// table comes with a state of the seed or of a node that knows it: a
// state asked is answered once a table is added (window.Layer.AddTable),
// and asked again StateSpacing after the last; past StateHold it is
// answered anyway. Sixteen-node lab (8 Mbit/s, nine runs): 0–1 pieces a
// node dropped for want of a table. With no wait, the test whose holder
// sends its table after its first pieces had all 24 pieces dropped and
// sent again.
const tableWait = swarm.StateSpacing + swarm.StateHold

// answered takes the outcome of a piece request, of which got bytes
// arrived, verified if err is nil.
func (f *pieceFetch) answered(r swarm.Request, buf []byte, got int64, held swarm.HolderState, err error) {
	id := flightID{r.Piece, r.From}
	cancel, asked := f.flights[id]
	if !asked {
		f.pf.f.stats.PieceBytesCancelled.Add(got) // another source brought it, or the holder was left
		return
	}
	cancel()
	delete(f.flights, id)
	now := time.Now()
	if held.Have != nil {
		// The answer's seed and bytes from the upstream only add to what
		// its state said: a seed stays one for the layer.
		st := f.states[r.From]
		st.Have, st.Receiving = held.Have, held.Receiving
		st.Seed = st.Seed || held.Seed
		st.Upstream = max(st.Upstream, held.Upstream)
		st.Cap, st.Spent = held.Cap, held.Spent
		if held.Intake > 0 { // told by seeds only
			st.Intake = held.Intake
		}
		f.states[r.From] = st
		f.sess.Update(now, r.From, st)
	}
	if err != nil {
		f.pf.f.stats.PieceBytesFailed.Add(got)
		log.G(f.ctx).WithError(err).WithFields(log.Fields{"peer": r.From, "digest": f.desc.Digest, "piece": r.Piece}).
			Trace("p2p: a piece request brought nothing")
	}
	switch {
	case err == nil:
	case errors.Is(err, pieces.ErrPieceUnknown):
		// Verified once a table covers it: the holder's state carries the
		// tables it knows.
		f.pf.f.stats.PiecesWithoutTable.Add(1)
		f.sess.Failed(now, r.Piece, r.From, swarm.Busy)
		return
	case errors.Is(err, pieces.ErrPieceMismatch), errors.Is(err, peerclient.ErrCorrupt):
		f.pf.judge(r.From, f.desc.Digest, peerclient.ErrCorrupt)
		log.G(f.ctx).WithError(err).WithFields(log.Fields{"peer": r.From, "digest": f.desc.Digest, "piece": r.Piece}).
			Error("p2p: a piece from a peer failed verification, discarded")
		f.drop(r.From, swarm.Corrupt, err)
		return
	case errors.Is(err, peerclient.ErrFull):
		f.pf.f.stats.Busy.Add(1)
		f.sess.Failed(now, r.Piece, r.From, swarm.Full)
		return
	case errors.Is(err, peerclient.ErrBusy):
		f.pf.f.stats.Busy.Add(1) // counted, not penalized: the session asks it again after a piece time
		f.sess.Failed(now, r.Piece, r.From, swarm.Busy)
		return
	case errors.Is(err, peerclient.ErrNoAnswer):
		// Slow, not gone: asked again after its next state. A seed whose
		// uplink carries a rollout answers late, and dropped for the
		// layer it is no seed to its followers: at sixteen nodes a node
		// that knew fourteen holders and no seed read most of a layer again.
		// Recorded, not penalized: the penalty would keep this node's next
		// pulls from the holder for every digest (a holder that shed load
		// reset a piece's stream, and the next pull went to the registry).
		f.pf.tally.failovers.Add(1)
		f.pf.f.failures.Record(f.desc.Digest.String(), r.From.String(), err)
		f.sess.Failed(now, r.Piece, r.From, swarm.Slow)
		return
	case errors.Is(err, peerclient.ErrUnreachable):
		f.pf.judge(r.From, f.desc.Digest, err)
		f.drop(r.From, swarm.Gone, err)
		return
	default:
		// A body that broke, an answer not understood: recorded, as a
		// late answer is, so that a node's status tells why its pieces
		// failed. The body of a piece the holder passed on as it arrived
		// breaks when that arrival fails (window.ErrArrivalFailed).
		f.pf.f.failures.Record(f.desc.Digest.String(), r.From.String(), err)
		why := swarm.Unavailable
		if held.Receiving.Has(r.Piece) && !held.Have.Has(r.Piece) {
			why = swarm.Cut
		}
		f.sess.Failed(now, r.Piece, r.From, why)
		return
	}
	if err := f.layer.Put(r.Piece, buf); err != nil {
		f.pf.f.stats.PieceBytesFailed.Add(got)
		f.sess.Failed(now, r.Piece, r.From, swarm.Busy) // the node's window is full: later
		return
	}
	f.pf.f.stats.PeerBytes.Add(int64(len(buf)))
	f.pf.f.stats.PieceBytesKept.Add(int64(len(buf)))
	f.pf.tally.fromPeer(r.From, int64(len(buf)))
	f.pf.arrived.Add(int64(len(buf)))
	f.received(now, r.Piece, r.From)
}

// drop ends the layer's requests to holder id, which left or cannot be
// trusted: the pieces asked of it are asked elsewhere at once (were they
// left to fail one by one, the upstream reader might open past them and
// come back, abandoning a body).
func (f *pieceFetch) drop(id peer.ID, why swarm.Failure, err error) {
	log.G(f.ctx).WithError(err).WithFields(log.Fields{"peer": id, "digest": f.desc.Digest, "holders": len(f.sess.Known())}).
		Debug("p2p: a holder is left for the rest of the layer")
	f.pf.f.stats.Failovers.Add(1)
	f.sess.Lost(id, why)
	for fl, cancel := range f.flights {
		if fl.from == id {
			cancel()
			delete(f.flights, fl)
		}
	}
}

// received tells the session of a piece held now, cancels the other
// requests for it, and wakes the reader.
func (f *pieceFetch) received(now time.Time, i int, from peer.ID) {
	if from == swarm.Upstream {
		f.upstreamBytes += f.layer.PieceLen(i)
	} else {
		f.byPeer[from] += f.layer.PieceLen(i)
	}
	f.mu.Lock()
	delete(f.fromRegistry, i) // a peer brought it first
	f.mu.Unlock()
	for _, c := range f.sess.Received(now, i, from) {
		if cancel, ok := f.flights[flightID{c.Piece, c.From}]; ok {
			cancel()
			delete(f.flights, flightID{c.Piece, c.From})
		}
	}
	if f.sess.Reads() && !f.reads {
		f.reads = true
		log.G(f.ctx).WithFields(log.Fields{"digest": f.desc.Digest, "after": now.Sub(f.began).Round(time.Millisecond), "written": f.sess.Written(), "held": f.sess.Have().Count(), "holders": len(f.sess.Known())}).
			Debug("p2p: taking a layer's pieces from the upstream")
	}
	f.wake()
}

// poll keeps a state request in flight to each holder the session
// follows, held by the holder until it has more pieces than this node
// knows of (oci.HeldQuery), each asked swarm.StateSpacing after the one
// before (swarm.StatePoll, of a holder of the whole layer); it returns
// when the next may be asked (zero: none waits).
func (f *pieceFetch) poll(now time.Time) (next time.Time) {
	for _, id := range f.sess.Active() {
		if f.polling[id] {
			continue
		}
		held, spacing := -1, swarm.StateSpacing // held -1: not known, answered at once
		if st, ok := f.states[id]; ok {
			held = st.Have.Count()
			if held == f.layer.Pieces {
				spacing = swarm.StatePoll // it gains no piece: only its load changes
			}
		}
		if due := f.pollSent[id].Add(spacing); now.Before(due) {
			if next.IsZero() || due.Before(next) {
				next = due
			}
			continue
		}
		f.polling[id], f.pollSent[id] = true, now
		names := now.Sub(f.namesAsked[id]) >= swarm.NamesEvery
		if names {
			f.namesAsked[id] = now
		}
		recovery.Go(f.ctx, "p2p: asking a holder's state of a layer", func(ctx context.Context) {
			st, load, hold, err := f.pf.f.client.WaitSwarmState(ctx, id, f.pf.repo, f.desc, f.layer.CoveredDigests(), held, swarm.StateHold, names)
			f.post(func() { f.stated(id, st, load, hold, err) })
		})
	}
	return next
}

func (f *pieceFetch) stated(id peer.ID, st window.State, load int, held time.Duration, err error) {
	f.polling[id] = false
	if err == nil {
		f.stateCount++
		f.sess.StateTook(max(time.Since(f.pollSent[id])-held, 0))
	}
	switch {
	case err == nil:
	case errors.Is(err, peerclient.ErrUnreachable), errors.Is(err, peerclient.ErrCorrupt):
		f.drop(id, swarm.Gone, err)
		return
	default:
		return // not fetching it by pieces (yet): asked again later
	}
	if !f.addTables(id, st.Tables) {
		f.drop(id, swarm.Corrupt, peerclient.ErrCorrupt)
		return
	}
	f.sess.AddHolders(st.Holders...)
	hs := st.Holder(load)
	f.states[id] = hs
	f.sess.Update(time.Now(), id, hs)
	f.sess.StateAnswered(id)
}

// fromUpstream asks the upstream reader for piece i.
func (f *pieceFetch) fromUpstream(i int) {
	f.mu.Lock()
	f.fromRegistry[i] = true
	f.ready.Broadcast()
	f.mu.Unlock()
	if !f.alone.Load() {
		f.startUpstream()
	}
}

// upstreamFailed records that the upstream reader failed with err: the
// pieces asked of it are asked of peers, the upstream again later, and
// the fetch fails only when the session says so.
func (f *pieceFetch) upstreamFailed(ctx context.Context, err error) {
	f.mu.Lock()
	clear(f.fromRegistry)
	f.mu.Unlock()
	logger := log.G(ctx).WithError(err).WithField("digest", f.desc.Digest)
	if f.sess.UpstreamFailed(time.Now()) {
		logger.Warn("p2p: fetching a layer's pieces from the upstream failed")
		f.fail(fmt.Errorf("fetch %s from the upstream: %w", f.desc.Digest, err))
		return
	}
	logger.Warn("p2p: fetching a layer's pieces from the upstream failed; peers are asked for them, the upstream again later")
}

// startUpstream starts the upstream reader unless it runs.
func (f *pieceFetch) startUpstream() {
	if f.upstream == nil || f.upstream.ended.Load() {
		f.upstream = &upstreamPieces{f: f}
		f.upstream.start()
	}
}

// upstreamPieces reads from the upstream the pieces the session takes
// there (fromRegistry), lowest first, over one body: a run of pieces it
// does not take (another seed's, or a long one held already) is passed
// over with a seek, which is a new range request, so that seeds that
// share a layer's pieces between them take one copy in all, not one each.
type upstreamPieces struct {
	f      *pieceFetch
	cancel context.CancelFunc
	ended  atomic.Bool
}

func (u *upstreamPieces) start() {
	ctx, cancel := context.WithCancel(u.f.ctx)
	u.cancel = cancel
	recovery.Go(ctx, "p2p: fetching a layer's pieces from the upstream", u.read)
}

func (u *upstreamPieces) stop() { u.cancel() }

func (u *upstreamPieces) read(ctx context.Context) {
	defer u.ended.Store(true)
	f := u.f
	fail := func(err error) {
		if ctx.Err() != nil {
			return
		}
		u.ended.Store(true) // a piece asked from now on starts another reader
		f.post(func() { f.upstreamFailed(ctx, err) })
	}
	body, at, cancel := f.takeDirect(ctx) // at: the body's offset
	defer func() {
		if body != nil {
			body.Close()
		}
		cancel()
	}()
	for {
		i, ok := u.next(ctx)
		if !ok {
			return
		}
		off := int64(i) * f.layer.PieceSize
		if body != nil && off > at && off-at <= readThrough && u.held(at, off) {
			// The pieces between, held already, are read and dropped.
			if _, err := io.CopyN(io.Discard, body, off-at); err != nil {
				fail(err)
				return
			}
			at = off
		}
		if body == nil || off != at {
			var err error
			if body, err = f.openUpstream(ctx, body, at, off); err != nil {
				fail(err)
				return
			}
			at = off
		}
		if f.layer.Has(i) {
			continue // a peer brought it while the body opened (containerd opens three at once)
		}
		if err := u.take(ctx, body, i); err != nil {
			fail(err)
			return
		}
		at += f.layer.PieceLen(i)
	}
}

// readThrough is the longest run of held pieces the upstream reader reads
// on through rather than seeking past. A seek abandons what is in flight
// on the body's connection, its socket buffers (3 to 6 MB per abandoned
// body on loopback: a lone node that skipped the pieces a peer had sent
// made the registry send 1.0 to 1.4 copies), and costs a new request. A
// run that is not held (another seed's) is always passed over: read on
// through, two seeds of a layer each read all of it (sixteen nodes: 1.97
// copies, every fetch 3.1× size ÷ link).
const readThrough = 4 << 20

// held reports whether the pieces from offset at to off are all held.
func (u *upstreamPieces) held(at, off int64) bool {
	l := u.f.layer
	for j := int(at / l.PieceSize); int64(j)*l.PieceSize < off; j++ {
		if !l.Has(j) {
			return false
		}
	}
	return true
}

// take reads piece i from body, at its offset, and keeps it unless a peer
// brought it meanwhile.
func (u *upstreamPieces) take(ctx context.Context, body io.Reader, i int) error {
	f := u.f
	buf := make([]byte, f.layer.PieceLen(i))
	// Passed on as it comes: peers verify it against the table this node
	// signs once it has written it, and containerd checks the whole.
	arrival := f.layer.Arriving(i, buf)
	defer arrival.End(false)
	if _, err := io.ReadFull(tellingReader{body, arrival.Arrived}, buf); err != nil {
		return err
	}
	arrival.End(true)
	if f.layer.Has(i) {
		return nil
	}
	f.signs.Store(true) // before the piece can be written: the table then covers it
	for {
		err := f.layer.Put(i, buf)
		if err == nil || !errors.Is(err, window.ErrOverBudget) {
			break
		}
		if !sleepUntil(ctx, time.Now().Add(20*time.Millisecond)) { // other layers' windows drain as they are written
			return ctx.Err()
		}
	}
	f.post(func() { f.received(time.Now(), i, swarm.Upstream) })
	return nil
}

// tellingReader tells arrived of the bytes read from r.
type tellingReader struct {
	r       io.Reader
	arrived func(int)
}

func (t tellingReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.arrived(n)
	return n, err
}

// next waits for the lowest piece asked of the upstream that is within
// the window ahead of the reader, and takes it off the list.
func (u *upstreamPieces) next(ctx context.Context) (int, bool) {
	f := u.f
	window := f.pf.f.opts.Swarm.Window
	f.mu.Lock()
	defer f.mu.Unlock()
	for {
		if ctx.Err() != nil || f.failed != nil {
			return 0, false
		}
		lowest := -1
		for i := range f.fromRegistry {
			if lowest < 0 || i < lowest {
				lowest = i
			}
		}
		if lowest >= 0 && lowest < f.next+window {
			delete(f.fromRegistry, lowest)
			return lowest, true
		}
		f.ready.Wait()
	}
}

// takeDirect takes over the body the reader read itself while the fetch
// was alone, once it is at the end of a piece; nil if there is none.
func (f *pieceFetch) takeDirect(ctx context.Context) (io.ReadCloser, int64, context.CancelFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.directBusy || f.directPiece >= 0 {
		if ctx.Err() != nil || f.failed != nil {
			return nil, 0, func() {}
		}
		f.ready.Wait()
	}
	if f.direct == nil {
		return nil, 0, func() {}
	}
	d := f.direct
	f.direct = nil
	return d.rc, d.at, d.cancel
}

// openUpstream is an upstream body at offset off: body seeked there, read
// on to it, or a new one.
func (f *pieceFetch) openUpstream(ctx context.Context, body io.ReadCloser, at, off int64) (io.ReadCloser, error) {
	if body != nil {
		if skip(body, at, off) == nil {
			return body, nil
		}
		body.Close()
	}
	fromSource(ctx, "upstream")
	asked := time.Now()
	rc, err := f.pf.upstream.Fetch(ctx, f.desc)
	if err != nil {
		return nil, err
	}
	log.G(ctx).WithFields(log.Fields{"digest": f.desc.Digest, "offset": off, "after": time.Since(f.began).Round(time.Millisecond),
		"took": time.Since(asked).Round(time.Millisecond)}).Debug("p2p: a registry body for a layer's pieces is open")
	rc = countingReader(withIdleTimeout(rc, f.pf.f.opts.UpstreamIdleTimeout), &f.pf.f.stats.UpstreamBytes, &f.pf.tally.upstream, &f.pf.arrived, f.layer.UpstreamBytes(), f.pf.f.opts.Windows.Received())
	if err := skip(rc, 0, off); err != nil {
		rc.Close()
		return nil, err
	}
	return rc, nil
}

// skip moves body from offset at to off: a seek, or a read on to it.
func skip(body io.Reader, at, off int64) error {
	if s, ok := body.(io.Seeker); ok {
		_, err := s.Seek(off, io.SeekStart)
		return err
	}
	if off < at {
		return errors.New("an upstream body that cannot seek cannot go back")
	}
	_, err := io.CopyN(io.Discard, body, off-at)
	return err
}
