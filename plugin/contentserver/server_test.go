package contentserver

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/plugins/content/local"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pulling"
)

// fakeLocator says which digests are held, as the inventory would.
type fakeLocator struct {
	mu       sync.Mutex
	held     map[digest.Digest][]string
	verified map[digest.Digest]bool
	corrupt  map[digest.Digest]bool
}

func newLocator() *fakeLocator {
	return &fakeLocator{held: map[digest.Digest][]string{}, verified: map[digest.Digest]bool{}, corrupt: map[digest.Digest]bool{}}
}

func (f *fakeLocator) Namespaces(d digest.Digest) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.held[d]
}
func (f *fakeLocator) Verified(d digest.Digest) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.verified[d]
}
func (f *fakeLocator) MarkVerified(d digest.Digest) { f.mu.Lock(); f.verified[d] = true; f.mu.Unlock() }
func (f *fakeLocator) MarkCorrupt(d digest.Digest) {
	f.mu.Lock()
	f.corrupt[d] = true
	delete(f.held, d)
	f.mu.Unlock()
}

func newTestServer(t testing.TB, blobs ...string) (*Server, []digest.Digest) {
	s, d, _ := newTestServerIn(t, t.TempDir(), blobs...)
	return s, d
}

func newTestServerIn(t testing.TB, root string, blobs ...string) (*Server, []digest.Digest, *fakeLocator) {
	t.Helper()
	store, err := local.NewStore(root)
	if err != nil {
		t.Fatal(err)
	}
	store = &labelStore{Store: store, labels: map[digest.Digest]map[string]string{}}
	loc := newLocator()
	var dgsts []digest.Digest
	for _, b := range blobs {
		d := digest.FromString(b)
		if err := content.WriteBlob(context.Background(), store, d.String(), strings.NewReader(b), ocispecDesc(d, len(b))); err != nil {
			t.Fatal(err)
		}
		loc.held[d] = []string{"default"}
		dgsts = append(dgsts, d)
	}
	return New(store, loc, nil, Options{}), dgsts, loc
}

func do(s http.Handler, method, path string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

func TestServesHeldBlobWithHeadAndRange(t *testing.T) {
	s, d := newTestServer(t, "0123456789abcdef")
	path := "/v2/library/app/blobs/" + d[0].String()

	rec := do(s, http.MethodGet, path)
	if rec.Code != http.StatusOK || rec.Body.String() != "0123456789abcdef" {
		t.Fatalf("GET: %d %q", rec.Code, rec.Body.String())
	}
	if rec.Header().Get("Docker-Content-Digest") != d[0].String() {
		t.Fatalf("missing Docker-Content-Digest: %v", rec.Header())
	}

	rec = do(s, http.MethodHead, path)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Length") != "16" || rec.Body.Len() != 0 {
		t.Fatalf("HEAD: %d len=%s body=%d", rec.Code, rec.Header().Get("Content-Length"), rec.Body.Len())
	}

	rec = do(s, http.MethodGet, path, "Range", "bytes=10-")
	if rec.Code != http.StatusPartialContent || rec.Body.String() != "abcdef" || rec.Header().Get("Content-Range") != "bytes 10-15/16" {
		t.Fatalf("Range: %d %q %q", rec.Code, rec.Body.String(), rec.Header().Get("Content-Range"))
	}
	rec = do(s, http.MethodGet, path, "Range", "bytes=99-")
	if rec.Code != http.StatusRequestedRangeNotSatisfiable {
		t.Fatalf("out-of-range: %d", rec.Code)
	}
}

