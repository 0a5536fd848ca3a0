package fetcher

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/contenttest"
	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/penalty"
)

type fakeFinder struct{ providers []peer.ID }

func (f fakeFinder) FindProviders(ctx context.Context, d digest.Digest, limit int) ([]peer.AddrInfo, error) {
	var out []peer.AddrInfo
	for _, p := range f.providers {
		out = append(out, peer.AddrInfo{ID: p})
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// peerBehaviour answers one request of a fake peer.
type peerBehaviour func(req *http.Request) (*http.Response, error)

type fakeClient struct {
	mu       sync.Mutex
	peers    map[peer.ID]peerBehaviour
	requests []string // "peer range"
}

func (c *fakeClient) sent() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.requests...)
}

func (c *fakeClient) reset() {
	c.mu.Lock()
	c.requests = nil
	c.mu.Unlock()
}

func (c *fakeClient) Do(p peer.ID, req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.requests = append(c.requests, fmt.Sprintf("%s %s", string(p), req.Header.Get("Range")))
	b := c.peers[p]
	c.mu.Unlock()
	if b == nil {
		return nil, errors.New("dial: no such peer")
	}
	return b(req)
}

// serves answers like a correct content service holding data.
func serves(data []byte) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		http.ServeContent(rec, req, "", timeZero, bytes.NewReader(data))
		return rec.Result(), nil
	}
}

// breaksAfter sends the response headers for the requested range, then
// cuts the stream after n bytes.
func breaksAfter(data []byte, n int) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		resp, _ := serves(data)(req)
		body, _ := io.ReadAll(resp.Body)
		if n < len(body) {
			body = body[:n]
		}
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{errors.New("stream reset")}))
		return resp, nil
	}
}

func notFound(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Body: io.NopCloser(strings.NewReader("")), ContentLength: 0}, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type fakeUpstream struct {
	data  []byte
	mu    sync.Mutex
	calls int
}

func (u *fakeUpstream) Fetch(ctx context.Context, desc ocispec.Descriptor) (io.ReadCloser, error) {
	u.mu.Lock()
	u.calls++
	u.mu.Unlock()
	if u.data == nil {
		return nil, errdefs.ErrNotFound
	}
	return readSeekCloser{bytes.NewReader(u.data)}, nil
}

type readSeekCloser struct{ *bytes.Reader }

func (readSeekCloser) Close() error { return nil }

func randomBytes(t *testing.T, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

func desc(data []byte, mediaType string) ocispec.Descriptor {
	return ocispec.Descriptor{MediaType: mediaType, Digest: digest.FromBytes(data), Size: int64(len(data))}
}

const (
	peerA peer.ID = "peer-a"
	peerB peer.ID = "peer-b"
	peerC peer.ID = "peer-c"
)

// newStore is a real content store on disk, as the plugin gets it.
func newStore(t *testing.T) content.Store { return contenttest.New(t).Store }

// fetchAll fetches d and returns its bytes, from the store when the fetcher
// committed it there itself.
func fetchAll(t *testing.T, f *Fetcher, up *fakeUpstream, d ocispec.Descriptor) []byte {
	t.Helper()
	got, err := fetch(f, up, d)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func testNamespace() context.Context {
	return namespaces.WithNamespace(context.Background(), "default")
}

// fetch reads d through a fetcher of f as containerd's pull does: into
// the store, through containerd's own ingest, when f has a store. As the
// transfer wrapper does, a pull that failed on bytes from peers that
// failed verification is made again (twice at most).
func fetch(f *Fetcher, up Upstream, d ocispec.Descriptor) ([]byte, error) {
	ctx := testNamespace()
	pf := f.WrapFetcher(up, "registry.example/team/app:v1")
	if store, ok := f.opts.Store.(content.Store); ok {
		err := remotes.Fetch(ctx, store, pf, d)
		for retry := 0; err != nil && retry < 2 && pf.DiscardCorrupt(ctx); retry++ {
			pf = f.WrapFetcher(up, "registry.example/team/app:v1")
			err = remotes.Fetch(ctx, store, pf, d)
		}
		if err != nil {
			return nil, err
		}
		return content.ReadBlob(ctx, store, d)
	}
	rc, err := pf.Fetch(ctx, d)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

func TestNoProviderGoesUpstream(t *testing.T) {
	data := randomBytes(t, 100)
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{}, &fakeClient{}, Options{})
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageConfig)); !bytes.Equal(got, data) || up.calls != 1 {
		t.Fatalf("upstream calls %d, data ok %v", up.calls, bytes.Equal(got, data))
	}
}

