package fetcher

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/iotest"
	"testing/synctest"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/window"
)

// piecesHolder answers like a node that holds data whole, for a fetch by
// pieces: its state (every piece, and the table it signed) and its
// pieces, counted in sent. corrupt flips a byte of every piece it sends;
// its table is the true one.
func piecesHolder(t *testing.T, data []byte, corrupt bool, sent *atomic.Int32) peerBehaviour {
	return partHolder(t, data, corrupt, sent, func(int) bool { return true }, false, 0)
}

// partHolder is piecesHolder holding only the pieces holds says, and
// saying it takes pieces from the upstream when seed, having read
// upstream bytes there.
func partHolder(t *testing.T, data []byte, corrupt bool, sent *atomic.Int32, holds func(int) bool, seed bool, upstream int64) peerBehaviour {
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	return holderOf(t, key, desc(data, ocispec.MediaTypeImageLayer), data, corrupt, sent, holds, seed, upstream)
}

// holderOf is partHolder answering for layer d with data, and the table it
// signed with key of data: a liar's when data are not d's bytes.
func holderOf(t *testing.T, key crypto.PrivKey, d ocispec.Descriptor, data []byte, corrupt bool, sent *atomic.Int32, holds func(int) bool, seed bool, upstream int64) peerBehaviour {
	b := pieces.NewTableBuilder(d.Digest, d.Size)
	b.Write(data)
	table, err := b.Table().Sign(key)
	if err != nil {
		t.Fatal(err)
	}
	n := pieces.SwarmPieceCount(d.Size)
	all := swarm.NewBitfield(n)
	for i := range n {
		if holds(i) {
			all.Set(i)
		}
	}
	return func(req *http.Request) (*http.Response, error) {
		if !strings.Contains(req.URL.Path, "/"+oci.Swarm+"/") {
			return notFound(req)
		}
		rec := httptest.NewRecorder()
		q := req.URL.Query().Get(oci.PieceQuery)
		if q == "" {
			window.State{Have: all, Seed: seed, Upstream: upstream, Tables: []pieces.Table{table}}.Encode(rec)
			return rec.Result(), nil
		}
		i, _ := strconv.Atoi(q)
		if !all.Has(i) {
			rec.Header().Set(oci.HaveHeader, window.EncodeHave(all))
			rec.WriteHeader(http.StatusNotFound)
			return rec.Result(), nil
		}
		size := pieces.SwarmPieceSize(d.Size)
		p := bytes.Clone(data[int64(i)*size : min(d.Size, int64(i+1)*size)])
		if corrupt {
			p[len(p)/2] ^= 0xff
		}
		sent.Add(1)
		rec.Header().Set(oci.HaveHeader, window.EncodeHave(all))
		rec.Header().Set("Content-Length", strconv.Itoa(len(p)))
		rec.Write(p)
		return rec.Result(), nil
	}
}

func piecesOptions(t *testing.T) Options { return piecesOptionsOn(t, newStore(t)) }

func piecesOptionsOn(t *testing.T, store content.Store) Options {
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	return Options{
		Store: store, Windows: window.New(64 << 20), Self: "self",
		SignTable: func(tb pieces.Table) (pieces.Table, error) { return tb.Sign(key) },
	}
}

// A layer that peers hold comes by pieces from all of them, each piece
// checked against its holder's table; none from the upstream.
func TestALayerComesByPiecesFromEveryHolder(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20) // 24 pieces of 256 KiB
		var fromA, fromB atomic.Int32
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{
			peerA: piecesHolder(t, data, false, &fromA),
			peerB: piecesHolder(t, data, false, &fromB),
		}}
		up := &fakeUpstream{data: data}
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, piecesOptionsOn(t, store))
		if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
			t.Fatal("wrong bytes")
		}
		if up.calls != 0 || fromA.Load() == 0 || fromB.Load() == 0 {
			t.Fatalf("upstream %d, pieces from A %d and B %d: want none upstream, some from each", up.calls, fromA.Load(), fromB.Load())
		}
		if f.opts.Windows.Held() != 0 {
			t.Fatalf("%d bytes still held after the fetch", f.opts.Windows.Held())
		}
		// Done, it no longer shares the node's downlink with other layers.
		waitUntil(t, func() bool { return f.fetchingByPieces.Load() == 0 })
	})
}

// A holder whose pieces do not match their table is dropped for the
// layer after its first bad piece, and penalized; the layer comes whole
// from the others.
func TestAPieceThatFailsItsTableCostsThatPieceOnly(t *testing.T) {
	data := randomBytes(t, 6<<20)
	var fromBad, fromGood atomic.Int32
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: piecesHolder(t, data, true, &fromBad),
		peerB: piecesHolder(t, data, false, &fromGood),
	}}
	up := &fakeUpstream{data: data}
	// No hedges here: a hedge that B answers first cancels A's request
	// before its bad piece is judged and frees A's slot for another one,
	// so what A sent would count the hedges, not its exclusion.
	o := piecesOptions(t)
	o.Swarm = swarm.DefaultConfig()
	o.Swarm.Hedge = 1e6
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, o)
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("wrong bytes")
	}
	if up.calls != 0 || fromBad.Load() > 2 || f.Stats().Corrupt.Load() == 0 {
		t.Fatalf("upstream %d, pieces from the corrupting holder %d, corrupt count %d: want none upstream, at most its first requests (PerHolder 2), counted",
			up.calls, fromBad.Load(), f.Stats().Corrupt.Load())
	}
}

