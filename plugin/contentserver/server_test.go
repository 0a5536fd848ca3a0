package contentserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/plugins/content/local"
	"github.com/opencontainers/go-digest"
)

// fakeLocator says which digests are held, as the inventory would.
type fakeLocator map[digest.Digest][]string

func (f fakeLocator) Namespaces(d digest.Digest) []string { return f[d] }

func newTestServer(t *testing.T, blobs ...string) (*Server, []digest.Digest) {
	t.Helper()
	store, err := local.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	loc := fakeLocator{}
	var dgsts []digest.Digest
	for _, b := range blobs {
		d := digest.FromString(b)
		if err := content.WriteBlob(context.Background(), store, d.String(), strings.NewReader(b), ocispecDesc(d, len(b))); err != nil {
			t.Fatal(err)
		}
		loc[d] = []string{"default"}
		dgsts = append(dgsts, d)
	}
	return New(store, loc), dgsts
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

func TestContentGoneFromStoreIs404EvenIfInventoryStillListsIt(t *testing.T) {
	store, err := local.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gone := digest.FromString("deleted by gc")
	s := New(store, fakeLocator{gone: {"default"}})
	if rec := do(s, http.MethodGet, "/v2/app/blobs/"+gone.String()); rec.Code != http.StatusNotFound {
		t.Fatalf("got %d, want 404", rec.Code)
	}
}
