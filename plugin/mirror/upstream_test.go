package mirror

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/registryaccess"
)

// The mirror reaches the registry through the hosts directory, which lists
// the mirror itself (as the hosts.toml files it writes do): it resolves the
// tag and fetches the manifest upstream without ever asking itself.
func TestTheMirrorGoesUpstreamThroughTheHostsDirectoryButNeverToItself(t *testing.T) {
	manifest := []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}`)
	dgst := digest.FromBytes(manifest)
	var upstream atomic.Int32
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstream.Add(1)
		if r.URL.Path != "/v2/team/app/manifests/v1" && r.URL.Path != "/v2/team/app/manifests/"+dgst.String() {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", ocispec.MediaTypeImageManifest)
		w.Header().Set("Docker-Content-Digest", dgst.String())
		w.Header().Set("Content-Length", fmt.Sprint(len(manifest)))
		if r.Method == http.MethodGet {
			w.Write(manifest)
		}
	}))
	defer reg.Close()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "registry.test"), 0o755)
	hosts := fmt.Sprintf("server = %q\n[host.\"http://%s\"]\n  capabilities = [\"pull\"]\n", reg.URL, ln.Addr())
	os.WriteFile(filepath.Join(dir, "registry.test", "hosts.toml"), []byte(hosts), 0o644)

	m := newMirror(Options{
		Registries: registryaccess.New(registryaccess.Options{Skip: []string{ln.Addr().String()}}),
		Registry:   registryaccess.Config{HostDir: dir},
	})
	var asked atomic.Int32
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		m.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	defer srv.Close()

	resp, err := http.Get("http://" + ln.Addr().String() + "/v2/team/app/manifests/v1?ns=registry.test")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != string(manifest) {
		t.Fatalf("tag through the mirror: %d %q", resp.StatusCode, body)
	}
	if upstream.Load() == 0 {
		t.Error("the registry was not asked")
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the mirror received %d requests for the client's one: it asked itself", n)
	}
	if !strings.HasPrefix(resp.Header.Get("Docker-Content-Digest"), "sha256:") {
		t.Error("no digest header")
	}
}

// A registry the operator did not name is refused before any connection:
// a local process cannot make containerd (root) send requests anywhere.
func TestARegistryNotMirroredIsRefusedWithoutAnyConnection(t *testing.T) {
	var upstream atomic.Int32
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstream.Add(1)
		w.WriteHeader(http.StatusNotFound)
	}))
	defer reg.Close()
	host := strings.TrimPrefix(reg.URL, "http://")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, host), 0o755)
	os.WriteFile(filepath.Join(dir, host, "hosts.toml"), []byte(fmt.Sprintf("server = %q\n", reg.URL)), 0o644)
	for _, tc := range []struct {
		mirrored []string
		refused  bool
	}{
		{[]string{"registry.example"}, true},
		{[]string{host}, false},       // positive control: named, it is asked
		{[]string{"_default"}, false}, // any
	} {
		upstream.Store(0)
		m := newMirror(Options{Mirrored: tc.mirrored, Registry: registryaccess.Config{HostDir: dir}})
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/team/app/manifests/v1?ns="+host, nil))
		if refused := strings.Contains(rec.Body.String(), "not mirrored"); refused != tc.refused {
			t.Errorf("mirrored %v: refused %v, want %v (%d %s)", tc.mirrored, refused, tc.refused, rec.Code, rec.Body)
		}
		if asked := upstream.Load() > 0; asked == tc.refused {
			t.Errorf("mirrored %v: registry asked %v", tc.mirrored, asked)
		}
	}
}
