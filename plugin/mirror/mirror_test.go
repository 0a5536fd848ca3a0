package mirror

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/resolve"
)

type noProviders struct{}

func (noProviders) FindProviders(context.Context, digest.Digest, int) ([]peer.AddrInfo, error) {
	return nil, nil
}

// newMirror is a mirror over peers of which none holds anything; it
// mirrors every registry unless told otherwise.
func newMirror(opts Options) *Mirror { return newMirrorOf(noProviders{}, opts) }

// newMirrorOf is a mirror over the peers finder finds.
func newMirrorOf(finder resolve.Finder, opts Options) *Mirror {
	if opts.Mirrored == nil {
		opts.Mirrored = []string{"_default"}
	}
	return New(resolve.New(finder, peerclient.New(noClient{}, peerclient.Options{}), resolve.Options{}), opts)
}

type noClient struct{}

func (noClient) Do(peer.ID, *http.Request) (*http.Response, error) { panic("no peer should be asked") }

func TestMirrorSpeaksTheReadOnlyDistributionAPI(t *testing.T) {
	m := newMirror(Options{})
	blob := "/v2/team/app/blobs/" + digest.FromString("x").String()
	for _, tc := range []struct {
		method, target string
		code           int
		echo           string
	}{
		{"GET", "/v2/", 200, ""},
		{"PUT", "/v2/team/app/blobs/uploads/", 405, ""},
		{"DELETE", blob, 405, ""},
		{"GET", blob + "?ns=registry.example", 404, "registry.example"}, // no peer holds it: the client goes on
		{"GET", blob, 404, ""},                                          // no ns and no default registry
		{"GET", "/v2/Team/app/blobs/" + digest.FromString("x").String() + "?ns=r.example", 400, "r.example"},
		{"GET", "/v2/team/app/blobs/sha256:zz?ns=r.example", 400, "r.example"},
		{"GET", "/v2/team/app/manifests/.INVALID?ns=r.example", 404, "r.example"},
		{"GET", "/v2/team/app/blobs/x/y?ns=r.example", 404, "r.example"},
	} {
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.target, nil))
		if rec.Code != tc.code {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.target, rec.Code, tc.code)
		}
		if got := rec.Header().Get("OCI-Namespace"); got != tc.echo {
			t.Errorf("%s %s: OCI-Namespace %q, want %q", tc.method, tc.target, got, tc.echo)
		}
		if tc.code >= 400 && !strings.Contains(rec.Body.String(), `"errors"`) {
			t.Errorf("%s %s: error body is not OCI JSON", tc.method, tc.target)
		}
	}
}

// "blobs" and "manifests" may be components of a repository name: the last
// of them in the path says what is asked for.
func TestRepositoriesNamedLikeEndpointsAreAskedFor(t *testing.T) {
	m := newMirror(Options{})
	d := digest.FromString("x").String()
	for path, code := range map[string]string{
		"/v2/a/blobs/b/manifests/" + d: "MANIFEST_UNKNOWN",
		"/v2/a/manifests/b/blobs/" + d: "BLOB_UNKNOWN",
	} {
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path+"?ns=registry.example", nil))
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"`+code+`"`) {
			t.Errorf("GET %s: %d %s, want 404 %s", path, rec.Code, rec.Body.String(), code)
		}
	}
}

type panickingFinder struct{}

func (panickingFinder) FindProviders(context.Context, digest.Digest, int) ([]peer.AddrInfo, error) {
	panic("finder bug")
}

func TestAPanicIsAnsweredWithAnOCIError(t *testing.T) {
	m := newMirrorOf(panickingFinder{}, Options{})
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/app/blobs/"+digest.FromString("x").String()+"?ns=registry.example", nil))
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), `"UNKNOWN"`) {
		t.Fatalf("panic answered %d %q, want 500 with an OCI error body", rec.Code, rec.Body.String())
	}
}
