package integration

import (
	"testing"
	"time"
)

// An operator's upload cap holds for everything a node serves: a peer
// pulling a 256 MiB layer from a node capped at 20 MB/s receives it at no
// more than that, and correctly.
func TestAnUploadCapPacesWhatANodeServes(t *testing.T) {
	reg := startRegistry(t)
	const capBytes = 20_000_000
	a := startNode(t, "A", nodeOptions{extra: "  max_upload_bytes_per_second = 20000000\n"})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := pushImage(t, reg.Addr, "controls/capped", "v1", 256<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)

	before := reg.blobRequests(im.Repo)
	start := time.Now()
	b.pull(im.Ref)
	took := time.Since(start)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B made %d upstream blob requests: the capped node must still serve, only slower", n)
	}
	size := im.largest().Size
	rate := float64(size) / took.Seconds()
	t.Logf("B received %d MiB from the capped node in %s: %.1f MB/s (cap %.0f MB/s)", size>>20, took.Round(time.Millisecond), rate/1e6, capBytes/1e6)
	if rate > 21e6 {
		t.Fatalf("B received at %.1f MB/s from a node capped at 20 MB/s", rate/1e6)
	}
}

// A node with serve_peers = false fetches from peers but is never a
// provider: once the only node that serves is gone, the next node goes
// upstream for every blob, though the quiet node holds them all.
func TestANodeThatDoesNotServePeersIsNeverAProvider(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	quiet := startNode(t, "quiet", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: "  serve_peers = false\n"})
	im := pushImage(t, reg.Addr, "controls/quiet", "v1", 4<<20, 1<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)

	before := reg.blobRequests(im.Repo)
	quiet.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("the quiet node made %d upstream blob requests: it must still fetch from peers", n)
	}

	c := startNode(t, "C", nodeOptions{bootstrap: []string{quiet.bootstrapAddr()}})
	a.stop()
	waitFor(t, 30*time.Second, "C to join the network through the quiet node", func() bool { return c.connectedPeers() >= 1 })
	before = reg.blobRequests(im.Repo)
	c.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != len(im.Blobs) {
		t.Fatalf("C made %d upstream blob requests, want %d: the quiet node served some", n, len(im.Blobs))
	}
}
