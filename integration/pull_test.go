package integration

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	runtime "k8s.io/cri-api/pkg/apis/runtime/v1"
)

func TestBinaryNamesVersionsAndDefaultConfig(t *testing.T) {
	requireEnv(t)
	out, err := exec.Command(filepath.Join(binDir, "containerd"), "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("--version: %v\n%s", err, out)
	}
	if v := containerdVersion(t); !strings.Contains(string(out), v) || !strings.Contains(string(out), "shoal") {
		t.Fatalf("--version must name containerd %s and Shoal: %q", v, out)
	}
	out, err = exec.Command(filepath.Join(binDir, "containerd"), "config", "default").CombinedOutput()
	if err != nil {
		t.Fatalf("config default: %v\n%s", err, out)
	}
	for _, want := range []string{"[plugins.'io.containerd.server.v1.p2p']", "listen_addresses", "bootstrap_peers", "lookup_timeout"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("config default lacks %q", want)
		}
	}
}

func TestLoadsEveryStockPluginWithTheSameStatusPlusP2P(t *testing.T) {
	stock := startNode(t, "stock", nodeOptions{binary: filepath.Join(binDir, "containerd-stock")})
	ours := startNode(t, "shoal", nodeOptions{})
	want, got := stock.plugins(), ours.plugins()
	if len(want) < 20 {
		t.Fatalf("stock containerd lists only %d plugins: %v", len(want), want)
	}
	for id, status := range want {
		if got[id] != status {
			t.Errorf("plugin %s: stock %q, shoal %q", id, status, got[id])
		}
	}
	for id := range got {
		if _, ok := want[id]; !ok && id != "io.containerd.server.v1.p2p" {
			t.Errorf("plugin %s is not in stock containerd", id)
		}
	}
	if got["io.containerd.server.v1.p2p"] != "ok" {
		t.Fatalf("p2p plugin status %q, want ok", got["io.containerd.server.v1.p2p"])
	}
}

// A node pulls with plain `ctr image pull` (transfer service, no hosts.toml)
// what another node holds, without one blob request to the upstream; also
// when the registry wants bearer tokens, as public registries do.
func TestCtrPullOfImageAPeerHoldsMakesNoUpstreamBlobRequests(t *testing.T) {
	forEachRegistry(t, []registryKind{plainRegistryKind, tokenRegistryKind}, testCtrPullOfImageAPeerHolds)
}

func testCtrPullOfImageAPeerHolds(t *testing.T, reg *testRegistry) {
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	_ = startNode(t, "C", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := reg.push(t, "public/peer-ctr", "v1", 3<<20, 9<<20, 1<<20)

	pushed := reg.blobRequests(im.Repo) // the push's own existence checks
	a.ctr(reg.pullArgs(im.Ref, false)...)
	if n := reg.blobRequests(im.Repo) - pushed; n != len(im.Blobs) {
		t.Fatalf("A's pull made %d upstream blob requests, want %d (one per blob)", n, len(im.Blobs))
	}
	a.waitAnnounced(len(im.Blobs) + 1)

	before := reg.blobRequests(im.Repo)
	manifestsBefore := reg.manifestByDigestRequests(im.Repo)
	b.ctr(reg.pullArgs(im.Ref, false)...)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B's pull made %d upstream blob requests, want 0: content must come from A", n)
	}
	if n := reg.manifestByDigestRequests(im.Repo) - manifestsBefore; n != 0 {
		t.Fatalf("B fetched the manifest by digest upstream %d times, want 0 (only the tag is resolved upstream)", n)
	}
	// B's copy is complete and verified: containerd checked every digest at commit.
	out := b.ctr("content", "ls", "-q")
	for _, blob := range append(im.Blobs, im.Manifest) {
		if !strings.Contains(out, blob.Digest.String()) {
			t.Fatalf("B lacks %s after the pull", blob.Digest)
		}
	}
}

