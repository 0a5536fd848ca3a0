package contentserver

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/tables"
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
	signsTables(t, s)
	path := "/v2/team/app/swarm/" + d[0].String()
	rec := do(s, http.MethodGet, path)
	if rec.Code != http.StatusOK {
		t.Fatalf("state: %d %s", rec.Code, rec.Body)
	}
	st, err := window.DecodeState(rec.Body, d[0], int64(len(data)), nil)
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
		if st, err := window.DecodeState(rec.Body, d[0], int64(len(data)), nil); err != nil || len(st.Tables) != want || st.Have.Count() != 3 {
			t.Fatalf("state asked with known=%s: %v, %d tables, want %d", known, err, len(st.Tables), want)
		}
	}
	// One that asks for suffixes is sent what the table adds to its own.
	rec = do(s, http.MethodGet, path+"?known=2&suffix=1")
	whole := st.Tables[0].Digests
	if got, err := window.DecodeState(rec.Body, d[0], int64(len(data)), whole[:2]); err != nil || len(got.Tables) != 1 || !slices.Equal(got.Tables[0].Digests, whole) {
		t.Fatalf("state asked for the suffix past 2: %v, %+v", err, got.Tables)
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
	st, err := window.DecodeState(rec.Body, dgst, int64(len(data)), nil)
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

// A seed sends a piece a second time only while no other piece leaves it
// for the first time, and no third time (swarm.FirstCopies); a node that
// is no seed sends what it holds.
func TestASeedSendsAPieceAgainOnlyWhenNoFirstCopyIsOut(t *testing.T) {
	s, _ := newTestServer(t)
	data := bytes.Repeat([]byte("firsts"), 100<<10) // 600 KiB: 3 pieces
	l := fetchingByPieces(t, s, data)
	for i := range 2 {
		if err := l.Put(i, data[i<<18:(i+1)<<18]); err != nil {
			t.Fatal(err)
		}
	}
	path := "/v2/team/app/swarm/" + l.Digest.String() + "?piece="
	for range 2 {
		if rec := do(s, http.MethodGet, path+"0"); rec.Code != http.StatusOK {
			t.Fatalf("piece 0 from a node that is no seed: %d", rec.Code)
		}
	}
	l.SetSeed(true)
	l.UpstreamBytes().Store(512 << 10)
	if rec := do(s, http.MethodGet, path+"0"); rec.Code != http.StatusOK {
		t.Fatalf("piece 0, not sent since this node became a seed: %d", rec.Code)
	}
	end, ok := l.StartSend(time.Now(), 1, 4, "another node") // piece 1 leaves for the first time
	if !ok {
		t.Fatal("a first copy of piece 1 refused")
	}
	rec := do(s, http.MethodGet, path+"0")
	if have, _ := window.DecodeHave(rec.Header().Get(oci.HaveHeader), 3); rec.Code != http.StatusTooManyRequests || have.Count() != 2 {
		t.Fatalf("piece 0 again while piece 1 leaves for the first time: %d, have-set %v; want 429 with the have-set", rec.Code, have)
	}
	end(true)
	if rec := do(s, http.MethodGet, path+"0"); rec.Code != http.StatusOK {
		t.Fatalf("piece 0 again once no first copy is out: %d", rec.Code)
	}
	// Two copies have left the seed (swarm.Config.Share): their receivers
	// pass it on, even to an asker that finds it nowhere else.
	rec = do(s, http.MethodGet, path+"0&"+oci.OnlyQuery+"=1")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get(oci.FullHeader) != "" {
		t.Fatalf("a third copy of piece 0 from a seed: %d, full %q; want 429, not full", rec.Code, rec.Header().Get(oci.FullHeader))
	}
}

// A node that has sent two copies of a layer (swarm.Config.Share) sends
// only the pieces its asker finds nowhere else, and says so.
func TestANodeThatSentItsShareSendsOnlyWhatNoOtherHolderOffers(t *testing.T) {
	s, _ := newTestServer(t)
	data := bytes.Repeat([]byte("shares"), 100<<10) // 600 KiB: 3 pieces of 256 KiB
	l := fetchingByPieces(t, s, data)
	for i := range 2 {
		if err := l.Put(i, data[i<<18:(i+1)<<18]); err != nil {
			t.Fatal(err)
		}
	}
	path := "/v2/team/app/swarm/" + l.Digest.String()
	for k := range 4 { // 1,024 KiB: a piece more would pass two copies of 600 KiB
		if rec := do(s, http.MethodGet, path+"?piece=0"); rec.Code != http.StatusOK {
			t.Fatalf("copy %d of piece 0 within the share: %d", k+1, rec.Code)
		}
	}
	rec := do(s, http.MethodGet, path+"?piece=0")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get(oci.SpentHeader) == "" || rec.Header().Get(oci.HaveHeader) == "" {
		t.Fatalf("past the share: %d, headers %v; want 429 saying spent, with the have-set", rec.Code, rec.Header())
	}
	if rec := do(s, http.MethodGet, path+"?piece=0&"+oci.OnlyQuery+"=1"); rec.Code != http.StatusOK || rec.Header().Get(oci.SpentHeader) == "" {
		t.Fatalf("past the share, asked as of the only holder: %d, spent %q; want the piece, spent", rec.Code, rec.Header().Get(oci.SpentHeader))
	}
	st, err := window.DecodeState(do(s, http.MethodGet, path).Body, l.Digest, int64(len(data)), nil)
	if err != nil || !st.Spent {
		t.Fatalf("state past the share: %+v, %v; want spent", st, err)
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

// A peer that asks for the state of a layer this node has not begun is
// answered 404, and is among the layer's askers once this node begins it:
// it fetches the layer, and may read it from the upstream by then.
func TestAPeerThatAskedBeforeTheLayerBeganIsItsAsker(t *testing.T) {
	s, _ := newTestServer(t)
	s.opts.Windows = window.New(1 << 20)
	data := bytes.Repeat([]byte("early"), 100<<10)
	path := "/v2/team/app/swarm/" + digest.FromBytes(data).String()
	asker := testPeer(t)
	for _, q := range []string{"", "?piece=0"} {
		req := httptest.NewRequest(http.MethodGet, path+q, nil)
		req.RemoteAddr = testPeer(t).String()
		if q == "" {
			req.RemoteAddr = asker.String()
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotFound {
			t.Fatalf("%q of a layer not begun: %d, want 404", q, rec.Code)
		}
	}
	l, err := s.opts.Windows.Begin(digest.FromBytes(data), int64(len(data)), "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.End()
	if got := l.TakeAskers(); !slices.Equal(got, []peer.ID{asker}) {
		t.Fatalf("askers %v, want the peer that asked the state, %v (not the one that asked a piece)", got, asker)
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
	signsTables(t, s)
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
	if have, _ := window.DecodeHave(rec.Header().Get(oci.HaveHeader), 3); rec.Code != http.StatusTooManyRequests || have.Count() != 3 || rec.Header().Get(oci.FullHeader) == "" {
		t.Fatalf("a piece asked while the only slot sends another: %d, have-set %v, %s %q; want 429 with the have-set, full", rec.Code, have, oci.FullHeader, rec.Header().Get(oci.FullHeader))
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

// A stored layer whose table was kept (when this node fetched it, or
// before a restart) is answered at once, without hashing the layer.
func TestAStoredLayerIsAnsweredWithItsKeptTableWithoutHashingIt(t *testing.T) {
	data := strings.Repeat("0123456789abcdef", 40<<10) // 3 pieces
	s, d := newTestServer(t, data)
	signsTables(t, s)
	b := pieces.NewTableBuilder(d[0], int64(len(data)))
	b.Write([]byte(data))
	kept, err := s.opts.SignTable(b.Table())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.opts.Tables.Put(kept); err != nil {
		t.Fatal(err)
	}
	for range cap(s.hashing) {
		s.hashing <- struct{}{} // every hashing slot busy: nothing can be hashed
	}
	rec := do(s, http.MethodGet, "/v2/team/app/swarm/"+d[0].String())
	st, err := window.DecodeState(rec.Body, d[0], int64(len(data)), nil)
	if rec.Code != http.StatusOK || err != nil {
		t.Fatalf("state: %d %v", rec.Code, err)
	}
	if st.Have.Count() != 3 || len(st.Tables) != 1 || !slices.Equal(st.Tables[0].Digests, kept.Digests) {
		t.Fatalf("state %+v: want all 3 pieces and the kept table", st)
	}
}

// A stored copy that rotted is never offered with a table of its bytes
// (peers would reject the good pieces of others): asked its state, the
// node finds it bad, answers 410 and keeps no table. With a table kept
// from before it rotted, the rotten piece is cut short as it leaves, and
// the layer is not offered again.
func TestARottenStoredLayerSendsNoTableAndNoRottenPiece(t *testing.T) {
	const size = 3 << 20 // 12 pieces of 256 KiB
	rot := func(t *testing.T, path string, data []byte) {
		rotten := append([]byte(nil), data...)
		rotten[size/2] ^= 0xff // in piece 6
		if err := os.WriteFile(path, rotten, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("no table kept", func(t *testing.T) {
		s, d, loc, path, data := largeBlobServer(t, size)
		signsTables(t, s)
		rot(t, path, data)
		if rec := do(s, http.MethodGet, "/v2/app/swarm/"+d.String()); rec.Code != http.StatusGone {
			t.Fatalf("state of a rotten copy: %d %s, want 410", rec.Code, rec.Body)
		}
		if _, ok := s.opts.Tables.Get(d, size); ok || !loc.corrupt[d] {
			t.Fatalf("table kept %v, reported corrupt %v; want none kept and reported", ok, loc.corrupt[d])
		}
	})
	t.Run("table kept", func(t *testing.T) {
		s, d, loc, path, data := largeBlobServer(t, size)
		signsTables(t, s)
		if rec := do(s, http.MethodGet, "/v2/app/swarm/"+d.String()); rec.Code != http.StatusOK {
			t.Fatalf("state of an intact copy: %d", rec.Code)
		}
		rot(t, path, data)
		if rec := do(s, http.MethodGet, "/v2/app/swarm/"+d.String()+"?piece=5"); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), data[5<<18:6<<18]) {
			t.Fatalf("an intact piece: %d, %d bytes", rec.Code, rec.Body.Len())
		}
		rec := do(s, http.MethodGet, "/v2/app/swarm/"+d.String()+"?piece=6")
		if rec.Body.Len() >= 1<<18 {
			t.Fatalf("the rotten piece left whole (%d bytes)", rec.Body.Len())
		}
		if _, ok := s.opts.Tables.Get(d, size); ok || !loc.corrupt[d] {
			t.Fatalf("table kept %v, reported corrupt %v; want dropped and reported", ok, loc.corrupt[d])
		}
		if rec := do(s, http.MethodGet, "/v2/app/swarm/"+d.String()+"?piece=5"); rec.Code != http.StatusGone {
			t.Fatalf("a piece of a layer found rotten: %d, want 410", rec.Code)
		}
	})
}

// signsTables makes s sign the tables of stored layers and keep them.
func signsTables(t *testing.T, s *Server) {
	t.Helper()
	kept, err := tables.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s.opts.SignTable, s.opts.Tables = tableSigner(t), kept
}

// A state asked with the pieces the asker knows of is held until the layer
// holds more, or the asker's wait is over (swarm.StateHold at most).
func TestAStateIsHeldUntilTheLayerHoldsMoreThanTheAskerKnows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _ := newTestServer(t)
		data := bytes.Repeat([]byte("held"), 150<<10) // 600 KiB: 3 pieces
		l := fetchingByPieces(t, s, data)
		if err := l.Put(0, data[:256<<10]); err != nil {
			t.Fatal(err)
		}
		path := "/v2/team/app/swarm/" + l.Digest.String()
		ask := func(query string) (*httptest.ResponseRecorder, time.Duration) {
			start := time.Now()
			rec := do(s, http.MethodGet, path+query)
			if rec.Code != http.StatusOK {
				t.Fatalf("state %s: %d", query, rec.Code)
			}
			return rec, time.Since(start)
		}
		if rec, _ := ask("?held=0&wait=5000"); rec.Header().Get(oci.HeldHeader) != "" {
			t.Fatal("a state held though the layer holds more than the asker knew")
		}
		answered := make(chan *httptest.ResponseRecorder)
		go func() {
			rec, _ := ask("?held=1&wait=5000")
			answered <- rec
		}()
		select {
		case rec := <-answered:
			t.Fatalf("a state answered before the layer grew: %s %q", rec.Body, rec.Header().Get(oci.HeldHeader))
		case <-time.After(50 * time.Millisecond):
		}
		if err := l.Put(2, data[512<<10:]); err != nil {
			t.Fatal(err)
		}
		rec := <-answered
		st, err := window.DecodeState(rec.Body, l.Digest, int64(len(data)), nil)
		if err != nil || st.Have.Count() != 2 || rec.Header().Get(oci.HeldHeader) == "" {
			t.Fatalf("a held state: %v, %d pieces, %s %q; want the 2 pieces held and how long it was held", err, st.Have.Count(), oci.HeldHeader, rec.Header().Get(oci.HeldHeader))
		}
		if _, took := ask("?held=2&wait=60"); took < 60*time.Millisecond {
			t.Fatalf("a state with no news answered after %s, before the asker's wait", took)
		}
		if _, took := ask("?held=2&wait=60000"); took > 2*swarm.StateHold {
			t.Fatalf("a state with no news held %s: longer than StateHold", took)
		}
		if _, took := ask("?held=2"); took > swarm.StateHold {
			t.Fatalf("a state asked without a wait held %s", took)
		}
		if n, b := s.States(), s.StateBytes(); n != 5 || b <= 0 {
			t.Fatalf("states answered %d (%d bytes), want 5 and their bytes", n, b)
		}
	})
}

// A state names the holders the node knows unless its asker asks for none
// (oci.NamesQuery=0), and says whether the node, a seed, yields.
func TestAStateNamesHoldersOnlyWhenAsked(t *testing.T) {
	s, _ := newTestServer(t)
	data := bytes.Repeat([]byte("name"), 150<<10)
	l := fetchingByPieces(t, s, data)
	l.SetHolders([]peer.ID{testPeer(t), testPeer(t)})
	l.SetSeed(true)
	l.SetYields(true)
	path := "/v2/team/app/swarm/" + l.Digest.String()
	for query, want := range map[string]int{"": 2, "?names=1": 2, "?names=0": 0} {
		rec := do(s, http.MethodGet, path+query)
		st, err := window.DecodeState(rec.Body, l.Digest, int64(len(data)), nil)
		if err != nil || len(st.Holders) != want || !st.Yields {
			t.Fatalf("state %q: %v, %d holders named, yields %v; want %d, yields", query, err, len(st.Holders), st.Yields, want)
		}
	}
}

// A seed holding a piece back for a first copy answers busy, not full:
// its asker may ask it for other pieces.
func TestASeedHoldingAPieceBackIsBusyNotFull(t *testing.T) {
	s, _ := newTestServer(t)
	data := bytes.Repeat([]byte("full"), 150<<10)
	l := fetchingByPieces(t, s, data)
	for i, p := range [][]byte{data[:256<<10], data[256<<10 : 512<<10]} {
		if err := l.Put(i, p); err != nil {
			t.Fatal(err)
		}
	}
	path := "/v2/team/app/swarm/" + l.Digest.String() + "?piece="
	l.SetSeed(true)
	l.UpstreamBytes().Store(600 << 10)
	for i, last := range []bool{true, false} { // piece 0 left once; piece 1 leaves for the first time
		end, ok := l.StartSend(time.Now(), i, 4, "another node")
		if !ok {
			t.Fatalf("a first copy of piece %d refused", i)
		}
		if last {
			end(true)
		} else {
			defer end(true)
		}
	}
	if rec := do(s, http.MethodGet, path+"0"); rec.Code != http.StatusTooManyRequests || rec.Header().Get(oci.FullHeader) != "" {
		t.Fatalf("a piece a seed holds back for a first copy: %d, %s %q; want busy, not full", rec.Code, oci.FullHeader, rec.Header().Get(oci.FullHeader))
	}
}

// A layer lets swarm.Config.MaxFollowers peers follow its state; a peer
// past them is answered at once, told it is crowded out, and its piece
// requests are served as any. So for a layer fetched by pieces and for a
// stored one.
func TestAPeerPastTheLayersFollowersIsToldItIsCrowdedOut(t *testing.T) {
	s, _ := newTestServer(t)
	data := bytes.Repeat([]byte("crowd"), 120<<10) // 600 KiB: 3 pieces
	l := fetchingByPieces(t, s, data)
	if err := l.Put(0, data[:256<<10]); err != nil {
		t.Fatal(err)
	}
	crowdsOut(t, s, l.Digest, data)

	stored := strings.Repeat("0123456789abcdef", 40<<10) // 640 KiB
	s, d := newTestServer(t, stored)
	signsTables(t, s)
	crowdsOut(t, s, d[0], []byte(stored))
}

// crowdsOut checks that layer dgst, whose first piece s serves, crowds
// out a peer past its followers.
func crowdsOut(t *testing.T, s *Server, dgst digest.Digest, data []byte) {
	t.Helper()
	path := "/v2/team/app/swarm/" + dgst.String()
	ask := func(id peer.ID, query string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path+query, nil)
		req.RemoteAddr = id.String()
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec
	}
	crowded := func(rec *httptest.ResponseRecorder) bool {
		t.Helper()
		st, err := window.DecodeState(rec.Body, dgst, int64(len(data)), nil)
		if err != nil || rec.Code != http.StatusOK {
			t.Fatalf("state: %d %v", rec.Code, err)
		}
		return st.Crowded
	}
	var followers []peer.ID
	for range swarm.DefaultConfig().MaxFollowers() {
		id := testPeer(t)
		followers = append(followers, id)
		if crowded(ask(id, "")) {
			t.Fatalf("follower %d of %d crowded out", len(followers), swarm.DefaultConfig().MaxFollowers())
		}
	}
	late := testPeer(t)
	start := time.Now()
	rec := ask(late, "?held=1&wait=5000")
	if !crowded(rec) || rec.Header().Get(oci.HeldHeader) != "" || time.Since(start) > swarm.StateHold {
		t.Fatalf("a peer past the followers: held %q after %s; want crowded out at once", rec.Header().Get(oci.HeldHeader), time.Since(start))
	}
	if crowded(ask(followers[0], "")) {
		t.Fatal("a follower crowded out by a later peer")
	}
	if rec := ask(late, "?piece=0"); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), data[:256<<10]) {
		t.Fatalf("a piece asked by a crowded-out peer: %d", rec.Code)
	}
	if crowded(do(s, http.MethodGet, path)) {
		t.Fatal("a request that names no peer crowded out")
	}
}

// A piece arriving at this node is passed on as it comes, its last byte
// once it is verified; one that arrives bad reaches the asker cut short,
// never whole. A state and a piece's answer name the pieces arriving.
func TestAPieceArrivingIsPassedOnAndCutShortIfBad(t *testing.T) {
	s, _ := newTestServer(t)
	data := bytes.Repeat([]byte("arrive"), 100<<10) // 600 KiB: 3 pieces
	l := fetchingByPieces(t, s, data)
	if err := l.Put(0, data[:256<<10]); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	path := srv.URL + "/v2/team/app/swarm/" + l.Digest.String()
	want := data[256<<10 : 512<<10]
	for _, good := range []bool{true, false} {
		buf := make([]byte, len(want))
		a := l.Arriving(1, buf)
		copy(buf, want[:100<<10])
		a.Arrived(100 << 10)

		rec := do(s, http.MethodGet, "/v2/team/app/swarm/"+l.Digest.String())
		st, err := window.DecodeState(rec.Body, l.Digest, int64(len(data)), nil)
		if err != nil || !st.Receiving.Has(1) || st.Receiving.Count() != 1 {
			t.Fatalf("state while piece 1 arrives: %v, receiving %v", err, st.Receiving)
		}
		resp, err := http.Get(path + "?piece=1")
		if err != nil {
			t.Fatal(err)
		}
		if receiving, err := window.DecodeHave(resp.Header.Get(oci.ReceivingHeader), 3); resp.StatusCode != http.StatusOK || err != nil || !receiving.Has(1) {
			t.Fatalf("piece 1 while it arrives: %d, receiving %v %v", resp.StatusCode, receiving, err)
		}
		first := make([]byte, 100<<10)
		if _, err := io.ReadFull(resp.Body, first); err != nil || !bytes.Equal(first, want[:100<<10]) {
			t.Fatalf("the bytes arrived so far: %v", err)
		}
		copy(buf[100<<10:], want[100<<10:])
		if !good {
			buf[len(buf)-5] ^= 0xff
		}
		a.Arrived(len(buf) - 100<<10)
		a.End(good)
		rest, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		got := append(first, rest...)
		switch {
		case good && (err != nil || !bytes.Equal(got, want)):
			t.Fatalf("a piece passed on as it arrived: %d bytes, %v; want it whole", len(got), err)
		case !good && (err == nil || len(got) >= len(want)):
			t.Fatalf("a piece that arrived bad: %d of %d bytes, %v; want it cut short", len(got), len(want), err)
		}
	}
	if started, cut := s.PassedOn(); started != 2 || cut != 1 {
		t.Fatalf("pieces passed on %d, cut short %d; want 2 and 1", started, cut)
	}
	if resp, err := http.Get(path + "?piece=2"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a piece neither held nor arriving: %v %v", resp.StatusCode, err)
	}
}