func TestSmallObjectFromPeerIsVerifiedAndCorruptPeerSkipped(t *testing.T) {
	data := []byte(`{"mediaType":"application/vnd.oci.image.manifest.v1+json"}`)
	corrupt := bytes.ToUpper(data)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(corrupt), peerB: serves(data)}}
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{})
	got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageManifest))
	if !bytes.Equal(got, data) {
		t.Fatalf("got %q", got)
	}
	if up.calls != 0 {
		t.Fatalf("upstream asked %d times, want 0", up.calls)
	}
	if len(client.sent()) != 2 {
		t.Fatalf("requests %v, want one to each peer", client.sent())
	}
}

func TestSmallObjectCorruptEverywhereComesFromUpstream(t *testing.T) {
	data := randomBytes(t, 500)
	wrong := randomBytes(t, 500)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(wrong), peerB: serves(wrong[:100])}}
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{})
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageConfig)); !bytes.Equal(got, data) || up.calls != 1 {
		t.Fatalf("upstream calls %d", up.calls)
	}
}

func TestLargeBlobContinuesFromNextPeerAtTheOffset(t *testing.T) {
	data := randomBytes(t, 64<<10)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: breaksAfter(data, 10000),
		peerB: notFound, // stale provider record
		peerC: serves(data),
	}}
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB, peerC}}, client, Options{InMemoryLimit: 1024, Store: newStore(t)})
	got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer))
	if !bytes.Equal(got, data) {
		t.Fatal("blob content differs")
	}
	if up.calls != 0 {
		t.Fatalf("upstream asked %d times, want 0", up.calls)
	}
	// Each holder is asked what it holds (B: nothing, a stale record); A
	// sends until it breaks, C the rest from that offset.
	sent := client.sent()
	if want := []string{"peer-a ", "peer-c bytes=10000-"}; len(sent) != 5 || fmt.Sprint(sent[3:]) != fmt.Sprint(want) {
		t.Fatalf("requests %q, want three probes then %q", sent, want)
	}
}

func TestLargeBlobFinishesUpstreamWhenEveryPeerFails(t *testing.T) {
	data := randomBytes(t, 64<<10)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: breaksAfter(data, 5000), peerB: breaksAfter(data, 7000)}}
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{InMemoryLimit: 1024, Store: newStore(t)})
	got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer))
	if !bytes.Equal(got, data) {
		t.Fatal("blob content differs")
	}
	if up.calls != 1 {
		t.Fatalf("upstream asked %d times, want 1", up.calls)
	}
}

func TestCorruptLayerIsDiscardedPenalizedAndFetchedElsewhere(t *testing.T) {
	data := randomBytes(t, 64<<10)
	wrong := randomBytes(t, len(data)) // same size, other bytes
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(wrong), peerB: serves(data)}}
	store := newStore(t)
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{InMemoryLimit: 1024, Store: store})
	d := desc(data, ocispec.MediaTypeImageLayer)
	if got := fetchAll(t, f, &fakeUpstream{}, d); !bytes.Equal(got, data) {
		t.Fatal("blob content differs")
	}
	if f.Stats().Corrupt.Load() != 1 || !f.penalties.IsCorrupt(peerA, d.Digest) {
		t.Fatal("corrupt delivery not counted or not penalized")
	}

	// The penalized peer is not asked again for that digest.
	if err := store.Delete(testNamespace(), d.Digest); err != nil {
		t.Fatal(err)
	}
	client.reset()
	fetchAll(t, f, &fakeUpstream{}, d)
	for _, r := range client.sent() {
		if strings.HasPrefix(r, string(peerA)) {
			t.Fatalf("penalized peer asked again: %v", client.sent())
		}
	}
}

func TestAFetchWithoutAnyGoodSourceFailsNamingTheImage(t *testing.T) {
	data := randomBytes(t, 64<<10)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(randomBytes(t, len(data))), peerB: breaksAfter(data, 100)}}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{InMemoryLimit: 1024, Store: newStore(t)})
	if _, err := fetch(f, &fakeUpstream{}, desc(data, ocispec.MediaTypeImageLayer)); err == nil {
		t.Fatal("fetch succeeded without any good source")
	} else if !strings.Contains(err.Error(), "registry.example/team/app:v1") {
		t.Fatalf("error does not name the image: %v", err)
	}
}

