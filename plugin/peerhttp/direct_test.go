package peerhttp

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	libp2ptls "github.com/libp2p/go-libp2p/p2p/security/tls"
)

// pathRecorder answers with the kind of connection the request came on.
func pathRecorder(callers chan<- string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		select {
		case callers <- r.RemoteAddr:
		default:
		}
		io.WriteString(w, local.Network())
	})
}

func get(t *testing.T, c *Client, p peer.ID) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "/v2/", nil)
	resp, err := c.Do(p, req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

func TestDirectPathCarriesRequestsAndNamesTheCaller(t *testing.T) {
	server, client := newHost(t), newHost(t)
	callers := make(chan string, 4)
	h := pathRecorder(callers)
	for _, start := range []func() (*Server, error){
		func() (*Server, error) { return Serve(server, h, time.Second) },
		func() (*Server, error) { return ServeDirect(server, "127.0.0.1:0", h, DirectOptions{}) },
	} {
		srv, err := start()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
	}
	client.Peerstore().AddAddrs(server.ID(), server.Addrs(), time.Hour)
	c := NewClient(client, ClientOptions{Direct: true})
	t.Cleanup(c.Close)
	for i := 0; i < 3; i++ {
		if got := get(t, c, server.ID()); got != "tcp" {
			t.Fatalf("request %d went over %q, want the direct TCP path", i, got)
		}
	}
	if got := <-callers; got != client.ID().String() {
		t.Fatalf("handler saw caller %q, want %s", got, client.ID())
	}

	plain := NewClient(client, ClientOptions{})
	t.Cleanup(plain.Close)
	if got := get(t, plain, server.ID()); got == "tcp" {
		t.Fatal("client without Direct used the direct path")
	}
}

// rawGET speaks to a direct data path at addr as a host with key would,
// without this package's client: a TLS handshake with key's libp2p
// identity, then one GET. It returns what came back.
func rawGET(t *testing.T, key crypto.PrivKey, server peer.ID, addr string) (string, error) {
	t.Helper()
	id, err := libp2ptls.NewIdentity(key)
	if err != nil {
		t.Fatal(err)
	}
	conf, _ := id.ConfigForPeer(server)
	conf.NextProtos = []string{dataALPN}
	conn, err := tls.Dial("tcp", addr, conf)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(conn, "GET /v2/ HTTP/1.1\r\nHost: peer\r\nConnection: close\r\n\r\n")
	reply, err := io.ReadAll(conn)
	return string(reply), err
}

func TestDirectPathRefusesHostsWithoutAPeerConnection(t *testing.T) {
	server := newHost(t)
	srv, err := ServeDirect(server, "127.0.0.1:0", pathRecorder(make(chan string)), DirectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })

	// A stranger with a valid libp2p identity but no connection to the
	// node (it could not make one without the network key).
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := libp2ptls.NewIdentity(key)
	if err != nil {
		t.Fatal(err)
	}
	conf, _ := id.ConfigForPeer(server.ID())
	conf.NextProtos = []string{dataALPNv1}
	request := func() (string, error) {
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", srv.Addr().String(), conf)
		if err != nil {
			return "", err
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(conn, "GET /v2/ HTTP/1.1\r\nHost: peer\r\n\r\n")
		reply, err := io.ReadAll(conn)
		if err == nil && strings.Contains(string(reply), "200 OK") {
			t.Fatal("a host with no peer connection was served")
		}
		return string(reply), err
	}

	// No libp2p connection comes from its address: reset before TLS.
	if _, err := request(); err == nil || !refusal(err) {
		t.Fatalf("want the connection reset before the handshake, got %v", err)
	}

	// A member connected from the same address: the stranger's address
	// passes, its identity does not.
	member := newHost(t)
	connect(t, member, server)
	reply, err := request()
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("want a TLS alert about the certificate, got %v (reply %q)", err, reply)
	}
}

