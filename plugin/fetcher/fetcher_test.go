package fetcher

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/contenttest"
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

func TestAFetchWithoutAnyGoodSourceFailsNamingTheImage(t *testing.T) {
	data := randomBytes(t, 64<<10)
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(randomBytes(t, len(data))), peerB: breaksAfter(data, 100)}}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{})
	if _, err := fetch(f, &fakeUpstream{}, desc(data, ocispec.MediaTypeImageLayer)); err == nil {
		t.Fatal("fetch succeeded without any good source")
	} else if !strings.Contains(err.Error(), "registry.example/team/app:v1") {
		t.Fatalf("error does not name the image: %v", err)
	}
}

func TestSlowFirstProviderIsHedged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		data := randomBytes(t, 64<<10)
		slow := func(req *http.Request) (*http.Response, error) {
			if req.Method == http.MethodHead {
				return serves(data)(req) // says it holds it
			}
			<-req.Context().Done() // never sends it; the losing request is cancelled
			return nil, req.Context().Err()
		}
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: slow, peerB: serves(data)}}
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{HedgeDelay: 20 * time.Millisecond})
		if got := fetchAll(t, f, &fakeUpstream{}, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
			t.Fatal("blob content differs")
		}
		if f.Stats().Hedges.Load() != 1 {
			t.Fatalf("hedges = %d, want 1", f.Stats().Hedges.Load())
		}
	})
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
	synctest.Test(t, func(t *testing.T) {
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
	})
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
			f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{Penalties: board})
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
	synctest.Test(t, func(t *testing.T) {
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
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{Penalties: board})
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
	})
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

// No read of an upstream body waits without bound: the body of a miss
// handed to containerd.
func TestAStalledUpstreamBodyFailsTheReadInBoundedTime(t *testing.T) {
	data := randomBytes(t, 256<<10)
	d := desc(data, ocispec.MediaTypeImageLayer)
	t.Run("a miss handed to containerd", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
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
	})
}

// A bug below the fetcher (a panicking transport) costs that request, not
// containerd: the blob comes from the next source.
func TestAPanicInAPeerRequestIsThatRequestsFailure(t *testing.T) {
	data := randomBytes(t, 64<<10)
	panics := func(*http.Request) (*http.Response, error) { panic("transport bug") }
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: panics, peerB: serves(data)}}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerB}}, client, Options{Shuffle: func(int, func(i, j int)) {}})
	up := &fakeUpstream{data: data}
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageConfig)); !bytes.Equal(got, data) || up.calls != 0 {
		t.Fatalf("content ok %v, upstream calls %d", bytes.Equal(got, data), up.calls)
	}
}
