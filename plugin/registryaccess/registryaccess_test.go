package registryaccess

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// tokenRegistry is a registry behind the bearer-token flow, as Docker Hub,
// ghcr.io and quay.io are: every request without a token is answered 401
// with a challenge; /token hands out tokens, to anonymous clients too; a
// private repository refuses every token it is shown.
type tokenRegistry struct {
	*httptest.Server
	private map[string]bool // repositories anonymous tokens do not open

	mu              sync.Mutex
	manifests       map[string]int // requests per repository
	anonymousTokens int
	headers         []http.Header // of every manifest request
	hold            chan struct{} // if set, manifest requests wait for it
}

var manifestBody = []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}`)

func newTokenRegistry(t *testing.T, private ...string) *tokenRegistry {
	r := &tokenRegistry{private: map[string]bool{}, manifests: map[string]int{}}
	for _, p := range private {
		r.private[p] = true
	}
	r.Server = httptest.NewTLSServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func (r *tokenRegistry) serve(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path == "/token" {
		r.mu.Lock()
		if req.Header.Get("Authorization") == "" {
			r.anonymousTokens++
		}
		r.mu.Unlock()
		repo := strings.TrimSuffix(strings.TrimPrefix(req.URL.Query().Get("scope"), "repository:"), ":pull")
		json.NewEncoder(w).Encode(map[string]any{"token": "anonymous:" + repo, "expires_in": 300})
		return
	}
	name, ref, ok := strings.Cut(strings.TrimPrefix(req.URL.Path, "/v2/"), "/manifests/")
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	r.mu.Lock()
	r.manifests[name]++
	r.headers = append(r.headers, req.Header.Clone())
	hold := r.hold
	r.mu.Unlock()
	if hold != nil {
		<-hold
	}
	challenge := fmt.Sprintf(`Bearer realm="%s/token",service="test-registry",scope="repository:%s:pull"`, r.URL, name)
	switch auth := req.Header.Get("Authorization"); {
	case auth == "":
		w.Header().Set("WWW-Authenticate", challenge)
		w.WriteHeader(http.StatusUnauthorized)
		return
	case auth != "Bearer anonymous:"+name || r.private[name]:
		w.Header().Set("WWW-Authenticate", challenge+`,error="insufficient_scope"`)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	dgst := digest.FromBytes(manifestBody)
	if strings.HasPrefix(ref, "sha256:") && ref != dgst.String() {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", ocispec.MediaTypeImageManifest)
	w.Header().Set("Docker-Content-Digest", dgst.String())
	w.Header().Set("Content-Length", fmt.Sprint(len(manifestBody)))
	if req.Method == http.MethodGet {
		w.Write(manifestBody)
	}
}

func (r *tokenRegistry) requests(repo string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.manifests[repo]
}

func (r *tokenRegistry) addr() string { return strings.TrimPrefix(r.URL, "https://") }

// hostsDir writes <dir>/registry.test/hosts.toml: the name registry.test
// resolves nowhere, so every request that arrives went through the file.
// The registry is reached over TLS, trusted through its CA file only.
func hostsDir(t *testing.T, reg *tokenRegistry, extra string) string {
	dir := t.TempDir()
	host := filepath.Join(dir, "registry.test")
	if err := os.MkdirAll(host, 0o755); err != nil {
		t.Fatal(err)
	}
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: reg.Certificate().Raw})
	if err := os.WriteFile(filepath.Join(host, "ca.pem"), ca, 0o644); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf("server = %q\nca = \"ca.pem\"\n%s", reg.URL, extra)
	if err := os.WriteFile(filepath.Join(host, "hosts.toml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestAnAnonymousClientFollowsTheBearerChallengeThroughTheHostsDirectory(t *testing.T) {
	reg := newTokenRegistry(t)
	cfg := Config{HostDir: hostsDir(t, reg, ""), Headers: http.Header{"X-Cluster": []string{"blue"}}}
	a := New(Options{})

	if got := a.AnonymousPull(context.Background(), cfg, "registry.test/team/app:v1"); got != Served {
		t.Fatalf("public image: %s, want served", got)
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.anonymousTokens == 0 {
		t.Error("no anonymous token was fetched")
	}
	for _, h := range reg.headers {
		if h.Get("X-Cluster") != "blue" {
			t.Errorf("request without the pull's headers: %v", h)
		}
	}
}

func TestARepositoryThatRefusesAnonymousTokensIsRefused(t *testing.T) {
	reg := newTokenRegistry(t, "team/secret")
	a := New(Options{})
	cfg := Config{HostDir: hostsDir(t, reg, "")}
	if got := a.AnonymousPull(context.Background(), cfg, "registry.test/team/secret:v1"); got != Refused {
		t.Fatalf("private image: %s, want refused", got)
	}
	if got := a.AnonymousPull(context.Background(), cfg, "registry.test/team/app:v1"); got != Served {
		t.Fatalf("public image of the same registry: %s, want served", got)
	}
}

func TestTheHostsDirectorysCAIsWhatTrustsTheRegistry(t *testing.T) {
	reg := newTokenRegistry(t)
	dir := hostsDir(t, reg, "")
	os.WriteFile(filepath.Join(dir, "registry.test", "hosts.toml"), []byte(fmt.Sprintf("server = %q\n", reg.URL)), 0o644)
	a := New(Options{CheckTimeout: 2 * time.Second})
	// Without its CA the registry's certificate does not verify: the answer
	// is unknown, not refused, and the registry saw no request.
	if got := a.AnonymousPull(context.Background(), Config{HostDir: dir}, "registry.test/team/app:v1"); got != Unknown {
		t.Fatalf("registry with an untrusted certificate: %s, want unknown", got)
	}
	if n := reg.requests("team/app"); n != 0 {
		t.Errorf("%d requests reached the registry over unverified TLS", n)
	}
}

func TestOneCheckPerRepositoryWhileItsAnswerHolds(t *testing.T) {
	reg := newTokenRegistry(t)
	cfg := Config{HostDir: hostsDir(t, reg, "")}
	a := New(Options{})
	ctx := context.Background()

	a.AnonymousPull(ctx, cfg, "registry.test/team/app:v1")
	asked := reg.requests("team/app")
	if asked == 0 {
		t.Fatal("the registry was not asked")
	}
	d := digest.FromBytes(manifestBody)
	for _, ref := range []string{"registry.test/team/app:v2", "registry.test/team/app@" + d.String(), "registry.test/team/app:v1"} {
		if got := a.AnonymousPull(ctx, cfg, ref); got != Served {
			t.Errorf("%s: %s, want served (remembered)", ref, got)
		}
	}
	if got := reg.requests("team/app"); got != asked {
		t.Errorf("the repository was checked again: %d requests, want %d", got, asked)
	}
	a.AnonymousPull(ctx, cfg, "registry.test/team/other:v1")
	if reg.requests("team/other") == 0 {
		t.Error("another repository was not checked")
	}
}

func TestAnAnswerIsCheckedAgainOnceItExpires(t *testing.T) {
	reg := newTokenRegistry(t)
	cfg := Config{HostDir: hostsDir(t, reg, "")}
	a := New(Options{AnswerTTL: time.Millisecond})
	a.AnonymousPull(context.Background(), cfg, "registry.test/team/app:v1")
	asked := reg.requests("team/app")
	time.Sleep(5 * time.Millisecond)
	a.AnonymousPull(context.Background(), cfg, "registry.test/team/app:v1")
	if reg.requests("team/app") == asked {
		t.Error("an expired answer was used")
	}
}

func TestTheRememberedAnswersAreBounded(t *testing.T) {
	reg := newTokenRegistry(t)
	cfg := Config{HostDir: hostsDir(t, reg, "")}
	a := New(Options{MaxRepositories: 2})
	ctx := context.Background()
	for _, repo := range []string{"a", "b", "c"} {
		a.AnonymousPull(ctx, cfg, "registry.test/team/"+repo+":v1")
	}
	if n := len(a.checks.byKey); n != 2 {
		t.Errorf("%d answers remembered, want 2", n)
	}
	asked := reg.requests("team/a")
	a.AnonymousPull(ctx, cfg, "registry.test/team/a:v1") // the least recently asked: forgotten
	if reg.requests("team/a") == asked {
		t.Error("the least recently asked repository was not forgotten")
	}
}

func TestConcurrentChecksOfARepositoryAreOneRequest(t *testing.T) {
	reg := newTokenRegistry(t)
	cfg := Config{HostDir: hostsDir(t, reg, "")}
	hold := make(chan struct{})
	reg.mu.Lock()
	reg.hold = hold
	reg.mu.Unlock()
	a := New(Options{})

	var wg sync.WaitGroup
	answers := make(chan Answer, 10)
	for range 10 {
		wg.Go(func() { answers <- a.AnonymousPull(context.Background(), cfg, "registry.test/team/app:v1") })
	}
	// Wait until the one check reached the registry, then let it answer.
	deadline := time.Now().Add(5 * time.Second)
	for reg.requests("team/app") == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(hold)
	wg.Wait()
	close(answers)
	for got := range answers {
		if got != Served {
			t.Errorf("answer %s, want served", got)
		}
	}
	// A check is the unauthenticated request, then the one with a token.
	if got := reg.requests("team/app"); got != 2 {
		t.Errorf("%d requests for 10 concurrent checks, want the 2 of one", got)
	}
}

// silentRegistry accepts connections and never answers.
func silentRegistry(t *testing.T) (addr string, accepted *atomic.Int32) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = &atomic.Int32{}
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String(), accepted
}

func TestAnUnreachableRegistryCostsOneBoundedCheckPerRepository(t *testing.T) {
	addr, accepted := silentRegistry(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "registry.test"), 0o755)
	os.WriteFile(filepath.Join(dir, "registry.test", "hosts.toml"), []byte(fmt.Sprintf("server = \"http://%s\"\n", addr)), 0o644)
	cfg := Config{HostDir: dir}
	a := New(Options{CheckTimeout: 200 * time.Millisecond})

	start := time.Now()
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			if got := a.AnonymousPull(context.Background(), cfg, "registry.test/team/app:v1"); got != Unknown {
				t.Errorf("silent registry: %s, want unknown", got)
			}
		})
	}
	wg.Wait()
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("checks of a silent registry took %s; the bound is 200ms", took)
	}
	if n := accepted.Load(); n != 1 {
		t.Errorf("%d connections for 5 concurrent checks, want 1", n)
	}
	// Remembered for a while: the next pulls cost nothing.
	start = time.Now()
	if got := a.AnonymousPull(context.Background(), cfg, "registry.test/team/app:v2"); got != Unknown {
		t.Errorf("silent registry, again: %s, want unknown", got)
	}
	if took := time.Since(start); took > 50*time.Millisecond {
		t.Errorf("a remembered unknown answer took %s", took)
	}
	if n := accepted.Load(); n != 1 {
		t.Errorf("the silent registry was asked again within RetryAfter (%d connections)", n)
	}
}

func TestACanceledWaitReturnsAtOnce(t *testing.T) {
	addr, _ := silentRegistry(t)
	a := New(Options{CheckTimeout: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "registry.test"), 0o755)
	os.WriteFile(filepath.Join(dir, "registry.test", "hosts.toml"), []byte(fmt.Sprintf("server = \"http://%s\"\n", addr)), 0o644)
	if got := a.AnonymousPull(ctx, Config{HostDir: dir}, "registry.test/team/app:v1"); got != Unknown {
		t.Errorf("%s, want unknown", got)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("a canceled wait took %s", took)
	}
}

func TestTheMirrorsOwnAddressIsNeverAsked(t *testing.T) {
	reg := newTokenRegistry(t)
	var mirrored atomic.Int32
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mirrored.Add(1)
		w.WriteHeader(http.StatusNotFound)
	}))
	defer mirror.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(mirror.URL, "http://"))
	// Listed as Shoal writes it, and by hand under another loopback name.
	dir := hostsDir(t, reg, fmt.Sprintf(`