// The reason the mirror is inside containerd: a CRI pull issued the moment a
// fresh node's socket appears, with no CNI at all, is served by peers.
func TestCRIPullOnFreshNodeAtBootIsServedByPeers(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	_ = startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := pushImage(t, reg.Addr, "peer/cri", "v1", 4<<20, 6<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)
	before := reg.blobRequests(im.Repo)

	c := newNode(t, "C", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	if entries, _ := os.ReadDir(filepath.Join(c.Dir(), "cni")); len(entries) > 0 {
		t.Fatal("test node must have no CNI configuration")
	}
	started := time.Now()
	c.start()
	waitFor(t, 30*time.Second, "C's socket", func() bool {
		_, err := os.Stat(c.Socket)
		return err == nil
	})
	socketUp := time.Since(started)

	images := c.criImages()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	resp, err := images.PullImage(ctx, &runtime.PullImageRequest{Image: &runtime.ImageSpec{Image: im.Ref}},
		grpc.WaitForReady(true))
	if err != nil {
		t.Fatalf("CRI PullImage: %v", err)
	}
	t.Logf("C: socket up %s after exec, CRI pull done %s after exec (image %s)", socketUp.Round(time.Millisecond),
		time.Since(started).Round(time.Millisecond), resp.ImageRef)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("C's CRI pull made %d upstream blob requests, want 0", n)
	}
	if !strings.Contains(c.ctr("-n", "k8s.io", "image", "ls", "-q"), im.Ref) {
		t.Fatal("CRI image not stored in namespace k8s.io")
	}
}

func TestImageNoPeerHoldsIsPulledFromUpstream(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	_ = startNode(t, "C", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	held := pushImage(t, reg.Addr, "peer/held", "v1", 1<<20)
	a.pull(held.Ref)

	// Six layers over 4 MiB, each with its own order by nearness to its
	// key: B comes after A or C in most of them.
	fresh := pushImage(t, reg.Addr, "peer/fresh", "v1", 2<<20, 5<<20, 5<<20, 5<<20, 5<<20, 5<<20, 5<<20)
	pushed := reg.blobRequests(fresh.Repo)
	b.pull(fresh.Ref)
	if n := reg.blobRequests(fresh.Repo) - pushed; n != len(fresh.Blobs) {
		t.Fatalf("B's pull of an image nobody holds made %d upstream blob requests, want %d", n, len(fresh.Blobs))
	}
	// A and C pull nothing from the repository: B waits for neither, and
	// takes every layer from the upstream at once.
	if lone := b.counter("lone_misses"); lone != 6 {
		t.Fatalf("B took %d of 6 layers from the upstream at once, as lone misses, while no other node pulled", lone)
	}
}

func TestPullFallsBackToUpstreamWhenTheOnlyPeerIsGone(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	_ = startNode(t, "C", nodeOptions{})
	im := pushImage(t, reg.Addr, "peer/gone", "v1", 3<<20, 3<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)
	a.stop()

	before := reg.blobRequests(im.Repo)
	start := time.Now()
	if out, err := b.ctrErr(90*time.Second, "image", "pull", "--plain-http", im.Ref); err != nil {
		t.Fatalf("B's pull with its only peer gone: %v\n%s", err, out)
	}
	t.Logf("B pulled from upstream in %s with its only peer stopped", time.Since(start).Round(time.Millisecond))
	if n := reg.blobRequests(im.Repo) - before; n != len(im.Blobs) {
		t.Fatalf("B made %d upstream blob requests, want %d", n, len(im.Blobs))
	}
}

func TestRestartedNodeKeepsItsPeerIDAndIsFoundAgain(t *testing.T) {
	reg := startRegistry(t)
	a := newNode(t, "A", nodeOptions{})
	b := newNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	if err := a.SetBootstrap([]string{b.bootstrapAddr()}); err != nil {
		t.Fatal(err)
	}
	a.start()
	a.waitReady()
	b.start()
	b.waitReady()

	im := pushImage(t, reg.Addr, "peer/restart", "v1", 2<<20, 2<<20)
	a.pull(im.Ref)
	id := a.peerID()
	a.restart()
	if again := a.peerID(); again != id {
		t.Fatalf("peer ID changed across restart: %s then %s", id, again)
	}
	a.waitAnnounced(len(im.Blobs) + 1)

	// Only A holds the image; a new node must find it there.
	c := startNode(t, "C", nodeOptions{bootstrap: []string{b.bootstrapAddr()}})
	before := reg.blobRequests(im.Repo)
	c.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("C made %d upstream blob requests after A restarted, want 0", n)
	}
}

