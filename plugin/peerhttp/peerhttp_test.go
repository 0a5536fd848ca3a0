package peerhttp

import (
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

func newHost(t testing.TB) host.Host {
	t.Helper()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func connected(t *testing.T, handler http.Handler, opts ClientOptions) (*Client, peer.ID) {
	t.Helper()
	server, client := newHost(t), newHost(t)
	srv, err := Serve(server, handler, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client.Peerstore().AddAddrs(server.ID(), server.Addrs(), time.Hour)
	c := NewClient(client, opts)
	t.Cleanup(c.Close)
	return c, server.ID()
}

func TestRequestReachesPeerAndSeesCallerID(t *testing.T) {
	var caller string
	c, p := connected(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller = r.RemoteAddr
		io.WriteString(w, "hello "+r.URL.Path)
	}), ClientOptions{})
	for i := 0; i < 3; i++ { // the second and third reuse the stream
		req, _ := http.NewRequest(http.MethodGet, "/v2/app/blobs/x", nil)
		resp, err := c.Do(p, req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "hello /v2/app/blobs/x" {
			t.Fatalf("body %q", body)
		}
	}
	if caller == "" {
		t.Fatal("handler did not learn the caller's peer ID")
	}
}

func TestStalledPeerIsAbandonedAfterIdleTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	c, p := connected(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, strings.Repeat("x", 10))
		w.(http.Flusher).Flush()
		<-release // connection stays open, nothing more is sent
	}), ClientOptions{IdleTimeout: 200 * time.Millisecond})
	req, _ := http.NewRequest(http.MethodGet, "/stall", nil)
	resp, err := c.Do(p, req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	done := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(resp.Body)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("stalled body read ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stalled peer was not abandoned")
	}
}

// A request may let its body go silent longer than the idle timeout: its
// connection, handed to it, is told how much longer.
func TestARequestMayExtendItsConnectionsIdleTimeout(t *testing.T) {
	c, p := connected(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "20")
		io.WriteString(w, strings.Repeat("x", 10))
		w.(http.Flusher).Flush()
		time.Sleep(600 * time.Millisecond) // silent past the idle timeout
		io.WriteString(w, strings.Repeat("y", 10))
	}), ClientOptions{IdleTimeout: 200 * time.Millisecond})
	get := func(extend time.Duration) error {
		told := false
		ctx := httptrace.WithClientTrace(t.Context(), &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
			if conn, ok := info.Conn.(interface{ ExtendIdle(time.Duration) }); ok {
				conn.ExtendIdle(extend)
				told = true
			}
		}})
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "/slow", nil)
		resp, err := c.Do(p, req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if !told {
			t.Fatal("the request's connection cannot extend its idle timeout")
		}
		_, err = io.ReadAll(resp.Body)
		return err
	}
	if err := get(0); err == nil {
		t.Fatal("a body silent for 600 ms read whole with an idle timeout of 200 ms")
	}
	if err := get(time.Second); err != nil {
		t.Fatalf("a body silent for 600 ms, idle timeout extended by 1 s: %v", err)
	}
}

func TestUnreachablePeerFailsWithinDialTimeout(t *testing.T) {
	h := newHost(t)
	gone := newHost(t)
	h.Peerstore().AddAddrs(gone.ID(), gone.Addrs(), time.Hour)
	gone.Close()
	c := NewClient(h, ClientOptions{DialTimeout: 500 * time.Millisecond})
	req, _ := http.NewRequest(http.MethodGet, "/v2/", nil)
	done := make(chan error, 1)
	go func() {
		_, err := c.Do(gone.ID(), req)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("request to a stopped peer succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("request to a stopped peer hung")
	}
}

// A request its client abandons (closing the body unread) must end the
// sender's write at once: the stream is reset, not left to fill its flow
// window and wait out the server's idle timeout, holding an upload slot.
func TestAbandonedBodyEndsTheSendersWriteAtOnce(t *testing.T) {
	const idle = 5 * time.Second
	resp, ended := endlessBody(t, idle, ClientOptions{})
	abandoned := time.Now()
	resp.Body.Close()
	select {
	case err := <-ended:
		if took := time.Since(abandoned); took >= idle {
			t.Fatalf("the sender's write ended %v after the body was abandoned (%v): by its idle timeout, not the reset", took, err)
		}
	case <-time.After(2 * idle):
		t.Fatal("the sender kept writing to an abandoned request")
	}
}

// A peer that stops reading what it asked for, its stream still open, is
// dropped by the sender only after four idle timeouts: the
// reader gives up on a silent transfer after one, and on a congested link
// a sender whose write waits for room was giving up first.
func TestASenderWaitsLongerThanItsReaderForAWrite(t *testing.T) {
	const idle = 100 * time.Millisecond
	resp, ended := endlessBody(t, idle, ClientOptions{IdleTimeout: time.Minute})
	defer resp.Body.Close()
	stopped := time.Now() // reads no more; the stream stays open
	select {
	case err := <-ended:
		// Four idle timeouts: a deadline never fires early, but the write
		// that failed may have begun a moment before the reader stopped,
		// hence one less.
		if took := time.Since(stopped); took < 3*idle {
			t.Fatalf("the sender gave up %v after its reader stopped (%v), its reader's idle timeout %v", took, err, idle)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the sender never gave up on a reader that stopped")
	}
}

// endlessBody asks a server with idle timeout idle for a body that never
// ends (far more than a stream's flow window) and reads its first bytes;
// ended receives the error that ends the server's writes.
func endlessBody(t *testing.T, idle time.Duration, opts ClientOptions) (*http.Response, <-chan error) {
	t.Helper()
	ended := make(chan error, 1)
	server, client := newHost(t), newHost(t)
	srv, err := Serve(server, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		block := make([]byte, 64<<10)
		for {
			if _, err := w.Write(block); err != nil {
				ended <- err
				return
			}
		}
	}), idle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client.Peerstore().AddAddrs(server.ID(), server.Addrs(), time.Hour)
	c := NewClient(client, opts)
	t.Cleanup(c.Close)
	req, _ := http.NewRequest(http.MethodGet, "/big", nil)
	resp, err := c.Do(server.ID(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 1000)); err != nil {
		resp.Body.Close()
		t.Fatal(err)
	}
	return resp, ended
}
