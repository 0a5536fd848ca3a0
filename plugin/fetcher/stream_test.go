package fetcher

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/peer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/pieces"
)

// gated serves data, sending the first n bytes of a body at once and the
// rest only once release is closed; like an HTTP body, it fails once the
// request's context is done.
func gated(data []byte, n int, release <-chan struct{}) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		resp, _ := serves(data)(req)
		if req.Method == http.MethodHead {
			return resp, nil
		}
		body, _ := io.ReadAll(resp.Body)
		n := min(n, len(body))
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body[:n]), &afterClose{ch: release, done: req.Context().Done(), r: bytes.NewReader(body[n:])}))
		return resp, nil
	}
}

type afterClose struct {
	ch, done <-chan struct{}
	r        io.Reader
}

func (a *afterClose) Read(b []byte) (int, error) {
	select {
	case <-a.ch:
		return a.r.Read(b)
	case <-a.done:
		return 0, errors.New("request canceled")
	}
}

// A layer from peers goes into the ingest containerd opened for it, the
// one `ctr image pull` and CRI watch, and moves there as it arrives; the
// store's commit is containerd's.
func TestALayerFromPeersArrivesInContainerdsOwnIngest(t *testing.T) {
	data := randomBytes(t, 4<<20)
	release := make(chan struct{})
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: gated(data, 1<<20, release)}}
	store := newStore(t)
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{InMemoryLimit: 1024, Store: store})
	d := desc(data, ocispec.MediaTypeImageLayer)
	ctx := testNamespace()
	pf := f.WrapFetcher(&fakeUpstream{}, "registry.example/team/app:v1")
	done := make(chan error, 1)
	go func() { done <- remotes.Fetch(ctx, store, pf, d) }()

	ref := remotes.MakeRefKey(ctx, d)
	deadline := time.Now().Add(10 * time.Second)
	for {
		active, err := store.ListStatuses(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(active) == 1 && active[0].Ref == ref && active[0].Offset == 1<<20 {
			break
		}
		if len(active) > 1 {
			t.Fatalf("ingests %v, want only containerd's %s", active, ref)
		}
		if time.Now().After(deadline) {
			t.Fatalf("containerd's ingest never showed the first MiB: %v", active)
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got, err := content.ReadBlob(ctx, store, d)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("blob not committed intact: %v", err)
	}
	if active, _ := store.ListStatuses(ctx); len(active) != 0 {
		t.Fatalf("ingests left: %v", active)
	}
	if r := pf.Received(); r.Peers[peerA] != int64(len(data)) || r.Upstream != 0 {
		t.Fatalf("received %+v", r)
	}
}

// Bad bytes from a peer fail the read before containerd commits anything:
// the last byte is held back. The pull fails, naming the peer; the ingest
// is discarded afterwards, and the next attempt takes the layer from
// another holder, not from the upstream.
func TestBadBytesFailTheReadAndTheNextAttemptGoesElsewhere(t *testing.T) {
	data := randomBytes(t, 1<<20)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(randomBytes(t, len(data))), peerB: serves(data)}}
	store := newStore(t)
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{InMemoryLimit: 1024, Store: store})
	d := desc(data, ocispec.MediaTypeImageLayer)
	ctx := testNamespace()
	ref := remotes.MakeRefKey(ctx, d)

	pf := f.WrapFetcher(up, "registry.example/team/app:v1")
	err := remotes.Fetch(ctx, store, pf, d)
	if !errors.Is(err, peerclient.ErrCorrupt) || !strings.Contains(err.Error(), peerA.String()) {
		t.Fatalf("fetch: %v, want a verification failure naming %s", err, peerA)
	}
	if _, err := store.Info(ctx, d.Digest); !errdefs.IsNotFound(err) {
		t.Fatalf("something was committed: %v", err)
	}
	if st, err := store.Status(ctx, ref); err != nil || st.Offset != d.Size-1 {
		t.Fatalf("ingest %+v (%v), want every byte but the last", st, err)
	}
	if !f.penalties.IsCorrupt(peerA, d.Digest) {
		t.Fatal("the peer that sent bad bytes is not penalized")
	}
	if !pf.DiscardCorrupt(ctx) {
		t.Fatal("nothing discarded")
	}
	if _, err := store.Status(ctx, ref); !errdefs.IsNotFound(err) {
		t.Fatalf("the bad ingest is still there: %v", err)
	}
	if pf.DiscardCorrupt(ctx) {
		t.Fatal("discarded twice")
	}

	f.finder = fakeFinder{providers: []peer.ID{peerA, peerB}}
	if err := remotes.Fetch(ctx, store, f.WrapFetcher(up, "registry.example/team/app:v1"), d); err != nil {
		t.Fatal(err)
	}
	if got, err := content.ReadBlob(ctx, store, d); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("blob not committed intact: %v", err)
	}
	if up.calls != 0 {
		t.Fatalf("upstream asked %d times, want 0", up.calls)
	}
}

