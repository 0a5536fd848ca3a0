package integration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/client"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// blobPath is where a node's content store keeps a blob.
func (n *node) blobPath(d digest.Digest) string {
	return filepath.Join(n.Dir(), "root", "io.containerd.content.v1.content", "blobs", d.Algorithm().String(), d.Encoded())
}

// requireIntact checks, from the node's disk, that every blob of im is
// stored and matches its digest, and that no partial ingest is left.
func (n *node) requireIntact(im testImage) {
	n.t.Helper()
	for _, b := range append(im.Blobs, im.Manifest) {
		f, err := os.Open(n.blobPath(b.Digest))
		if err != nil {
			n.t.Fatalf("%s: blob %s missing: %v", n.name, b.Digest, err)
		}
		h := sha256.New()
		size, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			n.t.Fatal(err)
		}
		if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != b.Digest.String() || size != b.Size {
			n.t.Fatalf("%s: stored blob %s hashes to %s (%d bytes)", n.name, b.Digest, got, size)
		}
	}
	c, err := client.New(n.Socket)
	if err != nil {
		n.t.Fatal(err)
	}
	defer c.Close()
	for _, ns := range []string{"default", "k8s.io"} {
		active, err := c.ContentStore().ListStatuses(namespaces.WithNamespace(context.Background(), ns))
		if err != nil {
			n.t.Fatal(err)
		}
		if len(active) != 0 {
			n.t.Fatalf("%s: %d partial ingests left in %s: %+v", n.name, len(active), ns, active)
		}
	}
}

func (im testImage) largest() ocispec.Descriptor {
	var big ocispec.Descriptor
	for _, b := range im.Blobs {
		if b.Size > big.Size {
			big = b
		}
	}
	return big
}

// upstreamGets counts GETs of one blob in the registry's access log.
func (u *upstream) blobGets(repo string, d digest.Digest) int {
	return u.countRequests(func(path string) bool { return path == "/v2/"+repo+"/blobs/"+d.String() })
}

// ingestProgress is how far n has written its ingest of d.
func (n *node) ingestProgress(d digest.Digest) (offset, total int64) {
	return n.ingestProgressIn("default", d)
}

// ingestProgressIn is how far n has written its ingest of d in namespace ns.
func (n *node) ingestProgressIn(ns string, d digest.Digest) (offset, total int64) {
	c, err := client.New(n.Socket)
	if err != nil {
		return 0, 0
	}
	defer c.Close()
	active, _ := c.ContentStore().ListStatuses(namespaces.WithNamespace(context.Background(), ns))
	for _, st := range active {
		if strings.Contains(st.Ref, d.String()) {
			return st.Offset, st.Total
		}
	}
	return 0, 0
}

var logTimeRE = regexp.MustCompile(`time="([^"]+)"`)

