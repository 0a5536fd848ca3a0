package contentserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/window"
)

func tableSigner(t *testing.T) func(pieces.Table) (pieces.Table, error) {
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	return func(tbl pieces.Table) (pieces.Table, error) { return tbl.Sign(key) }
}

// A stored layer has every piece, and a table this node signs; each piece
// matches it.
func TestAStoredLayerIsServedByPiecesWithASignedTable(t *testing.T) {
	data := strings.Repeat("0123456789abcdef", 40<<10) // 640 KiB: 3 pieces of 256 KiB
	s, d := newTestServer(t, data)
	s.opts.SignTable = tableSigner(t)
	path := "/v2/team/app/swarm/" + d[0].String()
	rec := do(s, http.MethodGet, path)
	if rec.Code != http.StatusOK {
		t.Fatalf("state: %d %s", rec.Code, rec.Body)
	}
	st, err := window.DecodeState(rec.Body, d[0], int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if st.Have.Count() != 3 || len(st.Tables) != 1 || !st.Tables[0].Complete() {
		t.Fatalf("state %+v: want all 3 pieces and a complete table", st)
	}
	for i := range 3 {
		rec := do(s, http.MethodGet, path+"?piece="+string(rune('0'+i)))
		if rec.Code != http.StatusOK {
			t.Fatalf("piece %d: %d", i, rec.Code)
		}
		if err := st.Tables[0].Check(i, rec.Body.Bytes()); err != nil {
			t.Fatalf("piece %d: %v", i, err)
		}
		if have, err := window.DecodeHave(rec.Header().Get(oci.HaveHeader), 3); err != nil || have.Count() != 3 {
			t.Fatalf("piece %d: have-set %v %v", i, have, err)
		}
	}
	// An asker that holds a table of all 3 pieces is sent none; one that
	// holds a table of 2 is sent the longer one.
	for known, want := range map[string]int{"3": 0, "2": 1} {
		rec := do(s, http.MethodGet, path+"?known="+known)
		if st, err := window.DecodeState(rec.Body, d[0], int64(len(data))); err != nil || len(st.Tables) != want || st.Have.Count() != 3 {
			t.Fatalf("state asked with known=%s: %v, %d tables, want %d", known, err, len(st.Tables), want)
		}
	}
	for _, q := range []string{"?piece=3", "?piece=-1", "?piece=x"} {
		if rec := do(s, http.MethodGet, path+q); rec.Code != http.StatusRequestedRangeNotSatisfiable && rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 416 or 400", q, rec.Code)
		}
	}
	if rec := do(s, http.MethodGet, "/v2/team/app/swarm/"+digest.FromString("x").String()); rec.Code != http.StatusNotFound {
		t.Errorf("a layer not held: %d", rec.Code)
	}
}

// A layer this node fetches by pieces is answered from its window: the
// pieces it holds, its have-set, its tables; a piece it lacks is 404 with
// its have-set.
func TestALayerFetchedByPiecesIsServedFromItsWindow(t *testing.T) {
	s, _ := newTestServer(t)
	data := bytes.Repeat([]byte("window"), 100<<10) // 600 KiB: 3 pieces
	l := fetchingByPieces(t, s, data)
	dgst := l.Digest
	l.SetSeed(true)
	if err := l.Put(1, data[256<<10:512<<10]); err != nil {
		t.Fatal(err)
	}
	path := "/v2/team/app/swarm/" + dgst.String()
	rec := do(s, http.MethodGet, path)
	st, err := window.DecodeState(rec.Body, dgst, int64(len(data)))
	if err != nil || !st.Seed || st.Have.Count() != 1 || !st.Have.Has(1) {
		t.Fatalf("state: %v %+v", err, st)
	}
	l.UpstreamBytes().Store(300 << 10)
	rec = do(s, http.MethodGet, path+"?piece=1")
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), data[256<<10:512<<10]) {
		t.Fatalf("piece 1: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	if got := rec.Header().Get(oci.SeedHeader); got != "307200" {
		t.Fatalf("piece 1 from a seed: %s %q, want the bytes it read from the upstream", oci.SeedHeader, got)
	}
	rec = do(s, http.MethodGet, path+"?piece=0")
	if have, _ := window.DecodeHave(rec.Header().Get(oci.HaveHeader), 3); rec.Code != http.StatusNotFound || !have.Has(1) || rec.Header().Get(oci.SeedHeader) == "" {
		t.Fatalf("a piece not held: %d, have-set %v, seed %q", rec.Code, have, rec.Header().Get(oci.SeedHeader))
	}
}