// A holder that signed a table of bad bytes, and sends them, gets them past
// every piece check; containerd's commit fails. The ingest it left whole is
// discarded, the signer penalized for the layer (and the nodes that offer
// its table), and the pull made again takes the layer from the upstream:
// one copy, not a stuck ingest.
func TestALayerByATableOfBadBytesIsDiscardedAndItsSignerPenalized(t *testing.T) {
	data := randomBytes(t, 6<<20)
	bad := bytes.Clone(data)
	bad[len(bad)/2] ^= 0xff
	d := desc(data, ocispec.MediaTypeImageLayer)
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	liar, err := peer.IDFromPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	// B, which it misled, holds its bytes and its table.
	var sent, sentMisled atomic.Int32
	all := func(int) bool { return true }
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		liar:  holderOf(t, key, d, bad, false, &sent, all, false, 0),
		peerB: holderOf(t, key, d, bad, false, &sentMisled, all, false, 0),
	}}
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{liar, peerB}}, client, piecesOptions(t))
	if got, err := fetch(f, up, d); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("fetch: %v (bytes right: %v)", err, bytes.Equal(got, data))
	}
	if sent.Load()+sentMisled.Load() == 0 || up.calls != 1 || !f.penalties.IsCorrupt(liar, d.Digest) || !f.penalties.IsCorrupt(peerB, d.Digest) {
		t.Fatalf("pieces from the liar %d and the node it misled %d, upstream bodies %d, penalized: liar %v, misled %v; want some, one, both",
			sent.Load(), sentMisled.Load(), up.calls, f.penalties.IsCorrupt(liar, d.Digest), f.penalties.IsCorrupt(peerB, d.Digest))
	}
}

// A layer no peer holds is taken from the upstream at once, in one body;
// with no peer asking for it, no table is signed.
func TestALoneMissByPiecesTakesTheUpstreamOnce(t *testing.T) {
	data := randomBytes(t, 6<<20)
	up := &fakeUpstream{data: data}
	opts := piecesOptions(t)
	var signed atomic.Int32
	sign := opts.SignTable
	opts.SignTable = func(tb pieces.Table) (pieces.Table, error) { signed.Add(1); return sign(tb) }
	f := newFetcher(t, fakeFinder{}, &fakeClient{}, opts)
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("wrong bytes")
	}
	if up.calls != 1 || signed.Load() != 0 {
		t.Fatalf("upstream %d, tables signed %d: want one upstream body and no table", up.calls, signed.Load())
	}
}

// loneMissBody starts the fetch of a 6 MiB layer (24 pieces of 256 KiB)
// that no peer holds, and returns its body for the test to read.
func loneMissBody(t *testing.T, opts Options) (ocispec.Descriptor, io.ReadCloser) {
	t.Helper()
	data := randomBytes(t, 6<<20)
	f := newFetcher(t, fakeFinder{}, &fakeClient{}, opts)
	d := desc(data, ocispec.MediaTypeImageLayer)
	rc, err := f.WrapFetcher(&fakeUpstream{data: data}, "registry.example/team/app:v1").Fetch(testNamespace(), d)
	if err != nil {
		t.Fatal(err)
	}
	return d, rc
}

// A seed publishes the signed table of what it has written once a peer
// asks for the layer, and keeps it up to date from then on.
func TestASeedPublishesItsTableOnceAPeerAsks(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		opts := piecesOptionsOn(t, store)
		d, rc := loneMissBody(t, opts)
		defer rc.Close()
		if _, err := io.ReadFull(rc, make([]byte, 3<<20)); err != nil {
			t.Fatal(err)
		}
		l, ok := opts.Windows.Lookup(d.Digest)
		if !ok {
			t.Fatal("the layer is not in the window")
		}
		if n := len(l.CoveredDigests()); n != 0 {
			t.Fatalf("a table of %d pieces published before any peer asked", n)
		}
		l.Asked(peerA)
		waitUntil(t, func() bool { return len(l.CoveredDigests()) >= 12 }) // what was written before it asked
		if _, err := io.ReadFull(rc, make([]byte, 2<<20)); err != nil {
			t.Fatal(err)
		}
		if n := len(l.CoveredDigests()); n < 20 {
			t.Fatalf("the table covers %d pieces after 20 were written", n)
		}
	})
}

