package integration

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
// from peers.
func TestLoopbackMirrorPassesDistributionConformanceFromPeersAlone(t *testing.T) {
	if conformanceBin == "" {
		t.Skip("SHOAL_CONFORMANCE_BIN not set: run `make test-integration`")
	}
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	im := pushImage(t, reg.Addr, "conformance/app", "v1", 2<<20, 1<<20)
	a.pull(im.Ref)
	_, mirrorAddr := mirrorNode(t, "B", []string{a.bootstrapAddr()}, fmt.Sprintf("  default_registry = %q", reg.Addr))
	a.waitAnnounced(len(im.Blobs) + 2)
	reg.stop()

	reports := t.TempDir()
	cmd := exec.Command(conformanceBin)
	cmd.Dir = reports
	cmd.Env = append(os.Environ(),
		"OCI_ROOT_URL=http://"+mirrorAddr,
		"OCI_NAMESPACE="+im.Repo,
		"OCI_TEST_PULL=1", "OCI_TEST_PUSH=0", "OCI_TEST_CONTENT_DISCOVERY=0", "OCI_TEST_CONTENT_MANAGEMENT=0",
		"OCI_TAG_NAME=v1",
		"OCI_MANIFEST_DIGEST="+im.Manifest.Digest.String(),
		"OCI_BLOB_DIGEST="+im.largest().Digest.String(),
		"OCI_HIDE_SKIPPED_WORKFLOWS=1",
		"OCI_REPORT_DIR="+reports,
	)
	out, err := cmd.CombinedOutput()
	summary := regexpLast(string(out), `Ran \d+ of \d+ Specs.*`)
	t.Logf("conformance: %s", summary)
	if err != nil {
		t.Fatalf("conformance suite failed: %v\n%s", err, tail(string(out), 60))
	}
	if !strings.Contains(string(out), "SUCCESS!") && !strings.Contains(string(out), "PASS") {
		t.Fatalf("conformance suite did not report success:\n%s", tail(string(out), 60))
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