func TestSlowFirstProviderIsHedged(t *testing.T) {
	data := randomBytes(t, 64<<10)
	slow := func(req *http.Request) (*http.Response, error) {
		if req.Method == http.MethodHead {
			return serves(data)(req) // says it holds it
		}
		<-req.Context().Done() // never sends it; the losing request is cancelled
		return nil, req.Context().Err()
	}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: slow, peerB: serves(data)}}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{InMemoryLimit: 1024, Store: newStore(t), HedgeDelay: 20 * time.Millisecond})
	if got := fetchAll(t, f, &fakeUpstream{}, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("blob content differs")
	}
	if f.Stats().Hedges.Load() != 1 {
		t.Fatalf("hedges = %d, want 1", f.Stats().Hedges.Load())
	}
}

func TestContentPeersCannotAddressGoesUpstream(t *testing.T) {
	data := randomBytes(t, 100)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(data)}}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{})
	foreign := desc(data, ocispec.MediaTypeImageLayer)
	foreign.URLs = []string{"https://example.invalid/layer"}
	sha512 := desc(data, ocispec.MediaTypeImageLayer)
	sha512.Digest = digest.SHA512.FromBytes(data)
	for _, d := range []ocispec.Descriptor{foreign, sha512} {
		up := &fakeUpstream{data: data}
		fetchAll(t, f, up, d)
		if up.calls != 1 {
			t.Errorf("%v: upstream calls %d, want 1", d, up.calls)
		}
	}
	if len(client.sent()) != 0 {
		t.Fatalf("peers were asked: %v", client.sent())
	}
}

func TestRequestNamesRepositoryAndRegistry(t *testing.T) {
	data := []byte("config")
	var gotURL string
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: func(req *http.Request) (*http.Response, error) {
		gotURL = req.URL.RequestURI()
		return serves(data)(req)
	}}}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{})
	fetchAll(t, f, &fakeUpstream{}, desc(data, ocispec.MediaTypeImageConfig))
	want := "/v2/team/app/blobs/" + digest.FromBytes(data).String() + "?ns=registry.example"
	if gotURL != want {
		t.Fatalf("request %q, want %q", gotURL, want)
	}
}

// newFetcher asks providers in the order the finder gives them.
func newFetcher(t *testing.T, finder Finder, transport peerclient.Transport, opts Options) *Fetcher {
	if opts.Shuffle == nil {
		opts.Shuffle = func(int, func(i, j int)) {}
	}
	return New(finder, peerclient.New(transport, peerclient.Options{}), opts)
}

func TestSilentPeerIsSkippedForOtherDigestsToo(t *testing.T) {
	silent := func(req *http.Request) (*http.Response, error) {
		<-req.Context().Done() // a partitioned peer: the connection is open, nothing comes back
		return nil, req.Context().Err()
	}
	one, two := randomBytes(t, 100), randomBytes(t, 100)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: silent}}
	f := New(fakeFinder{providers: []peer.ID{peerA}}, peerclient.New(client, peerclient.Options{RequestTimeout: 50 * time.Millisecond}), Options{HedgeDelay: time.Second})
	for _, data := range [][]byte{one, two} {
		if got := fetchAll(t, f, &fakeUpstream{data: data}, desc(data, ocispec.MediaTypeImageConfig)); !bytes.Equal(got, data) {
			t.Fatal("content differs")
		}
	}
	if len(client.sent()) != 1 {
		t.Fatalf("the silent peer was asked %d times, want once: %v", len(client.sent()), client.sent())
	}
}

// appearingFinder finds nobody for the first misses lookups, then peers.
type appearingFinder struct {
	mu      sync.Mutex
	misses  int
	lookups int
	peers   []peer.ID
}

func (f *appearingFinder) FindProviders(ctx context.Context, d digest.Digest, limit int) ([]peer.AddrInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lookups++
	if f.lookups <= f.misses {
		return nil, nil
	}
	return fakeFinder{providers: f.peers}.FindProviders(ctx, d, limit)
}