// logTime is the time of the first line of n's current log containing s.
func (n *node) logTime(s string) (time.Time, bool) {
	data, _ := os.ReadFile(n.Logs()[len(n.Logs())-1])
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.Contains(line, s) {
			continue
		}
		if m := logTimeRE.FindStringSubmatch(line); m != nil {
			if t, err := time.Parse(time.RFC3339Nano, m[1]); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// pullAsync starts a ctr pull and returns a channel with its result.
func (n *node) pullAsync(ref string, timeout time.Duration) <-chan error {
	done := make(chan error, 1)
	go func() {
		out, err := n.ctrErr(timeout, "image", "pull", "--plain-http", ref)
		if err != nil {
			err = &pullError{err: err, out: out}
		}
		done <- err
	}()
	return done
}

type pullError struct {
	err error
	out string
}

func (e *pullError) Error() string { return e.err.Error() + ": " + e.out }

// failoverCase: a peer dies (or freezes) while B is receiving a large layer
// by pieces from it and another holder. B must finish from the other
// holder, without the upstream.
func testMidBlobFailover(t *testing.T, sig syscall.Signal) {
	reg := startRegistry(t)
	const idle = "2s"
	extra := `  idle_timeout = "` + idle + `"`
	a := startNode(t, "A", nodeOptions{extra: extra})
	c := startNode(t, "C", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: extra})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: extra})
	im := pushImage(t, reg.Addr, "failover/"+strings.ToLower(sig.String()[:4]), "v1", 256<<20, 1<<20)
	a.pull(im.Ref)
	c.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)
	c.waitAnnounced(len(im.Blobs) + 1)

	big := im.largest()
	before := reg.blobRequests(im.Repo)
	start := time.Now()
	done := b.pullAsync(im.Ref, 3*time.Minute)
	waitFor(t, 60*time.Second, "B to be part-way through the layer, with pieces from A", func() bool {
		off, total := b.ingestProgress(big.Digest)
		return off > 0 && off < total && a.counter("direct_path_sent_bytes") > 1<<20
	})
	off, total := b.ingestProgress(big.Digest)
	if err := a.Signal(sig); err != nil {
		t.Fatal(err)
	}
	hit := time.Now()
	t.Logf("%s sent to A at %d of %d bytes", sig, off, total)
	if err := <-done; err != nil {
		t.Fatalf("B's pull failed after %s of a peer: %v", sig, err)
	}
	t.Logf("B's pull finished %s after %s of A (whole pull %s; idle_timeout %s)",
		time.Since(hit).Round(time.Millisecond), sig, time.Since(start).Round(time.Millisecond), idle)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B made %d upstream blob requests, want 0: the other holder has the layer", n)
	}
	b.requireIntact(im)
}

func TestPeerKilledMidBlobIsReplacedByAnotherHolder(t *testing.T) {
	testMidBlobFailover(t, syscall.SIGKILL)
}

func TestPeerFrozenMidBlobIsAbandonedAfterIdleTimeout(t *testing.T) {
	testMidBlobFailover(t, syscall.SIGSTOP)
}

// rot flips bytes in the middle of n's stored copy of d, keeping its size,
// as a disk that rots does: n verified the blob when it pulled it.
func (n *node) rot(d ocispec.Descriptor) {
	n.t.Helper()
	f, err := os.OpenFile(n.blobPath(d.Digest), os.O_WRONLY, 0)
	if err != nil {
		n.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte("rotten bytes"), d.Size/2); err != nil {
		n.t.Fatal(err)
	}
}