[host."http://127.0.0.1:%[1]s"]
  capabilities = ["pull"]
[host."http://localhost:%[1]s"]
  capabilities = ["pull", "resolve"]
`, port))
	cfg := Config{HostDir: dir}
	ref := "registry.test/team/app@" + digest.FromBytes(manifestBody).String()

	// Without skipping, a check by digest would ask the mirror first.
	if New(Options{}).AnonymousPull(context.Background(), cfg, ref); mirrored.Load() == 0 {
		t.Fatal("test is broken: the mirror is not in the hosts directory")
	}
	mirrored.Store(0)
	a := New(Options{Skip: []string{"127.0.0.1:" + port}})
	if got := a.AnonymousPull(context.Background(), cfg, ref); got != Served {
		t.Fatalf("check past the mirror: %s, want served", got)
	}
	if _, _, err := a.Resolver(cfg).Resolve(context.Background(), "registry.test/team/app:v1"); err != nil {
		t.Fatal(err)
	}
	if n := mirrored.Load(); n != 0 {
		t.Errorf("the mirror was asked %d times", n)
	}
	hosts, skipped, err := a.Endpoints(cfg, ref)
	if err != nil || !skipped || len(hosts) != 1 || hosts[0] != reg.addr() {
		t.Errorf("endpoints of a digest: %v skipped=%v err=%v, want [%s] and the mirror skipped", hosts, skipped, err, reg.addr())
	}
}

func TestTagsAreResolvedOnlyByHostsThatMayResolve(t *testing.T) {
	reg := newTokenRegistry(t)
	dir := hostsDir(t, reg, `