func TestPeerBytesTakeTheDirectDataPathOrLibp2pStreamsWithoutIt(t *testing.T) {
	reg := startRegistry(t)
	aMetrics, aExtra := metricsConfig(t)
	dMetrics, dExtra := metricsConfig(t)
	a := startNode(t, "A", nodeOptions{extra: aExtra})
	d := startNode(t, "D", nodeOptions{extra: dExtra, dataAddress: "off", bootstrap: []string{a.bootstrapAddr()}})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr(), d.bootstrapAddr()}})
	viaDirect := pushImage(t, reg.Addr, "path/direct", "v1", 8<<20)
	viaStreams := pushImage(t, reg.Addr, "path/streams", "v1", 8<<20)
	a.pull(viaDirect.Ref)
	d.pull(viaStreams.Ref)
	a.waitAnnounced(len(viaDirect.Blobs) + 2)
	d.waitAnnounced(len(viaStreams.Blobs) + 2)

	for _, im := range []testImage{viaDirect, viaStreams} {
		before := reg.blobRequests(im.Repo)
		b.pull(im.Ref)
		if got := reg.blobRequests(im.Repo) - before; got != 0 {
			t.Fatalf("B's pull of %s made %d upstream blob requests, want 0", im.Repo, got)
		}
	}
	layer := viaDirect.largest().Size
	if got := metricValue(t, aMetrics, `containerd_p2p_direct_path_sent_bytes_total`); int64(got) < layer {
		t.Errorf("A sent %v bytes on the direct path, want at least its %d-byte layer", got, layer)
	}
	if got := metricValue(t, dMetrics, `containerd_p2p_direct_path_sent_bytes_total`); got != 0 {
		t.Errorf("D, without a data_address, sent %v bytes on a direct path", got)
	}
	if got := metricValue(t, dMetrics, `containerd_p2p_served_bytes_total`); int64(got) < viaStreams.largest().Size {
		t.Errorf("D served %v bytes over libp2p streams, want at least its layer", got)
	}
}

func TestALargeLayerHeldByThreePeersComesFromAllThree(t *testing.T) {
	reg := startRegistry(t)
	var holders []*node
	var metrics []string
	for _, name := range []string{"A", "B", "C"} {
		addr, extra := metricsConfig(t)
		opts := nodeOptions{extra: extra}
		if len(holders) > 0 {
			opts.bootstrap = []string{holders[0].bootstrapAddr()}
		}
		holders = append(holders, startNode(t, name, opts))
		metrics = append(metrics, addr)
	}
	im := pushImage(t, reg.Addr, "ranges/app", "v1", 64<<20)
	for _, h := range holders {
		h.pull(im.Ref)
		h.waitAnnounced(len(im.Blobs) + 1)
	}
	d := startNode(t, "D", nodeOptions{bootstrap: []string{holders[0].bootstrapAddr()}})
	before := make([]float64, len(holders))
	for i, m := range metrics {
		before[i] = metricValue(t, m, `containerd_p2p_served_bytes_total`)
	}
	upstream := reg.blobRequests(im.Repo)
	d.pull(im.Ref)
	if got := reg.blobRequests(im.Repo) - upstream; got != 0 {
		t.Fatalf("D made %d upstream blob requests, want 0", got)
	}
	var total float64
	for i, m := range metrics {
		served := metricValue(t, m, `containerd_p2p_served_bytes_total`) - before[i]
		total += served
		if served < 4<<20 {
			t.Errorf("%s served D %.0f bytes, want at least one 4 MiB range of the layer", holders[i].name, served)
		}
	}
	if layer := float64(im.largest().Size); total < layer || total > 1.1*layer {
		t.Errorf("holders served %.0f bytes in all for a %.0f-byte layer", total, layer)
	}
}

// A node with serve_in_flight = false takes layers from peers all the same
// (by pieces, from holders of all of them), and serves them once committed.
func TestANodeThatServesNothingInFlightStillPullsFromPeersAndServesWhatItHolds(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: "  serve_in_flight = false"})
	im := pushImage(t, reg.Addr, "pull/no-in-flight", "v1", 12<<20, 6<<20, 1<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)

	before := reg.blobRequests(im.Repo)
	b.pull(im.Ref)
	b.requireIntact(im)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B's pull made %d upstream blob requests, want 0: its layers must come from A", n)
	}
	b.waitAnnounced(len(im.Blobs) + 1)

	// A leaves: C takes the image from B alone.
	a.stop()
	c := startNode(t, "C", nodeOptions{bootstrap: []string{b.bootstrapAddr()}})
	before = reg.blobRequests(im.Repo)
	c.pull(im.Ref)
	c.requireIntact(im)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("C's pull made %d upstream blob requests, want 0: B serves what it committed", n)
	}
}
