package peertransfer

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/transfer"
	"github.com/containerd/containerd/v2/core/transfer/registry"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/registryaccess"
)

var manifest = []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}`)

// basicRegistry serves every manifest; those of repositories under private/
// only with the credentials u:p.
type basicRegistry struct {
	*httptest.Server
	mu        sync.Mutex
	anonymous int // manifest requests without credentials
}

func newBasicRegistry(t *testing.T) *basicRegistry {
	r := &basicRegistry{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !strings.Contains(req.URL.Path, "/manifests/") {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		user, pass, ok := req.BasicAuth()
		if !ok {
			r.mu.Lock()
			r.anonymous++
			r.mu.Unlock()
		}
		if strings.HasPrefix(req.URL.Path, "/v2/private/") && (user != "u" || pass != "p") {
			w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		serveManifest(w)
	}))
	t.Cleanup(r.Close)
	return r
}

func serveManifest(w http.ResponseWriter) {
	w.Header().Set("Content-Type", ocispec.MediaTypeImageManifest)
	w.Header().Set("Docker-Content-Digest", digest.FromBytes(manifest).String())
	w.Header().Set("Content-Length", fmt.Sprint(len(manifest)))
}

func (r *basicRegistry) anonymousRequests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.anonymous
}

// hostsDir sends registry.test (a name that resolves nowhere) to the
// registry, after the hosts in extra.
func hostsDir(t *testing.T, url, extra string) string {
	dir := filepath.Join(t.TempDir(), "certs.d")
	if err := os.MkdirAll(filepath.Join(dir, "registry.test"), 0o755); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf("server = %q\n%s", url, extra)
	if err := os.WriteFile(filepath.Join(dir, "registry.test", "hosts.toml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// resolvingTransferrer resolves the image as the stock service does first.
type resolvingTransferrer struct{}

func (resolvingTransferrer) Transfer(ctx context.Context, src, dst any, opts ...transfer.Opt) error {
	_, _, err := src.(transfer.ImageFetcher).Resolve(ctx)
	return err
}

// labels records what the pulls marked.
type labels struct {
	peersFirst
	access *registryaccess.Access
	marked chan bool
}

func (l *labels) MarkAccess(ctx context.Context, target ocispec.Descriptor, anonymous bool) error {
	l.marked <- anonymous
	return nil
}

func (l *labels) RegistryAccess() *registryaccess.Access { return l.access }

// credentials is a credential helper: CRI passes one on every pull.
type credentials map[string]registry.Credentials

func (c credentials) GetCredentials(ctx context.Context, ref, host string) (registry.Credentials, error) {
	return c[host], nil
}

func pull(t *testing.T, svc *Service, marked chan bool, ref string, opts ...registry.Opt) bool {
	t.Helper()
	src, err := registry.NewOCIRegistry(context.Background(), ref, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Transfer(context.Background(), src, imageStore{}); err != nil {
		t.Fatalf("pull %s: %v", ref, err)
	}
	select {
	case anonymous := <-marked:
		return anonymous
	case <-time.After(10 * time.Second):
		t.Fatalf("pull %s: access never marked", ref)
		return false
	}
}

func TestOnlyPullsWithCredentialsCostAnAnonymousCheck(t *testing.T) {
	reg := newBasicRegistry(t)
	dir := hostsDir(t, reg.URL, "")
	host := strings.TrimPrefix(reg.URL, "http://")
	peers := &labels{access: registryaccess.New(registryaccess.Options{}), marked: make(chan bool, 1)}
	svc := NewService(resolvingTransferrer{}, func() PeerFetcher { return peers })
	withCreds := credentials{host: {Username: "u", Secret: "p"}}

	for _, tc := range []struct {
		name      string
		ref       string
		opts      []registry.Opt
		anonymous bool
		checks    int // anonymous requests beyond the pull's own
	}{
		{"ctr without --user", "registry.test/public/app:v1", nil, true, 0},
		{"CRI with an empty helper", "registry.test/public/app:v1", []registry.Opt{registry.WithCredentials(credentials{})}, true, 0},
		{"with credentials, public", "registry.test/public/tool:v1", []registry.Opt{registry.WithCredentials(withCreds)}, true, 1},
		{"with credentials, private", "registry.test/private/app:v1", []registry.Opt{registry.WithCredentials(withCreds)}, false, 1},
		{"the same repository again", "registry.test/private/app:v2", []registry.Opt{registry.WithCredentials(withCreds)}, false, 0},
	} {
		before := reg.anonymousRequests()
		got := pull(t, svc, peers.marked, tc.ref, append(tc.opts, registry.WithHostDir(dir))...)
		if got != tc.anonymous {
			t.Errorf("%s: marked anonymous=%v, want %v", tc.name, got, tc.anonymous)
		}
		// The pull's own resolve is one anonymous request (private: then
		// one with credentials).
		if checks := reg.anonymousRequests() - before - 1; checks != tc.checks {
			t.Errorf("%s: %d anonymous checks, want %d", tc.name, checks, tc.checks)
		}
	}
}

func TestADigestPullThroughShoalsMirrorProvesNothing(t *testing.T) {
	reg := newBasicRegistry(t)
	// Shoal's loopback mirror serves by digest what peers hold, private
	// images included, without asking the registry.
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { serveManifest(w) }))
	defer mirror.Close()
	mirrorAddr := strings.TrimPrefix(mirror.URL, "http://")
	dir := hostsDir(t, reg.URL, fmt.Sprintf("[host.%q]\n  capabilities = [\"pull\"]\n", mirror.URL))
	peers := &labels{access: registryaccess.New(registryaccess.Options{Skip: []string{mirrorAddr}}), marked: make(chan bool, 1)}
	svc := NewService(resolvingTransferrer{}, func() PeerFetcher { return peers })

	ref := "registry.test/private/app@" + digest.FromBytes(manifest).String()
	if pull(t, svc, peers.marked, ref, registry.WithHostDir(dir)) {
		t.Error("a private image resolved through the mirror was marked anonymous")
	}
	if reg.anonymousRequests() == 0 {
		t.Error("the registry was not checked")
	}
}

func TestAPullsAccessIsLearnedEvenWhenTheSourceIsNotARegistry(t *testing.T) {
	peers := &labels{access: registryaccess.New(registryaccess.Options{CheckTimeout: 100 * time.Millisecond}), marked: make(chan bool, 1)}
	svc := NewService(resolvingTransferrer{}, func() PeerFetcher { return peers })
	if err := svc.Transfer(context.Background(), &namedSource{}, imageStore{}); err != nil {
		t.Fatal(err)
	}
	// registry.invalid cannot be reached: unknown, so not anonymous.
	select {
	case anonymous := <-peers.marked:
		if anonymous {
			t.Error("an image whose registry could not be asked was marked anonymous")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("access never marked")
	}
}

// namedSource is an image source of another kind than containerd's.
type namedSource struct{ registrySource }

func (namedSource) Image() string { return "registry.invalid/app:v1" }
