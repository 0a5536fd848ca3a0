package oci

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Whatever SplitPath accepts has a non-empty name, one of the three kinds and
// a reference without "/", and Path builds that same path again.
func FuzzSplitPath(f *testing.F) {
	for _, seed := range []string{
		"/v2/app/blobs/sha256:00",
		"/v2/a/blobs/b/manifests/latest",
		"/v2/a/manifests/b/blobs/x",
		"/v2/app/blobs/uploads/",
		"/v2//manifests/x",
		"/v2/app/tags/list",
		"/v2/a/swarm/b/blobs/sha256:00",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		name, kind, ref, ok := SplitPath(p)
		if !ok {
			return
		}
		if name == "" || (kind != Blobs && kind != Manifests && kind != Swarm) || ref == "" || strings.Contains(ref, "/") {
			t.Fatalf("SplitPath(%q) = %q %q %q", p, name, kind, ref)
		}
		if back := Path(name, kind, ref, ""); back != p {
			t.Fatalf("SplitPath(%q) = %q %q %q, which Path builds as %q", p, name, kind, ref, back)
		}
	})
}

// What ValidRange accepts, net/http serves as one satisfiable range.
func FuzzValidRange(f *testing.F) {
	for _, seed := range []string{"bytes=0-", "bytes=5-9", "bytes=-1", "bytes=1-2,3-4", "bytes=99999999999999999999-", ""} {
		f.Add(seed, int64(10))
	}
	f.Fuzz(func(t *testing.T, h string, size int64) {
		if size <= 0 || size > 1<<16 || !ValidRange(h, size) {
			return
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("Range", h)
		http.ServeContent(rec, req, "", time.Time{}, strings.NewReader(strings.Repeat("x", int(size))))
		if rec.Code != http.StatusPartialContent {
			t.Fatalf("accepted %q for size %d but net/http answered %d", h, size, rec.Code)
		}
	})
}