func TestManifestByDigestCarriesItsMediaType(t *testing.T) {
	manifest := `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[]}`
	s, d := newTestServer(t, manifest)
	rec := do(s, http.MethodGet, "/v2/app/manifests/"+d[0].String())
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/vnd.oci.image.index.v1+json" {
		t.Fatalf("manifest: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
}

// "blobs" and "manifests" may be components of a repository name: the last
// of them in the path says what is asked for.
func TestRepositoriesNamedLikeEndpointsAreServed(t *testing.T) {
	manifest := `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}`
	s, d := newTestServer(t, manifest, "layer")
	for _, path := range []string{
		"/v2/a/blobs/b/manifests/" + d[0].String(),
		"/v2/a/manifests/b/manifests/" + d[0].String(),
	} {
		rec := do(s, http.MethodGet, path)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/vnd.oci.image.manifest.v1+json" || rec.Body.String() != manifest {
			t.Errorf("GET %s: %d %q %q", path, rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
		}
	}
	for _, path := range []string{
		"/v2/a/manifests/b/blobs/" + d[1].String(),
		"/v2/a/blobs/b/blobs/" + d[1].String(),
	} {
		rec := do(s, http.MethodGet, path)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/octet-stream" || rec.Body.String() != "layer" {
			t.Errorf("GET %s: %d %q %q", path, rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
		}
	}
}

func TestRefusesWhatItMustNotServe(t *testing.T) {
	s, d := newTestServer(t, "held")
	notHeld := digest.FromString("not held")
	for _, tc := range []struct {
		method, path string
		code         int
	}{
		{http.MethodGet, "/v2/app/blobs/" + notHeld.String(), http.StatusNotFound},
		{http.MethodGet, "/v2/app/manifests/latest", http.StatusNotFound},
		{http.MethodPut, "/v2/app/blobs/" + d[0].String(), http.StatusMethodNotAllowed},
		{http.MethodDelete, "/v2/app/blobs/" + d[0].String(), http.StatusMethodNotAllowed},
		{http.MethodPost, "/v2/app/blobs/uploads/", http.StatusMethodNotAllowed},
		{http.MethodGet, "/v2/app/blobs/sha256:abc", http.StatusBadRequest},
		{http.MethodGet, "/v2/app/blobs/md5:d41d8cd98f00b204e9800998ecf8427e", http.StatusBadRequest},
		{http.MethodGet, "/v2/app/blobs/" + strings.ToUpper(d[0].String()), http.StatusBadRequest},
		{http.MethodGet, "/v2/UPPER/blobs/" + d[0].String(), http.StatusBadRequest},
		{http.MethodGet, "/v2/a/../../etc/blobs/" + d[0].String(), http.StatusBadRequest},
		{http.MethodGet, "/v2/app/blobs/../../../etc/passwd", http.StatusNotFound},
		{http.MethodGet, "/v2/app/tags/list", http.StatusNotFound},
		{http.MethodGet, "/etc/passwd", http.StatusNotFound},
		{http.MethodGet, "/v2/app%2F..%2Fx/blobs/" + d[0].String(), http.StatusBadRequest},
		{http.MethodGet, "/v2//app/blobs/" + d[0].String(), http.StatusBadRequest},
		{http.MethodGet, "/v2/" + strings.Repeat("a", 300) + "/blobs/" + d[0].String(), http.StatusBadRequest},
		{http.MethodGet, "/v2/app/manifests/" + strings.Repeat("t", 129), http.StatusBadRequest},
	} {
		rec := do(s, tc.method, tc.path)
		if rec.Code != tc.code {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, rec.Code, tc.code)
		}
		if rec.Code >= 400 && rec.Code != http.StatusRequestedRangeNotSatisfiable && tc.method != http.MethodHead {
			body, _ := io.ReadAll(rec.Body)
			if !strings.Contains(string(body), `"errors"`) {
				t.Errorf("%s %s: error body is not OCI JSON: %q", tc.method, tc.path, body)
			}
		}
	}
}

type panickingLocator struct{ *fakeLocator }

func (panickingLocator) Namespaces(digest.Digest) []string { panic("inventory bug") }