func TestLargeLayerComesInRangesFromEveryProviderAtOnce(t *testing.T) {
	data := randomBytes(t, 10*rangeChunk+12345)
	d := desc(data, ocispec.MediaTypeImageLayer)
	for _, c := range []struct {
		name   string
		peers  map[peer.ID]peerBehaviour
		served []peer.ID // must have sent a range
	}{
		{"three healthy peers", map[peer.ID]peerBehaviour{peerA: paced(serves(data)), peerB: paced(serves(data)), peerC: paced(serves(data))}, []peer.ID{peerA, peerB, peerC}},
		{"one breaks, the others finish", map[peer.ID]peerBehaviour{peerA: paced(serves(data)), peerB: breaksAfter(data, 1000), peerC: paced(serves(data))}, []peer.ID{peerA, peerC}},
	} {
		t.Run(c.name, func(t *testing.T) {
			client := &fakeClient{peers: c.peers}
			up := &fakeUpstream{data: data}
			f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB, peerC}}, client, Options{Store: newStore(t), ParallelMinSize: 1 << 20})
			if got := fetchAll(t, f, up, d); !bytes.Equal(got, data) {
				t.Fatal("committed bytes differ")
			}
			if up.calls != 0 {
				t.Fatalf("upstream asked %d times", up.calls)
			}
			ranges := map[peer.ID]int{}
			for _, r := range client.sent() {
				p, rng, _ := strings.Cut(r, " ")
				if strings.HasPrefix(rng, "bytes=") && strings.Contains(rng[6:], "-") && !strings.HasSuffix(rng, "-") {
					ranges[peer.ID(p)]++
				}
			}
			for _, p := range c.served {
				if ranges[p] == 0 {
					t.Fatalf("%s sent no range (requests %v)", p, client.sent())
				}
			}
		})
	}
}

// paced answers a range request after 20 ms, as a peer over a network
// does: no holder can take every chunk before the others have asked.
func paced(b peerBehaviour) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		if req.Method == http.MethodGet && req.Header.Get("Range") != "" {
			time.Sleep(20 * time.Millisecond)
		}
		return b(req)
	}
}

func arrivingAt(data []byte) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		if rng := req.Header.Get("Range"); rng != "" && !strings.HasSuffix(rng, "-") {
			h := http.Header{}
			h.Set(oci.ArrivingHeader, "true")
			return &http.Response{StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable", Header: h, Body: io.NopCloser(strings.NewReader(""))}, nil
		}
		return serves(data)(req)
	}
}

func TestProvidersStillDownloadingAreStreamedFromNotSplitIntoRanges(t *testing.T) {
	data := randomBytes(t, 6*rangeChunk)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: arrivingAt(data), peerB: arrivingAt(data)}}
	up := &fakeUpstream{data: data}
	// A bound no loaded machine reaches: the test is of the arriving
	// answers. The fake peer builds a whole 24 MiB answer before its
	// headers, which under a loaded clean-clone CI run took past the
	// default 3 s, and the provider was judged unresponsive.
	f := New(fakeFinder{providers: []peer.ID{peerA, peerB}}, peerclient.New(client, peerclient.Options{RequestTimeout: time.Minute}),
		Options{Store: newStore(t), ParallelMinSize: 1 << 20, Shuffle: func(int, func(i, j int)) {}})
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	if up.calls != 0 {
		t.Fatalf("upstream asked %d times: the arriving providers should have been streamed from", up.calls)
	}
	if f.penalties.IsUnresponsive(peerA) || f.penalties.IsUnresponsive(peerB) {
		t.Fatal("an arriving provider was penalized")
	}
}

func answering(status int) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Status: http.StatusText(status), Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}, nil
	}
}

// What a failed request costs a peer depends on how it failed: the next
// holder serves this request either way, and only a peer that is dead,
// lying or without the content is avoided for longer.
func TestErrorKindsDecideThePenalty(t *testing.T) {
	data := randomBytes(t, 64<<10)
	other := randomBytes(t, 64<<10)
	for _, tc := range []struct {
		name            string
		first           peerBehaviour
		avoidedForThis  bool
		avoidedForOther bool
	}{
		{"429 is busy: left alone briefly", answering(http.StatusTooManyRequests), true, true},
		{"503 is busy: left alone briefly", answering(http.StatusServiceUnavailable), true, true},
		{"404 is a stale record for that digest", notFound, true, false},
		{"a short body fails over at no cost", breaksAfter(data, 100), false, false},
		{"corrupt bytes for that digest", serves(randomBytes(t, len(data))), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A says it holds the blob when asked, and fails when asked for it.
			first := func(req *http.Request) (*http.Response, error) {
				if req.Method == http.MethodHead {
					return serves(data)(req)
				}
				return tc.first(req)
			}
			client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: first, peerB: serves(data)}}
			board := penalty.New(penalty.Options{BusyTTL: time.Minute})
			f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{InMemoryLimit: 1024, Store: newStore(t), Penalties: board})
			up := &fakeUpstream{}
			if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
				t.Fatal("content differs")
			}
			if up.calls != 0 {
				t.Fatal("the next holder should have served this request, not the upstream")
			}
			if got := board.Avoid(peerA, digest.FromBytes(data)); got != tc.avoidedForThis {
				t.Errorf("avoided for this digest: %v, want %v", got, tc.avoidedForThis)
			}
			if got := board.Avoid(peerA, digest.FromBytes(other)); got != tc.avoidedForOther {
				t.Errorf("avoided for another digest: %v, want %v", got, tc.avoidedForOther)
			}
		})
	}
}

