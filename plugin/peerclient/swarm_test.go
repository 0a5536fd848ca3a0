package peerclient

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/window"
)

func TestAPieceComesWithTheHoldersHaveSetAndItsLengthChecked(t *testing.T) {
	data := bytes.Repeat([]byte("p"), 600<<10) // 3 pieces of 256 KiB
	have := swarm.NewBitfield(3)
	have.Set(0)
	serve := func(body []byte, status int, seed string) transport {
		return func(req *http.Request) (*http.Response, error) {
			if got := req.URL.Query().Get(oci.PieceQuery); got != "0" || req.URL.Query().Get(oci.NamespaceQuery) != repo.Registry {
				t.Errorf("asked %s", req.URL)
			}
			rec := httptest.NewRecorder()
			rec.Header().Set(oci.HaveHeader, window.EncodeHave(have))
			if seed != "" {
				rec.Header().Set(oci.SeedHeader, seed)
			}
			rec.Header().Set("Content-Length", strconv.Itoa(len(body)))
			rec.WriteHeader(status)
			rec.Write(body)
			return rec.Result(), nil
		}
	}
	buf := make([]byte, 256<<10)
	got, err := New(serve(data[:256<<10], http.StatusOK, ""), Options{}).Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, buf)
	if err != nil || !got.Have.Has(0) || got.Have.Has(1) || got.Seed || !bytes.Equal(buf, data[:256<<10]) {
		t.Fatalf("piece: %v, state %+v", err, got)
	}
	if _, err := New(serve(data[:100], http.StatusOK, ""), Options{}).Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, buf); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a short piece: %v, want ErrCorrupt", err)
	}
	got, err = New(serve(nil, http.StatusNotFound, "12345"), Options{}).Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, buf)
	if !errors.Is(err, ErrStale) || !got.Have.Has(0) || !got.Seed || got.Upstream != 12345 {
		t.Fatalf("a piece not held, from a seed: %v, state %+v; want ErrStale with the have-set, seed, 12345 bytes read upstream", err, got)
	}
	for _, bad := range []string{"-1", "x", "1e3"} {
		if got, _ := New(serve(nil, http.StatusNotFound, bad), Options{}).Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, buf); got.Seed || got.Upstream != 0 {
			t.Errorf("%s: %s: state %+v, want no seed", oci.SeedHeader, bad, got)
		}
	}
}

func TestASwarmStateIsDecodedWithItsLoad(t *testing.T) {
	data := bytes.Repeat([]byte("s"), 600<<10)
	have := swarm.NewBitfield(3)
	have.Set(2)
	c := New(transport(func(req *http.Request) (*http.Response, error) {
		if got := req.URL.Query().Get(oci.KnownQuery); got != "7" {
			t.Errorf("asked with known=%q, want 7: the pieces the caller's tables cover", got)
		}
		rec := httptest.NewRecorder()
		rec.Header().Set(oci.LoadHeader, "3")
		window.State{Have: have, Seed: true}.Encode(rec)
		return rec.Result(), nil
	}), Options{})
	st, load, err := c.SwarmState(t.Context(), peerA, repo, blob(data), make([]digest.Digest, 7))
	if err != nil || !st.Seed || !st.Have.Has(2) || load != 3 {
		t.Fatalf("state %+v, load %d: %v", st, load, err)
	}
	bad := New(answering(http.StatusOK, nil), Options{})
	if _, _, err := bad.SwarmState(t.Context(), peerA, repo, blob(data), nil); !errors.Is(err, window.ErrInvalidState) {
		t.Fatalf("an empty body: %v, want ErrInvalidState", err)
	}
}

