package contentserver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"net/http"
	"strconv"
	"time"

	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/recovery"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/window"
)

// serveSwarm answers a peer that fetches a layer by pieces: this node's
// state of it (its have-set, the piece tables it knows, the holders it
// knows) or, with ?piece=i, piece i, with the have-set in a header. A
// layer this node fetches by pieces is answered from its window and
// ingest; a stored one has every piece, and its kept table or one this
// node computes from its bytes (checking the whole against the digest on
// the way) and signs.
func (s *Server) serveSwarm(w http.ResponseWriter, r *http.Request, dgst digest.Digest) {
	ctx := r.Context()
	index := -1
	if q := r.URL.Query().Get(oci.PieceQuery); q != "" {
		i, err := strconv.Atoi(q)
		if err != nil || i < 0 || i >= pieces.MaxTablePieces {
			oci.WriteError(w, http.StatusBadRequest, oci.CodeRangeInvalid, "piece must be a piece index")
			return
		}
		index = i
	}
	if l, ok := s.opts.Windows.Lookup(dgst); ok && (s.opts.Policy == nil || s.opts.Policy.ContentShared(l.Namespace, l.Labels)) {
		// The asker fetches the layer too: this node names it to the
		// others, so that nodes that know only this one find each other.
		if id, err := peer.Decode(r.RemoteAddr); err == nil {
			l.Asked(id)
		}
		if index < 0 {
			crowded := s.crowded(r, dgst)
			if !crowded {
				s.holdState(w, r, l)
			}
			defer s.load(w, r, dgst)()
			st := l.State()
			st.Spent = s.spent(dgst)
			st.Crowded = crowded
			s.writeState(w, r, st)
			return
		}
		s.serveWindowPiece(w, r, l, index)
		return
	}
	ra, info, ns, err := s.open(ctx, dgst, false)
	if err != nil || pieces.SwarmPieceCount(info.Size) == 0 || info.Size > pieces.MaxSwarmLayerSize {
		if id, perr := peer.Decode(r.RemoteAddr); perr == nil && index < 0 && errdefs.IsNotFound(err) {
			s.opts.Windows.AskedEarly(dgst, id)
		}
		if s.foundCorrupt(dgst) {
			oci.WriteError(w, http.StatusGone, oci.CodeBlobUnknown, "this node's copy did not match its digest")
			return
		}
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "layer not held by this node")
		return
	}
	defer ra.Close()
	n := pieces.SwarmPieceCount(info.Size)
	if index < 0 {
		table, err := s.storedTable(ctx, ns, dgst, info.Size)
		if err != nil {
			if errors.Is(err, errCorrupt) {
				oci.WriteError(w, http.StatusGone, oci.CodeBlobUnknown, "this node's copy did not match its digest")
				return
			}
			log.G(ctx).WithError(err).WithField("digest", dgst).Warn("p2p: could not make the piece table of a stored layer")
			oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "layer not available from this node")
			return
		}
		defer s.load(w, r, dgst)()
		s.writeState(w, r, window.State{Have: allPieces(n), Tables: []pieces.Table{table}, Spent: s.spent(dgst), Crowded: s.crowded(r, dgst)})
		return
	}
	if index >= n {
		oci.WriteError(w, http.StatusRequestedRangeNotSatisfiable, oci.CodeRangeInvalid, "no such piece")
		return
	}
	size := pieces.SwarmPieceSize(info.Size)
	length := min(size, info.Size-int64(index)*size)
	body := s.checkedPiece(ctx, dgst, info.Size, index, io.NewSectionReader(ra, int64(index)*size, length))
	s.writePiece(w, r, pieceOf{dgst, info.Size, length}, window.State{Have: allPieces(n)}, body, nil)
}

