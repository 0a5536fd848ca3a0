package integration

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// A holder that sheds load (429) is asked again by the next pull: the
// busiest holder during a rollout is the most useful one, and must not be
// skipped cluster-wide for being busy.
func TestAHolderThatShedsLoadIsStillUsedByTheNextPull(t *testing.T) {
	reg := startRegistry(t)
	// Paced, so that the layers containerd fetches three at a time are in
	// flight together: more than A serves one peer at once.
	a := startNode(t, "A", nodeOptions{extra: "  max_serving_requests_per_peer = 2\n  max_upload_bytes_per_second = 50000000\n"})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	busy := pushImage(t, reg.Addr, "limits/busy", "v1", 16<<20, 16<<20, 16<<20, 16<<20, 16<<20, 16<<20)
	next := pushImage(t, reg.Addr, "limits/next", "v1", 16<<20)
	a.pull(busy.Ref)
	a.pull(next.Ref)
	a.waitAnnounced(len(busy.Blobs) + len(next.Blobs) + 2)

	b.pull(busy.Ref)
	if n := b.counter("busy_answers"); n == 0 {
		t.Fatal("A never answered 429: the setup did not make it shed load")
	}

	// A busy holder is left alone for a second (penalty.Options.BusyTTL).
	time.Sleep(1500 * time.Millisecond)
	before := reg.blobRequests(next.Repo)
	b.pull(next.Ref)
	if n := reg.blobRequests(next.Repo) - before; n != 0 {
		st, err := b.status()
		t.Fatalf("B's next pull made %d upstream blob requests: the holder that shed load was skipped; "+
			"B's recent failures: %+v (%v)", n, st.RecentFailures, err)
	}
}

// counter reads one of `shoal status`'s counters.
func (n *node) counter(name string) int64 {
	n.t.Helper()
	st, err := n.status()
	if err != nil {
		n.t.Fatal(err)
	}
	return st.Counters[name]
}

// tcpProxy forwards TCP to target; answer copies each connection's answer
// from the target to the client.
type tcpProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startProxy(t *testing.T, target string, answer func(client, target net.Conn)) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln}
	t.Cleanup(p.close)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go io.Copy(up, c) //nolint:errcheck // ends when either side closes
			go answer(c, up)
		}
	}()
	return p
}

// startStallingProxy stops sending to the client once a connection's
// answer passes limit bytes, holding the connection open: a registry that
// goes silent mid-body.
func startStallingProxy(t *testing.T, target string, limit int64) *tcpProxy {
	return startProxy(t, target, func(client, target net.Conn) {
		io.CopyN(client, target, limit) //nolint:errcheck
		// Silent from here on; the connection stays open.
	})
}

// startPacedProxy sends each connection's answer at rate bytes a second at
// most, as registries behind a CDN limit each connection.
func startPacedProxy(t *testing.T, target string, rate int64) *tcpProxy {
	return startProxy(t, target, func(client, target net.Conn) {
		defer client.Close()
		buf := make([]byte, 16<<10)
		next := time.Now()
		for {
			n, err := target.Read(buf)
			if n > 0 {
				if _, err := client.Write(buf[:n]); err != nil {
					return
				}
				// No credit for idle time: a kept-alive connection gets no
				// burst on its next request.
				next = later(next, time.Now()).Add(time.Duration(int64(n) * int64(time.Second) / rate))
				time.Sleep(time.Until(next))
			}
			if err != nil {
				return
			}
		}
	})
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (p *tcpProxy) addr() string { return p.ln.Addr().String() }

func (p *tcpProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// A registry that stops sending in the middle of a layer makes the pull
// fail with an error that says so, within upstream_idle_timeout; it never
// hangs (ctr and kubelet set no deadline of their own).
func TestARegistryThatStallsMidBodyNeverHangsAPull(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{extra: "  upstream_idle_timeout = \"2s\"\n"})
	im := pushImage(t, reg.Addr, "stall/layer", "v1", 8<<20)
	proxy := startStallingProxy(t, reg.Addr, 1<<20)
	ref := strings.Replace(im.Ref, reg.Addr, proxy.addr(), 1)

	start := time.Now()
	out, err := a.ctrErr(2*time.Minute, "image", "pull", "--plain-http", ref)
	if err == nil {
		t.Fatalf("a pull from a registry that stopped sending succeeded:\n%s", out)
	}
	if !strings.Contains(out, "upstream registry stopped sending") {
		t.Fatalf("the pull failed after %s without saying the registry stalled: %v\n%s", time.Since(start).Round(time.Millisecond), err, out)
	}
	t.Logf("the pull failed %s after it started: %s", time.Since(start).Round(time.Millisecond), regexpLast(out, `[^\n]*stopped sending[^\n]*`))
}
