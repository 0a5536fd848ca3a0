package integration

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/integration/cluster"
	"github.com/shoal-dev/shoal/plugin/router"
)

// rolloutLab is the test bed of a rollout: every node on a host of its own
// (a network namespace), every host behind a link of the same rate in both
// directions, and the upstream registry on one more host behind the same
// kind of link, as a registry on another network is. A link is a veth pair
// to the lab's bridge with `tbf rate R burst 1mb latency 200ms` on both
// ends: the host's end (eth0) shapes what the host sends, the bridge's end
// what it receives. Nodes are hosts 1..n; the registry is host n+1.
type rolloutLab struct {
	*netLab
	mbit  int
	reg   *upstream
	nodes []*node // nodes[i] runs on host i+1
	// fetchOnly: pulls leave out the unpack (--all-platforms), and their
	// times are when each node's last layer is committed.
	fetchOnly bool
	// pullTimeout, if set, bounds one node's pull instead of
	// rolloutPullTimeout (a node whose link alone needs longer).
	pullTimeout time.Duration
}

// rolloutPullTimeout bounds one node's pull: a hang becomes an error.
const rolloutPullTimeout = 5 * time.Minute

// newRolloutLab builds a lab of n hosts with links of mbit Mbit/s and
// starts a Shoal node on each, all connected to each other.
func newRolloutLab(t *testing.T, n, mbit int) *rolloutLab {
	t.Helper()
	return newRolloutLabWith(t, n, mbit, nil)
}

// newRolloutLabWith is newRolloutLab with each host's node options chosen
// by opts (host numbers from 1; nil: defaults). See startNodes.
// labBurst is the burst of a lab link's shaper, in bytes.
const labBurst = 1 << 20

func newRolloutLabWith(t *testing.T, n, mbit int, opts func(host int) nodeOptions) *rolloutLab {
	t.Helper()
	l := &rolloutLab{netLab: newNetLab(t, n+1), mbit: mbit}
	for host := 1; host <= n+1; host++ {
		l.setRate(host, mbit*1000)
	}
	l.reg = l.registryIn(n + 1)
	l.startNodes(opts)
	return l
}

// setRate shapes host's link to kbit kbit/s in both directions (the
// registry's host is len(l.nodes)+1): a tenth of a link of a few Mbit/s
// is no whole number of Mbit/s. A link slower than the lab's has its
// burst, and so its queue, cut in proportion: it queues as long as the
// others. (With the lab's burst, a node at a tenth of 8 Mbit/s queued
// 10 s of packets, and its neighbour lookups timed out behind them: "no
// route to host".)
func (l *rolloutLab) setRate(host, kbit int) {
	l.t.Helper()
	burst := labBurst
	if lab := l.mbit * 1000; kbit < lab {
		burst = max(labBurst*kbit/lab, 32<<10)
	}
	tbf := []string{"root", "tbf", "rate", fmt.Sprintf("%dkbit", kbit), "burst", strconv.Itoa(burst), "latency", "200ms"}
	run(l.t, append([]string{"tc", "qdisc", "replace", "dev", l.veth(host)}, tbf...)...)
	run(l.t, append(l.exec(host), append([]string{"tc", "qdisc", "replace", "dev", "eth0"}, tbf...)...)...)
}

