package integration

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"
	runtime "k8s.io/cri-api/pkg/apis/runtime/v1"
)

var conformanceBin = os.Getenv("SHOAL_CONFORMANCE_BIN")

// mirrorNode is a node whose loopback mirror fronts every registry through
// hosts.toml files in its CRI hosts directory.
func mirrorNode(t *testing.T, name string, bootstrap []string, extra string) (*node, string) {
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	n := newNode(t, name, nodeOptions{bootstrap: bootstrap, extra: fmt.Sprintf(`  mirror_address = %q
  mirror_registries = ["_default"]
%s`, addr, extra)})
	hostsDir := filepath.Join(n.Dir(), "certs.d")
	if err := n.SetExtra(fmt.Sprintf("  mirror_hosts_dir = %q\n", hostsDir)); err != nil {
		t.Fatal(err)
	}
	n.start()
	n.waitReady()
	return n, addr
}

func TestCtrLocalPullGoesThroughTheLoopbackMirror(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b, _ := mirrorNode(t, "B", []string{a.bootstrapAddr()}, "")
	im := pushImage(t, reg.Addr, "mirror/ctr", "v1", 6<<20, 1<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 2)

	before := reg.blobRequests(im.Repo)
	b.ctr("image", "pull", "--local", "--plain-http", "--hosts-dir", filepath.Join(b.Dir(), "certs.d"), im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B's client-side pull made %d upstream blob requests, want 0", n)
	}
	b.requireIntact(im)

	// What no peer holds: a 404 from the mirror, then the registry, the
	// next host, serves each blob once.
	fresh := pushImage(t, reg.Addr, "mirror/fresh", "v1", 1<<20)
	pushed := reg.blobRequests(fresh.Repo)
	b.ctr("image", "pull", "--local", "--plain-http", "--hosts-dir", filepath.Join(b.Dir(), "certs.d"), fresh.Ref)
	if n := reg.blobRequests(fresh.Repo) - pushed; n != len(fresh.Blobs) {
		t.Fatalf("pull of an image nobody holds made %d upstream blob requests, want %d", n, len(fresh.Blobs))
	}
	b.requireIntact(fresh)
}

func TestCRILocalImagePullGoesThroughTheLoopbackMirror(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	c, _ := mirrorNode(t, "C", []string{a.bootstrapAddr()}, "[plugins.\"io.containerd.cri.v1.images\"]\n  use_local_image_pull = true")
	im := pushImage(t, reg.Addr, "mirror/cri", "v1", 6<<20, 1<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 2)

	images := c.criImages()
	before := reg.blobRequests(im.Repo)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := images.PullImage(ctx, &runtime.PullImageRequest{Image: &runtime.ImageSpec{Image: im.Ref}}); err != nil {
		t.Fatalf("CRI PullImage with use_local_image_pull: %v", err)
	}
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("C's CRI local pull made %d upstream blob requests, want 0", n)
	}
}

// The OCI distribution-spec conformance suite (pull) against the mirror of
// a node that holds nothing, with the registry stopped: every answer comes
// from peers. The suite asks for its blob before any manifest, so the
// mirror knows no size for it but the holders' word; it runs once for each
// of the image's layers, of 8 and 64 MiB, each on a fresh mirror.
func TestLoopbackMirrorPassesDistributionConformanceFromPeersAlone(t *testing.T) {
	if conformanceBin == "" {
		t.Fatal("SHOAL_CONFORMANCE_BIN not set: run `make test-integration`")
	}
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	im := pushImage(t, reg.Addr, "conformance/app", "v1", 8<<20, 64<<20)
	a.pull(im.Ref)
	var mirrors []string
	for i := range im.Data.Layers {
		_, addr := mirrorNode(t, fmt.Sprintf("B%d", i), []string{a.bootstrapAddr()}, fmt.Sprintf("  default_registry = %q", reg.Addr))
		mirrors = append(mirrors, addr)
	}
	a.waitAnnounced(len(im.Blobs) + 2)
	reg.stop()

	for i, layer := range im.Data.Layers {
		mirrorAddr := mirrors[i]
		reports := t.TempDir()
		cmd := exec.Command(conformanceBin)
		cmd.Dir = reports
		cmd.Env = append(os.Environ(),
			"OCI_ROOT_URL=http://"+mirrorAddr,
			"OCI_NAMESPACE="+im.Repo,
			"OCI_TEST_PULL=1", "OCI_TEST_PUSH=0", "OCI_TEST_CONTENT_DISCOVERY=0", "OCI_TEST_CONTENT_MANAGEMENT=0",
			"OCI_TAG_NAME=v1",
			"OCI_MANIFEST_DIGEST="+im.Manifest.Digest.String(),
			"OCI_BLOB_DIGEST="+layer.Desc.Digest.String(),
			"OCI_HIDE_SKIPPED_WORKFLOWS=1",
			"OCI_REPORT_DIR="+reports,
		)
		out, err := cmd.CombinedOutput()
		summary := regexpLast(string(out), `Ran \d+ of \d+ Specs.*`)
		t.Logf("conformance, blob of %d MiB: %s", layer.Desc.Size>>20, summary)
		if err != nil {
			t.Fatalf("conformance suite failed, blob of %d bytes: %v\n%s", layer.Desc.Size, err, tail(string(out), 60))
		}
		if !strings.Contains(string(out), "SUCCESS!") && !strings.Contains(string(out), "PASS") {
			t.Fatalf("conformance suite did not report success:\n%s", tail(string(out), 60))
		}
	}
}

