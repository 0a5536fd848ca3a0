package contentserver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/containerd/containerd/v2/pkg/namespaces"
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

// maxStoredTables bounds the signed tables of stored layers remembered.
const maxStoredTables = 64

// serveSwarm answers a peer that fetches a layer by pieces: this node's
// state of it (its have-set, the piece tables it knows, the holders it
// knows) or, with ?piece=i, piece i, with the have-set in a header. A
// layer this node fetches by pieces is answered from its window and
// ingest; a stored one has every piece, and a table this node computes
// from its bytes (checking the whole against the digest on the way) and
// signs.
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
			defer s.load(w, r, dgst)()
			s.writeState(w, r, l.State())
			return
		}
		s.serveWindowPiece(w, r, l, index)
		return
	}
	ra, info, ns, err := s.open(ctx, dgst, false)
	if err != nil || pieces.SwarmPieceCount(info.Size) == 0 || info.Size > pieces.MaxSwarmLayerSize {
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
		s.writeState(w, r, window.State{Have: allPieces(n), Tables: []pieces.Table{table}})
		return
	}
	if index >= n {
		oci.WriteError(w, http.StatusRequestedRangeNotSatisfiable, oci.CodeRangeInvalid, "no such piece")
		return
	}
	size := pieces.SwarmPieceSize(info.Size)
	length := min(size, info.Size-int64(index)*size)
	s.writePiece(w, r, dgst, window.State{Have: allPieces(n)}, io.NewSectionReader(ra, int64(index)*size, length), length)
}

// serveWindowPiece sends piece i of a layer this node fetches by pieces:
// from memory, or from its ingest once written there.
func (s *Server) serveWindowPiece(w http.ResponseWriter, r *http.Request, l *window.Layer, i int) {
	st := l.State()
	st.Cap = s.opts.Upload.Rate() // on a busy or missing piece's answer too
	if i >= l.Pieces {
		oci.WriteError(w, http.StatusRequestedRangeNotSatisfiable, oci.CodeRangeInvalid, "no such piece")
		return
	}
	length := l.PieceLen(i)
	if b, ok := l.Piece(i); ok {
		s.writePiece(w, r, l.Digest, st, bytes.NewReader(b), length)
		return
	}
	if st.Have.Has(i) && s.opts.InFlight != nil {
		if blob, _, _, ok := s.opts.InFlight.Open(r.Context(), l.Digest); ok {
			defer blob.Close()
			end := int64(i)*l.PieceSize + length
			if blob.Available() >= end {
				s.writePiece(w, r, l.Digest, st, io.NewSectionReader(blob, int64(i)*l.PieceSize, length), length)
				return
			}
		}
	}
	setHave(w.Header(), st)
	oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "piece not held by this node")
}

// writeState answers st, less the tables that cover no more pieces than
// the asker's (oci.KnownQuery).
func (s *Server) writeState(w http.ResponseWriter, r *http.Request, st window.State) {
	st.Cap = s.opts.Upload.Rate()
	if known, err := strconv.Atoi(r.URL.Query().Get(oci.KnownQuery)); err == nil {
		st = st.WithoutTablesWithin(known)
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
		w.Write(buf.Bytes())
	}
}

// setHave puts on a piece's answer what this node holds of the layer and,
// if it takes the layer from the upstream, how far it has read there.
func setHave(h http.Header, st window.State) {
	h.Set(oci.HaveHeader, window.EncodeHave(st.Have))
	if st.Seed {
		h.Set(oci.SeedHeader, strconv.FormatInt(st.Upstream, 10))
	}
	if st.Cap > 0 {
		h.Set(oci.CapHeader, strconv.FormatInt(st.Cap, 10))
	}
}

