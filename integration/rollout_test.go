package integration

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
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
}

// rolloutPullTimeout bounds one node's pull: a hang becomes an error.
const rolloutPullTimeout = 10 * time.Minute

// newRolloutLab builds a lab of n hosts with links of mbit Mbit/s and
// starts a Shoal node on each, all connected to each other.
func newRolloutLab(t *testing.T, n, mbit int) *rolloutLab {
	t.Helper()
	return newRolloutLabWith(t, n, mbit, nil)
}

// newRolloutLabWith is newRolloutLab with each host's node options chosen
// by opts (host numbers from 1; nil: defaults). See startNodes.
func newRolloutLabWith(t *testing.T, n, mbit int, opts func(host int) nodeOptions) *rolloutLab {
	t.Helper()
	l := &rolloutLab{netLab: newNetLab(t, n+1), mbit: mbit}
	for host := 1; host <= n+1; host++ {
		l.setRate(host, mbit)
	}
	l.reg = l.registryIn(n + 1)
	l.startNodes(opts)
	return l
}

// setRate shapes host's link to mbit Mbit/s in both directions (the
// registry's host is len(l.nodes)+1).
func (l *rolloutLab) setRate(host, mbit int) {
	l.t.Helper()
	tbf := []string{"root", "tbf", "rate", fmt.Sprintf("%dmbit", mbit), "burst", "1mb", "latency", "200ms"}
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
	// The fetchers' coordination ranks over connected peers: let them all meet.
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
			_, errs[i] = n.Ctr(rolloutPullTimeout, "image", "pull", "--plain-http", ref)
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