func TestAPanicIsAnsweredWithAnOCIErrorAndTheServerCarriesOn(t *testing.T) {
	s, d, loc := newTestServerIn(t, t.TempDir(), "held")
	s.locator = panickingLocator{loc}
	rec := do(s, http.MethodGet, "/v2/app/blobs/"+d[0].String())
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), `"UNKNOWN"`) {
		t.Fatalf("panic answered %d %q, want 500 with an OCI error body", rec.Code, rec.Body.String())
	}
	s.locator = loc
	if rec := do(s, http.MethodGet, "/v2/app/blobs/"+d[0].String()); rec.Code != http.StatusOK {
		t.Fatalf("after a panic: %d", rec.Code)
	}
}

func TestContentGoneFromStoreIs404EvenIfInventoryStillListsIt(t *testing.T) {
	store, err := local.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gone := digest.FromString("deleted by gc")
	loc := newLocator()
	loc.held[gone] = []string{"default"}
	s := New(store, loc, nil, Options{})
	if rec := do(s, http.MethodGet, "/v2/app/blobs/"+gone.String()); rec.Code != http.StatusNotFound {
		t.Fatalf("got %d, want 404", rec.Code)
	}
}

func TestRangeIsParsedStrictly(t *testing.T) {
	s, d := newTestServer(t, "0123456789")
	path := "/v2/app/blobs/" + d[0].String()
	for rng, code := range map[string]int{
		"bytes=0-":                    http.StatusPartialContent,
		"bytes=3-5":                   http.StatusPartialContent,
		"bytes=9-":                    http.StatusPartialContent,
		"bytes=10-":                   http.StatusRequestedRangeNotSatisfiable,
		"bytes=-3":                    http.StatusRequestedRangeNotSatisfiable,
		"bytes=0-1,3-4":               http.StatusRequestedRangeNotSatisfiable,
		"bytes=5-2":                   http.StatusRequestedRangeNotSatisfiable,
		"bytes=+1-":                   http.StatusRequestedRangeNotSatisfiable,
		"items=0-":                    http.StatusRequestedRangeNotSatisfiable,
		"bytes=99999999999999999999-": http.StatusRequestedRangeNotSatisfiable,
	} {
		if rec := do(s, http.MethodGet, path, "Range", rng); rec.Code != code {
			t.Errorf("Range %q: %d, want %d", rng, rec.Code, code)
		}
	}
}

func TestCorruptStoredBlobIsNotServed(t *testing.T) {
	root := t.TempDir()
	s, d, loc := newTestServerIn(t, root, "the original bytes")
	// Rot on disk, behind the store's back.
	blob := filepath.Join(root, "blobs", "sha256", d[0].Encoded())
	if err := os.WriteFile(blob, []byte("the original bytez"), 0o644); err != nil {
		t.Fatal(err)
	}
	if rec := do(s, http.MethodGet, "/v2/app/blobs/"+d[0].String()); rec.Code != http.StatusNotFound {
		t.Fatalf("corrupt blob served: %d %q", rec.Code, rec.Body.String())
	}
	if !loc.corrupt[d[0]] {
		t.Fatal("corrupt blob not reported to the inventory")
	}
}

func TestIntactStoredBlobIsVerifiedOnce(t *testing.T) {
	s, d, loc := newTestServerIn(t, t.TempDir(), "intact")
	for i := 0; i < 2; i++ {
		if rec := do(s, http.MethodGet, "/v2/app/blobs/"+d[0].String()); rec.Code != http.StatusOK {
			t.Fatalf("GET: %d", rec.Code)
		}
	}
	if !loc.verified[d[0]] {
		t.Fatal("verification not remembered")
	}
}

func TestConcurrentRequestsArePerPeerAndInAllBounded(t *testing.T) {
	s, _ := newTestServer(t, "x")
	s.opts = Options{MaxRequests: 3, MaxRequestsPerPeer: 2}
	r1, ok1 := s.admit("peer-1")
	_, ok2 := s.admit("peer-1")
	_, ok3 := s.admit("peer-1")
	_, ok4 := s.admit("peer-2")
	_, ok5 := s.admit("peer-3")
	if !ok1 || !ok2 || ok3 || !ok4 || ok5 {
		t.Fatalf("admissions %v %v %v %v %v", ok1, ok2, ok3, ok4, ok5)
	}
	r1()
	if _, ok := s.admit("peer-3"); !ok {
		t.Fatal("released slot not reusable")
	}
}