[host."https://pull-only.test"]
  capabilities = ["pull"]
`)
	a := New(Options{})
	tag, _, err := a.Endpoints(Config{HostDir: dir}, "registry.test/team/app:v1")
	if err != nil || len(tag) != 1 || tag[0] != reg.addr() {
		t.Errorf("endpoints of a tag: %v (%v), want [%s]", tag, err, reg.addr())
	}
	byDigest, _, err := a.Endpoints(Config{HostDir: dir}, "registry.test/team/app@"+digest.FromBytes(manifestBody).String())
	if err != nil || len(byDigest) != 2 || byDigest[0] != "pull-only.test" {
		t.Errorf("endpoints of a digest: %v (%v), want the pull-only host first", byDigest, err)
	}
}

func TestHostsConfigurationIsSharedForAWhile(t *testing.T) {
	reg := newTokenRegistry(t)
	cfg := Config{HostDir: hostsDir(t, reg, "")}
	a := New(Options{HostsTTL: time.Hour})
	first, err := a.Hosts(cfg)("registry.test")
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.Hosts(cfg)("registry.test")
	if err != nil {
		t.Fatal(err)
	}
	if first[0].Client != second[0].Client {
		t.Error("a new client was built for the same registry: connections are not pooled")
	}
	if first[0].Authorizer == second[0].Authorizer {
		t.Error("authorizers are shared: a failed token fetch would outlive its request")
	}
	other, err := a.Hosts(Config{HostDir: cfg.HostDir, DefaultScheme: "http"})("registry.test")
	if err != nil {
		t.Fatal(err)
	}
	if other[0].Client == first[0].Client {
		t.Error("another configuration shares the client")
	}
}