// A holder that shed load is asked again by the next pull once its brief
// back-off is over: the busiest holder is often the most useful one.
func TestABusyHolderServesTheNextPull(t *testing.T) {
	one, two := randomBytes(t, 64<<10), randomBytes(t, 64<<10)
	busy := true
	var mu sync.Mutex
	holder := func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		b := busy
		busy = false
		mu.Unlock()
		if b {
			return answering(http.StatusTooManyRequests)(req)
		}
		if strings.Contains(req.URL.Path, digest.FromBytes(one).String()) {
			return serves(one)(req)
		}
		return serves(two)(req)
	}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: holder}}
	board := penalty.New(penalty.Options{BusyTTL: 20 * time.Millisecond})
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{InMemoryLimit: 1024, Store: newStore(t), Penalties: board})
	up := &fakeUpstream{data: one}
	fetchAll(t, f, up, desc(one, ocispec.MediaTypeImageLayer))
	if up.calls != 1 {
		t.Fatalf("with its only holder busy, the first layer comes from the upstream (calls %d)", up.calls)
	}
	waitUntil(t, func() bool { return !board.IsBusy(peerA) })
	up2 := &fakeUpstream{data: two}
	if got := fetchAll(t, f, up2, desc(two, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, two) || up2.calls != 0 {
		t.Fatalf("the holder that was busy did not serve the next pull (upstream calls %d)", up2.calls)
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stallingUpstream sends the first n bytes of data, then nothing until the
// body is closed: a registry that keeps its connection open and goes silent.
type stallingUpstream struct {
	data []byte
	n    int
}

func (u *stallingUpstream) Fetch(ctx context.Context, desc ocispec.Descriptor) (io.ReadCloser, error) {
	return &stallingBody{data: u.data[:u.n], closed: make(chan struct{})}, nil
}

type stallingBody struct {
	data   []byte
	closed chan struct{}
	once   sync.Once
}

func (b *stallingBody) Read(p []byte) (int, error) {
	if len(b.data) > 0 {
		n := copy(p, b.data)
		b.data = b.data[n:]
		return n, nil
	}
	<-b.closed
	return 0, errors.New("read on closed body")
}

func (b *stallingBody) Close() error { b.once.Do(func() { close(b.closed) }); return nil }

// No read of an upstream body waits without bound: the upstream tail after
// a peer failed, and the body of a miss handed to containerd.
func TestAStalledUpstreamBodyFailsTheReadInBoundedTime(t *testing.T) {
	data := randomBytes(t, 256<<10)
	d := desc(data, ocispec.MediaTypeImageLayer)
	t.Run("tail after a failover", func(t *testing.T) {
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: breaksAfter(data, 1000)}}
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{InMemoryLimit: 1024, Store: newStore(t), UpstreamIdleTimeout: 100 * time.Millisecond})
		done := make(chan error, 1)
		go func() {
			_, err := fetch(f, &stallingUpstream{data: data, n: 5000}, d)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrUpstreamStalled) {
				t.Fatalf("got %v, want a stalled-upstream error", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the fetch hung on a silent upstream")
		}
	})
	t.Run("a miss handed to containerd", func(t *testing.T) {
		f := newFetcher(t, fakeFinder{}, &fakeClient{}, Options{UpstreamIdleTimeout: 100 * time.Millisecond})
		rc, err := f.WrapFetcher(&stallingUpstream{data: data, n: 5000}, "registry.example/team/app:v1").Fetch(testNamespace(), d)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		got, err := io.ReadAll(rc)
		if len(got) != 5000 || !errors.Is(err, ErrUpstreamStalled) {
			t.Fatalf("read %d bytes, %v", len(got), err)
		}
	})
}