type denyNamespace string

func (d denyNamespace) ContentShared(ns string, _ map[string]string) bool { return ns != string(d) }
func (d denyNamespace) ImageShared(ns, _ string) bool                     { return ns != string(d) }

func TestContentOutsideTheSharingPolicyIsNotServedEvenByDigest(t *testing.T) {
	s, d := newTestServer(t, "private bytes") // held in "default"
	s.opts.Policy = denyNamespace("default")
	if rec := do(s, http.MethodGet, "/v2/app/blobs/"+d[0].String()); rec.Code != http.StatusNotFound {
		t.Fatalf("private content served: %d", rec.Code)
	}
}

func TestReferencesResolveOnlyForImagesAnyoneMayPull(t *testing.T) {
	manifest := `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}`
	s, d := newTestServer(t, manifest)
	path := "/v2/app/manifests/" + d[0].String()
	if rec := do(s, http.MethodHead, path); rec.Code != http.StatusNotFound {
		t.Fatalf("unmarked manifest resolved for a peer: %d", rec.Code)
	}
	if rec := do(s, http.MethodGet, path); rec.Code != http.StatusOK {
		t.Fatalf("GET by digest (a pull the upstream confirmed) refused: %d", rec.Code)
	}
	for value, code := range map[string]int{"false": http.StatusNotFound, "true": http.StatusOK} {
		if _, err := s.store.Update(context.Background(), content.Info{Digest: d[0], Labels: map[string]string{AnonymousPullLabel: value}},
			"labels."+AnonymousPullLabel); err != nil {
			t.Fatal(err)
		}
		if rec := do(s, http.MethodHead, path); rec.Code != code {
			t.Fatalf("label %s: HEAD %d, want %d", value, rec.Code, code)
		}
	}
}

// labelStore adds labels to the local store, as containerd's metadata store
// does in front of it.
type labelStore struct {
	content.Store
	mu     sync.Mutex
	labels map[digest.Digest]map[string]string
}

func (s *labelStore) Info(ctx context.Context, d digest.Digest) (content.Info, error) {
	info, err := s.Store.Info(ctx, d)
	s.mu.Lock()
	info.Labels = s.labels[d]
	s.mu.Unlock()
	return info, err
}

func (s *labelStore) Update(ctx context.Context, info content.Info, fieldpaths ...string) (content.Info, error) {
	s.mu.Lock()
	s.labels[info.Digest] = info.Labels
	s.mu.Unlock()
	return s.Info(ctx, info.Digest)
}

// arriving is a blob whose first `have` bytes are there, for the serving
// logic (the waiting is package inflight's).
type arriving struct {
	*strings.Reader
	have   int64
	closed bool
}

func (a *arriving) Close() error { a.closed = true; return nil }
func (a *arriving) ReadSome(p []byte, off int64) (int, error) {
	return a.ReadAt(p[:min(int64(len(p)), a.Size()-off)], off)
}
func (a *arriving) Available() int64 { return a.have }

type fakeInFlight struct {
	blob   *arriving
	dgst   digest.Digest
	labels map[string]string
}

func (f *fakeInFlight) Open(_ context.Context, d digest.Digest) (Arriving, string, map[string]string, bool) {
	if d != f.dgst {
		return nil, "", nil, false
	}
	return f.blob, "default", f.labels, true
}

type denyRegistry struct{ registry string }

func (d denyRegistry) ContentShared(_ string, labels map[string]string) bool {
	_, private := labels["containerd.io/distribution.source."+d.registry]
	return !private
}
func (denyRegistry) ImageShared(string, string) bool { return true }