func (s *Server) writePiece(w http.ResponseWriter, r *http.Request, dgst digest.Digest, st window.State, body io.Reader, length int64) {
	st.Cap = s.opts.Upload.Rate()
	h := w.Header()
	if r.Method == http.MethodGet {
		release, ok := s.pieceSlot()
		if !ok {
			setHave(h, st)
			oci.WriteError(w, http.StatusTooManyRequests, oci.CodeTooManyRequests, "this node sends as many pieces as it sends at once")
			return
		}
		defer release()
	}
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Length", strconv.FormatInt(length, 10))
	setHave(h, st)
	defer s.load(w, r, dgst)()
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodGet {
		return
	}
	out := s.bodyWriter(r.Context(), w)
	if corruptPieces {
		body = flipFirstByte(body)
	}
	if _, err := io.Copy(&out, body); err != nil {
		log.G(r.Context()).WithError(err).WithField("digest", dgst).Debug("p2p: sending a piece to a peer ended early")
	}
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

// storedTableWait is how long a state answer waits for a stored layer's
// table before it carries the pieces hashed so far: well within the 1 s
// an asker gives states before it decides. A just-restarted holder of a
// 5 GiB layer hashes for seconds; answered only then, its asker took the
// layer from the registry (1.9 GB of it in the integration test).
const storedTableWait = 250 * time.Millisecond

// storedTable is the signed piece table of stored layer dgst: computed
// once (however many ask) and remembered; while it is computed, the table
// of the pieces hashed so far, which a later answer extends. The whole is
// hashed on the way: a copy that rotted gets errCorrupt and is not served
// again (pieces of it taken before are caught by containerd's commit).
func (s *Server) storedTable(ctx context.Context, ns string, dgst digest.Digest, size int64) (pieces.Table, error) {
	if s.opts.SignTable == nil {
		return pieces.Table{}, errors.New("this node signs no piece tables")
	}
	s.mu.Lock()
	t, ok := s.tables[dgst]
	h := s.tabling[dgst]
	if !ok && h == nil {
		h = &storedHash{b: pieces.NewTableBuilder(dgst, size), done: make(chan struct{})}
		s.tabling[dgst] = h
		recovery.Go(namespaces.WithNamespace(context.WithoutCancel(ctx), ns), "p2p: hashing a stored layer for its piece table", func(ctx context.Context) {
			s.hashStored(ctx, dgst, size, h)
		})
	}
	s.mu.Unlock()
	if ok {
		return t, nil
	}
	timer := time.NewTimer(storedTableWait)
	defer timer.Stop()
	select {
	case <-h.done:
		if h.err != nil {
			return pieces.Table{}, h.err
		}
		return h.signed, nil
	case <-timer.C:
	case <-ctx.Done():
		return pieces.Table{}, ctx.Err()
	}
	return s.opts.SignTable(h.table())
}

// storedHash is the piece table of a stored layer as it is computed.
type storedHash struct {
	mu     sync.Mutex
	b      *pieces.TableBuilder
	done   chan struct{}
	signed pieces.Table // once done without err
	err    error
}

func (h *storedHash) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.b.Write(p)
}

func (h *storedHash) table() pieces.Table {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.b.Table()
}

// hashStored computes h, the table of stored layer dgst, and checks the
// whole against the digest on the way.
func (s *Server) hashStored(ctx context.Context, dgst digest.Digest, size int64, h *storedHash) {
	defer close(h.done)
	defer func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.tabling, dgst)
		if h.err == nil {
			putBounded(s.tables, dgst, h.signed, maxStoredTables)
		}
	}()
	s.hashing <- struct{}{}
	defer func() { <-s.hashing }()
	ra, err := s.store.ReaderAt(ctx, ocispec.Descriptor{Digest: dgst, Size: size})
	if err != nil {
		h.err = err
		return
	}
	defer ra.Close()
	whole := dgst.Algorithm().Digester()
	if _, err := io.Copy(io.MultiWriter(h, whole.Hash()), io.NewSectionReader(ra, 0, size)); err != nil {
		h.err = err
		return
	}
	if !s.verified(ctx, dgst)(whole.Digest() == dgst) {
		h.err = errCorrupt
		return
	}
	h.signed, h.err = s.opts.SignTable(h.table())
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