// A holder found to hold a bad copy (410) is dropped with every request
// still in flight to it: those pieces are asked elsewhere at once. Left
// to time out, the upstream reader would open past them and come back,
// abandoning a body (one that cannot seek, here, as a registry's body
// that has to be asked again).
func TestAHolderDroppedEndsItsOtherRequestsAtOnce(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20)
		good := piecesHolder(t, data, false, new(atomic.Int32))
		var pieceAsks atomic.Int32
		ended := make(chan error, 8)
		bad := func(req *http.Request) (*http.Response, error) {
			if req.URL.Query().Get(oci.PieceQuery) == "" {
				return good(req) // its state: a holder of all of it
			}
			if pieceAsks.Add(1) == 1 {
				<-req.Context().Done() // slow: held until cancelled or timed out
				ended <- req.Context().Err()
				return nil, req.Context().Err()
			}
			rec := httptest.NewRecorder()
			rec.WriteHeader(http.StatusGone) // its own copy does not match the digest
			return rec.Result(), nil
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: bad}}
		up := &streamOnlyUpstream{data: data}
		f := New(fakeFinder{providers: []peer.ID{peerA}}, peerclient.New(client, peerclient.Options{RequestTimeout: time.Minute}), piecesOptionsOn(t, store))
		if got, err := fetch(f, up, desc(data, ocispec.MediaTypeImageLayer)); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("fetch: %v", err)
		}
		if n := up.calls.Load(); n != 1 {
			t.Errorf("%d upstream bodies opened, want one", n)
		}
		select {
		case err := <-ended:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("the slow request to the dropped holder ended with %v, want cancelled", err)
			}
		default:
			t.Fatal("the slow request to the dropped holder was never ended")
		}
	})
}

// streamOnlyUpstream sends bodies that cannot seek.
type streamOnlyUpstream struct {
	data  []byte
	calls atomic.Int32
}

func (u *streamOnlyUpstream) Fetch(context.Context, ocispec.Descriptor) (io.ReadCloser, error) {
	u.calls.Add(1)
	return io.NopCloser(bytes.NewReader(u.data)), nil
}

// keptTables records the tables a fetcher keeps.
type keptTables struct {
	mu   sync.Mutex
	kept []pieces.Table
}

func (k *keptTables) Put(t pieces.Table) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.kept = append(k.kept, t)
	return nil
}

// The table of a layer fetched by pieces is kept, signed and whole, once
// its bytes matched the layer's digest; that of bytes that did not match
// (the upstream sent others) is not.
func TestTheTableOfALayerIsKeptOnlyWhenItsBytesMatchItsDigest(t *testing.T) {
	data := randomBytes(t, 6<<20)
	opts := piecesOptions(t)
	kept := &keptTables{}
	opts.Tables = kept
	f := newFetcher(t, fakeFinder{}, &fakeClient{}, opts)
	fetchAll(t, f, &fakeUpstream{data: data}, desc(data, ocispec.MediaTypeImageLayer))
	if len(kept.kept) != 1 || !kept.kept[0].Complete() || kept.kept[0].Layer != digest.FromBytes(data) || kept.kept[0].Verify() != nil {
		t.Fatalf("kept %+v: want one whole signed table of the layer", kept.kept)
	}

	other := randomBytes(t, 6<<20)
	kept.kept = nil
	f = newFetcher(t, fakeFinder{}, &fakeClient{}, opts)
	if _, err := fetch(f, &fakeUpstream{data: other}, desc(data, ocispec.MediaTypeImageLayer)); err == nil {
		t.Fatal("bytes that do not match the digest were committed")
	}
	if len(kept.kept) != 0 {
		t.Fatalf("a table of bytes that did not match was kept: %+v", kept.kept)
	}
}

// Two seeds of a layer share its pieces: this node reads from the
// upstream only the pieces the other seed does not bring, passing over
// its runs with a seek, so the two take one copy in all, not one each.
// (A short run it holds already is read on through: a seek would abandon
// more in flight than the run holds.)
func TestSeedsReadOnlyTheirOwnPiecesFromTheUpstream(t *testing.T) {
	// 128 pieces of 256 KiB.
	const through = readThrough / (256 << 10)
	for _, c := range []struct {
		name        string
		bHolds      func(i int) bool
		least, most int // pieces from the upstream
	}{
		// B brings runs of 32 (8 MiB). On a stall the next-needed piece is
		// taken from the upstream even while B's is on its way (two such,
		// and a short run held already read on through after each, at
		// most).
		{"long runs", func(i int) bool { return (i/32)%2 == 0 }, 64, 64 + 2 + 2*through},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := newStore(t) // outside the bubble: its event exchange runs for good
			synctest.Test(t, func(t *testing.T) {
				data := randomBytes(t, 32<<20)
				var fromB atomic.Int32
				client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerB: partHolder(t, data, false, &fromB, c.bHolds, true, 0)}}
				opts := piecesOptionsOn(t, store)
				opts.Swarm = swarm.DefaultConfig()
				opts.Swarm.Stall = 200 * time.Millisecond // B never brings the pieces it does not hold
				up := &fakeUpstream{data: data}
				f := newFetcher(t, fakeFinder{providers: []peer.ID{peerB}}, client, opts)
				if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
					t.Fatal("wrong bytes")
				}
				piece := pieces.SwarmPieceSize(int64(len(data)))
				if got := f.Stats().UpstreamBytes.Load(); got < int64(c.least)*piece || got > int64(c.most)*piece {
					t.Fatalf("%d bytes from the upstream (%.1f pieces), %d pieces from B: want %d to %d pieces upstream",
						got, float64(got)/float64(piece), fromB.Load(), c.least, c.most)
				}
			})
		})
	}
}