// A state whose table suffix does not continue the caller's table is asked
// again whole, and the whole verifies.
func TestATableSuffixThatDoesNotFitIsAskedAgainWhole(t *testing.T) {
	data := bytes.Repeat([]byte("t"), 600<<10)
	desc := blob(data)
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tbl := pieces.Table{Layer: desc.Digest, Size: desc.Size, PieceSize: pieces.SwarmPieceSize(desc.Size)}
	for i := range pieces.SwarmPieceCount(desc.Size) {
		tbl.Digests = append(tbl.Digests, digest.FromBytes(data[int64(i)*tbl.PieceSize:min(int64(i+1)*tbl.PieceSize, desc.Size)]))
	}
	if tbl, err = tbl.Sign(key); err != nil {
		t.Fatal(err)
	}
	var asked []string
	c := New(transport(func(req *http.Request) (*http.Response, error) {
		q := req.URL.Query()
		asked = append(asked, q.Get(oci.KnownQuery)+"/"+q.Get(oci.SuffixQuery))
		st := window.State{Have: swarm.NewBitfield(3), Tables: []pieces.Table{tbl}}
		if q.Get(oci.SuffixQuery) != "" {
			known, _ := strconv.Atoi(q.Get(oci.KnownQuery))
			st = st.TablesPast(known)
		}
		rec := httptest.NewRecorder()
		st.Encode(rec)
		return rec.Result(), nil
	}), Options{})
	mine := slices.Clone(tbl.Digests[:2])
	st, _, err := c.SwarmState(t.Context(), peerA, repo, desc, mine)
	if err != nil || len(st.Tables) != 1 || !slices.Equal(st.Tables[0].Digests, tbl.Digests) || !slices.Equal(asked, []string{"2/1"}) {
		t.Fatalf("with the first two digests: %v, tables %+v, asked %q", err, st.Tables, asked)
	}
	asked = nil
	mine[1] = digest.FromString("a table the holder does not know")
	st, _, err = c.SwarmState(t.Context(), peerA, repo, desc, mine)
	if err != nil || len(st.Tables) != 1 || !slices.Equal(st.Tables[0].Digests, tbl.Digests) || !slices.Equal(asked, []string{"2/1", "/"}) {
		t.Fatalf("with a digest of another table: %v, tables %+v, asked %q; want it asked again whole", err, st.Tables, asked)
	}
}

// httpTransport sends every request to one HTTP server, over pooled
// connections, as peerhttp's client does per peer.
type httpTransport struct {
	url string
	rt  *http.Transport
}

func (h httpTransport) Do(_ peer.ID, req *http.Request) (*http.Response, error) {
	u, err := url.Parse(h.url + req.URL.RequestURI())
	if err != nil {
		return nil, err
	}
	req.URL = u
	return h.rt.RoundTrip(req)
}

// Busy (429) and not-held (404) answers leave their connection open for
// the next request: a body closed unread would close it, and every piece
// asked of a busy holder would cost a new handshake.
func TestErrorAnswersKeepTheirConnection(t *testing.T) {
	data := bytes.Repeat([]byte("k"), 600<<10)
	var conns atomic.Int32
	answers := []int{http.StatusTooManyRequests, http.StatusNotFound, http.StatusTooManyRequests, http.StatusOK}
	var asked atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status := answers[min(int(asked.Add(1))-1, len(answers)-1)]
		if status != http.StatusOK {
			oci.WriteError(w, status, oci.CodeTooManyRequests, "an error answer with an OCI error document as its body")
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(256<<10))
		w.Write(data[:256<<10])
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	rt := &http.Transport{MaxIdleConnsPerHost: 1}
	defer rt.CloseIdleConnections()
	c := New(httpTransport{srv.URL, rt}, Options{})
	buf := make([]byte, 256<<10)
	for i := range answers {
		_, err := c.Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, buf)
		if (i < len(answers)-1) == (err == nil) {
			t.Fatalf("answer %d (%d): %v", i, answers[i], err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections for %d requests one after the other, want 1", n, len(answers))
	}
}

// stalledBody sends nothing until its request is given up.
type stalledBody struct{ ctx context.Context }

func (b stalledBody) Read([]byte) (int, error) { <-b.ctx.Done(); return 0, b.ctx.Err() }
func (stalledBody) Close() error               { return nil }

// An error answer whose body never comes is given up at the request's
// bound, like one whose headers never come: reading it ahead to keep the
// connection must not wait on the peer for ever.
func TestAnErrorAnswerWithAStalledBodyEndsAtTheBound(t *testing.T) {
	data := bytes.Repeat([]byte("s"), 600<<10)
	c := New(transport(func(req *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusTooManyRequests, Status: "429 Too Many Requests", Header: http.Header{}, Body: stalledBody{req.Context()}}, nil
	}), Options{RequestTimeout: 100 * time.Millisecond})
	done := make(chan error, 1)
	go func() {
		_, err := c.Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, make([]byte, 256<<10))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNoAnswer) {
			t.Fatalf("a stalled error body: %v, want ErrNoAnswer", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a stalled error body held the request past its bound")
	}
}

