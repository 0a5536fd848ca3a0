package integration

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pullRecord is one entry of `shoal pulls --json`, as a script reads it.
type pullRecord struct {
	Image         string    `json:"image"`
	Namespace     string    `json:"namespace"`
	Start         time.Time `json:"start"`
	DurationNs    int64     `json:"duration_ns"`
	UpstreamBytes int64     `json:"upstream_bytes"`
	Peers         []struct {
		Peer  string `json:"peer"`
		Bytes int64  `json:"bytes"`
	} `json:"peers"`
	Failovers int64  `json:"failovers"`
	Error     string `json:"error"`
}

func (n *node) pulls() []pullRecord {
	n.t.Helper()
	out, err := n.shoal("pulls", "--json")
	if err != nil {
		n.t.Fatalf("%s: shoal pulls --json: %v\n%s", n.name, err, out)
	}
	var pulls []pullRecord
	if err := json.Unmarshal([]byte(out), &pulls); err != nil {
		n.t.Fatalf("%s: shoal pulls --json: %v\n%s", n.name, err, out)
	}
	return pulls
}

// only is the one pull a node made; it fails the test otherwise.
func only(t *testing.T, n *node, pulls []pullRecord) pullRecord {
	t.Helper()
	if len(pulls) != 1 {
		t.Fatalf("%s lists %d pulls, want 1: %+v", n.name, len(pulls), pulls)
	}
	return pulls[0]
}

// A pulls from the registry, B from A, C from A and B at once; `shoal
// pulls` on each says where the bytes came from, and the registry's access
// log agrees: what A's pull read from the upstream is what the registry
// sent, and B and C's pulls read nothing from it.
func TestShoalPullsSaysWhereEachPullsBytesCameFrom(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	c := startNode(t, "C", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	// A layer large enough to come in ranges from two peers at once
	// (parallel_min_size), one written to the store by the fetcher, one
	// small enough to be read whole.
	im := pushImage(t, reg.Addr, "ops/pulls", "v1", 40<<20, 6<<20, 1<<20)
	var total int64 // what a pull fetches by digest: the blobs and the manifest
	for _, d := range append(im.Blobs, im.Manifest) {
		total += d.Size
	}
	fromRegistry := func() int64 {
		_, sent := reg.served(func(path string) bool {
			return strings.HasPrefix(path, "/v2/"+im.Repo+"/blobs/") || strings.HasPrefix(path, "/v2/"+im.Repo+"/manifests/sha256:")
		})
		return sent
	}

	if got := a.pulls(); len(got) != 0 {
		t.Fatalf("A lists pulls before any: %+v", got)
	}
	sentBefore := fromRegistry()
	start := time.Now()
	a.pull(im.Ref)
	pa := only(t, a, a.pulls())
	if sent := fromRegistry() - sentBefore; pa.UpstreamBytes != sent || sent < total {
		t.Fatalf("A's pull read %d bytes upstream; the registry sent %d, the image has %d", pa.UpstreamBytes, sent, total)
	}
	if pa.Image != im.Ref || pa.Namespace != "default" || pa.Error != "" || len(pa.Peers) != 0 || pa.Failovers != 0 {
		t.Fatalf("A's pull: %+v", pa)
	}
	if pa.Start.Before(start.Add(-time.Second)) || pa.DurationNs <= 0 || time.Duration(pa.DurationNs) > time.Since(start) {
		t.Fatalf("A's pull began %v and took %v; the test asked at %v", pa.Start, time.Duration(pa.DurationNs), start)
	}
	a.waitAnnounced(len(im.Blobs) + 2)

	blobsBefore, manifestsBefore, sentBefore := reg.blobRequests(im.Repo), reg.manifestByDigestRequests(im.Repo), fromRegistry()
	b.pull(im.Ref)
	if n, m := reg.blobRequests(im.Repo)-blobsBefore, reg.manifestByDigestRequests(im.Repo)-manifestsBefore; n != 0 || m != 0 {
		t.Fatalf("B's pull made %d blob and %d manifest requests upstream, want none", n, m)
	}
	aID := a.peerID()
	pb := only(t, b, b.pulls())
	if pb.Image != im.Ref || pb.Error != "" || pb.UpstreamBytes != 0 || len(pb.Peers) != 1 || pb.Peers[0].Peer != aID || pb.Peers[0].Bytes != total {
		t.Fatalf("B's pull, want %d bytes from A (%s) and none upstream: %+v", total, aID, pb)
	}
	b.waitAnnounced(len(im.Blobs) + 2)

	c.pull(im.Ref)
	if n, sent := reg.blobRequests(im.Repo)-blobsBefore, fromRegistry()-sentBefore; n != 0 || sent != 0 {
		t.Fatalf("B and C's pulls made %d blob requests upstream (%d bytes), want none", n, sent)
	}
	pc := only(t, c, c.pulls())
	bID := b.peerID()
	var fromPeers int64
	sources := map[string]int64{}
	for _, p := range pc.Peers {
		fromPeers += p.Bytes
		sources[p.Peer] = p.Bytes
	}
	if pc.UpstreamBytes != 0 || fromPeers != total || sources[aID] == 0 || sources[bID] == 0 || len(sources) != 2 {
		t.Fatalf("C's pull, want %d bytes from A (%s) and B (%s) together, none upstream: %+v", total, aID, bID, pc)
	}

	// The table, for people: the image, its sources by peer ID.
	for _, n := range []*node{a, b, c} {
		out, err := n.shoal("pulls")
		if err != nil || !strings.HasPrefix(out, "IMAGE") || !strings.Contains(out, im.Ref) {
			t.Fatalf("%s: shoal pulls: %v\n%s", n.name, err, out)
		}
		t.Logf("shoal -a <%s's socket> pulls\n%s", n.name, out)
	}
	if out, _ := c.shoal("pulls"); !strings.Contains(out, aID) || !strings.Contains(out, bID) {
		t.Fatalf("C's table does not name both peers:\n%s", out)
	}
	out, _ := c.shoal("pulls", "--json")
	t.Logf("shoal -a <C's socket> pulls --json\n%s", out)
}

// The binary behaves as ctr does: --help and --version exit 0, the
// address goes before the command.
func TestShoalBinaryHelpAndVersion(t *testing.T) {
	requireEnv(t)
	bin := filepath.Join(binDir, "shoal")
	out, err := exec.Command(bin, "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "pulls") || !strings.Contains(string(out), "--address") {
		t.Fatalf("shoal --help: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "shoal github.com/shoal-dev/shoal 2.4.2+shoal.") {
		t.Fatalf("shoal --version: %v\n%s", err, out)
	}
}
