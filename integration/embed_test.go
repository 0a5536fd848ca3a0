package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildContainerdsOwnMain builds what a distribution builds: containerd's
// own cmd/containerd/main.go, of the line under test, with one more import,
// Shoal's builtins, and nothing else. The file is placed in the module by a
// build overlay (nothing is written to the source tree), so it builds with
// the module's own dependencies, as a distribution's main would with its.
func buildContainerdsOwnMain(t *testing.T) string {
	t.Helper()
	line := lines[containerdLine(t)]
	out, err := goCmd(t, append(append([]string{"list"}, line.flags...),
		"-f", "{{.Dir}}", "github.com/containerd/containerd/v2/cmd/containerd")...).CombinedOutput()
	if err != nil {
		t.Fatalf("find containerd's main: %v\n%s", err, out)
	}
	stock, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	const theirs = "\t_ \"github.com/containerd/containerd/v2/cmd/containerd/builtins\"\n"
	if !strings.Contains(string(stock), theirs) {
		t.Fatalf("containerd's main.go does not import its builtins as expected:\n%s", stock)
	}
	main := strings.Replace(string(stock), theirs, theirs+"\t_ \"github.com/shoal-dev/shoal/builtins\"\n", 1)

	tmp := t.TempDir()
	src := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(src, []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgDir := filepath.Join(moduleRoot(t), "internal", "embedtest")
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(pkgDir, "main.go"): src}})
	overlayPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlayPath, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "containerd")
	args := append([]string{"build"}, line.flags...)
	args = append(args, "-overlay", overlayPath, "-trimpath", "-tags", "no_btrfs,no_zfs,no_devmapper"+line.tags,
		"-ldflags", "-s -w -X github.com/containerd/containerd/v2/version.Version="+containerdVersion(t)+"+embedded",
		"-o", bin, "./internal/embedtest")
	if out, err := goCmd(t, args...).CombinedOutput(); err != nil {
		t.Fatalf("build containerd's main plus Shoal's builtins: %v\n%s", err, out)
	}
	return bin
}

// A distribution adds one import line to containerd's own main
// and gets the P2P plugin and the wrapped transfer service: a plain
// `ctr image pull` through that binary gets every blob from a peer.
func TestContainerdsOwnMainPlusOneImportPullsFromPeers(t *testing.T) {
	requireEnv(t)
	bin := buildContainerdsOwnMain(t)
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{binary: bin})
	b := startNode(t, "B", nodeOptions{binary: bin, bootstrap: []string{a.bootstrapAddr()}})
	for name, n := range map[string]*node{"A": a, "B": b} {
		if status := n.plugins()["io.containerd.server.v1.p2p"]; status != "ok" {
			t.Fatalf("%s: p2p plugin status %q, want ok", name, status)
		}
	}
	im := pushImage(t, reg.Addr, "embed/peer", "v1", 3<<20, 5<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)

	before := reg.blobRequests(im.Repo)
	b.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B's pull made %d upstream blob requests, want 0: the wrapped transfer service must fetch from A", n)
	}
	out := b.ctr("content", "ls", "-q")
	for _, blob := range append(im.Blobs, im.Manifest) {
		if !strings.Contains(out, blob.Digest.String()) {
			t.Fatalf("B lacks %s after the pull", blob.Digest)
		}
	}
}