// serveWindowPiece sends piece i of a layer this node fetches by pieces:
// from memory, from its ingest once written there, or as it arrives.
func (s *Server) serveWindowPiece(w http.ResponseWriter, r *http.Request, l *window.Layer, i int) {
	st := l.State()
	st.Cap = s.opts.Upload.Rate() // on a busy or missing piece's answer too
	if i >= l.Pieces {
		oci.WriteError(w, http.StatusRequestedRangeNotSatisfiable, oci.CodeRangeInvalid, "no such piece")
		return
	}
	length := l.PieceLen(i)
	admit := func() (func(bool), bool) { return l.StartSend(time.Now(), i, s.opts.PieceUploads, r.RemoteAddr) }
	if b, ok := l.Piece(i); ok {
		s.writePiece(w, r, pieceOf{l.Digest, l.Size, length}, st, bytes.NewReader(b), admit)
		return
	}
	if st.Have.Has(i) && s.opts.InFlight != nil {
		if blob, _, _, ok := s.opts.InFlight.Open(r.Context(), l.Digest); ok {
			defer blob.Close()
			end := int64(i)*l.PieceSize + length
			if blob.Available() >= end {
				s.writePiece(w, r, pieceOf{l.Digest, l.Size, length}, st, io.NewSectionReader(blob, int64(i)*l.PieceSize, length), admit)
				return
			}
		}
	}
	if a, ok := l.Arrival(i); ok {
		// Passed on as it arrives; cut short if it arrives bad.
		s.writePiece(w, r, pieceOf{l.Digest, l.Size, length}, st, &passedOn{r: a.Reader(r.Context()), s: s}, admit)
		return
	}
	st.Spent = s.spent(l.Digest)
	setHave(w.Header(), st)
	oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "piece not held by this node")
}

// holdState waits, if the asker asks it to (oci.HeldQuery), until l holds
// more pieces than the asker knows of or its wait is over (at most
// swarm.StateHold), unless half of MaxRequests are held already; it says
// how long it held the request in oci.HeldHeader.
func (s *Server) holdState(w http.ResponseWriter, r *http.Request, l *window.Layer) {
	q := r.URL.Query()
	held, err := strconv.Atoi(q.Get(oci.HeldQuery))
	if err != nil || held < 0 {
		return
	}
	ms, err := strconv.Atoi(q.Get(oci.WaitQuery))
	if err != nil || ms <= 0 {
		return
	}
	wait := min(time.Duration(ms)*time.Millisecond, swarm.StateHold)
	grown := l.Grown(held)
	select {
	case <-grown:
		return
	default:
	}
	if !s.holding.TryAcquire(1) {
		return // answered at once: holding more would starve the pieces' requests
	}
	defer s.holding.Release(1)
	start := time.Now()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-grown:
	case <-timer.C:
	case <-r.Context().Done():
	}
	w.Header().Set(oci.HeldHeader, strconv.FormatInt(time.Since(start).Milliseconds(), 10))
}