// A pull cancelled while its body waits for a piece ends: the read
// returns the cancellation, and nothing is left running.
func TestACancelledPullByPiecesReturns(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20)
		var sent atomic.Int32
		honest := piecesHolder(t, data, false, &sent)
		stuck := func(req *http.Request) (*http.Response, error) {
			if req.URL.Query().Get(oci.PieceQuery) != "" {
				<-req.Context().Done() // a holder that never sends
				return nil, req.Context().Err()
			}
			return honest(req)
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: stuck}}
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, piecesOptionsOn(t, store))
		ctx, cancel := context.WithCancel(testNamespace())
		rc, err := f.WrapFetcher(&fakeUpstream{}, "registry.example/team/app:v1").Fetch(ctx, desc(data, ocispec.MediaTypeImageLayer))
		if err != nil {
			t.Fatal(err)
		}
		time.AfterFunc(100*time.Millisecond, cancel)
		if _, err := io.ReadAll(rc); !errors.Is(err, context.Canceled) {
			t.Fatalf("read: %v, want the cancellation", err)
		}
		rc.Close()
		if f.opts.Windows.Held() != 0 {
			t.Fatalf("%d bytes held after the body was closed", f.opts.Windows.Held())
		}
		waitUntil(t, func() bool { return f.fetchingByPieces.Load() == 0 })
	})
}

// A piece in the have-set is one a peer can be sent: in memory, or
// written to the ingest. containerd's copy reads 1 MiB before it writes,
// so the last MiB handed on is in neither place unless kept in memory.
func TestAPieceHeldIsServable(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		for _, followed := range []bool{false, true} {
			opts := piecesOptionsOn(t, store)
			d, rc := loneMissBody(t, opts)
			l, ok := opts.Windows.Lookup(d.Digest)
			if !ok {
				t.Fatal("the layer is not in the window registry")
			}
			if followed {
				l.Asked(peerA)
				waitUntil(t, func() bool { return opts.Windows.Held() > 0 }) // the upstream reader reads ahead for it
			}
			if _, err := io.ReadFull(rc, make([]byte, 2<<20)); err != nil { // pieces 0–7
				t.Fatal(err)
			}
			for i := range 8 {
				_, inMemory := l.Piece(i)
				if written := i < 4; l.Has(i) != (written || inMemory) || (followed && !l.Has(i)) {
					t.Errorf("followed %v: piece %d held %v, in memory %v, written %v", followed, i, l.Has(i), inMemory, written)
				}
			}
			rc.Close()
		}
	})
}

// A node that fetches a layer no peer holds or follows reads it from the
// upstream straight into containerd's buffer, as a fetch without peers
// does: no piece in memory. Once a peer follows it, the upstream reader
// takes the same body over and reads pieces ahead for it.
func TestALoneFetchHoldsNoPieceUntilFollowed(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		opts := piecesOptionsOn(t, store)
		data := randomBytes(t, 6<<20)
		f := newFetcher(t, fakeFinder{}, &fakeClient{}, opts)
		d := desc(data, ocispec.MediaTypeImageLayer)
		up := &fakeUpstream{data: data}
		rc, err := f.WrapFetcher(up, "registry.example/team/app:v1").Fetch(testNamespace(), d)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		got := make([]byte, len(data))
		if _, err := io.ReadFull(rc, got[:3<<20]); err != nil {
			t.Fatal(err)
		}
		if n := opts.Windows.Held(); n != 0 {
			t.Fatalf("%d bytes of pieces in memory in a fetch alone", n)
		}
		l, _ := opts.Windows.Lookup(d.Digest)
		l.Asked(peerA)
		waitUntil(t, func() bool { return opts.Windows.Held() > 0 })
		if _, err := io.ReadFull(rc, got[3<<20:]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatal("wrong bytes")
		}
		if n := len(l.CoveredDigests()); n < 12 {
			t.Fatalf("the table published covers %d pieces, want the 12 written before the peer asked at least", n)
		}
		up.mu.Lock()
		defer up.mu.Unlock()
		if up.calls != 1 {
			t.Fatalf("%d requests to the upstream, want 1: the body is handed over", up.calls)
		}
	})
}

// gatedUpstream opens no body before open is closed, as containerd's
// fetcher waits for one of its three requests to a registry; firstRead
// records a read of the layer's first piece.
type gatedUpstream struct {
	data      []byte
	piece     int64
	open      chan struct{}
	firstRead atomic.Bool
	waiting   atomic.Int32 // fetches waiting for open
}