func TestArrivingBlobIsServedWithRangesAndUnderThePolicy(t *testing.T) {
	s, _ := newTestServer(t)
	const data = "still arriving, but the reader waits for it"
	d := digest.FromString(data)
	in := &fakeInFlight{blob: &arriving{Reader: strings.NewReader(data), have: 20}, dgst: d,
		labels: map[string]string{"containerd.io/distribution.source.public.example": "app"}}
	s.opts.InFlight = in
	s.opts.Policy = denyRegistry{registry: "private.example"}

	rec := do(s, http.MethodGet, "/v2/app/blobs/"+d.String(), "Range", "bytes=6-")
	if rec.Code != http.StatusPartialContent || rec.Body.String() != data[6:] {
		t.Fatalf("range of an arriving blob: %d %q", rec.Code, rec.Body.String())
	}
	if !in.blob.closed {
		t.Fatal("the arriving blob's reader was not released")
	}
	if rec.Header().Get(oci.ArrivingHeader) != "true" || rec.Header().Get(oci.AvailableHeader) != "20" {
		t.Fatalf("an arriving blob's answer does not say so, and how much is here: %v", rec.Header())
	}
	// Bounded ranges are served too, with how much is here.
	if rec := do(s, http.MethodGet, "/v2/app/blobs/"+d.String(), "Range", "bytes=6-9"); rec.Code != http.StatusPartialContent || rec.Body.String() != data[6:10] || rec.Header().Get(oci.AvailableHeader) != "20" {
		t.Fatalf("bounded range of an arriving blob: %d %q", rec.Code, rec.Body.String())
	}
	if rec := do(s, http.MethodGet, "/v2/app/manifests/"+d.String()); rec.Code != http.StatusNotFound {
		t.Fatalf("arriving content served as a manifest: %d", rec.Code)
	}
	in.labels = map[string]string{"containerd.io/distribution.source.private.example": "app"}
	if rec := do(s, http.MethodGet, "/v2/app/blobs/"+d.String()); rec.Code != http.StatusNotFound {
		t.Fatalf("arriving content of a private registry: %d, want 404", rec.Code)
	}
}

// largeBlobServer holds one blob of n bytes that is larger than what is
// verified before headers, and returns where it lies on disk.
func largeBlobServer(t *testing.T, n int) (*Server, digest.Digest, *fakeLocator, string, []byte) {
	t.Helper()
	data := bytes.Repeat([]byte("0123456789abcdef"), n/16)
	root := t.TempDir()
	s, d, loc := newTestServerIn(t, root, string(data))
	s.opts.VerifyFirstLimit = 1024
	return s, d[0], loc, filepath.Join(root, "blobs", "sha256", d[0].Encoded()), data
}

