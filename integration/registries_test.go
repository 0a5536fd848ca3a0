package integration

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/remotes/docker"
	"github.com/containerd/containerd/v2/core/remotes/docker/config"
	runtime "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/shoal-dev/shoal/integration/cluster"
)

// Registries as the world has them: what holds against a plain registry must
// hold against one that challenges for bearer tokens (Docker Hub, ghcr.io,
// quay.io) and one behind TLS with its own CA.

// testRegistry is an upstream as a test meets it: how to push to it and the
// flags ctr needs to pull from it.
type testRegistry struct {
	*upstream
	kind string
	// user and password are what the registry asks for ("" when nothing).
	user, password string
	// pullFlags reach the registry: --plain-http, or --hosts-dir DIR.
	pullFlags []string
	// hostsDir is the hosts.toml directory nodes need (CRI's config_path).
	hostsDir string
	// tokens is the token service of a token registry.
	tokens *tokenServer
}

// registryKind starts one kind of registry for a test.
type registryKind struct {
	name  string
	start func(t *testing.T) *testRegistry
}

var (
	plainRegistryKind    = registryKind{"plain", startPlainRegistry}
	tokenRegistryKind    = registryKind{"token", startTokenRegistry}
	htpasswdRegistryKind = registryKind{"htpasswd", startHtpasswdRegistry}
	tlsRegistryKind      = registryKind{"tls", startTLSRegistry}
)

// forEachRegistry runs scenario once per kind of registry, as subtests.
func forEachRegistry(t *testing.T, kinds []registryKind, scenario func(t *testing.T, reg *testRegistry)) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) { scenario(t, k.start(t)) })
	}
}

func startPlainRegistry(t *testing.T) *testRegistry {
	t.Helper()
	return &testRegistry{upstream: startRegistry(t), kind: "plain", pullFlags: []string{"--plain-http"}}
}

func startHtpasswdRegistry(t *testing.T) *testRegistry {
	t.Helper()
	return &testRegistry{upstream: htpasswdRegistry(t), kind: "htpasswd", user: registryUser, password: registryPassword,
		pullFlags: []string{"--plain-http"}}
}

// stop stops the registry and what it needs to serve (its token service).
func (r *testRegistry) stop() {
	r.upstream.stop()
	if r.tokens != nil {
		r.tokens.stop()
	}
}

// push uploads a generated image with the registry's credentials.
func (r *testRegistry) push(t *testing.T, repo, tag string, layerSizes ...int) testImage {
	t.Helper()
	if r.hostsDir == "" {
		return pushImageAs(t, r.user, r.password, r.Addr, repo, tag, layerSizes...)
	}
	return pushImageWith(t, r.Addr, repo, tag, func(ref string, im *cluster.Image) error {
		// As containerd reaches it: through the hosts directory.
		opts := config.HostOptions{HostDir: config.HostDirFromRoot(r.hostsDir)}
		if r.user != "" {
			opts.Credentials = func(string) (string, string, error) { return r.user, r.password, nil }
		}
		return im.PushWith(context.Background(), ref, docker.ResolverOptions{Hosts: config.ConfigureHosts(context.Background(), opts)})
	}, layerSizes...)
}

// pullArgs is `ctr image pull` of ref from this registry, logged in if asked.
func (r *testRegistry) pullArgs(ref string, login bool) []string {
	args := append([]string{"image", "pull"}, r.pullFlags...)
	if login {
		args = append(args, "--user", r.user+":"+r.password)
	}
	return append(args, ref)
}

// criPull pulls ref through n's CRI image service, as kubelet does.
func (n *node) criPull(ref string) string {
	n.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	resp, err := n.criImages().PullImage(ctx, &runtime.PullImageRequest{Image: &runtime.ImageSpec{Image: ref}})
	if err != nil {
		n.t.Fatalf("%s: CRI PullImage %s: %v", n.name, ref, err)
	}
	return resp.ImageRef
}