// startNodes stops the lab's nodes, if any, and starts fresh ones (empty
// stores) on every node host, with options from opts (nil: defaults). Each
// node's metrics endpoint listens on its host's port 9100. Shoal nodes of
// the test's network (no binary or network key given) bootstrap from the
// first of them unless opts names peers, and startNodes returns once each
// is connected to all the others. Use nodeOptions{binary:
// filepath.Join(binDir, "containerd-stock")} for stock containerd.
func (l *rolloutLab) startNodes(opts func(host int) nodeOptions) {
	l.t.Helper()
	for _, n := range l.nodes {
		n.stop()
	}
	l.nodes = nil
	var mesh []*node
	for host := 1; host < len(l.hosts); host++ {
		var o nodeOptions
		if opts != nil {
			o = opts(host)
		}
		name := fmt.Sprintf("n%d", host)
		if o.binary != "" {
			name = fmt.Sprintf("%s%d", filepath.Base(o.binary), host)
		}
		p2p := o.binary == "" && o.networkKey == ""
		if p2p && len(mesh) > 0 && o.bootstrap == nil {
			o.bootstrap = []string{mesh[0].bootstrapAddr()}
		}
		o.extra += fmt.Sprintf("\n[plugins.\"io.containerd.server.v1.metrics\"]\n  address = %q\n", l.metricsAddr(host))
		n := l.node(host, name, o)
		l.nodes = append(l.nodes, n)
		if p2p {
			mesh = append(mesh, n)
		}
	}
	// A node asks the nodes nearest a layer's key among those it is
	// connected to whether they pull it: let them all meet.
	waitFor(l.t, 60*time.Second, fmt.Sprintf("each of %d nodes to connect to all the others", len(mesh)), func() bool {
		for _, n := range mesh {
			if n.connectedPeers() < len(mesh)-1 {
				return false
			}
		}
		return true
	})
}

func (l *rolloutLab) metricsAddr(host int) string { return net.JoinHostPort(l.ip(host), "9100") }

// push generates an image with random layers of the given sizes and
// pushes it to the lab's registry (through the registry's link).
func (l *rolloutLab) push(repo string, layers ...int) testImage {
	l.t.Helper()
	return pushImage(l.t, l.reg.Addr, repo, "v1", layers...)
}

// pullAllAtOnce starts `ctr image pull` of ref on every node at the same
// moment and returns each node's time from that moment to the end of its
// pull (unpacked). A failed pull ends the test.
func (l *rolloutLab) pullAllAtOnce(ref string) []time.Duration {
	l.t.Helper()
	times, errs := l.pullAllAtOnceErr(ref)
	for i, err := range errs {
		if err != nil {
			l.t.Fatalf("%s: %v", l.nodes[i].name, err)
		}
	}
	return times
}

// pullAllAtOnceErr is pullAllAtOnce that gives each node's error instead
// of failing the test, for a rollout in which some node is meant to fail
// (stopped, killed, frozen).
func (l *rolloutLab) pullAllAtOnceErr(ref string) ([]time.Duration, []error) {
	times := make([]time.Duration, len(l.nodes))
	errs := make([]error, len(l.nodes))
	var wg sync.WaitGroup
	gate := make(chan struct{})
	var start time.Time
	for i, n := range l.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			args := []string{"image", "pull", "--plain-http", ref}
			if l.fetchOnly {
				args = []string{"image", "pull", "--plain-http", "--all-platforms", ref}
			}
			timeout := rolloutPullTimeout
			if l.pullTimeout > 0 {
				timeout = l.pullTimeout
			}
			_, errs[i] = n.Ctr(timeout, args...)
			times[i] = time.Since(start)
		}()
	}
	start = time.Now()
	close(gate)
	wg.Wait()
	return times, errs
}

// uploaded is how many content bytes each node has sent to peers since it
// started: its containerd_p2p_served_bytes_total. Shoal nodes only.
func (l *rolloutLab) uploaded() []int64 {
	l.t.Helper()
	out := make([]int64, len(l.nodes))
	for i := range l.nodes {
		out[i] = int64(metricValue(l.t, l.metricsAddr(i+1), "containerd_p2p_served_bytes_total"))
	}
	return out
}

// copies is how many copies of im's layers the registry sent: the bytes of
// the layers' blob GETs in its access log over the layers' size.
func (l *rolloutLab) copies(im testImage) float64 {
	var sent, size int64
	for _, b := range im.Data.Layers {
		sent += l.reg.blobBytes(b.Desc.Digest)
		size += b.Desc.Size
	}
	return float64(sent) / float64(size)
}