// Ranges, and blobs asked for by digest before any manifest listed them,
// as lazy-pull snapshotters and `crane blob` ask: the mirror of a node that
// holds nothing answers them from a peer, piece by piece, stores none of
// it, and sends only the pieces a range covers.
func TestTheMirrorAnswersRangesAndBlobsByDigestFromPeers(t *testing.T) {
	reg := startRegistry(t)
	aMetrics, extra := metricsConfig(t)
	a := startNode(t, "A", nodeOptions{extra: extra})
	im := pushImage(t, reg.Addr, "mirror/ranges", "v1", 8<<20, 64<<20)
	a.pull(im.Ref)
	b, mirrorAddr := mirrorNode(t, "B", []string{a.bootstrapAddr()}, fmt.Sprintf("  default_registry = %q", reg.Addr))
	a.waitAnnounced(len(im.Blobs) + 2)

	get := func(dgst digest.Digest, method, rng string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, fmt.Sprintf("http://%s/v2/%s/blobs/%s", mirrorAddr, im.Repo, dgst), nil)
		if err != nil {
			t.Fatal(err)
		}
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("%s %s %q: body: %v", method, dgst, rng, err)
		}
		return resp, body
	}
	before := reg.blobRequests(im.Repo)
	servedBefore := metricValue(t, aMetrics, `containerd_p2p_served_bytes_total`)
	big := im.Data.Layers[1]
	size := big.Desc.Size
	for _, layer := range im.Data.Layers {
		resp, _ := get(layer.Desc.Digest, http.MethodHead, "")
		if resp.StatusCode != http.StatusOK || resp.ContentLength != layer.Desc.Size {
			t.Fatalf("HEAD of a layer of %d bytes no manifest listed yet: %d, %d bytes", layer.Desc.Size, resp.StatusCode, resp.ContentLength)
		}
	}
	// A few bytes near the end, as a lazy puller reads a footer first.
	resp, body := get(big.Desc.Digest, http.MethodGet, fmt.Sprintf("bytes=%d-%d", size-4096, size-1))
	if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(body, big.Data[size-4096:]) {
		t.Fatalf("the last 4 KiB: %d, %d bytes (want 206 and the layer's)", resp.StatusCode, len(body))
	}
	// Two ranges at once come back as two parts.
	resp, body = get(big.Desc.Digest, http.MethodGet, "bytes=0-99,1048576-1048675")
	if resp.StatusCode != http.StatusPartialContent || !strings.HasPrefix(resp.Header.Get("Content-Type"), "multipart/byteranges") ||
		!bytes.Contains(body, big.Data[:100]) || !bytes.Contains(body, big.Data[1<<20:1<<20+100]) {
		t.Fatalf("two ranges: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// Ranges past the end, or malformed: 416.
	for _, rng := range []string{fmt.Sprintf("bytes=%d-", size), "bytes=abc", "bytes=5-2"} {
		if resp, _ := get(big.Desc.Digest, http.MethodGet, rng); resp.StatusCode != http.StatusRequestedRangeNotSatisfiable {
			t.Fatalf("range %q: %d, want 416", rng, resp.StatusCode)
		}
	}
	// Most of the layer as one range, in bounded memory.
	sampler := sampleRSS(t, b.PID())
	lo, hi := int64(3<<20)+17, size-(5<<20)
	resp, body = get(big.Desc.Digest, http.MethodGet, fmt.Sprintf("bytes=%d-%d", lo, hi))
	growth := sampler()[0] << 10
	if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(body, big.Data[lo:hi+1]) {
		t.Fatalf("a %d MiB range: %d, %d bytes", (hi-lo)>>20, resp.StatusCode, len(body))
	}
	t.Logf("B's RSS grew by %d MiB while its mirror served a %d MiB range from a peer", growth>>20, (hi-lo)>>20)
	if growth > 16<<20 {
		t.Fatalf("B's RSS grew by %d MiB serving a %d MiB range: the mirror holds ranges in memory", growth>>20, (hi-lo)>>20)
	}
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("the registry got %d blob requests for what a peer holds, want 0", n)
	}
	// The peer sent the pieces the ranges cover, not the layer for each:
	// pieces as the swarm cuts a layer, at most 64 of at least 256 KiB.
	pieceSize := int64(256 << 10)
	for pieceSize < 4<<20 && pieceSize*64 < size {
		pieceSize *= 2
	}
	covered := map[int64]bool{}
	for _, r := range [][2]int64{{size - 4096, size - 1}, {0, 99}, {1 << 20, 1<<20 + 99}, {lo, hi}} {
		for i := r[0] / pieceSize; i <= r[1]/pieceSize; i++ {
			covered[i] = true
		}
	}
	if sent := int64(metricValue(t, aMetrics, `containerd_p2p_served_bytes_total`) - servedBefore); sent > int64(len(covered))*pieceSize {
		t.Fatalf("A sent %d bytes for ranges covering %d pieces of %d", sent, len(covered), pieceSize)
	}

	// Whole, by digest alone, with the registry down: verified, any size.
	reg.stop()
	for _, layer := range im.Data.Layers {
		resp, body := get(layer.Desc.Digest, http.MethodGet, "")
		if resp.StatusCode != http.StatusOK || digest.FromBytes(body) != layer.Desc.Digest {
			t.Fatalf("GET of a %d-byte layer by digest alone: %d, %d bytes", layer.Desc.Size, resp.StatusCode, len(body))
		}
	}
	// None of it was stored.
	if out := b.ctr("-n", "shoal-mirror", "content", "ls", "-q"); strings.Contains(out, big.Desc.Digest.Encoded()) {
		t.Fatalf("the mirror stored a layer it was asked ranges of:\n%s", out)
	}
	// What no peer holds: 404, and the client goes to the registry.
	if resp, _ := get(digest.FromString("nobody holds this"), http.MethodGet, "bytes=0-9"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a range of a blob nobody holds: %d, want 404", resp.StatusCode)
	}
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// The mirror streams a layer while it arrives and never holds it whole in
// memory: serving a 1 GiB layer to a client-side pull grows containerd's
// RSS by far less than the layer.
func TestTheMirrorServesALargeLayerInBoundedMemory(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b, _ := mirrorNode(t, "B", []string{a.bootstrapAddr()}, "")
	im := pushImage(t, reg.Addr, "mirror/large", "v1", 1<<30)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)

	before := reg.blobRequests(im.Repo)
	sampler := sampleRSS(t, b.PID())
	b.ctr("image", "pull", "--local", "--plain-http", "--hosts-dir", filepath.Join(b.Dir(), "certs.d"), im.Ref)
	growth := sampler()[0] << 10
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B's client-side pull made %d upstream blob requests, want 0", n)
	}
	t.Logf("B's RSS grew by %d MiB while its mirror served a 1 GiB layer", growth>>20)
	if growth > 256<<20 {
		t.Fatalf("B's RSS grew by %d MiB while serving a 1 GiB layer: the mirror holds layers in memory", growth>>20)
	}
}