// writePrefix leaves containerd's ingest of d holding prefix, as a pull
// interrupted midway does.
func writePrefix(t *testing.T, store content.Store, d ocispec.Descriptor, prefix []byte) {
	t.Helper()
	ctx := testNamespace()
	w, err := content.OpenWriter(ctx, store, content.WithRef(remotes.MakeRefKey(ctx, d)), content.WithDescriptor(d))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(prefix); err != nil {
		t.Fatal(err)
	}
	w.Close()
}

// A pull resumes what an interrupted one left in containerd's ingest: the
// peer is asked only for the rest.
func TestAPullResumesContainerdsIngestFromPeers(t *testing.T) {
	data := randomBytes(t, 1<<20)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(data)}}
	store := newStore(t)
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{InMemoryLimit: 1024, Store: store})
	d := desc(data, ocispec.MediaTypeImageLayer)
	writePrefix(t, store, d, data[:300000])

	ctx := testNamespace()
	if err := remotes.Fetch(ctx, store, f.WrapFetcher(&fakeUpstream{}, "registry.example/team/app:v1"), d); err != nil {
		t.Fatal(err)
	}
	if got, err := content.ReadBlob(ctx, store, d); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("blob not committed intact: %v", err)
	}
	if sent := client.sent(); sent[len(sent)-1] != "peer-a bytes=300000-" {
		t.Fatalf("requests %q, want the last from offset 300000", sent)
	}
}

// A resumed ingest whose start was bad fails at containerd's commit (only
// it hashed those bytes). The ingest is discarded so that the next attempt
// starts afresh; the peer that sent the rest is not to blame.
func TestABadResumedIngestIsDiscardedWithoutBlamingThePeer(t *testing.T) {
	data := randomBytes(t, 1<<20)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(data)}}
	store := newStore(t)
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{InMemoryLimit: 1024, Store: store})
	d := desc(data, ocispec.MediaTypeImageLayer)
	writePrefix(t, store, d, randomBytes(t, 300000))

	ctx := testNamespace()
	pf := f.WrapFetcher(&fakeUpstream{}, "registry.example/team/app:v1")
	if err := remotes.Fetch(ctx, store, pf, d); !errdefs.IsFailedPrecondition(err) {
		t.Fatalf("fetch: %v, want containerd's commit to fail", err)
	}
	if !pf.DiscardCorrupt(ctx) {
		t.Fatal("the bad ingest was not discarded")
	}
	if f.penalties.Avoid(peerA, d.Digest) {
		t.Fatal("the peer was blamed for bytes it did not send")
	}
	if err := remotes.Fetch(ctx, store, f.WrapFetcher(&fakeUpstream{}, "registry.example/team/app:v1"), d); err != nil {
		t.Fatal(err)
	}
	if got, err := content.ReadBlob(ctx, store, d); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("blob not committed intact: %v", err)
	}
}

