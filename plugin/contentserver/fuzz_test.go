package contentserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Whatever a peer sends, the server answers with a status from a known set
// and never panics, and no bytes but the held blob's ever leave it.
func FuzzServeHTTP(f *testing.F) {
	const held = "held blob"
	s, d := newTestServer(f, held)
	for _, seed := range []struct{ method, target, rng string }{
		{"GET", "/v2/app/blobs/" + d[0].String(), ""},
		{"HEAD", "/v2/a/b/manifests/" + d[0].String(), "bytes=1-"},
		{"GET", "/v2/app/manifests/latest?ns=docker.io", ""},
		{"GET", "/v2/app%2f..%2fetc/blobs/sha256:00", "bytes=0-1,2-3"},
		{"DELETE", "/v2/app/blobs/" + d[0].String(), ""},
	} {
		f.Add(seed.method, seed.target, seed.rng)
	}
	allowed := map[int]bool{200: true, 206: true, 400: true, 404: true, 405: true, 416: true, 429: true}
	f.Fuzz(func(t *testing.T, method, target, rng string) {
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		req, err := http.NewRequest(method, "http://peer"+target, nil)
		if err != nil {
			return // not a request net/http would hand to a handler
		}
		req.Header.Set("Range", rng)
		req.RemoteAddr = "fuzz-peer"
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if !allowed[rec.Code] {
			t.Fatalf("%s %q Range %q: status %d", method, target, rng, rec.Code)
		}
		if (rec.Code == 200 || rec.Code == 206) && rec.Body.Len() > 0 && !bytes.Contains([]byte(held), rec.Body.Bytes()) {
			t.Fatalf("%s %q served bytes that are not the held blob: %q", method, target, rec.Body.String())
		}
	})
}