// A piece asked behind the caller's other downloads may wait that much
// longer for its answer: its headers queue behind their bytes.
func TestAPieceAskedBehindOthersWaitsLongerForItsAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		data := bytes.Repeat([]byte("b"), 256<<10)
		late := transport(func(req *http.Request) (*http.Response, error) {
			select {
			case <-time.After(300 * time.Millisecond):
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
			rec := httptest.NewRecorder()
			rec.Header().Set("Content-Length", strconv.Itoa(len(data)))
			rec.Write(data)
			return rec.Result(), nil
		})
		c := New(late, Options{RequestTimeout: 100 * time.Millisecond})
		buf := make([]byte, len(data))
		if _, err := c.Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, buf); !errors.Is(err, ErrNoAnswer) {
			t.Fatalf("an answer after 300 ms, bound 100 ms: %v, want ErrNoAnswer", err)
		}
		if _, err := c.Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{Behind: time.Second}, buf); err != nil || !bytes.Equal(buf, data) {
			t.Fatalf("the same answer asked a second behind others: %v", err)
		}
		// The connection that carries it lets its body go silent as much longer.
		conn := &extendingConn{}
		told := New(transport(func(req *http.Request) (*http.Response, error) {
			httptrace.ContextClientTrace(req.Context()).GotConn(httptrace.GotConnInfo{Conn: conn})
			return late(req)
		}), Options{RequestTimeout: time.Second})
		if _, err := told.Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{Behind: 3 * time.Second}, buf); err != nil || conn.extended != 3*time.Second {
			t.Fatalf("piece: %v; its connection's idle timeout extended by %v, want 3s", err, conn.extended)
		}
	})
}

type extendingConn struct {
	net.Conn
	extended time.Duration
}

func (c *extendingConn) ExtendIdle(d time.Duration) { c.extended = d }

func TestAPieceAskedAsTheOnlyHolderSaysSoAndASpentHolderIsKnown(t *testing.T) {
	data := bytes.Repeat([]byte("p"), 600<<10)
	var only atomic.Value
	c := New(transport(func(req *http.Request) (*http.Response, error) {
		only.Store(req.URL.Query().Get(oci.OnlyQuery))
		rec := httptest.NewRecorder()
		rec.Header().Set(oci.HaveHeader, window.EncodeHave(swarm.NewBitfield(3)))
		rec.Header().Set(oci.SpentHeader, "1")
		oci.WriteError(rec, http.StatusTooManyRequests, oci.CodeTooManyRequests, "share sent")
		return rec.Result(), nil
	}), Options{})
	buf := make([]byte, 256<<10)
	got, err := c.Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, buf)
	if !errors.Is(err, ErrBusy) || !got.Spent || only.Load() != "" {
		t.Fatalf("a spent holder's refusal: %v, state %+v, only=%q; want ErrBusy, spent, no only", err, got, only.Load())
	}
	if _, err := c.Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{Only: true}, buf); err == nil || only.Load() != "1" {
		t.Fatalf("asked as the only holder: %v, only=%q; want only=1", err, only.Load())
	}
}

// A held state is asked with the pieces known and a wait within half the
// request's bound, and comes back with how long the peer held it; a piece
// refused for want of an upload slot is ErrFull, which is ErrBusy too.
func TestAHeldStateAndAFullPeerAreToldApart(t *testing.T) {
	data := bytes.Repeat([]byte("h"), 600<<10)
	c := New(transport(func(req *http.Request) (*http.Response, error) {
		q := req.URL.Query()
		if q.Get(oci.HeldQuery) != "2" || q.Get(oci.WaitQuery) != "500" || q.Get(oci.NamesQuery) != "0" {
			t.Errorf("asked with held=%q wait=%q names=%q, want 2, 500 (half the 1s bound) and 0", q.Get(oci.HeldQuery), q.Get(oci.WaitQuery), q.Get(oci.NamesQuery))
		}
		rec := httptest.NewRecorder()
		rec.Header().Set(oci.HeldHeader, "120")
		window.State{Have: swarm.NewBitfield(3)}.Encode(rec)
		return rec.Result(), nil
	}), Options{RequestTimeout: time.Second})
	if _, _, held, err := c.WaitSwarmState(t.Context(), peerA, repo, blob(data), nil, 2, 10*time.Second, false); err != nil || held != 120*time.Millisecond {
		t.Fatalf("held %s: %v; want 120ms", held, err)
	}
	full := New(answering(http.StatusTooManyRequests, http.Header{oci.FullHeader: {"1"}}), Options{})
	buf := make([]byte, 256<<10)
	if _, err := full.Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, buf); !errors.Is(err, ErrFull) || !errors.Is(err, ErrBusy) {
		t.Fatalf("a full peer: %v, want ErrFull and ErrBusy", err)
	}
	busy := New(answering(http.StatusTooManyRequests, nil), Options{})
	if _, err := busy.Piece(t.Context(), peerA, repo, blob(data), 0, PieceAsk{}, buf); errors.Is(err, ErrFull) || !errors.Is(err, ErrBusy) {
		t.Fatalf("a busy peer: %v, want ErrBusy, not ErrFull", err)
	}
}