func (u *gatedUpstream) Fetch(ctx context.Context, _ ocispec.Descriptor) (io.ReadCloser, error) {
	u.waiting.Add(1)
	defer u.waiting.Add(-1)
	select {
	case <-u.open:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &watchedBody{readSeekCloser{bytes.NewReader(u.data)}, u}, nil
}

type watchedBody struct {
	readSeekCloser
	u *gatedUpstream
}

func (b *watchedBody) Read(p []byte) (int, error) {
	if at, _ := b.Seek(0, io.SeekCurrent); at < b.u.piece {
		b.u.firstRead.Store(true)
	}
	return b.readSeekCloser.Read(p)
}

// A piece asked of the upstream that a peer brings while the registry's
// body is still opening is not read from that body.
func TestAPieceAPeerBroughtWhileTheBodyOpenedIsNotRead(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20) // 24 pieces of 256 KiB
		var ready atomic.Bool
		var fromB atomic.Int32
		empty, full := partHolder(t, data, false, &fromB, func(int) bool { return false }, false, 0), piecesHolder(t, data, false, &fromB)
		b := func(req *http.Request) (*http.Response, error) {
			if ready.Load() {
				return full(req)
			}
			return empty(req)
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerB: b}}
		opts := piecesOptionsOn(t, store)
		opts.Swarm = swarm.DefaultConfig()
		opts.Swarm.Stall = 200 * time.Millisecond // B has nothing at first: piece 0 is asked of the upstream
		up := &gatedUpstream{data: data, piece: pieces.SwarmPieceSize(int64(len(data))), open: make(chan struct{})}
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerB}}, client, opts)
		d := desc(data, ocispec.MediaTypeImageLayer)
		type result struct {
			got []byte
			err error
		}
		done := make(chan result, 1)
		go func() {
			got, err := fetch(f, up, d)
			done <- result{got, err}
		}()
		time.Sleep(300 * time.Millisecond) // past Stall: piece 0 waits for the upstream's body
		ready.Store(true)
		// Until piece 0 came from B, or the whole layer did.
		var r *result
		for deadline := time.Now().Add(10 * time.Second); r == nil; time.Sleep(10 * time.Millisecond) {
			if l, ok := opts.Windows.Lookup(d.Digest); ok && l.Has(0) {
				break
			}
			select {
			case got := <-done:
				r = &got
			default:
			}
			if time.Now().After(deadline) {
				t.Fatal("piece 0 never came from B")
			}
		}
		close(up.open)
		if r == nil {
			got := <-done
			r = &got
		}
		if r.err != nil || !bytes.Equal(r.got, data) {
			t.Fatalf("fetch: %v", r.err)
		}
		if up.firstRead.Load() {
			t.Fatal("piece 0 was read from the upstream though B had brought it")
		}
	})
}

// A node that asks this one for a layer this one fetches by pieces is
// followed and named to others: a seed waiting for a body from the
// registry takes the layer from a node it learned of only because that
// node asked it.
func TestANodeThatAskedIsFollowedAndNamed(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20)
		var fromB atomic.Int32
		holder := piecesHolder(t, data, false, &fromB)
		named := make(chan struct{}) // B sends no piece before the test saw it named
		b := func(req *http.Request) (*http.Response, error) {
			if req.URL.Query().Get(oci.PieceQuery) != "" {
				select {
				case <-named:
				case <-req.Context().Done():
					return nil, req.Context().Err()
				}
			}
			return holder(req)
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerB: b}}
		opts := piecesOptionsOn(t, store)
		up := &gatedUpstream{data: data, piece: pieces.SwarmPieceSize(int64(len(data))), open: make(chan struct{})} // never opens
		f := newFetcher(t, fakeFinder{}, client, opts)
		d := desc(data, ocispec.MediaTypeImageLayer)
		done := make(chan error, 1)
		go func() {
			got, err := fetch(f, up, d)
			if err == nil && !bytes.Equal(got, data) {
				err = errors.New("wrong bytes")
			}
			done <- err
		}()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("B was not named in this node's state")
			}
			if l, ok := opts.Windows.Lookup(d.Digest); ok {
				l.Asked(peerB) // as the content server records B's request
				if slices.Contains(l.State().Holders, peerB) {
					close(named)
					break
				}
			}
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the fetch did not end: the node that asked was not followed")
		}
		if fromB.Load() == 0 {
			t.Fatal("no piece came from B")
		}
	})
}

// A node ranked after this one asked for the layer before this node began
// it (it waited for this node, stalled, and reads the layer from the
// upstream): this node follows it, and reads nothing there itself.
func TestANodeThatAskedBeforeTheLayerBeganIsFollowed(t *testing.T) {
	data := randomBytes(t, 6<<20)
	var fromB atomic.Int32
	all := func(int) bool { return true }
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerB: partHolder(t, data, false, &fromB, all, true, int64(len(data)))}}
	opts := piecesOptions(t)
	opts.Distance = func(_ digest.Digest, p peer.ID) string {
		if p == opts.Self {
			return "b"
		}
		return "a" // after this node
	}
	d := desc(data, ocispec.MediaTypeImageLayer)
	opts.Windows.AskedEarly(d.Digest, peerB)
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{}, client, opts)
	if got := fetchAll(t, f, up, d); !bytes.Equal(got, data) {
		t.Fatal("wrong bytes")
	}
	if up.calls != 0 || fromB.Load() == 0 {
		t.Fatalf("upstream bodies %d, pieces from B %d: want none from the upstream, the layer from B", up.calls, fromB.Load())
	}
}