func TestDirectPathChecksItReachedThePeerItMeant(t *testing.T) {
	server, impostor, client := newHost(t), newHost(t), newHost(t)
	h := pathRecorder(make(chan string, 1))
	for _, start := range []func() (*Server, error){
		func() (*Server, error) { return Serve(server, h, time.Second) },
		func() (*Server, error) { return ServeDirect(impostor, "127.0.0.1:0", h, DirectOptions{}) },
	} {
		srv, err := start()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
	}
	client.Peerstore().AddAddrs(server.ID(), server.Addrs(), time.Hour)
	client.Peerstore().AddAddrs(impostor.ID(), impostor.Addrs(), time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := client.Connect(ctx, peer.AddrInfo{ID: impostor.ID()}); err != nil {
		t.Fatal(err)
	}
	c := NewClient(client, ClientOptions{Direct: true})
	t.Cleanup(c.Close)
	// The server's data address is (wrongly) the impostor's listener.
	impostorAddr, err := c.askDataAddress(ctx, impostor.ID())
	if err != nil {
		t.Fatal(err)
	}
	c.direct[server.ID()] = directEntry{addr: impostorAddr}
	if _, err := c.dialDirect(ctx, server.ID()); err == nil || !strings.Contains(err.Error(), "peer id mismatch") {
		t.Fatalf("dial to the wrong identity: %v, want a peer ID mismatch", err)
	}
	// The request still reaches the real peer, over libp2p.
	if got := get(t, c, server.ID()); got == "tcp" {
		t.Fatal("request went to the impostor's direct path")
	}
}

func TestDataAddressTakesOnlyThePortFromThePeer(t *testing.T) {
	conn := net.ParseIP("10.0.0.7")
	for answer, want := range map[string]string{
		":5051\n":          "10.0.0.7:5051",
		"10.0.0.7:5051\n":  "10.0.0.7:5051",
		"0.0.0.0:6000":     "10.0.0.7:6000",
		"[::]:6000":        "10.0.0.7:6000",
		"10.0.0.8:5051\n":  "",
		"internal.db:5432": "",
		":0":               "",
		":65536":           "",
		":-1":              "",
		"5051":             "",
		"":                 "",
	} {
		got, err := dataAddress(answer, conn)
		if want == "" {
			if err == nil {
				t.Errorf("%q accepted as %s", answer, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %s", answer, got, err, want)
		}
	}
}

func FuzzDataAddress(f *testing.F) {
	for _, s := range []string{":5051\n", "10.0.0.7:5051", "[::1]:1", "x:y", "::::"} {
		f.Add(s)
	}
	conn := net.ParseIP("10.0.0.7")
	f.Fuzz(func(t *testing.T, answer string) {
		addr, err := dataAddress(answer, conn)
		if err != nil {
			return
		}
		host, _, err := net.SplitHostPort(addr)
		if err != nil || host != "10.0.0.7" {
			t.Fatalf("%q gave %q: not the peer's own address", answer, addr)
		}
	})
}

func connect(t *testing.T, from, to host.Host) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := from.Connect(ctx, peer.AddrInfo{ID: to.ID(), Addrs: to.Addrs()}); err != nil {
		t.Fatal(err)
	}
}

// directPair is a server host with both paths and a client host that
// knows its addresses (not yet connected).
func directPair(t *testing.T, opts DirectOptions) (server host.Host, srv *Server, client host.Host, c *Client) {
	t.Helper()
	server, client = newHost(t), newHost(t)
	h := pathRecorder(make(chan string, 1))
	stream, err := Serve(server, h, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stream.Close() })
	srv, err = ServeDirect(server, "127.0.0.1:0", h, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client.Peerstore().AddAddrs(server.ID(), server.Addrs(), time.Hour)
	c = NewClient(client, ClientOptions{Direct: true})
	t.Cleanup(c.Close)
	return server, srv, client, c
}

// holdSockets opens n TCP connections to addr from the local IP from, and
// reports on done how long each lasted until the server closed it.
func holdSockets(t *testing.T, from, addr string, n int) (lasted <-chan time.Duration) {
	t.Helper()
	out := make(chan time.Duration, n)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	for i := 0; i < n; i++ {
		conn, err := d.Dial("tcp", addr)
		if errors.Is(err, syscall.ECONNRESET) {
			out <- 0 // reset before the dial returned
			continue
		}
		if err != nil {
			t.Fatalf("socket %d: %v", i, err)
		}
		t.Cleanup(func() { conn.Close() })
		opened := time.Now()
		go func() {
			conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			io.Copy(io.Discard, conn) // nothing is sent: returns when closed
			out <- time.Since(opened)
		}()
	}
	return out
}

func TestIdleSocketsOfAHostWithoutAPeerConnectionDoNotCrowdOutMembers(t *testing.T) {
	server, srv, client, c := directPair(t, DirectOptions{})
	connect(t, client, server) // from 127.0.0.1
	// 300 idle sockets from 127.0.0.2, which holds no libp2p connection.
	lasted := holdSockets(t, "127.0.0.2", srv.Addr().String(), 300)
	for i := 0; i < 3; i++ {
		if got := get(t, c, server.ID()); got != "tcp" {
			t.Fatalf("request %d went over %q while a stranger held sockets, want the direct path", i, got)
		}
	}
	for i := 0; i < 300; i++ {
		if d := <-lasted; d > 2*time.Second {
			t.Fatalf("a stranger's socket stayed open %s: it must be reset before any handshake", d)
		}
	}
}

func TestIdleSocketsFromAMembersAddressAreBoundedAndTimedOut(t *testing.T) {
	opts := DirectOptions{HandshakeTimeout: 300 * time.Millisecond, MaxHandshakesPerAddress: 4}
	server, srv, client, _ := directPair(t, opts)
	connect(t, client, server)
	lasted := holdSockets(t, "127.0.0.1", srv.Addr().String(), 10)
	short, long := 0, 0
	for i := 0; i < 10; i++ {
		switch d := <-lasted; {
		case d < opts.HandshakeTimeout/2:
			short++ // beyond the per-address bound: reset at once
		case d < 5*time.Second:
			long++ // in a handshake slot until the handshake timeout
		default:
			t.Fatalf("an idle socket stayed open %s, past the handshake timeout", d)
		}
	}
	if long > opts.MaxHandshakesPerAddress {
		t.Fatalf("%d idle sockets from one address held handshake slots, want at most %d", long, opts.MaxHandshakesPerAddress)
	}
	if short < 10-opts.MaxHandshakesPerAddress {
		t.Fatalf("only %d of 10 idle sockets were reset at once", short)
	}
}

func TestDirectConnectionsEndWithThePeersLibp2pConnection(t *testing.T) {
	server, _, client, c := directPair(t, DirectOptions{})
	connect(t, client, server)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := c.directConn(ctx, server.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client.Network().ClosePeer(server.ID())
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = conn.Read(make([]byte, 1))
	var ne net.Error
	if err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("direct connection still open after the libp2p connection closed (read: %v)", err)
	}
}

func TestAMemberRefusedAfterItsLibp2pConnectionEndedReconnectsAndStaysDirect(t *testing.T) {
	server, srv, client, c := directPair(t, DirectOptions{})
	if got := get(t, c, server.ID()); got != "tcp" {
		t.Fatalf("first request went over %q", got)
	}
	// The server's connection manager trims the connection: it closes
	// the peer's direct connections, and knows it no more.
	server.Network().ClosePeer(client.ID())
	waitUntil(t, "the libp2p connection to close", func() bool {
		return client.Network().Connectedness(server.ID()) != network.Connected
	})
	if got := get(t, c, server.ID()); got != "tcp" {
		t.Fatalf("request after the connection ended went over %q, want the direct path", got)
	}

	// The server restarts its data path on another port.
	srv.Close()
	server.Network().ClosePeer(client.ID())
	waitUntil(t, "the libp2p connection to close again", func() bool {
		return client.Network().Connectedness(server.ID()) != network.Connected
	})
	moved, err := ServeDirect(server, "127.0.0.1:0", pathRecorder(make(chan string, 1)), DirectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { moved.Close() })
	if got := get(t, c, server.ID()); got != "tcp" {
		t.Fatalf("request after the data path moved went over %q, want the direct path", got)
	}
	if e := c.direct[server.ID()]; e.failures != 0 {
		t.Fatalf("the direct path was counted as failed %d time(s)", e.failures)
	}
}

func TestAPeerBeyondItsConnectionLimitIsServedOverAStream(t *testing.T) {
	server, _, client, c := directPair(t, DirectOptions{MaxConnsPerPeer: 2})
	connect(t, client, server)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := 0; i < 2; i++ {
		conn, err := c.dialDirect(ctx, server.ID())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
	}
	if _, err := c.dialDirect(ctx, server.ID()); !errors.Is(err, errRefused) {
		t.Fatalf("third connection: %v, want a refusal", err)
	}
	if got := get(t, c, server.ID()); got == "tcp" {
		t.Fatal("a request went over a direct connection beyond the limit")
	}
}

func TestANodeOfThePreviousVersionIsServed(t *testing.T) {
	server, srv, client, _ := directPair(t, DirectOptions{})
	connect(t, client, server)
	id, err := hostIdentity(client)
	if err != nil {
		t.Fatal(err)
	}
	conf, _ := id.ConfigForPeer(server.ID())
	conf.NextProtos = []string{dataALPNv1} // no admission byte
	conn, err := tls.Dial("tcp", srv.Addr().String(), conf)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(conn, "GET /v2/ HTTP/1.1\r\nHost: peer\r\nConnection: close\r\n\r\n")
	reply, _ := io.ReadAll(conn)
	if !strings.HasPrefix(string(reply), "HTTP/1.1 200 OK") || !strings.HasSuffix(string(reply), "tcp") {
		t.Fatalf("reply %q", reply)
	}
}

// flakyListener fails its first Accept as a process out of file
// descriptors does.
type flakyListener struct {
	net.Listener
	failed atomic.Bool
}

func (l *flakyListener) Accept() (net.Conn, error) {
	if !l.failed.Swap(true) {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}

func TestTheDataPathKeepsListeningThroughAcceptErrors(t *testing.T) {
	server, client := newHost(t), newHost(t)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	flaky := &flakyListener{Listener: tcp}
	srv, err := serveDirect(server, flaky, pathRecorder(make(chan string, 1)), DirectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client.Peerstore().AddAddrs(server.ID(), server.Addrs(), time.Hour)
	c := NewClient(client, ClientOptions{Direct: true})
	t.Cleanup(c.Close)
	waitUntil(t, "the first Accept to fail", flaky.failed.Load)
	if got := get(t, c, server.ID()); got != "tcp" {
		t.Fatalf("request after an accept error went over %q, want the direct path", got)
	}
}

func TestTheDirectPathIsTriedAgainWithinSeconds(t *testing.T) {
	c := &Client{direct: map[peer.ID]directEntry{}}
	p := peer.ID("p")
	var waits []time.Duration
	for i := 0; i < 10; i++ {
		c.directFailed(context.Background(), p, errors.New("refused"))
		waits = append(waits, time.Until(c.direct[p].retry).Round(time.Second))
	}
	want := []time.Duration{1, 2, 4, 8, 16, 32, 60, 60, 60, 60}
	for i := range want {
		if waits[i] != want[i]*time.Second {
			t.Fatalf("waits after each failure: %v, want 1s, 2s, 4s, … up to a minute", waits)
		}
	}
	c.directWorked(p)
	if !c.directDue(p) {
		t.Fatal("a direct path that worked is not tried")
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// slowListener hands over each connection delay after it came, as a data
// port behind a full link answers a connection's setup late.
type slowListener struct {
	net.Listener
	delay time.Duration
}

func (l *slowListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err == nil {
		time.Sleep(l.delay)
	}
	return conn, err
}

// slowDirectPair is a server whose data port answers a connection's setup
// three times later than half the client's dial timeout, which the client
// waits for: the client's requests go over streams while it sets up.
func slowDirectPair(t *testing.T) (host.Host, *Client) {
	t.Helper()
	server, client := newHost(t), newHost(t)
	h := pathRecorder(make(chan string, 1))
	stream, err := Serve(server, h, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stream.Close() })
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const wait = 300 * time.Millisecond // half the dial timeout below
	srv, err := serveDirect(server, &slowListener{Listener: tcp, delay: 3 * wait}, h, DirectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client.Peerstore().AddAddrs(server.ID(), server.Addrs(), time.Hour)
	c := NewClient(client, ClientOptions{Direct: true, DialTimeout: 2 * wait})
	t.Cleanup(c.Close)
	connect(t, client, server)
	return server, c
}

func TestADirectConnectionSetUpAfterItsRequestGaveUpServesTheNext(t *testing.T) {
	server, c := slowDirectPair(t)
	if got := get(t, c, server.ID()); got == "tcp" {
		t.Fatal("the first request waited for a direct setup longer than half its dial timeout")
	}
	waitUntil(t, "the direct connection to be set up", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		d := c.dialing[server.ID()]
		return d != nil && d.conn != nil
	})
	if got := get(t, c, server.ID()); got != "tcp" {
		t.Fatalf("the next request went over %q, want the direct connection set up meanwhile", got)
	}
	if !c.directDue(server.ID()) {
		t.Fatal("a setup that succeeded late counted as a failure")
	}
}

// A connection set up for a request that gave up is not handed to a later
// request once its server has closed it for sending no request.
func TestADirectConnectionNotClaimedInTimeIsNotUsed(t *testing.T) {
	t.Parallel() // waits out the server's first-request timeout
	server, c := slowDirectPair(t)
	get(t, c, server.ID()) // over a stream; the direct connection is set up after it
	waitUntil(t, "the direct connection to be set up", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		d := c.dialing[server.ID()]
		return d != nil && d.conn != nil
	})
	time.Sleep(firstRequestTimeout + time.Second)
	get(t, c, server.ID()) // fails if handed the connection the server closed
}

// directDue reports whether p's direct path is to be tried now.
func (c *Client) directDue(p peer.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.directDueLocked(p)
}