// A bug below the fetcher (a panicking transport) costs that request, not
// containerd: the blob comes from the next source.
func TestAPanicInAPeerRequestIsThatRequestsFailure(t *testing.T) {
	data := randomBytes(t, 64<<10)
	panics := func(*http.Request) (*http.Response, error) { panic("transport bug") }
	for _, tc := range []struct {
		name  string
		opts  Options
		peers map[peer.ID]peerBehaviour
	}{
		{"stream", Options{InMemoryLimit: 1024, Store: newStore(t)}, map[peer.ID]peerBehaviour{peerA: panics, peerB: serves(data)}},
		{"ranges", Options{InMemoryLimit: 1024, Store: newStore(t), ParallelMinSize: 1}, map[peer.ID]peerBehaviour{peerA: panics, peerB: serves(data), peerC: serves(data)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := &fakeClient{peers: tc.peers}
			f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB, peerC}}, client, tc.opts)
			if got := fetchAll(t, f, &fakeUpstream{data: data}, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
				t.Fatal("content differs")
			}
		})
	}
}

// holding answers like a node still receiving data: it holds the first
// have bytes, says so, and would make a request for more wait.
func holding(data []byte, have int64, beyond *atomic.Int32) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		if rng := req.Header.Get("Range"); rng != "" {
			var start, end int64
			fmt.Sscanf(rng, "bytes=%d-%d", &start, &end)
			if end >= have {
				beyond.Add(1)
				<-req.Context().Done()
				return nil, req.Context().Err()
			}
		}
		resp, _ := serves(data)(req)
		resp.Header.Set(oci.AvailableHeader, fmt.Sprint(have))
		resp.Header.Set(oci.ArrivingHeader, "true")
		return resp, nil
	}
}

// loaded answers like serves, saying it is sending the blob to n others.
func loaded(data []byte, n int) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		resp, err := serves(data)(req)
		if err == nil {
			resp.Header.Set(oci.LoadHeader, fmt.Sprint(n))
		}
		return resp, err
	}
}

// getCounter counts the GETs each fake peer answers.
type getCounter struct {
	mu    sync.Mutex
	gets  map[peer.ID]int
	first peer.ID // the peer asked first
}

// counting answers with b, counting p's GETs.
func (c *getCounter) counting(p peer.ID, b peerBehaviour) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		if req.Method == http.MethodGet {
			c.mu.Lock()
			if c.gets == nil {
				c.gets = map[peer.ID]int{}
			}
			c.gets[p]++
			if c.first == "" {
				c.first = p
			}
			c.mu.Unlock()
		}
		return b(req)
	}
}

func (c *getCounter) of(p peer.ID) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gets[p]
}

// Of several holders, a layer is streamed from the least loaded, and only
// holders with all of it are asked for ranges.
func TestTheLeastLoadedHolderIsStreamedFrom(t *testing.T) {
	data := randomBytes(t, 8*rangeChunk)
	var beyond atomic.Int32
	gets := &getCounter{}
	counting := gets.counting
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: counting(peerA, loaded(data, 3)),                                     // complete, busy
		peerB: counting(peerB, loaded(data, 1)),                                     // complete, less busy
		peerC: counting(peerC, holding(data, int64(len(data))-rangeChunk, &beyond)), // still receiving, idle
	}}
	// No hedging, stall or header bound: the fake builds each answer whole
	// (32 MiB) before it returns. In loaded race-detector runs (two
	// clean-clone CI runs, 2026-12-05) this fetch fell to the upstream,
	// which holds nothing here, 11 s in, past the 10 s stall default, and
	// in another each answer took over the 3 s header bound, so the fetch
	// moved from holder to holder and took the layer from the busiest.
	patient := func(finder Finder, opts Options) *Fetcher {
		opts.Store, opts.HedgeDelay, opts.HolderStall = newStore(t), time.Minute, time.Minute
		opts.Shuffle = func(int, func(i, j int)) {}
		return New(finder, peerclient.New(client, peerclient.Options{RequestTimeout: time.Minute}), opts)
	}
	f := patient(fakeFinder{providers: []peer.ID{peerA, peerB, peerC}}, Options{ParallelMinSize: 64 << 20})
	if got := fetchAll(t, f, &fakeUpstream{}, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	// The stream starts at the idle holder and never goes to the busiest.
	// In race-detector runs of the whole package on two loaded CPUs (three
	// clean-clone CI runs of 2026-12-05) the stream from the idle holder
	// was slow enough for the fetch to move on to B, which held all of it.
	if gets.first != peerC || gets.of(peerC) != 1 || gets.of(peerA) != 0 {
		t.Fatalf("GETs by peer %v, first %s: want the stream from the idle holder first, none from the busiest", gets.gets, gets.first)
	}

	// With ranges in reach, only holders of all of it are asked for them.
	// Later lookups (every discoveryInterval) find A and B only: a holder
	// they find joins the ranges for what it holds, and under load the
	// fetch outlasted the first of them.
	client.reset()
	// No hedges or stall bounds either: in a loaded race-detector run (a
	// clean-clone CI run, 2026-12-05) this fetch took 9.7 s and fell to
	// the upstream, which holds nothing here.
	finder := &growingFinder{first: []peer.ID{peerA, peerB, peerC}, later: []peer.ID{peerA, peerB}}
	f = patient(finder, Options{ParallelMinSize: 1 << 20})
	if got := fetchAll(t, f, &fakeUpstream{}, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	if r := rangesBy(client); r[peerC] != 0 || r[peerA] == 0 || r[peerB] == 0 {
		t.Fatalf("ranges by peer %v: want them from the two complete holders only", r)
	}
}

// rangesBy counts the bounded range requests each peer was sent.
func rangesBy(c *fakeClient) map[peer.ID]int {
	out := map[peer.ID]int{}
	for _, r := range c.sent() {
		p, rng, _ := strings.Cut(r, " ")
		if strings.HasPrefix(rng, "bytes=") && !strings.HasSuffix(rng, "-") {
			out[peer.ID(p)]++
		}
	}
	return out
}

// A holder that appears while a layer is fetched in ranges joins the fetch:
// the more holders, the less each one's uplink carries.
func TestAHolderThatAppearsMidFetchJoinsIt(t *testing.T) {
	data := randomBytes(t, 16*rangeChunk)
	slow := func(req *http.Request) (*http.Response, error) {
		if req.Method == http.MethodGet {
			time.Sleep(150 * time.Millisecond)
		}
		return serves(data)(req)
	}
	finder := &appearingFinder{peers: []peer.ID{peerA, peerC}}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: slow, peerC: slow, peerB: serves(data)}}
	f := newFetcher(t, finder, client, Options{Store: newStore(t), ParallelMinSize: 1 << 20})
	go func() {
		time.Sleep(300 * time.Millisecond)
		finder.mu.Lock()
		finder.peers = []peer.ID{peerA, peerC, peerB}
		finder.mu.Unlock()
	}()
	if got := fetchAll(t, f, &fakeUpstream{}, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	if rangesBy(client)[peerB] == 0 {
		t.Fatalf("the holder that appeared was never asked (requests %v)", client.sent())
	}
}