// A seed whose request to the registry waits (containerd's three are held
// by its other layers) leaves the upstream to a seed that reads the layer
// there: the waiting request is given up, never sent, and the layer comes
// from the other seed.
func TestASeedWaitingForTheRegistryLeavesItToASeedThatReads(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20)
		var fromB atomic.Int32
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{
			peerB: partHolder(t, data, false, &fromB, func(int) bool { return true }, true, int64(len(data))),
		}}
		opts := piecesOptionsOn(t, store)
		// The registry's body never opens; nobody is found: this node is the seed.
		up := &gatedUpstream{data: data, piece: pieces.SwarmPieceSize(int64(len(data))), open: make(chan struct{})}
		f := newFetcher(t, fakeFinder{}, client, opts)
		d := desc(data, ocispec.MediaTypeImageLayer)
		rc, err := f.WrapFetcher(up, "registry.example/team/app:v1").Fetch(testNamespace(), d)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		type result struct {
			got []byte
			err error
		}
		read := make(chan result, 1)
		go func() {
			got, err := io.ReadAll(rc)
			read <- result{got, err}
		}()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			select {
			case r := <-read:
				if r.err != nil || !bytes.Equal(r.got, data) {
					t.Fatalf("read: %v (%d bytes)", r.err, len(r.got))
				}
				// Before the body is closed, which would give the request up
				// too; the waiting fetch returns on its own goroutine (or was
				// never made, if this node heard of B first).
				for wait := time.Now().Add(5 * time.Second); up.waiting.Load() > 0; time.Sleep(10 * time.Millisecond) {
					if time.Now().After(wait) {
						t.Fatal("the request to the registry still waits")
					}
				}
				if fromB.Load() == 0 {
					t.Fatal("no piece came from the seed that reads")
				}
				// It no longer says it is a seed: a seed ranked after it
				// would yield to it.
				if l, ok := opts.Windows.Lookup(d.Digest); !ok || l.State().Seed {
					t.Fatalf("the node that left the layer to B still says it is a seed (layer held: %v)", ok)
				}
				return
			default:
			}
			if time.Now().After(deadline) {
				t.Fatal("the fetch did not end")
			}
			if l, ok := opts.Windows.Lookup(d.Digest); ok {
				l.Asked(peerB) // B asks this node, and is followed
			}
		}
	})
}

// A holder that answers a piece request late (its uplink full) is asked
// again after its next state, not dropped for the layer: with it dropped,
// a node whose only holder it was took the layer from the upstream.
func TestAHolderThatAnswersLateIsAskedAgain(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20)
		var sent atomic.Int32
		var late atomic.Int32
		holder := piecesHolder(t, data, false, &sent)
		slow := func(req *http.Request) (*http.Response, error) {
			if req.URL.Query().Get(oci.PieceQuery) != "" && late.Add(1) <= 2 {
				<-req.Context().Done() // no answer within the request timeout
				return nil, req.Context().Err()
			}
			return holder(req)
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: slow}}
		up := &fakeUpstream{data: data}
		f := New(fakeFinder{providers: []peer.ID{peerA}}, peerclient.New(client, peerclient.Options{RequestTimeout: 50 * time.Millisecond}), piecesOptionsOn(t, store))
		if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
			t.Fatal("wrong bytes")
		}
		if up.calls != 0 || late.Load() < 2 {
			t.Fatalf("upstream bodies %d, piece requests to A %d: want none upstream, the layer from A after two went unanswered", up.calls, late.Load())
		}
	})
}

// A node that spares its uplink (capped, or serving nothing) asks the
// nodes nearest a layer's key whether they pull it even when they come
// after it in that order: it should follow them, not seed the layer.
func TestANodeThatSparesItsUplinkAsksTheNodesAfterIt(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		pulls := func(req *http.Request) (*http.Response, error) {
			resp, err := notFound(req)
			resp.Header = http.Header{oci.PullingHeader: []string{"true"}}
			return resp, err
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: pulls}}
		d := desc(randomBytes(t, 6<<20), ocispec.MediaTypeImageLayer)
		for _, spare := range []bool{false, true} {
			opts := piecesOptionsOn(t, store)
			opts.SpareUplink = spare
			opts.Peers = func() []peer.AddrInfo { return []peer.AddrInfo{{ID: peerA}} }
			f := newFetcher(t, fakeFinder{}, client, opts)
			pf := f.WrapFetcher(&fakeUpstream{}, "registry.example/app:v1")
			ord := pf.orderBy(d, func(_ digest.Digest, p peer.ID) string {
				if p == opts.Self {
					return "z" // this node is first
				}
				return "a"
			})
			_, pulling := pf.askFirstRanked(testNamespace(), d, ord)
			if got := len(pulling) == 1 && pulling[0] == peerA; got != spare {
				t.Fatalf("spare uplink %v: asked found %v pulling, want %v", spare, pulling, spare)
			}
		}
	})
}

// failingUpstream fails the bodies of a layer as a registry behind a
// full link does: opening the first refused ones fails, reading one
// breaks after breakAt bytes, and bodies opened after good are whole.
type failingUpstream struct {
	data    []byte
	refused int   // bodies refused first
	breakAt int64 // the first body opened breaks here (0: none does)
	good    int   // bodies opened after refused, then every one refused (-1: none)
	mu      sync.Mutex
	calls   int
}

var errNoRoute = errors.New("dial tcp 10.0.0.1:5000: connect: no route to host")