// A large stored blob starts at once after a restart: it is verified while
// it is sent, and one that rotted never reaches its last byte.
func TestLargeStoredBlobIsVerifiedWhileItIsSent(t *testing.T) {
	t.Run("intact", func(t *testing.T) {
		s, d, loc, _, data := largeBlobServer(t, 3<<20)
		rec := do(s, http.MethodGet, "/v2/app/blobs/"+d.String())
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), data) {
			t.Fatalf("GET: %d, %d bytes", rec.Code, rec.Body.Len())
		}
		if !loc.Verified(d) {
			t.Fatal("a blob sent whole and matching was not recorded as verified")
		}
	})
	t.Run("rotted", func(t *testing.T) {
		s, d, loc, path, data := largeBlobServer(t, 3<<20)
		rotten := append([]byte(nil), data...)
		rotten[len(rotten)/2] ^= 0xff
		if err := os.WriteFile(path, rotten, 0o644); err != nil {
			t.Fatal(err)
		}
		rec := do(s, http.MethodGet, "/v2/app/blobs/"+d.String())
		if rec.Body.Len() >= len(data) {
			t.Fatalf("a corrupt blob was sent whole (%d bytes)", rec.Body.Len())
		}
		if !loc.corrupt[d] {
			t.Fatal("corrupt blob not reported to the inventory")
		}
	})
	t.Run("a range from the middle is served and the whole verified meanwhile", func(t *testing.T) {
		s, d, loc, _, data := largeBlobServer(t, 3<<20)
		rec := do(s, http.MethodGet, "/v2/app/blobs/"+d.String(), "Range", "bytes=1000-1999")
		if rec.Code != http.StatusPartialContent || !bytes.Equal(rec.Body.Bytes(), data[1000:2000]) {
			t.Fatalf("range: %d", rec.Code)
		}
		deadline := time.Now().Add(10 * time.Second)
		for !loc.Verified(d) {
			if time.Now().After(deadline) {
				t.Fatal("the blob was never verified in the background")
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}

// gatedArriving holds the first have bytes of data; the rest arrives when
// release is closed.
type gatedArriving struct {
	data    []byte
	have    int64
	release chan struct{}
}

func (g *gatedArriving) Size() int64      { return int64(len(g.data)) }
func (g *gatedArriving) Available() int64 { return g.have }
func (g *gatedArriving) Close() error     { return nil }
func (g *gatedArriving) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > g.have {
		<-g.release
	}
	return copy(p, g.data[off:]), nil
}
func (g *gatedArriving) ReadSome(p []byte, off int64) (int, error) {
	if off >= g.have {
		<-g.release
		return copy(p, g.data[off:]), nil
	}
	return copy(p[:min(int64(len(p)), g.have-off)], g.data[off:]), nil
}

type gatedInFlight struct{ blob *gatedArriving }

func (f gatedInFlight) Open(context.Context, digest.Digest) (Arriving, string, map[string]string, bool) {
	return f.blob, "default", nil, true
}

// A layer still arriving is passed on as it lands: what is here goes out
// before the rest arrives, however large the server's copy buffer.
func TestAnArrivingBlobIsSentAsItLands(t *testing.T) {
	s, _ := newTestServer(t)
	data := bytes.Repeat([]byte("abcdefgh"), 1<<18) // 2 MiB
	blob := &gatedArriving{data: data, have: 100 << 10, release: make(chan struct{})}
	s.opts.InFlight = gatedInFlight{blob}
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer close(blob.release)
	resp, err := http.Get(srv.URL + "/v2/app/blobs/" + digest.FromBytes(data).String())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got := make([]byte, blob.have)
	done := make(chan error, 1)
	go func() {
		_, err := io.ReadFull(resp.Body, got)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || !bytes.Equal(got, data[:blob.have]) {
			t.Fatalf("the bytes that are here: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the bytes that are here were held back until more arrive")
	}
}

func TestAnswersAboutBlobsSayWhetherThisNodePullsFromTheRepository(t *testing.T) {
	s, d := newTestServer(t, "held")
	s.opts.Pulling = pulling.New()
	defer s.opts.Pulling.Begin(pulling.Key("registry.example", "team/app"))()
	missing := digest.FromString("missing")
	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/v2/team/app/blobs/" + missing.String() + "?ns=registry.example", http.StatusNotFound, "true"},
		{"/v2/team/app/blobs/" + d[0].String() + "?ns=registry.example", http.StatusOK, "true"},
		{"/v2/team/other/blobs/" + missing.String() + "?ns=registry.example", http.StatusNotFound, ""},
		{"/v2/team/app/blobs/" + missing.String() + "?ns=elsewhere.example", http.StatusNotFound, ""},
		{"/v2/team/app/blobs/" + missing.String(), http.StatusNotFound, ""},
		{"/v2/team/app/manifests/" + missing.String() + "?ns=registry.example", http.StatusNotFound, ""},
	} {
		rec := do(s, http.MethodHead, tc.path)
		if rec.Code != tc.code || rec.Header().Get(oci.PullingHeader) != tc.want {
			t.Errorf("HEAD %s: %d %s=%q, want %d %q", tc.path, rec.Code, oci.PullingHeader, rec.Header().Get(oci.PullingHeader), tc.code, tc.want)
		}
	}
}