// A body containerd closes without reading ends the fetch; one it stops
// reading midway stops the peer's stream, and nothing waits.
func TestAStreamClosedMidwayStopsItsFetch(t *testing.T) {
	data := randomBytes(t, 4<<20)
	release := make(chan struct{})
	defer close(release)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: gated(data, 1<<20, release)}}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{InMemoryLimit: 1024, Store: newStore(t)})
	d := desc(data, ocispec.MediaTypeImageLayer)
	ctx := testNamespace()

	rc, err := f.WrapFetcher(&fakeUpstream{}, "registry.example/team/app:v1").Fetch(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if f.Stats().InFlight.Load() != 0 {
		t.Fatal("a closed fetch still counts as in flight")
	}

	rc, err = f.WrapFetcher(&fakeUpstream{}, "registry.example/team/app:v1").Fetch(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, make([]byte, 1<<20)); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { rc.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a peer that had stopped sending")
	}
	if _, err := rc.Read(make([]byte, 1)); err == nil {
		t.Fatal("read after close succeeded")
	}
}

// After bad bytes of a layer from peers, a holder still receiving that
// layer may be passing them on: the next attempt takes it only from a
// holder of all of it, or the upstream.
func TestAfterBadBytesOnlyHoldersOfAllOfItAreFollowed(t *testing.T) {
	data := randomBytes(t, 1<<20)
	var beyond atomic.Int32
	gets := &getCounter{}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: serves(randomBytes(t, len(data))),
		peerB: gets.counting(peerB, holding(data, int64(len(data))-1, &beyond)), // receiving it
	}}
	store := newStore(t)
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{InMemoryLimit: 1024, Store: store})
	d := desc(data, ocispec.MediaTypeImageLayer)
	ctx := testNamespace()
	pf := f.WrapFetcher(up, "registry.example/team/app:v1")
	if err := remotes.Fetch(ctx, store, pf, d); !errors.Is(err, peerclient.ErrCorrupt) {
		t.Fatalf("fetch: %v, want a verification failure", err)
	}
	pf.DiscardCorrupt(ctx)

	f.finder = fakeFinder{providers: []peer.ID{peerA, peerB}}
	client.reset()
	if err := remotes.Fetch(ctx, store, f.WrapFetcher(up, "registry.example/team/app:v1"), d); err != nil {
		t.Fatal(err)
	}
	if up.calls != 1 {
		t.Fatalf("upstream asked %d times, want once", up.calls)
	}
	if gets.of(peerB) != 0 {
		t.Fatalf("the holder still receiving the layer was asked for it: %v", client.sent())
	}
}

// A holder receiving a layer again after bad bytes of it takes it only from
// sources it has no reason to doubt: a node that caught bad bytes follows
// it, and so the nodes that caught them rebuild the chain among
// themselves, while one still in its first attempt is left alone.
func TestAfterBadBytesAHolderReceivingAgainIsFollowed(t *testing.T) {
	data := randomBytes(t, 1<<20)
	var beyond atomic.Int32
	gets := &getCounter{}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: gets.counting(peerA, rechecked(holding(data, int64(len(data))/2, &beyond))),
		peerB: gets.counting(peerB, holding(randomBytes(t, len(data)), int64(len(data))/2, &beyond)),
	}}
	store := newStore(t)
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{InMemoryLimit: 1024, Store: store})
	d := desc(data, ocispec.MediaTypeImageLayer)
	f.markSuspect(d.Digest)
	if got := fetchAll(t, f, up, d); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	if up.calls != 0 || gets.of(peerA) == 0 || gets.of(peerB) != 0 {
		t.Fatalf("upstream %d, GETs to the holder receiving again %d, to the one in its first attempt %d; want 0, some, 0",
			up.calls, gets.of(peerA), gets.of(peerB))
	}
}

// rechecked answers with b, saying the blob is received again after bad
// bytes.
func rechecked(b peerBehaviour) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		resp, err := b(req)
		if err == nil {
			resp.Header.Set(oci.RecheckedHeader, "true")
		}
		return resp, err
	}
}

