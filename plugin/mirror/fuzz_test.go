package mirror

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Whatever a local client sends, the mirror answers with a status it means
// and, for an error, an OCI error body; it never panics, and it never
// speaks for a registry it does not mirror.
func FuzzMirrorRequest(f *testing.F) {
	for _, seed := range []string{
		"/v2/", "/v2/team/app/manifests/v1?ns=127.0.0.1:1", "/v2/team/app/blobs/sha256:" + strings.Repeat("a", 64) + "?ns=127.0.0.1:1",
		"/v2/a/blobs/b/manifests/sha256:zz", "/v2/team/app/manifests/v1?ns=evil.example", "/v2/../etc/passwd", "/v2/x/blobs/?ns=",
	} {
		f.Add("GET", seed)
	}
	f.Add("HEAD", "/v2/team/app/manifests/latest?ns=127.0.0.1:1")
	// Only a closed loopback port is mirrored: nothing leaves the machine.
	m := newMirror(Options{Mirrored: []string{"127.0.0.1:1"}})
	f.Fuzz(func(t *testing.T, method, target string) {
		req, err := http.NewRequest(method, "http://mirror"+target, nil)
		if err != nil || req.URL.Host != "mirror" {
			return
		}
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusTooManyRequests:
		default:
			t.Fatalf("%s %s: status %d", method, target, rec.Code)
		}
		if rec.Code >= 400 && method != http.MethodHead && !strings.Contains(rec.Body.String(), `"errors"`) {
			t.Fatalf("%s %s: %d without an OCI error body: %q", method, target, rec.Code, rec.Body)
		}
		if ns := req.URL.Query().Get("ns"); ns != "" && ns != "127.0.0.1:1" && rec.Code == http.StatusOK && req.URL.Path != "/v2/" && req.URL.Path != "/v2" {
			t.Fatalf("%s %s: answered 200 for a registry it does not mirror", method, target)
		}
	})
}