// A holder that stalls on one chunk costs the writer lateChunk, not the
// fetch: the chunk is asked of another holder too.
func TestALateChunkIsFetchedFromAnotherHolder(t *testing.T) {
	data := randomBytes(t, 6*rangeChunk)
	stuck := func(req *http.Request) (*http.Response, error) {
		if req.Header.Get("Range") == fmt.Sprintf("bytes=0-%d", rangeChunk-1) {
			<-req.Context().Done() // headers never come for this chunk
			return nil, req.Context().Err()
		}
		return serves(data)(req)
	}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: stuck, peerB: serves(data)}}
	f := New(fakeFinder{providers: []peer.ID{peerA, peerB}}, peerclient.New(client, peerclient.Options{RequestTimeout: time.Minute}),
		Options{Store: newStore(t), ParallelMinSize: 1 << 20, Shuffle: func(int, func(i, j int)) {}})
	up := &fakeUpstream{data: data}
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	if up.calls != 0 {
		t.Fatal("the late chunk went upstream instead of to the other holder")
	}
}

// trickling answers like a node still receiving data slowly: it holds the
// first have bytes, and sends at about 1 MB/s.
func trickling(data []byte, have int64) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		resp, err := serves(data)(req)
		if err != nil {
			return nil, err
		}
		resp.Header.Set(oci.AvailableHeader, fmt.Sprint(have))
		resp.Header.Set(oci.ArrivingHeader, "true")
		if req.Method == http.MethodGet {
			resp.Body = io.NopCloser(&slowReader{r: resp.Body, ctx: req.Context()})
		}
		return resp, nil
	}
}

type slowReader struct {
	r   io.Reader
	ctx context.Context
}

func (s *slowReader) Read(p []byte) (int, error) {
	select {
	case <-time.After(50 * time.Millisecond):
	case <-s.ctx.Done():
		return 0, s.ctx.Err()
	}
	return s.r.Read(p[:min(len(p), 64<<10)])
}

// silentAfter serves data whose body, after the first n bytes, sends
// nothing and stays open until it is closed: a connection kept busy
// without this blob's bytes, which no idle timer of its own ends.
func silentAfter(data []byte, n int) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		resp, err := serves(data)(req)
		if err != nil || req.Method != http.MethodGet {
			return resp, err
		}
		resp.Body = &silentBody{r: io.LimitReader(resp.Body, int64(n)), closed: make(chan struct{})}
		return resp, nil
	}
}