// withPieces answers a request for piece digests with body, and others
// with b.
func withPieces(body string, b peerBehaviour) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		if !strings.Contains(req.URL.Path, "/pieces/") {
			return b(req)
		}
		rec := httptest.NewRecorder()
		if body == "" {
			rec.WriteHeader(http.StatusNotFound)
		}
		rec.WriteString(body)
		return rec.Result(), nil
	}
}

func piecesJSON(t *testing.T, data []byte) string {
	l, err := pieces.Compute(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(l)
	return string(b)
}

// Bad bytes relayed by a node that was itself receiving them are blamed on
// the holder whose copy they came from, told by its piece digests (they
// are those of the bytes received) or by its own word (hashing its copy
// for them, it found it bad); the node that passed them on is not blamed.
func TestBadBytesAreBlamedOnTheBadCopyNotOnTheNodeThatPassedThemOn(t *testing.T) {
	data := randomBytes(t, 3<<20)
	rotten := append([]byte(nil), data...)
	copy(rotten[len(rotten)/2:], "rotten bytes")
	for name, answer := range map[string]string{
		"its pieces are those received": piecesJSON(t, rotten),
		"it owns up":                    `{"badCopy":true}`,
	} {
		t.Run(name, func(t *testing.T) {
			var beyond atomic.Int32
			client := &fakeClient{peers: map[peer.ID]peerBehaviour{
				// The bad copy, busy; the relay, idle (and so followed),
				// passing on what it receives from the bad copy.
				peerA: withPieces(answer, loaded(rotten, 5)),
				peerB: withPieces("", holding(rotten, int64(len(rotten)), &beyond)),
			}}
			store := newStore(t)
			f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{InMemoryLimit: 1024, Store: store})
			d := desc(data, ocispec.MediaTypeImageLayer)
			ctx := testNamespace()
			err := remotes.Fetch(ctx, store, f.WrapFetcher(&fakeUpstream{data: data}, "registry.example/team/app:v1"), d)
			if !errors.Is(err, peerclient.ErrCorrupt) {
				t.Fatalf("fetch: %v, want a verification failure", err)
			}
			if !f.penalties.IsCorrupt(peerA, d.Digest) || f.penalties.IsCorrupt(peerB, d.Digest) {
				t.Fatalf("blamed: bad copy %v, relay %v; want true, false (%v)",
					f.penalties.IsCorrupt(peerA, d.Digest), f.penalties.IsCorrupt(peerB, d.Digest), err)
			}
			if !strings.Contains(err.Error(), peerA.String()) {
				t.Fatalf("the error does not name the bad copy's holder: %v", err)
			}
		})
	}
}

// A node that followed a relay and never asked the holder of all of the
// layer whose copy the bad bytes came from finds that holder by looking
// the layer up again, and blames it, not the relay.
func TestBadBytesAreBlamedOnABadCopyTheFetchNeverAsked(t *testing.T) {
	data := randomBytes(t, 3<<20)
	rotten := append([]byte(nil), data...)
	copy(rotten[len(rotten)/2:], "rotten bytes")
	var beyond atomic.Int32
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: withPieces(piecesJSON(t, rotten), serves(rotten)),            // the bad copy
		peerB: withPieces("", holding(rotten, int64(len(rotten)), &beyond)), // the relay
	}}
	store := newStore(t)
	finder := &growingFinder{first: []peer.ID{peerB}, later: []peer.ID{peerA, peerB}}
	f := newFetcher(t, finder, client, Options{InMemoryLimit: 1024, Store: store})
	d := desc(data, ocispec.MediaTypeImageLayer)
	err := remotes.Fetch(testNamespace(), store, f.WrapFetcher(&fakeUpstream{data: data}, "registry.example/team/app:v1"), d)
	if !errors.Is(err, peerclient.ErrCorrupt) {
		t.Fatalf("fetch: %v, want a verification failure", err)
	}
	if !f.penalties.IsCorrupt(peerA, d.Digest) || f.penalties.IsCorrupt(peerB, d.Digest) {
		t.Fatalf("blamed: bad copy %v, relay %v; want true, false (%v)",
			f.penalties.IsCorrupt(peerA, d.Digest), f.penalties.IsCorrupt(peerB, d.Digest), err)
	}
}