func TestCorruptBlobOnPeerDiskNeverReachesAnotherStore(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := pushImage(t, reg.Addr, "failover/corrupt", "v1", 16<<20, 2<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)

	big := im.largest()
	a.rot(big)

	// A does not know yet (it verified the blob when it pulled it): it
	// offers the layer by pieces with the table it kept then, and checks
	// each piece against it as it sends it. The rotten piece never leaves
	// A, which stops offering the layer; B takes the rest from the
	// upstream: at most one copy, whatever the number of its requests.
	sent := reg.blobBytes(big.Digest)
	b.pull(im.Ref)
	b.requireIntact(im)
	if n := reg.blobBytes(big.Digest) - sent; n > big.Size {
		t.Fatalf("B fetched %d bytes of the %d-byte corrupted layer upstream, want one copy at most", n, big.Size)
	} else {
		t.Logf("B fetched %.2f copies of the corrupted layer upstream", float64(n)/float64(big.Size))
	}
	if !a.logContains("stored blob does not match its digest") {
		t.Fatal("A sent its rotten piece without finding its copy bad")
	}

	// After a restart A has forgotten what it found, and it dropped the
	// table: asked for the layer's state, it hashes its copy first, finds
	// it bad and answers so. C fetches the layer upstream: one copy, plus
	// at most a withheld 1 MiB tail were it streamed. (B, which holds a
	// good copy now, leaves, so A is the only provider.)
	b.stop()
	a.restart()
	c := startNode(t, "C", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	a.waitAnnounced(len(im.Blobs))
	sent = reg.blobBytes(big.Digest)
	c.pull(im.Ref)
	c.requireIntact(im)
	if n := reg.blobBytes(big.Digest) - sent; n < big.Size || n > big.Size+1<<20 {
		t.Fatalf("C fetched %d bytes of the %d-byte corrupted layer upstream, want one copy and at most the 1 MiB withheld", n, big.Size)
	}
	if !a.logContains("stored blob does not match its digest") {
		t.Fatal("A did not detect its corrupt blob when asked for it")
	}
}

func TestProviderThatDeletedTheContentCostsOneRoundTrip(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := pushImage(t, reg.Addr, "failover/deleted", "v1", 6<<20, 1<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)
	// A's records stay in the DHT; its content goes.
	a.ctr("image", "rm", "--sync", im.Ref)
	args := []string{"content", "rm"}
	for _, d := range append(im.Blobs, im.Manifest) {
		args = append(args, d.Digest.String())
	}
	a.ctrErr(time.Minute, args...) // some may be gone already

	before := reg.blobRequests(im.Repo)
	start := time.Now()
	b.pull(im.Ref)
	t.Logf("B pulled in %s with a stale provider record for every blob", time.Since(start).Round(time.Millisecond))
	if n := reg.blobRequests(im.Repo) - before; n != len(im.Blobs) {
		t.Fatalf("B made %d upstream blob requests, want %d", n, len(im.Blobs))
	}
	b.requireIntact(im)
}

// With a token registry, "down" is the registry and its token service; a
// TLS registry is known to the nodes only through its hosts.toml.
func TestPullsByTagAndByDigestSucceedFromPeersWhileUpstreamIsDown(t *testing.T) {
	forEachRegistry(t, []registryKind{plainRegistryKind, tokenRegistryKind, tlsRegistryKind}, testPullsFromPeersWhileUpstreamIsDown)
}

func testPullsFromPeersWhileUpstreamIsDown(t *testing.T, reg *testRegistry) {
	a := startNode(t, "A", nodeOptions{hostsDir: reg.hostsDir})
	b := startNode(t, "B", nodeOptions{hostsDir: reg.hostsDir, bootstrap: []string{a.bootstrapAddr()}})
	c := startNode(t, "C", nodeOptions{hostsDir: reg.hostsDir, bootstrap: []string{a.bootstrapAddr()}})
	im := reg.push(t, "public/outage", "v1", 5<<20, 3<<20)
	a.ctr(reg.pullArgs(im.Ref, false)...)
	a.waitAnnounced(len(im.Blobs) + 2) // blobs, manifest and the reference
	reg.stop()

	start := time.Now()
	b.ctr(reg.pullArgs(im.Ref, false)...)
	t.Logf("B pulled by tag in %s with the upstream down", time.Since(start).Round(time.Millisecond))
	b.requireIntact(im)
	if !strings.Contains(b.ctr("image", "ls", "-q"), im.Ref) {
		t.Fatal("B does not have the image by its tag")
	}

	byDigest := reg.Addr + "/" + im.Repo + "@" + im.Manifest.Digest.String()
	start = time.Now()
	c.ctr(reg.pullArgs(byDigest, false)...)
	t.Logf("C pulled by digest in %s with the upstream down", time.Since(start).Round(time.Millisecond))
	c.requireIntact(im)
}

func TestNobodyHoldsItAndUpstreamDownFailsFastAndSaysWhy(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := pushImage(t, reg.Addr, "outage/nobody", "v1", 1<<20)
	reg.stop()

	start := time.Now()
	out, err := b.ctrErr(2*time.Minute, "image", "pull", "--plain-http", im.Ref)
	took := time.Since(start)
	if err == nil {
		t.Fatal("pull succeeded with the upstream down and no peer holding the image")
	}
	t.Logf("pull failed after %s: %s", took.Round(time.Millisecond), strings.TrimSpace(out))
	for _, want := range []string{im.Ref, "upstream unreachable", "no peer holds"} {
		if !strings.Contains(out, want) {
			t.Errorf("error does not say %q", want)
		}
	}
}