// The test bed itself: the token registry challenges like the public ones
// and its token service grants by policy. (Checked apart from any node, so
// that a failure below is the product's, not the bed's.)
func TestTokenRegistryChallengesAndGrantsByPolicy(t *testing.T) {
	reg := startTokenRegistry(t)
	pub := reg.push(t, "public/bed", "v1", 1<<10)
	priv := reg.push(t, "private/bed", "v1", 1<<10)

	manifest := func(im testImage, token string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, "http://"+reg.Addr+"/v2/"+im.Repo+"/manifests/v1", nil)
		req.Header.Set("Accept", im.Manifest.MediaType)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	token := func(method, repo string, login bool) (int, string) {
		q := url.Values{"service": {tokenService}, "scope": {"repository:" + repo + ":pull"}}
		var req *http.Request
		if method == http.MethodPost {
			q.Set("grant_type", "password")
			q.Set("username", registryUser)
			q.Set("password", registryPassword)
			req, _ = http.NewRequest(method, reg.tokens.Realm, strings.NewReader(q.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		} else {
			req, _ = http.NewRequest(method, reg.tokens.Realm+"?"+q.Encode(), nil)
			if login {
				req.SetBasicAuth(registryUser, registryPassword)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			Token       string `json:"token"`
			AccessToken string `json:"access_token"`
		}
		json.NewDecoder(resp.Body).Decode(&body)
		if body.Token != body.AccessToken {
			t.Fatalf("token and access_token differ")
		}
		return resp.StatusCode, body.Token
	}

	all := func(string) bool { return true }
	served := reg.countRequests(all)
	resp := manifest(pub, "")
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(challenge, "Bearer realm=\""+reg.tokens.Realm+"\"") {
		t.Fatalf("anonymous request: %d %q, want 401 and a bearer challenge naming %s", resp.StatusCode, challenge, reg.tokens.Realm)
	}
	for _, c := range []struct {
		what   string
		method string
		im     testImage
		login  bool
		want   int
	}{
		{"anonymous GET, public", http.MethodGet, pub, false, http.StatusOK},
		{"anonymous GET, private", http.MethodGet, priv, false, http.StatusUnauthorized},
		{"GET with basic auth, private", http.MethodGet, priv, true, http.StatusOK},
		{"password grant POST, private", http.MethodPost, priv, true, http.StatusOK},
	} {
		status, tok := token(c.method, c.im.Repo, c.login)
		if status != http.StatusOK || tok == "" {
			t.Fatalf("%s: token service answered %d", c.what, status)
		}
		if got := manifest(c.im, tok).StatusCode; got != c.want {
			t.Errorf("%s: registry answered %d with the token, want %d", c.what, got, c.want)
		}
	}
	if n := reg.countRequests(all) - served; n != 3 {
		t.Errorf("access log counts %d answered requests, want 3 (401s are not served)", n)
	}
}

// A registry with its own CA, known to nodes only through hosts.toml: ctr
// (--hosts-dir) and CRI (config_path) pull through it, and what one node
// pulled, the others get from it.
func TestTLSRegistryBehindHostsTomlServesOneNodeAndPeersServeTheRest(t *testing.T) {
	reg := startTLSRegistry(t)
	a := startNode(t, "A", nodeOptions{hostsDir: reg.hostsDir})
	b := startNode(t, "B", nodeOptions{hostsDir: reg.hostsDir, bootstrap: []string{a.bootstrapAddr()}})
	c := startNode(t, "C", nodeOptions{hostsDir: reg.hostsDir, bootstrap: []string{a.bootstrapAddr()}})
	im := reg.push(t, "public/tls", "v1", 4<<20, 1<<20)

	pushed := reg.blobRequests(im.Repo)
	a.ctr(reg.pullArgs(im.Ref, false)...)
	if n := reg.blobRequests(im.Repo) - pushed; n != len(im.Blobs) {
		t.Fatalf("A's pull over TLS made %d upstream blob requests, want %d", n, len(im.Blobs))
	}
	a.requireIntact(im)
	a.waitAnnounced(len(im.Blobs) + 1)

	// The tag is still resolved by the registry, over TLS with the CA.
	byTag := func(path string) bool { return path == "/v2/"+im.Repo+"/manifests/v1" }
	before, resolved := reg.blobRequests(im.Repo), reg.countRequests(byTag)
	b.criPull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B's CRI pull made %d upstream blob requests, want 0: A holds the image", n)
	}
	if reg.countRequests(byTag) == resolved {
		t.Fatal("B's CRI pull did not resolve the tag at the registry")
	}
	if !strings.Contains(b.ctr("-n", "k8s.io", "image", "ls", "-q"), im.Ref) {
		t.Fatal("B's CRI image is not stored in namespace k8s.io")
	}

	before, resolved = reg.blobRequests(im.Repo), reg.countRequests(byTag)
	c.ctr(reg.pullArgs(im.Ref, false)...)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("C's ctr pull made %d upstream blob requests, want 0", n)
	}
	if reg.countRequests(byTag) == resolved {
		t.Fatal("C's ctr pull did not resolve the tag at the registry")
	}
	c.requireIntact(im)
}
