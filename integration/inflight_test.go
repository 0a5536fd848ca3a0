package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/client"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/control"
)

// wanLab is a lab of hosts whose registry sends at most 50 MB/s (tbf on
// the bridge shapes only what the registry sends): enough time for other
// nodes to start the same pull while the first is still receiving.
func wanLab(t *testing.T, hosts int) (*netLab, *upstream) {
	lab := newNetLab(t, hosts)
	reg := lab.registry()
	run(t, "tc", "qdisc", "add", "dev", lab.bridge, "root", "tbf", "rate", "400mbit", "burst", "1mb", "latency", "100ms")
	return lab, reg
}

// waitReceiving waits until n has written at least min bytes of layer d
// into its content store, and not all of them.
func (n *node) waitReceiving(d ocispec.Descriptor, min int64) {
	n.t.Helper()
	waitFor(n.t, 30*time.Second, fmt.Sprintf("%s to be part-way (%d bytes) through %s", n.name, min, d.Digest), func() bool {
		c, err := client.New(n.Socket)
		if err != nil {
			return false
		}
		defer c.Close()
		active, _ := c.ContentStore().ListStatuses(namespaces.WithNamespace(context.Background(), "default"))
		for _, st := range active {
			// containerd's own ingest, or the fetcher's (p2p-...).
			if strings.Contains(st.Ref, d.Digest.String()) && st.Offset >= min && st.Offset < d.Size {
				return true
			}
		}
		return false
	})
}

// connectedPeers is what `shoal status` says.
func (n *node) connectedPeers() int {
	st, _ := n.status()
	return st.ConnectedPeers
}

// status is what `shoal status --json` says of the node.
func (n *node) status() (control.Status, error) {
	var st control.Status
	out, err := n.shoal("status", "--json")
	if err != nil {
		return st, fmt.Errorf("shoal status: %w\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		return st, fmt.Errorf("status JSON: %w\n%s", err, out)
	}
	return st, nil
}

func TestALaterPullStreamsFromANodeStillDownloading(t *testing.T) {
	lab, reg := wanLab(t, 2)
	a := lab.node(1, "A", nodeOptions{})
	b := lab.node(2, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := pushImage(t, reg.Addr, "inflight/later", "v1", 128<<20) // ≈2.7 s at 50 MB/s
	layer := im.largest()

	aDone := make(chan error, 1)
	go func() {
		_, err := a.Ctr(2*time.Minute, "image", "pull", "--plain-http", im.Ref)
		aDone <- err
	}()
	// B starts once A has the layer partly.
	a.waitReceiving(layer, layer.Size/8)
	b.pull(im.Ref)
	if err := <-aDone; err != nil {
		t.Fatalf("A's pull: %v", err)
	}
	if got := reg.blobRequests(im.Repo); got != 2 { // A's config and layer
		t.Errorf("upstream answered %d blob requests, want 2 (A's config and layer): B should have streamed the layer from A", got)
	}
	if copies := float64(reg.blobBytes(layer.Digest)) / float64(layer.Size); copies > 1.01 {
		t.Errorf("upstream sent %.2f copies of the layer, want 1", copies)
	}
	if !b.logContains("fetched from peer") {
		t.Error("B logged no fetch from a peer")
	}
}

func TestFiveNodesPullingTheSameNewImageAtOnceFetchItUpstreamAboutOnce(t *testing.T) {
	const nodes = 5
	lab, reg := wanLab(t, nodes)
	first := lab.node(1, "n1", nodeOptions{})
	all := []*node{first}
	for i := 2; i <= nodes; i++ {
		all = append(all, lab.node(i, fmt.Sprintf("n%d", i), nodeOptions{bootstrap: []string{first.bootstrapAddr()}}))
	}
	// Let them all meet: a node asks those nearest a layer's key whether they pull it.
	waitFor(t, 30*time.Second, "every node to connect to every other", func() bool {
		for _, n := range all {
			if n.connectedPeers() < nodes-1 {
				return false
			}
		}
		return true
	})
	im := pushImage(t, reg.Addr, "inflight/rollout", "v1", 64<<20, 64<<20)

	var wg sync.WaitGroup
	errs := make([]error, nodes)
	for i, n := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = n.Ctr(3*time.Minute, "image", "pull", "--plain-http", im.Ref)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("n%d's pull: %v", i+1, err)
		}
	}
	var layerBytes, layerSizes int64
	for _, l := range im.Data.Layers {
		layerBytes += reg.blobBytes(l.Desc.Digest)
		layerSizes += l.Desc.Size
	}
	copies := float64(layerBytes) / float64(layerSizes)
	t.Logf("upstream sent %.2f copies of the layers for %d simultaneous pulls", copies, nodes)
	if copies > 1.4 {
		t.Fatalf("upstream sent %.2f copies of the layers for %d simultaneous pulls, want at most 1.4", copies, nodes)
	}
}

func TestAFollowerFinishesUpstreamWhenTheNodeItFollowsDies(t *testing.T) {
	lab, reg := wanLab(t, 2)
	a := lab.node(1, "A", nodeOptions{})
	b := lab.node(2, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := pushImage(t, reg.Addr, "inflight/leaderdies", "v1", 128<<20)
	layer := im.largest()

	aDone := a.pullAsync(im.Ref, 2*time.Minute)
	a.waitReceiving(layer, layer.Size/16)
	bDone := b.pullAsync(im.Ref, 2*time.Minute)
	waitFor(t, 30*time.Second, "B to be streaming the layer from A", func() bool {
		off, _ := b.ingestProgress(layer.Digest)
		return off > 0
	})
	if err := a.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-aDone
	if err := <-bDone; err != nil {
		t.Fatalf("B's pull after the node it followed died: %v", err)
	}
	b.requireIntact(im)
	// A's part, then B's rest from the offset it had reached.
	copies := float64(reg.blobBytes(layer.Digest)) / float64(layer.Size)
	t.Logf("upstream sent %.2f copies of the layer", copies)
	if copies > 2.01 {
		t.Errorf("upstream sent %.2f copies of the layer, want at most A's part plus B's rest", copies)
	}
}
