package integration

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/integration/cluster"
)

// stargzBinDir holds stargz-grpc (the stargz snapshotter as a proxy
// snapshotter) and sgz (its eStargz converter, and a lazy pull as
// ctr-remote makes it), built from the snapshotter's Go module.
var stargzBinDir = os.Getenv("SHOAL_STARGZ_BIN_DIR")

// readHead is the program the lazily pulled container runs: it prints the
// sha256 of the first 4 KiB of the file it is given.
const readHead = `package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
)

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	b := make([]byte, 4096)
	if _, err := io.ReadFull(f, b); err != nil {
		panic(err)
	}
	fmt.Printf("head %x\n", sha256.Sum256(b))
}
`

// A container started by the stargz snapshotter, lazily, through the
// loopback mirror: the ranges it reads of an image a peer holds come from
// that peer (no registry request), and far less than the image is
// fetched; ranges of an image no peer holds come from the registry, and
// again only those.
func TestALazyPullTakesOnlyItsRangesAndFromAPeerThatHoldsThem(t *testing.T) {
	if stargzBinDir == "" {
		t.Fatal("SHOAL_STARGZ_BIN_DIR not set: run `make test-integration`")
	}
	reg := startRegistry(t)
	// Two eStargz images, made with the snapshotter's own converter on a
	// stock containerd outside the peer network, and pushed.
	builder := startNode(t, "builder", nodeOptions{binary: filepath.Join(binDir, "containerd-stock")})
	prog := buildStatic(t, readHead)
	var refs []string
	var bigs [][]byte
	for i := range 2 {
		big := make([]byte, 48<<20)
		rand.Read(big)
		src := pushFilesImage(t, reg.Addr, fmt.Sprintf("lazy/src%d", i), "v1",
			[]cluster.File{{Name: "read-head", Mode: 0o755, Data: prog}},
			[]cluster.File{{Name: "data/big.bin", Mode: 0o644, Data: big}})
		builder.pull(src.Ref)
		ref := fmt.Sprintf("%s/lazy/app%d:esgz", reg.Addr, i)
		sgz(t, builder, "convert", src.Ref, ref)
		builder.ctr("image", "push", "--plain-http", ref)
		refs, bigs = append(refs, ref), append(bigs, big)
	}
	layers := make([]int64, 2) // the eStargz layers' sizes, per image
	for i, ref := range refs {
		for _, l := range manifestOf(t, reg.Addr, ref).Layers {
			layers[i] += l.Size
		}
	}

	// H holds the first image, pulled as any node pulls; B starts both
	// lazily.
	hMetrics, hExtra := metricsConfig(t)
	h := startNode(t, "H", nodeOptions{extra: hExtra})
	h.pull(refs[0])
	b, mirrorAddr := lazyNode(t, "B", h.bootstrapAddr(), reg.Addr)
	h.waitAnnounced(4)

	for i, ref := range refs {
		repo := fmt.Sprintf("lazy/app%d", i)
		before, beforeBytes := reg.blobRequests(repo), registryBytes(reg, repo)
		served := metricValue(t, hMetrics, `containerd_p2p_served_bytes_total`)
		sgz(t, b, "-mirror", mirrorAddr, "rpull", ref)
		out := b.ctr("run", "--rm", "--snapshotter", "stargz", ref, fmt.Sprintf("lazy%d", i), "/read-head", "/data/big.bin")
		want := sha256.Sum256(bigs[i][:4096])
		if !strings.Contains(out, "head "+hex.EncodeToString(want[:])) {
			t.Fatalf("the lazily started container printed %q, want the digest of the file's first 4 KiB", out)
		}
		fromRegistry, fromRegistryBytes := reg.blobRequests(repo)-before, registryBytes(reg, repo)-beforeBytes
		fromPeer := int64(metricValue(t, hMetrics, `containerd_p2p_served_bytes_total`) - served)
		t.Logf("image %d (%d MiB of layers): %d registry blob requests, %d KiB; %d KiB from the peer", i, layers[i]>>20, fromRegistry, fromRegistryBytes>>10, fromPeer>>10)
		switch i {
		case 0: // a peer holds it
			if fromRegistry != 0 {
				t.Fatalf("a lazy start of an image a peer holds made %d registry blob requests, want 0", fromRegistry)
			}
			if fromPeer == 0 || fromPeer > layers[i]/2 {
				t.Fatalf("the peer sent %d bytes of %d: want the ranges read, not the layers", fromPeer, layers[i])
			}
		case 1: // no peer holds it
			if fromRegistry == 0 || fromRegistryBytes > layers[i]/2 {
				t.Fatalf("the registry sent %d bytes of %d in %d requests: want the ranges read, not the layers", fromRegistryBytes, layers[i], fromRegistry)
			}
		}
	}
}