// writeState answers st, less the tables that cover no more pieces than
// the asker's (oci.KnownQuery), the others cut to what the asker lacks if
// it asks so (oci.SuffixQuery), and without names if it asks none
// (oci.NamesQuery).
func (s *Server) writeState(w http.ResponseWriter, r *http.Request, st window.State) {
	st.Cap = s.opts.Upload.Rate()
	q := r.URL.Query()
	if q.Get(oci.NamesQuery) == "0" {
		st.Holders = nil
	}
	if known, err := strconv.Atoi(q.Get(oci.KnownQuery)); err == nil && known >= 0 {
		if q.Get(oci.SuffixQuery) != "" {
			st = st.TablesPast(known)
		} else {
			st = st.WithoutTablesWithin(known)
		}
	}
	var buf bytes.Buffer
	if err := st.Encode(&buf); err != nil {
		oci.WriteInternalError(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		s.stateBytes.Add(int64(buf.Len()))
		s.states.Add(1)
		w.Write(buf.Bytes())
	}
}

// setHave puts on a piece's answer what this node holds of the layer and,
// if it takes the layer from the upstream, how far it has read there.
func setHave(h http.Header, st window.State) {
	h.Set(oci.HaveHeader, window.EncodeHave(st.Have))
	if st.Receiving.Count() > 0 {
		h.Set(oci.ReceivingHeader, window.EncodeHave(st.Receiving))
	}
	if st.Seed {
		h.Set(oci.SeedHeader, strconv.FormatInt(st.Upstream, 10))
	}
	if st.Cap > 0 {
		h.Set(oci.CapHeader, strconv.FormatInt(st.Cap, 10))
	}
	if st.Intake > 0 {
		h.Set(oci.IntakeHeader, strconv.FormatInt(st.Intake, 10))
	}
	if st.Spent {
		h.Set(oci.SpentHeader, "1")
	}
}

// pieceOf is a piece of length bytes of the layer of digest layer and
// size bytes.
type pieceOf struct {
	layer  digest.Digest
	size   int64
	length int64
}

// writePiece sends piece p's body. admit, if set, decides whether it may
// leave now (window.Layer.StartSend) and hears how it ended.
func (s *Server) writePiece(w http.ResponseWriter, r *http.Request, p pieceOf, st window.State, body io.Reader, admit func() (end func(ok bool), ok bool)) {
	st.Cap = s.opts.Upload.Rate()
	h := w.Header()
	sent := func(bool) {}
	if r.Method == http.MethodGet {
		if admit != nil {
			end, ok := admit()
			if !ok {
				setHave(h, st)
				oci.WriteError(w, http.StatusTooManyRequests, oci.CodeTooManyRequests, "this node sends the pieces no peer has first")
				return
			}
			sent = end
		}
		release, ok := s.pieceSlot()
		if !ok {
			sent(false)
			setHave(h, st)
			h.Set(oci.FullHeader, "1")
			oci.WriteError(w, http.StatusTooManyRequests, oci.CodeTooManyRequests, "this node sends as many pieces as it sends at once")
			return
		}
		defer release()
		if !s.takeShare(p, r.URL.Query().Get(oci.OnlyQuery) != "") {
			sent(false)
			st.Spent = true
			setHave(h, st)
			oci.WriteError(w, http.StatusTooManyRequests, oci.CodeTooManyRequests, "this node has sent its share of this layer: it sends only pieces no other holder offers")
			return
		}
	}
	st.Spent = s.spent(p.layer)
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Length", strconv.FormatInt(p.length, 10))
	setHave(h, st)
	defer s.load(w, r, p.layer)()
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodGet {
		return
	}
	out := s.bodyWriter(r.Context(), w)
	if corruptPieces {
		body = flipFirstByte(body)
	}
	_, err := io.Copy(&out, body)
	sent(err == nil)
	if err != nil {
		log.G(r.Context()).WithError(err).WithField("digest", p.layer).Debug("p2p: sending a piece to a peer ended early")
	}
}

// passedOn is the body of a piece sent as it arrives, counted once it is
// read, and when the arrival cuts it short.
type passedOn struct {
	r       io.Reader
	s       *Server
	started bool
}

func (p *passedOn) Read(b []byte) (int, error) {
	if !p.started {
		p.started = true
		p.s.passedOn.Add(1)
	}
	n, err := p.r.Read(b)
	if errors.Is(err, window.ErrArrivalFailed) {
		p.s.passCut.Add(1)
	}
	return n, err
}

// takeShare reports whether piece p may be sent to a peer that knows no
// other holder of it (only) or not (swarm.Share), and counts it if so.
func (s *Server) takeShare(p pieceOf, only bool) bool {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shares[p.layer]
	if sh == nil {
		maps.DeleteFunc(s.shares, func(_ digest.Digest, sh *swarm.Share) bool { return sh.Idle(now) })
		sh = swarm.NewShare(swarm.Layer{Digest: p.layer, Size: p.size, PieceSize: pieces.SwarmPieceSize(p.size)}, swarm.DefaultConfig().Share)
		s.shares[p.layer] = sh
	}
	return sh.Take(now, p.length, only)
}

// crowded reports whether the peer asking r for the state of layer dgst
// is turned away: the layer has all the followers it lets follow it
// (swarm.Followers). Such a peer is answered at once; its requests for
// pieces are served as any. A request that names no peer is not.
func (s *Server) crowded(r *http.Request, dgst digest.Digest) bool {
	id, err := peer.Decode(r.RemoteAddr)
	if err != nil {
		return false
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.followers[dgst]
	if f == nil {
		maps.DeleteFunc(s.followers, func(_ digest.Digest, f *swarm.Followers) bool { return f.Idle(now) })
		f = swarm.NewFollowers(swarm.DefaultConfig().MaxFollowers())
		s.followers[dgst] = f
	}
	return !f.Admit(now, string(id))
}

// spent reports whether this node has sent its share of layer dgst.
func (s *Server) spent(dgst digest.Digest) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shares[dgst]
	return sh != nil && sh.Spent(time.Now())
}

// pieceSlot takes one of the PieceUploads slots for a piece's body. Its
// uplink is shared by the pieces it sends: a few at once each arrive in a
// few piece times, and are passed on; many at once would all arrive late.
func (s *Server) pieceSlot() (release func(), ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pieceSends >= s.opts.PieceUploads {
		return nil, false
	}
	s.pieceSends++
	return func() {
		s.mu.Lock()
		s.pieceSends--
		s.mu.Unlock()
	}, true
}

// storedTable is the signed piece table of stored layer dgst: the kept one
// (Options.Tables), or computed from its bytes, once however many ask. A
// table is answered only once its bytes matched the layer's digest: a
// table of a copy that rotted would have peers reject good pieces of it.
func (s *Server) storedTable(ctx context.Context, ns string, dgst digest.Digest, size int64) (pieces.Table, error) {
	if s.opts.SignTable == nil || s.opts.Tables == nil {
		return pieces.Table{}, errors.New("this node signs no piece tables")
	}
	if t, ok := s.opts.Tables.Get(dgst, size); ok {
		return t, nil
	}
	s.mu.Lock()
	h := s.tabling[dgst]
	if h == nil {
		h = &storedHash{done: make(chan struct{})}
		s.tabling[dgst] = h
		recovery.Go(namespaces.WithNamespace(context.WithoutCancel(ctx), ns), "p2p: hashing a stored layer for its piece table", func(ctx context.Context) {
			s.hashStored(ctx, dgst, size, h)
		})
	}
	s.mu.Unlock()
	select {
	case <-h.done:
		return h.signed, h.err
	case <-ctx.Done():
		return pieces.Table{}, ctx.Err()
	}
}

// storedHash is the computation of a stored layer's table.
type storedHash struct {
	done   chan struct{}
	signed pieces.Table // once done without err
	err    error
}

// hashStored computes h, the table of stored layer dgst, checks the whole
// against the digest on the way, and keeps it.
func (s *Server) hashStored(ctx context.Context, dgst digest.Digest, size int64, h *storedHash) {
	defer close(h.done)
	defer func() {
		s.mu.Lock()
		delete(s.tabling, dgst)
		s.mu.Unlock()
	}()
	s.hashing <- struct{}{}
	defer func() { <-s.hashing }()
	ra, err := s.store.ReaderAt(ctx, ocispec.Descriptor{Digest: dgst, Size: size})
	if err != nil {
		h.err = err
		return
	}
	defer ra.Close()
	b := pieces.NewTableBuilder(dgst, size)
	whole := dgst.Algorithm().Digester()
	if _, err := io.Copy(io.MultiWriter(b, whole.Hash()), io.NewSectionReader(ra, 0, size)); err != nil {
		h.err = err
		return
	}
	if !s.verified(ctx, dgst)(whole.Digest() == dgst) {
		h.err = errCorrupt
		return
	}
	if h.signed, h.err = s.opts.SignTable(b.Table()); h.err != nil {
		return
	}
	if err := s.opts.Tables.Put(h.signed); err != nil {
		log.G(ctx).WithError(err).WithField("digest", dgst).Warn("p2p: could not keep a stored layer's piece table")
	}
}

// checkedPiece is piece i of stored layer dgst, hashed as it is sent and
// its end withheld unless it matches the kept table: a piece that rotted
// on this node's disk never leaves it, and the layer is not offered again.
// Without a kept table the piece is sent as it is (its receiver verifies
// it); the table is computed when a peer asks the layer's state.
func (s *Server) checkedPiece(ctx context.Context, dgst digest.Digest, size int64, i int, piece *io.SectionReader) io.Reader {
	if s.opts.Tables == nil {
		return piece
	}
	t, ok := s.opts.Tables.Get(dgst, size)
	if !ok || i >= len(t.Digests) {
		return piece
	}
	corrupt := s.verified(ctx, dgst)
	return &verifyingReader{r: piece, want: t.Digests[i], hash: t.Digests[i].Algorithm().Digester(), done: func(ok bool) bool {
		if !ok {
			corrupt(false)
			s.opts.Tables.Delete(dgst)
		}
		return ok
	}}
}

// flipFirstByte is body with its first byte inverted (see corruptPieces).
func flipFirstByte(body io.Reader) io.Reader {
	var first [1]byte
	if n, _ := io.ReadFull(body, first[:]); n == 0 {
		return body
	}
	first[0] ^= 0xff
	return io.MultiReader(bytes.NewReader(first[:]), body)
}

func allPieces(n int) swarm.Bitfield {
	b := swarm.NewBitfield(n)
	for i := range n {
		b.Set(i)
	}
	return b
}
