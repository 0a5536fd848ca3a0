package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/swarm"
)

// directSent is the serving node's count of bytes sent on the direct data
// path.
const directSent = `containerd_p2p_direct_path_sent_bytes_total`

// The test's own namespace holds the lab's bridge address and no libp2p
// connection to any node: from there, it is a host without the network
// key that reaches the data port.
func TestStrangersHoldingTheDataPortDoNotMoveMembersOffTheDirectPath(t *testing.T) {
	lab := newNetLab(t, 2)
	reg := lab.registry()
	dataPort := lab.ip(1) + ":5051"
	aMetrics := fmt.Sprintf("%s:%d", lab.ip(1), freePort(t))
	a := lab.node(1, "A", nodeOptions{
		dataAddress: dataPort,
		extra:       fmt.Sprintf("[plugins.\"io.containerd.server.v1.metrics\"]\n  address = %q", aMetrics),
	})
	b := lab.node(2, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := pushImage(t, reg.Addr, "lab/dataport", "v1", 8<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 2)

	stranger := holdDataPort(t, lab.subnet+".1", dataPort, 300)
	waitFor(t, 10*time.Second, "the stranger to open 300 sockets", func() bool { return stranger.opened.Load() >= 300 })

	sentBefore := metricValue(t, aMetrics, directSent)
	before := reg.blobRequests(im.Repo)
	b.pull(im.Ref)
	stranger.stop()
	if got := reg.blobRequests(im.Repo) - before; got != 0 {
		t.Fatalf("B made %d upstream blob requests, want 0", got)
	}
	layer := im.largest().Size
	if sent := metricValue(t, aMetrics, directSent) - sentBefore; int64(sent) < directAtLeast(layer) {
		t.Fatalf("A sent %v bytes on the direct path during B's pull, want at least %d of its %d-byte layer: B was moved off it", sent, directAtLeast(layer), layer)
	}
	if b.logContains("using libp2p streams") {
		t.Fatal("B gave up A's direct path while a stranger held its port")
	}
	t.Logf("the stranger opened %d connections; %d were reset within 100ms", stranger.opened.Load(), stranger.resetAtOnce.Load())
}

// A member whose libp2p connection ended (here: the serving node
// restarted, and its data port moved) is refused by the data port until it
// connects again; it does, and stays on the direct path.
func TestAMemberStaysOnTheDirectPathOfAPeerThatRestarted(t *testing.T) {
	reg := startRegistry(t)
	aMetrics, aExtra := metricsConfig(t)
	a := startNode(t, "A", nodeOptions{extra: aExtra})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	first := pushImage(t, reg.Addr, "dataport/first", "v1", 8<<20)
	second := pushImage(t, reg.Addr, "dataport/second", "v1", 8<<20)
	a.pull(first.Ref)
	a.pull(second.Ref)
	a.waitAnnounced(len(first.Blobs) + len(second.Blobs) + 4)

	b.pull(first.Ref)
	if sent := metricValue(t, aMetrics, directSent); int64(sent) < directAtLeast(first.largest().Size) {
		t.Fatalf("A sent %v bytes on the direct path, want at least %d", sent, directAtLeast(first.largest().Size))
	}

	a.restart() // closes B's libp2p connection and moves the data port
	a.waitAnnounced(len(first.Blobs) + len(second.Blobs) + 4)
	before := reg.blobRequests(second.Repo)
	b.pull(second.Ref)
	if got := reg.blobRequests(second.Repo) - before; got != 0 {
		t.Fatalf("B made %d upstream blob requests after A restarted, want 0", got)
	}
	if sent := metricValue(t, aMetrics, directSent); int64(sent) < directAtLeast(second.largest().Size) {
		t.Fatalf("the restarted A sent %v bytes on the direct path, want at least %d: B left it", sent, directAtLeast(second.largest().Size))
	}
	if b.logContains("using libp2p streams") {
		t.Fatal("B gave up A's direct path after A restarted")
	}
}

// directAtLeast is the least of a layer that must come over the direct
// path: the requests a fetch makes at once may go over libp2p streams while
// the direct connection is set up beside them (a request waits for a setup
// a second at most). A clean-clone run saw one piece of an 8 MiB layer go
// that way on a loaded machine.
func directAtLeast(layer int64) int64 {
	return layer - int64(swarm.DefaultConfig().Requests)*pieces.SwarmPieceSize(layer)
}

// portHolder keeps n TCP connections open to a data port, opening another
// whenever one is closed, as a host that wants to starve it would.
type portHolder struct {
	opened      atomic.Int64
	resetAtOnce atomic.Int64
	stop        func()
}

func holdDataPort(t *testing.T, fromIP, addr string, n int) *portHolder {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h := &portHolder{}
	var wg sync.WaitGroup
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(fromIP)}, Timeout: 2 * time.Second}
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				opened := time.Now()
				conn, err := d.DialContext(ctx, "tcp", addr)
				switch {
				case err == nil:
					h.opened.Add(1)
					stop := context.AfterFunc(ctx, func() { conn.Close() })
					io.Copy(io.Discard, conn) // sends nothing; returns when closed
					stop()
					conn.Close()
				case errors.Is(err, syscall.ECONNRESET): // reset before the dial returned
					h.opened.Add(1)
				}
				if (err == nil || errors.Is(err, syscall.ECONNRESET)) && time.Since(opened) < 100*time.Millisecond {
					h.resetAtOnce.Add(1)
				}
				select {
				case <-ctx.Done():
				case <-time.After(250 * time.Millisecond):
				}
			}
		}()
	}
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			wg.Wait()
		})
	}
	t.Cleanup(h.stop)
	return h
}