// lazyNode is a mirror node with the stargz snapshotter as a proxy
// snapshotter, whose resolver asks the node's loopback mirror before the
// registry. Background fetching of whole layers is off: a lazy pull takes
// what the container reads.
func lazyNode(t *testing.T, name, bootstrap, registry string) (*node, string) {
	t.Helper()
	dir := shortTempDir(t, "sgz-")
	mirrorAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	config := filepath.Join(dir, "config.toml")
	os.WriteFile(config, []byte(fmt.Sprintf(`no_background_fetch = true
no_prometheus = true
[[resolver.host.%q.mirrors]]
host = %q
insecure = true
`, registry, mirrorAddr)), 0o644)
	socket := filepath.Join(dir, "stargz.sock")
	root := filepath.Join(dir, "root")
	startProcess(t, filepath.Join(dir, "stargz.log"), filepath.Join(stargzBinDir, "stargz-grpc"), "-address", socket, "-config", config, "-root", root)
	t.Cleanup(func() { unmountUnder(t, root) })
	waitFor(t, 15*time.Second, "the stargz snapshotter to listen", func() bool {
		_, err := os.Stat(socket)
		return err == nil
	})
	n := newNode(t, name, nodeOptions{bootstrap: []string{bootstrap}, extra: fmt.Sprintf(`  mirror_address = %q
  mirror_registries = ["_default"]
[proxy_plugins.stargz]
  type = "snapshot"
  address = %q
`, mirrorAddr, socket)})
	n.start()
	n.waitReady()
	return n, mirrorAddr
}

// unmountUnder lazily unmounts what a stopped snapshotter left mounted
// under root, deepest first.
func unmountUnder(t *testing.T, root string) {
	data, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		t.Error(err)
		return
	}
	lines := strings.Split(string(data), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		f := strings.Fields(lines[i])
		if len(f) > 1 && strings.HasPrefix(f[1], root) {
			exec.Command("umount", "-l", f[1]).Run()
		}
	}
}

// sgz runs the stargz tool against n's containerd.
func sgz(t *testing.T, n *node, args ...string) {
	t.Helper()
	out, err := exec.Command(filepath.Join(stargzBinDir, "sgz"), append([]string{"-a", n.Socket}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("sgz %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// buildStatic builds a static Linux program from one Go source file.
func buildStatic(t *testing.T, source string) []byte {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	os.WriteFile(src, []byte(source), 0o644)
	bin := filepath.Join(dir, "prog")
	cmd := exec.Command("go", "build", "-o", bin, src)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=", "GO111MODULE=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// pushFilesImage pushes an image of the given layers' files.
func pushFilesImage(t *testing.T, addr, repo, tag string, layers ...[]cluster.File) testImage {
	t.Helper()
	im, err := cluster.FilesImage(layers...)
	if err != nil {
		t.Fatal(err)
	}
	return pushBuilt(t, addr, repo, tag, func(ref string, im *cluster.Image) error { return im.Push(t.Context(), ref, "", "") }, im)
}

// manifestOf reads ref's manifest from the registry.
func manifestOf(t *testing.T, addr, ref string) ocispec.Manifest {
	t.Helper()
	name, tag, _ := strings.Cut(strings.TrimPrefix(ref, addr+"/"), ":")
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("http://%s/v2/%s/manifests/%s", addr, name, tag), nil)
	req.Header.Set("Accept", ocispec.MediaTypeImageManifest)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m ocispec.Manifest
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// registryBytes is what the registry sent of repo's blobs.
func registryBytes(u *upstream, repo string) int64 {
	_, b := u.served(func(path string) bool { return strings.HasPrefix(path, "/v2/"+repo+"/blobs/") })
	return b
}