// A local process cannot make containerd (root) send requests to a host the
// operator did not name: the mirror refuses an ns outside mirror_registries
// without any connection, and answers for one inside it.
func TestTheMirrorSpeaksOnlyForTheRegistriesItMirrors(t *testing.T) {
	named := startRegistry(t)
	other := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: fmt.Sprintf("  mirror_address = %q\n  mirror_registries = [%q]\n  registry_config_path = \"\"\n", addr, named.Addr)})
	_ = b
	im := pushImage(t, named.Addr, "mirror/named", "v1", 1<<20)
	om := pushImage(t, other.Addr, "mirror/other", "v1", 1<<20)
	get := func(reg, repo string) int {
		resp, err := http.Get(fmt.Sprintf("http://%s/v2/%s/manifests/v1?ns=%s", addr, repo, reg))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	otherBefore := other.countRequests(func(string) bool { return true })
	if code := get(other.Addr, om.Repo); code != http.StatusNotFound {
		t.Fatalf("a tag of a registry that is not mirrored: %d, want 404", code)
	}
	if n := other.countRequests(func(string) bool { return true }) - otherBefore; n != 0 {
		t.Fatalf("the mirror sent %d requests to a registry it does not mirror", n)
	}
	// Positive control: the named registry is asked and the tag answered.
	if code := get(named.Addr, im.Repo); code != http.StatusOK {
		t.Fatalf("a tag of the mirrored registry: %d, want 200", code)
	}
}