func (u *failingUpstream) Fetch(context.Context, ocispec.Descriptor) (io.ReadCloser, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.calls++
	if u.calls <= u.refused || u.good >= 0 && u.calls > u.refused+u.good {
		return nil, errNoRoute
	}
	body := readSeekCloser{bytes.NewReader(u.data)}
	if u.breakAt > 0 && u.calls == u.refused+1 {
		return &breakingBody{body, u.breakAt}, nil
	}
	return body, nil
}

type breakingBody struct {
	readSeekCloser
	at int64
}

func (b *breakingBody) Read(p []byte) (int, error) {
	if off, _ := b.Seek(0, io.SeekCurrent); off >= b.at {
		return 0, syscall.ECONNRESET
	} else if int64(len(p)) > b.at-off {
		p = p[:b.at-off]
	}
	return b.readSeekCloser.Read(p)
}

func (u *failingUpstream) opened() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.calls
}

// A fetch by pieces whose upstream fails goes on with its peers, and
// takes from the upstream again a stall time later what no peer brings;
// it fails when the upstream fails again with nothing arrived between.
func TestAFetchByPiecesOutlivesAnUpstreamFailure(t *testing.T) {
	for _, c := range []struct {
		name          string
		refused, good int
		breakAt       int64
		fails         bool
		atLeast       int // bodies opened
	}{
		{"a body that cannot be opened", 1, -1, 0, false, 2},
		{"a body that breaks", 0, -1, 9 << 20, false, 2},
		{"a body that breaks, then none opens", 0, 1, 9 << 20, true, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := newStore(t) // outside the bubble: its event exchange runs for good
			synctest.Test(t, func(t *testing.T) {
				data := randomBytes(t, 32<<20) // 128 pieces of 256 KiB
				// B, a seed too, brings runs of 32 pieces (8 MiB), and
				// never the others.
				var fromB atomic.Int32
				bHolds := func(i int) bool { return (i/32)%2 == 0 }
				client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerB: partHolder(t, data, false, &fromB, bHolds, true, 0)}}
				opts := piecesOptionsOn(t, store)
				opts.Swarm = swarm.DefaultConfig()
				opts.Swarm.Stall = 200 * time.Millisecond
				up := &failingUpstream{data: data, refused: c.refused, good: c.good, breakAt: c.breakAt}
				f := newFetcher(t, fakeFinder{providers: []peer.ID{peerB}}, client, opts)
				got, err := fetch(f, up, desc(data, ocispec.MediaTypeImageLayer))
				switch {
				case c.fails && !errors.Is(err, errNoRoute):
					t.Fatalf("fetch: %v, want the upstream's error", err)
				case !c.fails && err != nil:
					t.Fatalf("fetch: %v", err)
				case !c.fails && !bytes.Equal(got, data):
					t.Fatal("wrong bytes")
				}
				if up.opened() < c.atLeast || fromB.Load() == 0 {
					t.Fatalf("%d upstream bodies opened, %d pieces from B: want at least %d, and some from B", up.opened(), fromB.Load(), c.atLeast)
				}
			})
		})
	}
}

// A piece whose body breaks is asked again, and the failure is in the
// node's recent failures with its peer and error.
func TestAPieceWhoseBodyBreaksIsRecordedAndAskedAgain(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20)
		var sent, broken atomic.Int32
		holder := piecesHolder(t, data, false, &sent)
		breaking := func(req *http.Request) (*http.Response, error) {
			resp, err := holder(req)
			if err == nil && req.URL.Query().Get(oci.PieceQuery) != "" && broken.Add(1) <= 2 {
				half := io.LimitReader(resp.Body, resp.ContentLength/2)
				resp.Body = io.NopCloser(io.MultiReader(half, iotest.ErrReader(errors.New("connection reset by peer"))))
			}
			return resp, err
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: breaking}}
		up := &fakeUpstream{data: data}
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, piecesOptionsOn(t, store))
		if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
			t.Fatal("wrong bytes")
		}
		if up.calls != 0 {
			t.Fatalf("upstream bodies %d: want the layer from A", up.calls)
		}
		var recorded int
		for _, r := range f.failures.Recent() {
			if r.Peer == peerA.String() && strings.Contains(r.Error, "connection reset by peer") {
				recorded++
			}
		}
		if recorded != 2 {
			t.Fatalf("recent failures %+v: want the two broken bodies from A", f.failures.Recent())
		}
	})
}