// The peers that ask for a layer this node fetches by pieces, its state
// or a piece, are recorded for the fetcher to follow and name to others.
func TestThePeersThatAskForALayerInFlightAreRecorded(t *testing.T) {
	s, _ := newTestServer(t)
	l := fetchingByPieces(t, s, bytes.Repeat([]byte("askers"), 100<<10))
	path := "/v2/team/app/swarm/" + l.Digest.String()
	ids := []peer.ID{testPeer(t), testPeer(t)}
	for i, q := range []string{"", "?piece=0"} {
		req := httptest.NewRequest(http.MethodGet, path+q, nil)
		req.RemoteAddr = ids[i].String() // as peerhttp sets it
		s.ServeHTTP(httptest.NewRecorder(), req)
	}
	do(s, http.MethodGet, path) // from an address that names no peer
	if got := l.TakeAskers(); !slices.Equal(got, ids) {
		t.Fatalf("askers %v, want %v", got, ids)
	}
}

// fetchingByPieces makes s a node that fetches data by pieces now, with
// nothing held yet.
func fetchingByPieces(t *testing.T, s *Server, data []byte) *window.Layer {
	s.opts.Windows = window.New(1 << 20)
	l, err := s.opts.Windows.Begin(digest.FromBytes(data), int64(len(data)), "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.End)
	return l
}

func testPeer(t *testing.T) peer.ID {
	_, pub, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// heldWriter is a response whose body writes wait until release is
// closed: a piece on its way to a slow peer.
type heldWriter struct {
	*httptest.ResponseRecorder
	sending chan struct{} // closed at the first body write
	release chan struct{}
	once    sync.Once
}

func (w *heldWriter) Write(b []byte) (int, error) {
	w.once.Do(func() { close(w.sending) })
	<-w.release
	return w.ResponseRecorder.Write(b)
}

// A node sends at most PieceUploads pieces at once: a request beyond is
// answered busy (429, which peers take as "ask another holder"), with the
// have-set; once a piece is sent, the next request is served.
func TestPiecesBeyondTheUploadSlotsAreAnsweredBusy(t *testing.T) {
	data := strings.Repeat("0123456789abcdef", 40<<10) // 3 pieces of 256 KiB
	s, d := newTestServer(t, data)
	s.opts.SignTable = tableSigner(t)
	s.opts.PieceUploads = 1
	path := "/v2/team/app/swarm/" + d[0].String() + "?piece="
	held := &heldWriter{ResponseRecorder: httptest.NewRecorder(), sending: make(chan struct{}), release: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.ServeHTTP(held, httptest.NewRequest(http.MethodGet, path+"0", nil))
	}()
	<-held.sending
	rec := do(s, http.MethodGet, path+"1")
	if have, _ := window.DecodeHave(rec.Header().Get(oci.HaveHeader), 3); rec.Code != http.StatusTooManyRequests || have.Count() != 3 {
		t.Fatalf("a piece asked while the only slot sends another: %d, have-set %v; want 429 with the have-set", rec.Code, have)
	}
	if rec := do(s, http.MethodHead, path+"1"); rec.Code != http.StatusOK {
		t.Fatalf("HEAD sends no body and takes no slot: %d", rec.Code)
	}
	close(held.release)
	<-done
	if held.Code != http.StatusOK || held.Body.String() != data[:256<<10] {
		t.Fatalf("the piece sent: %d, %d bytes", held.Code, held.Body.Len())
	}
	if rec := do(s, http.MethodGet, path+"1"); rec.Code != http.StatusOK || rec.Body.String() != data[256<<10:512<<10] {
		t.Fatalf("a piece asked once the slot is free: %d, %d bytes", rec.Code, rec.Body.Len())
	}
}

// A stored layer whose table takes long to compute (a large layer on a
// holder that just restarted) is answered at once with the table of the
// pieces hashed so far, and with the whole table once it is computed.
func TestAStoredLayerStillHashedIsAnsweredWithThePiecesHashedSoFar(t *testing.T) {
	data := strings.Repeat("0123456789abcdef", 40<<10) // 3 pieces
	s, d := newTestServer(t, data)
	s.opts.SignTable = tableSigner(t)
	for range cap(s.hashing) {
		s.hashing <- struct{}{} // every hashing slot busy: nothing is hashed yet
	}
	path := "/v2/team/app/swarm/" + d[0].String()
	rec := do(s, http.MethodGet, path)
	if rec.Code != http.StatusOK {
		t.Fatalf("state: %d %s", rec.Code, rec.Body)
	}
	st, err := window.DecodeState(rec.Body, d[0], int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if st.Have.Count() != 3 || len(st.Tables) != 1 || len(st.Tables[0].Digests) != 0 {
		t.Fatalf("state %+v: want all 3 pieces held and a table of none yet", st)
	}
	for range cap(s.hashing) {
		<-s.hashing
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		rec := do(s, http.MethodGet, path)
		st, err := window.DecodeState(rec.Body, d[0], int64(len(data)))
		if err == nil && len(st.Tables) == 1 && st.Tables[0].Complete() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no complete table after the hashing slots freed: %+v %v", st, err)
		}
	}
}