type silentBody struct {
	r      io.Reader
	once   sync.Once
	closed chan struct{}
}

func (b *silentBody) Read(p []byte) (int, error) {
	if n, err := b.r.Read(p); n > 0 || err != io.EOF {
		return n, err
	}
	<-b.closed
	return 0, net.ErrClosed
}

func (b *silentBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	return nil
}

// A peer's stream that stops bringing bytes without ending is left after
// the holder-stall bound, and the fetch continues from another holder at
// its offset.
func TestAStreamThatBringsNothingIsLeftAfterTheStallBound(t *testing.T) {
	data := randomBytes(t, 8<<20)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: silentAfter(data, 1<<20), // asked first
		peerB: serves(data),
	}}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{
		Store: newStore(t), ParallelMinSize: 64 << 20, HedgeDelay: time.Minute,
		HolderStall: 2 * time.Second, Shuffle: func(int, func(i, j int)) {},
	})
	up := &fakeUpstream{}
	done := make(chan []byte, 1)
	go func() {
		got, err := fetch(f, up, desc(data, ocispec.MediaTypeImageLayer))
		if err != nil {
			t.Error(err)
		}
		done <- got
	}()
	select {
	case got := <-done:
		if !bytes.Equal(got, data) {
			t.Fatal("committed bytes differ")
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the fetch still waits on the silent stream after 30s (requests %v)", client.sent())
	}
	if got := client.sent(); !slices.Contains(got, string(peerB)+" bytes=1048576-") || up.calls != 0 {
		t.Fatalf("requests %v, upstream %d: want the rest from %s at the offset reached", got, up.calls, peerB)
	}
}

// startsLate answers like a holder receiving data that holds none of it
// until delay has passed, and then all of it.
func startsLate(data []byte, delay time.Duration) peerBehaviour {
	begin := time.Now()
	return func(req *http.Request) (*http.Response, error) {
		resp, err := serves(data)(req)
		if err != nil {
			return nil, err
		}
		resp.Header.Set(oci.ArrivingHeader, "true")
		if wait := time.Until(begin.Add(delay)); wait > 0 {
			resp.Header.Set(oci.AvailableHeader, "0")
			if req.Method == http.MethodGet {
				resp.Body = &lateBody{r: resp.Body, start: time.After(wait), closed: make(chan struct{})}
			}
		}
		return resp, nil
	}
}

// lateBody sends nothing until start, unless it is closed first.
type lateBody struct {
	r      io.Reader
	start  <-chan time.Time
	begun  bool
	once   sync.Once
	closed chan struct{}
}

func (b *lateBody) Read(p []byte) (int, error) {
	if !b.begun {
		select {
		case <-b.start:
			b.begun = true
		case <-b.closed:
			return 0, net.ErrClosed
		}
	}
	return b.r.Read(p)
}

func (b *lateBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	return nil
}

// growingFinder answers first to the first lookup, later afterwards.
type growingFinder struct {
	mu           sync.Mutex
	n            int
	first, later []peer.ID
}

func (g *growingFinder) FindProviders(ctx context.Context, d digest.Digest, limit int) ([]peer.AddrInfo, error) {
	g.mu.Lock()
	g.n++
	ids := g.later
	if g.n == 1 {
		ids = g.first
	}
	g.mu.Unlock()
	return fakeFinder{providers: ids}.FindProviders(ctx, d, limit)
}

// When the first providers found have nothing of the layer yet, those
// found beyond them are asked: one may hold all of it.
func TestAHolderOfAllOfItBeyondTheFirstProvidersIsFound(t *testing.T) {
	data := randomBytes(t, 8<<20)
	var beyond atomic.Int32
	gets := &getCounter{}
	const peerD peer.ID = "peer-d"
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerB: holding(data, 0, &beyond),
		peerC: holding(data, 0, &beyond),
		peerD: holding(data, 0, &beyond),
		peerA: gets.counting(peerA, serves(data)), // found last
	}}
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerB, peerC, peerD, peerA}}, client, Options{
		Store: newStore(t), MaxProviders: 2, HedgeDelay: time.Minute, Shuffle: func(int, func(i, j int)) {},
	})
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	if up.calls != 0 || gets.of(peerA) == 0 {
		t.Fatalf("upstream %d, GETs to the holder of all of it %d; want 0, some (requests %v)", up.calls, gets.of(peerA), client.sent())
	}
}