// A piece that arrives before any table covers it (a seed passes a piece
// on as it reads it, and signs it once written) waits for the table the
// holder's next state brings: each piece is sent once, none discarded.
func TestAPieceThatArrivesBeforeItsTableWaitsForIt(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20) // 24 pieces of 256 KiB
		d := desc(data, ocispec.MediaTypeImageLayer)
		var sent atomic.Int32
		holder := piecesHolder(t, data, false, &sent)
		tableLater := func(req *http.Request) (*http.Response, error) {
			resp, err := holder(req)
			if err != nil || req.URL.Query().Get(oci.PieceQuery) != "" || sent.Load() >= 2 {
				return resp, err
			}
			st, err := window.DecodeState(resp.Body, d.Digest, d.Size, nil)
			if err != nil {
				t.Error(err)
			}
			st.Tables = nil
			rec := httptest.NewRecorder()
			st.Encode(rec)
			return rec.Result(), nil
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: tableLater}}
		up := &fakeUpstream{data: data}
		o := piecesOptionsOn(t, store)
		o.Swarm = swarm.DefaultConfig()
		o.Swarm.Hedge = 1e6 // a hedge would ask a piece twice
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, o)
		if got := fetchAll(t, f, up, d); !bytes.Equal(got, data) {
			t.Fatal("wrong bytes")
		}
		if up.calls != 0 || sent.Load() != 24 || f.Stats().PiecesWithoutTable.Load() != 0 {
			t.Fatalf("upstream %d, pieces sent %d, discarded for want of a table %d: want none upstream, each piece sent once, none discarded",
				up.calls, sent.Load(), f.Stats().PiecesWithoutTable.Load())
		}
	})
}

// gateReader reads r once open is closed.
type gateReader struct {
	open <-chan struct{}
	r    io.Reader
}

func (g gateReader) Read(p []byte) (int, error) {
	<-g.open
	return g.r.Read(p)
}

// A piece on its way from a peer is offered to this node's peers as it
// comes (window.Layer.Arrival): its bytes pass on as they arrive, the last
// once the piece is verified.
func TestAPieceArrivingFromAPeerIsPassedOnAsItComes(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20) // 24 pieces of 256 KiB, past the in-memory limit
		d := desc(data, ocispec.MediaTypeImageLayer)
		var sent atomic.Int32
		holder := piecesHolder(t, data, false, &sent)
		release := make(chan struct{})
		const half = 128 << 10
		gated := func(req *http.Request) (*http.Response, error) {
			resp, err := holder(req)
			if err != nil || req.URL.Query().Get(oci.PieceQuery) != "0" {
				return resp, err
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b[:half]), gateReader{release, bytes.NewReader(b[half:])}))
			return resp, nil
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: gated}}
		o := piecesOptionsOn(t, store)
		o.Swarm = swarm.DefaultConfig()
		o.Swarm.Hedge = 1e6 // piece 0 is late on purpose
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, o)
		fetched := make(chan []byte, 1)
		go func() {
			got, err := fetch(f, &fakeUpstream{data: data}, d)
			if err != nil {
				t.Error(err)
			}
			fetched <- got
		}()
		var a *window.Arrival
		waitUntil(t, func() bool {
			l, ok := o.Windows.Lookup(d.Digest)
			if ok {
				a, ok = l.Arrival(0)
			}
			return ok
		})
		passed := a.Reader(t.Context())
		first := make([]byte, half)
		if _, err := io.ReadFull(passed, first); err != nil || !bytes.Equal(first, data[:half]) {
			t.Fatalf("the first half of piece 0, passed on while the rest is on its way: %v", err)
		}
		close(release)
		rest, err := io.ReadAll(passed)
		if err != nil || !bytes.Equal(rest, data[half:256<<10]) {
			t.Fatalf("the rest of piece 0 passed on: %d bytes, %v", len(rest), err)
		}
		if got := <-fetched; !bytes.Equal(got, data) {
			t.Fatal("wrong bytes")
		}
	})
}

// A seed that sends bad pieces of a layer whose table it signed true is
// dropped for the layer, but its table is not: the other holders learned
// the table from it, and their pieces match it. The layer comes from them,
// none from the upstream.
func TestASeedThatSendsBadPiecesKeepsItsTrueTable(t *testing.T) {
	store := newStore(t) // outside the bubble: its event exchange runs for good
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 6<<20)
		d := desc(data, ocispec.MediaTypeImageLayer)
		key, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		seed, err := peer.IDFromPrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		var fromSeed, fromB atomic.Int32
		all := func(int) bool { return true }
		b := holderOf(t, key, d, data, false, &fromB, all, false, 0) // the seed's table, good bytes
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{
			seed: holderOf(t, key, d, data, true, &fromSeed, all, true, d.Size),
			peerB: func(req *http.Request) (*http.Response, error) {
				if fromSeed.Load() == 0 { // B fetches the layer from the seed too
					return notFound(req)
				}
				return b(req)
			},
		}}
		up := &fakeUpstream{data: data}
		f := newFetcher(t, fakeFinder{providers: []peer.ID{seed, peerB}}, client, piecesOptionsOn(t, store))
		if got := fetchAll(t, f, up, d); !bytes.Equal(got, data) {
			t.Fatal("wrong bytes")
		}
		if up.calls != 0 || fromB.Load() == 0 || !f.penalties.IsCorrupt(seed, d.Digest) || f.penalties.IsBadTable(seed, d.Digest) || f.penalties.IsCorrupt(peerB, d.Digest) {
			t.Fatalf("upstream %d, pieces from B %d; seed penalized %v, its tables refused %v; B penalized %v: want the layer from B, the seed avoided, its table kept",
				up.calls, fromB.Load(), f.penalties.IsCorrupt(seed, d.Digest), f.penalties.IsBadTable(seed, d.Digest), f.penalties.IsCorrupt(peerB, d.Digest))
		}
	})
}