// linkTime is the time to move im (manifest, config and layers) over one
// link at the lab's rate: the unit of a rollout's completion times.
func (l *rolloutLab) linkTime(im testImage) time.Duration {
	return time.Duration(float64(im.Data.Size()*8) / (float64(l.mbit) * 1e6) * float64(time.Second))
}

// rolloutImage is the image of a rollout: 96 MiB in layers of 64, 24 and
// 8 MiB.
var rolloutImage = []int{64 << 20, 24 << 20, 8 << 20}

// multiples formats durations as multiples of unit.
func multiples(ds []time.Duration, unit time.Duration) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = strconv.FormatFloat(float64(d)/float64(unit), 'f', 2, 64) + "×"
	}
	return out
}

// sent is how many bytes each node host has sent over its link, as the
// kernel counts them at the bridge's end of its veth: an account of
// uploads that owes nothing to the nodes' own.
func (l *rolloutLab) sent() []int64 { return l.linkBytes("rx_bytes") }

// received is how many bytes each node host has received over its link,
// counted as sent.
func (l *rolloutLab) received() []int64 { return l.linkBytes("tx_bytes") }

// tcpSegments is how many TCP segments each node host has sent, and how
// many of them were sent again (the kernel's Tcp OutSegs and RetransSegs
// in its network namespace): what a link's drops cost in resent bytes.
func (l *rolloutLab) tcpSegments() (sent, resent []int64) {
	l.t.Helper()
	for i := range l.nodes {
		out, err := exec.Command("ip", "netns", "exec", l.hosts[i], "cat", "/proc/net/snmp").Output()
		if err != nil {
			l.t.Fatalf("reading host %d's TCP counters: %v", i+1, err)
		}
		var names, values []string
		for line := range strings.Lines(string(out)) {
			if f := strings.Fields(line); len(f) > 0 && f[0] == "Tcp:" {
				if names == nil {
					names = f
				} else {
					values = f
				}
			}
		}
		counter := func(name string) int64 {
			k := slices.Index(names, name)
			if k < 0 || k >= len(values) {
				l.t.Fatalf("host %d's /proc/net/snmp has no Tcp %s", i+1, name)
			}
			n, _ := strconv.ParseInt(values[k], 10, 64)
			return n
		}
		sent, resent = append(sent, counter("OutSegs")), append(resent, counter("RetransSegs"))
	}
	return sent, resent
}

// linkBytes reads a byte counter of each node's veth at the bridge's end.
func (l *rolloutLab) linkBytes(counter string) []int64 {
	l.t.Helper()
	out := make([]int64, len(l.nodes))
	for i := range l.nodes {
		n, err := l.linkCounter(i+1, counter)
		if err != nil {
			l.t.Fatal(err)
		}
		out[i] = n
	}
	return out
}

// linkCounter reads a counter of host's veth at the bridge's end.
func (l *rolloutLab) linkCounter(host int, counter string) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/sys/class/net/%s/statistics/%s", l.veth(host), counter))
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
}

// pushHeadedBy pushes images of the given layers to repo until one has a
// layer that node host (from 1) is first for (see nearest), and returns it.
func (l *rolloutLab) pushHeadedBy(repo string, host int, layers ...int) testImage {
	l.t.Helper()
	for try := range 20 {
		im := l.push(fmt.Sprintf("%s%d", repo, try), layers...)
		if l.nearest(im)[host-1] {
			return im
		}
	}
	l.t.Fatalf("%s is first for no layer of 20 images", l.nodes[host-1].name)
	return testImage{}
}

// nearest are the nodes nearest a layer of im's DHT key
// (router.DistanceScore): each takes its layer from the upstream when
// every node starts the image at once.
func (l *rolloutLab) nearest(im testImage) map[int]bool {
	return l.firstBy(im, router.DistanceScore)
}