// A holder that sent bad bytes and has since taken the layer again (it
// found its copy bad) answers the digests of a good copy. The bad bytes
// are then blamed on the peers that sent the first piece in which the
// bytes received differ from the pieces all holders answer: not on the
// holder that sent only the good end of the layer. Holders that disagree
// tell nothing, and every sender is blamed.
func TestBadBytesAreBlamedOnTheSendersOfTheFirstBadPiece(t *testing.T) {
	data := randomBytes(t, 3<<20)
	rotten := append([]byte(nil), data...)
	copy(rotten[len(rotten)/2:], "rotten bytes")
	for name, tc := range map[string]struct {
		otherPieces []byte
		relayBlamed bool
	}{
		"the holders agree":    {otherPieces: data},
		"the holders disagree": {otherPieces: randomBytes(t, len(data)), relayBlamed: true},
	} {
		t.Run(name, func(t *testing.T) {
			client := &fakeClient{peers: map[peer.ID]peerBehaviour{
				// Idle and followed first, it sends all but the last bytes.
				peerA: withPieces(piecesJSON(t, data), breaksAfter(rotten, len(rotten)-1000)),
				peerB: withPieces(piecesJSON(t, tc.otherPieces), loaded(data, 5)),
			}}
			store := newStore(t)
			// No hedge: on a loaded machine peerB, asked beside a slow
			// peerA and left, was not asked for the end.
			f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{InMemoryLimit: 1024, Store: store, HedgeDelay: time.Minute})
			d := desc(data, ocispec.MediaTypeImageLayer)
			up := &fakeUpstream{data: data}
			err := remotes.Fetch(testNamespace(), store, f.WrapFetcher(up, "registry.example/team/app:v1"), d)
			if up.calls != 0 {
				t.Fatal("the upstream was asked: peerB did not send the end")
			}
			if !errors.Is(err, peerclient.ErrCorrupt) {
				t.Fatalf("fetch: %v, want a verification failure", err)
			}
			if !f.penalties.IsCorrupt(peerA, d.Digest) || f.penalties.IsCorrupt(peerB, d.Digest) != tc.relayBlamed {
				t.Fatalf("blamed: sender of the bad piece %v, sender of the end %v; want true, %v (%v)",
					f.penalties.IsCorrupt(peerA, d.Digest), f.penalties.IsCorrupt(peerB, d.Digest), tc.relayBlamed, err)
			}
		})
	}
}

// After bad bytes of a layer every holder found is asked what it holds,
// not only the first few: the one receiving it again after bad bytes, worth
// following, may come last.
func TestAfterBadBytesEveryHolderFoundIsAsked(t *testing.T) {
	data := randomBytes(t, 1<<20)
	var beyond atomic.Int32
	gets := &getCounter{}
	const peerD, peerE peer.ID = "peer-d", "peer-e"
	behaviours := map[peer.ID]peerBehaviour{
		peerE: gets.counting(peerE, rechecked(holding(data, int64(len(data))/2, &beyond))),
	}
	providers := []peer.ID{peerA, peerB, peerC, peerD, peerE}
	for _, p := range providers[:4] {
		behaviours[p] = gets.counting(p, holding(randomBytes(t, len(data)), int64(len(data))/2, &beyond))
	}
	store := newStore(t)
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: providers}, &fakeClient{peers: behaviours},
		Options{InMemoryLimit: 1024, Store: store, MaxProviders: 2, Shuffle: func(int, func(i, j int)) {}})
	d := desc(data, ocispec.MediaTypeImageLayer)
	f.markSuspect(d.Digest)
	if got := fetchAll(t, f, up, d); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	if up.calls != 0 || gets.of(peerE) == 0 {
		t.Fatalf("upstream %d, GETs to the holder receiving again %d; want 0, some", up.calls, gets.of(peerE))
	}
}