// firstBy is the set of node indexes first for some layer of im by score.
func (l *rolloutLab) firstBy(im testImage, score func(digest.Digest, peer.ID) string) map[int]bool {
	l.t.Helper()
	heads := map[int]bool{}
	for _, layer := range im.Data.Layers {
		heads[l.firstFor(layer.Desc.Digest, score)] = true
	}
	return heads
}

// firstFor is the index of the node first for layer by score.
func (l *rolloutLab) firstFor(layer digest.Digest, score func(digest.Digest, peer.ID) string) int {
	l.t.Helper()
	best, bestScore := -1, ""
	for i, n := range l.nodes {
		id, err := peer.Decode(n.peerID())
		if err != nil {
			l.t.Fatal(err)
		}
		if s := score(layer, id); s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// pushSeededBy pushes to repo an image of the given layers whose first
// layer node host (from 1) is nearest (see nearest), built until one is:
// that node takes the layer from the upstream.
func (l *rolloutLab) pushSeededBy(repo string, host int, layers ...int) testImage {
	l.t.Helper()
	for range 200 { // each try one chance in len(l.nodes)
		im, err := cluster.RandomImage(layers...)
		if err != nil {
			l.t.Fatal(err)
		}
		if l.firstFor(im.Layers[0].Desc.Digest, router.DistanceScore) == host-1 {
			return pushBuilt(l.t, l.reg.Addr, repo, "v1", func(ref string, im *cluster.Image) error {
				return im.Push(context.Background(), ref, "", "")
			}, im)
		}
	}
	l.t.Fatalf("%s is nearest the first layer of none of 200 images", l.nodes[host-1].name)
	return testImage{}
}

// rolloutLayers is the image of the rollout tests: five layers of 12 MiB,
// so that each node is nearest the key of some layer and not of others.
var rolloutLayers = []int{12 << 20, 12 << 20, 12 << 20, 12 << 20, 12 << 20}

// Eight nodes pull a new image at once: the registry sends one copy, and
// the rest travels between the nodes with every node uploading and none
// more than two copies (counted by the kernel at each host's link, headers
// included, and by each node).
func TestARolloutTakesOneUpstreamCopyAndSpreadsTheUploads(t *testing.T) {
	lab := newRolloutLab(t, 8, 200)
	im := lab.push("rollout/spread", rolloutLayers...)
	before := lab.sent()
	lab.pullAllAtOnce(im.Ref)
	if c := lab.copies(im); c > 1.25 {
		t.Errorf("the registry sent %.2f copies of the layers, want about one", c)
	} else {
		t.Logf("the registry sent %.2f copies of the layers", c)
	}
	size := float64(im.Data.Size())
	after, served := lab.sent(), lab.uploaded()
	for i := range lab.nodes {
		wire, payload := float64(after[i]-before[i])/size, float64(served[i])/size
		lone := metricValue(t, lab.metricsAddr(i+1), "containerd_p2p_lone_misses_total")
		t.Logf("n%d uploaded %.2f copies (%.2f on the wire); lone misses %.0f", i+1, payload, wire, lone)
		if wire < 0.1 {
			t.Errorf("n%d sent %.2f copies over its link: every node should upload", i+1, wire)
		}
		// Headers and encryption add about 5% on the wire.
		if payload > 2 || wire > 2*1.08 {
			t.Errorf("n%d uploaded %.2f copies (%.2f on the wire), want at most 2", i+1, payload, wire)
		}
	}
}

// One node of six has a tenth of the others' link, and is first in the
// order of a layer (it fetches that layer from the registry, and the
// others would follow it): the others do not wait for it. They leave it
// for faster holders or the registry, so it sends them less than half a
// copy of the image, each of them is done before it, and the registry
// sends fewer than half the copies stock containerd's nodes would fetch
// (one each).
func TestASlowNodeInARolloutHoldsBackNobody(t *testing.T) {
	lab := newRolloutLab(t, 6, 200)
	lab.setRate(6, 20*1000)
	im := lab.pushHeadedBy("rollout/slow", 6, rolloutLayers...)
	times := lab.pullAllAtOnce(im.Ref)
	unit := lab.linkTime(im)
	t.Logf("completion (× size÷link): %v", multiples(times, unit))
	slow := times[5]
	for i, d := range times[:5] {
		if d >= slow {
			t.Errorf("n%d took %s, the slow node %s: it waited for the slow node", i+1, d.Round(time.Millisecond), slow.Round(time.Millisecond))
		}
	}
	// Its link sends a tenth of the image in the time one node needs for
	// all of it: followed until it is done itself, it would send the
	// others about a copy; left within seconds each time a node comes to
	// it (each learns of its link by itself, and it is ahead in some
	// layers early on), a tenth to a third.
	sent := float64(lab.uploaded()[5]) / float64(im.Data.Size())
	t.Logf("the slow node sent %.2f copies of the image to the others", sent)
	if sent > 0.5 {
		t.Errorf("the slow node sent %.2f copies of the image: the others kept following it", sent)
	}
	if c := lab.copies(im); c >= float64(len(times))/2 {
		t.Errorf("the registry sent %.2f copies, want fewer than half the nodes'", c)
	} else {
		t.Logf("the registry sent %.2f copies", c)
	}
}

// A node killed mid-rollout (not the first of any layer, which the others
// can only follow) costs the nodes reading from it a failover: they go on
// from the offset they had, from the other nodes, and the registry sends
// about one copy.
func TestANodeKilledMidRolloutCostsItsFollowersOnlyAFailover(t *testing.T) {
	lab := newRolloutLab(t, 6, 200)
	im := lab.push("rollout/killed", rolloutLayers...)
	heads := lab.nearest(im)
	victim := -1
	for i := len(lab.nodes) - 1; i >= 0; i-- {
		if !heads[i] {
			victim = i
			break
		}
	}
	if victim < 0 {
		t.Fatal("every node is first for some layer")
	}
	first := im.Data.Layers[0].Desc
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		deadline := time.Now().Add(2 * time.Minute)
		for time.Now().Before(deadline) {
			if got, _ := lab.nodes[victim].ingestProgress(first.Digest); got > first.Size/3 {
				lab.nodes[victim].Signal(syscall.SIGKILL)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	_, errs := lab.pullAllAtOnceErr(im.Ref)
	<-killed
	if errs[victim] == nil {
		t.Fatalf("n%d was not killed mid-pull", victim+1)
	}
	for i, err := range errs {
		if i != victim && err != nil {
			t.Errorf("n%d: %v", i+1, err)
		}
	}
	if c := lab.copies(im); c > 1.2 {
		t.Errorf("the registry sent %.2f copies: the victim's followers should go on from peers", c)
	} else {
		t.Logf("n%d killed; the registry sent %.2f copies", victim+1, c)
	}
}

// A member holds a rotten copy of a layer (bytes flipped on its disk after
// it verified them) while five nodes roll out the image. Asked for the
// layer's state, it computes the piece table from its stored bytes,
// checking the whole against the digest on the way: it finds its copy bad
// and serves none of it. The five take the layer from the registry and
// each other; every pull ends intact, no node blames another, and the
// registry sends less than one more copy of the image.
func TestACorruptingMemberFailsNoPull(t *testing.T) {
	lab := newRolloutLab(t, 6, 200)
	im := lab.push("rollout/corrupt", 24<<20, 12<<20, 12<<20)
	rotten := lab.nodes[0]
	rotten.pull(im.Ref)
	rotten.waitAnnounced(len(im.Blobs) + 1)
	rotten.rot(im.largest())
	sentBefore := lab.copies(im)

	others := lab.nodes[1:]
	errs := make([]error, len(others))
	var wg sync.WaitGroup
	for i, n := range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = n.Ctr(rolloutPullTimeout, "image", "pull", "--plain-http", im.Ref)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("n%d: %v", i+2, err)
		}
		others[i].requireIntact(im)
	}
	rottenShare := float64(im.largest().Size) / float64(im.Data.Size())
	c := lab.copies(im) - sentBefore
	if !rotten.logContains("stored blob does not match its digest") {
		t.Error("the corrupting member never found its copy bad")
	}
	for i, n := range others {
		for _, line := range n.logLines("failed verification") {
			if !strings.Contains(line, rotten.peerID()) {
				t.Errorf("n%d blamed another node than the corrupting member: %s", i+2, line)
			}
		}
	}
	t.Logf("the corrupting member cost %.2f upstream copies of the image (the rotten layer is %.2f of it)", c, rottenShare)
	if c >= 1 {
		t.Errorf("the registry sent %.2f more copies of the image, want less than one", c)
	}
}

// Inside a rollout, a node with an upload cap sends no faster than its cap
// though it is first for a layer (it takes that layer from the registry
// and the others would follow it), and a node with serve_peers = false
// sends no content at all; every pull ends intact, and the registry sends
// fewer copies than half the nodes would fetch alone.
func TestCappedAndNonServingNodesKeepTheirSettingsInARollout(t *testing.T) {
	const capped, quiet = 6, 5 // hosts
	const capBytes = 2_000_000 // a tenth of the 200 Mbit/s link
	lab := newRolloutLabWith(t, 6, 200, func(host int) nodeOptions {
		switch host {
		case capped:
			return nodeOptions{extra: fmt.Sprintf("  max_upload_bytes_per_second = %d\n", capBytes)}
		case quiet:
			return nodeOptions{extra: "  serve_peers = false\n"}
		}
		return nodeOptions{}
	})
	im := lab.pushHeadedBy("rollout/settings", capped, rolloutLayers...)
	before := lab.sent()
	start := time.Now()
	times := lab.pullAllAtOnce(im.Ref)
	took := time.Since(start)
	t.Logf("completion (× size÷link): %v", multiples(times, lab.linkTime(im)))
	for _, n := range lab.nodes {
		n.requireIntact(im)
	}
	after, served := lab.sent(), lab.uploaded()
	size := float64(im.Data.Size())

	// The limiter lets a burst of a tenth of a second through at once,
	// then the rate: at most that over the whole rollout.
	limit := capBytes*took.Seconds() + capBytes/10
	wire := float64(after[capped-1] - before[capped-1])
	t.Logf("the capped node sent %.1f MB in %s (%.2f copies; %.1f MB on the wire), at most %.1f MB allowed",
		float64(served[capped-1])/1e6, took.Round(time.Millisecond), float64(served[capped-1])/size, wire/1e6, limit/1e6)
	if float64(served[capped-1]) > limit {
		t.Errorf("the capped node sent %d bytes in %s, over its cap's %.0f", served[capped-1], took, limit)
	}
	// Headers, TLS and the DHT's own traffic add a few percent on the wire.
	if wire > limit*1.08+1<<20 {
		t.Errorf("the capped node's link carried %.1f MB in %s, over its cap's %.1f MB", wire/1e6, took, limit/1e6)
	}

	quietWire := float64(after[quiet-1] - before[quiet-1])
	t.Logf("the non-serving node sent %d content bytes, %.2f MB on the wire (its requests)", served[quiet-1], quietWire/1e6)
	if served[quiet-1] != 0 {
		t.Errorf("the node with serve_peers = false sent %d content bytes", served[quiet-1])
	}
	// Its requests, acknowledgements and the DHT's traffic: a few percent
	// of what it received at most, never a share of a copy.
	if quietWire > 0.05*size {
		t.Errorf("the node with serve_peers = false sent %.2f MB over its link, %.2f copies", quietWire/1e6, quietWire/size)
	}
	if c := lab.copies(im); c >= float64(len(times))/2 {
		t.Errorf("the registry sent %.2f copies, want fewer than half the nodes'", c)
	} else {
		t.Logf("the registry sent %.2f copies", c)
	}
}
