// Package peerhttp speaks plain HTTP/1.1 to other nodes, so the peer-facing
// content service is an ordinary http.Handler (HEAD, GET, Range via
// http.ServeContent). Requests travel over libp2p streams, or over the
// direct data path (direct.go): TLS 1.3 between libp2p identities, for
// members of the private network only.
package peerhttp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/net/gostream"
	libp2ptls "github.com/libp2p/go-libp2p/p2p/security/tls"
)

// Protocol is the libp2p protocol the content service is served under.
const Protocol protocol.ID = "/shoal/content/1.0.0"

// Defaults of the client's and the servers' timeouts.
const (
	DefaultDialTimeout = 2 * time.Second
	DefaultIdleTimeout = 5 * time.Second
)

// Server serves an http.Handler to peers.
type Server struct {
	srv   *http.Server
	ln    net.Listener
	close func()
	sent  *atomic.Int64 // direct path only
}

// Serve starts serving handler on h under Protocol. The peer ID of the
// caller is in r.RemoteAddr. A peer that stops reading for writeIdleTimes
// idleTimeout has its stream closed, so a slow or stuck reader cannot pin
// a handler.
func Serve(h host.Host, handler http.Handler, idleTimeout time.Duration) (*Server, error) {
	if idleTimeout <= 0 {
		idleTimeout = DefaultIdleTimeout
	}
	gl, err := gostream.Listen(h, Protocol)
	if err != nil {
		return nil, err
	}
	ln := &idleWriteListener{Listener: gl, idle: writeIdleTimes * idleTimeout}
	s := &Server{ln: ln, srv: newHTTPServer(handler)}
	go s.srv.Serve(ln) //nolint:errcheck // returns ErrServerClosed on Close
	return s, nil
}

func newHTTPServer(handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: firstRequestTimeout,
		IdleTimeout:       keepAlive,
		MaxHeaderBytes:    16 << 10,
	}
}

// Close stops accepting requests and closes open streams.
func (s *Server) Close() error {
	if s.close != nil {
		s.close()
	}
	err := s.srv.Close()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// ClientOptions bound every wait of a request to a peer but the wait for
// its answer, which the caller bounds (peerclient: longer for a piece
// asked behind others).
type ClientOptions struct {
	// DialTimeout bounds opening a stream (and, if needed, a connection).
	// Default DefaultDialTimeout.
	DialTimeout time.Duration
	// IdleTimeout abandons a body read after this long without a byte.
	// Default DefaultIdleTimeout.
	IdleTimeout time.Duration
	// Direct sends requests over a peer's direct data path where it has
	// one, and over libp2p streams where it has not.
	Direct bool
}

// Client sends HTTP requests to peers.
type Client struct {
	host     host.Host
	opts     ClientOptions
	identity *libp2ptls.Identity // for the direct path; nil: libp2p only
	protect  *protector

	mu         sync.Mutex
	transports map[peer.ID]peerTransports
	direct     map[peer.ID]directEntry
	dialing    map[peer.ID]*directDial
}

// maxTransports bounds the per-peer connection pools kept around.
const maxTransports = 256

// idleConnTimeout drops a pooled connection unused for this long: before
// the peer's keepAlive, so that the client, not the server, ends it.
const idleConnTimeout = 20 * time.Second

// NewClient returns a client that reaches peers through h.
func NewClient(h host.Host, opts ClientOptions) *Client {
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = DefaultDialTimeout
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	c := &Client{
		host:       h,
		opts:       opts,
		protect:    newProtector(h.ConnManager(), protectFetch),
		transports: map[peer.ID]peerTransports{},
		direct:     map[peer.ID]directEntry{},
		dialing:    map[peer.ID]*directDial{},
	}
	if opts.Direct {
		id, err := hostIdentity(h)
		if err != nil {
			log.L.WithError(err).Warn("p2p: direct data path off; peers are reached over libp2p streams")
		}
		c.identity = id
	}
	return c
}

// Do sends req to peer p. The request URL's path and query are used; its
// host is ignored. It goes over p's direct data path where a connection
// to it is open or set up within half the dial timeout, and over a libp2p
// stream otherwise.
func (c *Client) Do(p peer.ID, req *http.Request) (*http.Response, error) {
	req.URL.Scheme = "http"
	req.URL.Host = "peer" // routing is by transport, not by name
	req.Host = "peer"
	t := c.transport(p)
	if t.direct != nil {
		resp, err := t.direct.RoundTrip(req)
		if !errors.Is(err, errNoDirect) {
			return resp, err
		}
		// Nothing was sent: the request goes over a stream instead.
	}
	return t.stream.RoundTrip(req)
}

// errNoDirect: no direct connection to the peer is at hand.
var errNoDirect = errors.New("no direct data path connection at hand")

// peerTransports pool a peer's connections, one transport per path, so
// that connections of one path are not reused for requests while the other
// serves: streams opened while a direct connection was being set up are
// used only while none is at hand. One pair per peer: http.Transport pools
// connections by host name, and peer IDs are case-sensitive while host
// names are not.
type peerTransports struct {
	direct *http.Transport // nil: no direct path
	stream *http.Transport
}

func (t peerTransports) closeIdle() {
	if t.direct != nil {
		t.direct.CloseIdleConnections()
	}
	t.stream.CloseIdleConnections()
}

func (c *Client) transport(p peer.ID) peerTransports {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.transports[p]; ok {
		return t
	}
	if len(c.transports) >= maxTransports {
		for id, t := range c.transports {
			t.closeIdle()
			delete(c.transports, id)
			break
		}
	}
	t := peerTransports{stream: c.newTransport(func(ctx context.Context) (net.Conn, error) {
		// Only an error of this path is the request's: a failed direct
		// path that a stream replaces costs the peer nothing.
		conn, err := gostream.Dial(ctx, c.host, p, Protocol)
		if err != nil {
			return nil, fmt.Errorf("open stream to peer %s: %w", p, err)
		}
		return resettingConn{conn}, nil
	})}
	if c.identity != nil {
		t.direct = c.newTransport(func(ctx context.Context) (net.Conn, error) {
			// Half the bound at most, so the libp2p path still has time.
			if conn := c.awaitDirect(ctx, p, c.opts.DialTimeout/2); conn != nil {
				return conn, nil
			}
			return nil, errNoDirect
		})
	}
	c.transports[p] = t
	return t
}

func (c *Client) newTransport(dial func(context.Context) (net.Conn, error)) *http.Transport {
	return &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			ctx, cancel := context.WithTimeout(ctx, c.opts.DialTimeout)
			defer cancel()
			conn, err := dial(ctx)
			if err != nil {
				return nil, err
			}
			return &idleConn{Conn: conn, idle: c.opts.IdleTimeout}, nil
		},
		// A node fetching layers by pieces keeps up to PerHolder requests
		// per layer, and a state poll, open with one peer; with 4 kept idle
		// the rest were closed after each answer and dialled again (TLS
		// handshakes: 13.9% of the nodes' CPU in the six-node piece lab,
		// 11.9% with 16).
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     idleConnTimeout,
		DisableCompression:  true,
	}
}

// Close drops every pooled stream.
func (c *Client) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, t := range c.transports {
		t.closeIdle()
		delete(c.transports, id)
	}
	clear(c.direct)
	for _, d := range c.dialing {
		d.closed = true
		if d.conn != nil {
			d.conn.Close()
			d.conn = nil
		}
	}
	clear(c.dialing)
}

// resettingConn resets its stream on Close. The transport closes a
// connection when it gives up on a response (cancelled, timed out, body
// closed unread) or drops an idle one; a stream merely closed stops being
// read without telling the peer, whose writes then fill the stream's flow
// window and wait out its idle timeout, holding an upload slot (in the
// sixteen-node lab, about a hundred pieces per node ended so, five seconds
// each).
type resettingConn struct{ net.Conn }

func (c resettingConn) Close() error {
	if s, ok := c.Conn.(interface{ Reset() error }); ok {
		return s.Reset()
	}
	return c.Conn.Close()
}

// idleConn fails a read that sees no byte for idle, so a peer that keeps its
// connection open but stops sending cannot stall a pull.
type idleConn struct {
	net.Conn
	idle  time.Duration
	extra atomic.Int64 // ExtendIdle
}

func (c *idleConn) Read(b []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(time.Now().Add(c.wait())); err != nil {
		return 0, err
	}
	return c.Conn.Read(b)
}

func (c *idleConn) wait() time.Duration { return c.idle + time.Duration(c.extra.Load()) }

// ExtendIdle lets the reads of the request the connection now carries wait
// d longer than the idle timeout for a byte, a read already waiting too.
// The client calls it for every request it sends (peerclient: a piece
// asked behind others may go silent while they arrive).
func (c *idleConn) ExtendIdle(d time.Duration) {
	c.extra.Store(int64(max(d, 0)))
	c.Conn.SetReadDeadline(time.Now().Add(c.wait()))
}

// writeIdleTimes is how many idle timeouts a server's write waits before
// it drops the peer. The peer, reading, abandons a transfer that brings it
// no byte for one idle timeout (idleConn) and asks elsewhere; a write
// waits for room for a whole TLS record (16 KiB), which a congested link
// can take longer to free while bytes still move. At one idle timeout the
// senders gave up first: sixteen nodes at 8 Mbit/s, a 96 MiB image, two
// runs: 848 piece sends ended by their sender's deadline, 196 of them one
// seed's, in a run where that seed sent 1.91 copies and the others ended
// at 1.93× size ÷ link. With four (20 s), five runs: none in the two
// counted, the fetches' medians 1.46–1.51×, no node sending more than
// 1.37 copies.
const writeIdleTimes = 4

type idleWriteListener struct {
	net.Listener
	idle time.Duration
}

func (l *idleWriteListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &idleWriteConn{Conn: c, idle: l.idle}, nil
}

// idleWriteConn fails a write that cannot hand a byte to the peer for idle.
type idleWriteConn struct {
	net.Conn
	idle time.Duration
}

func (c *idleWriteConn) Write(b []byte) (int, error) {
	if err := c.Conn.SetWriteDeadline(time.Now().Add(c.idle)); err != nil {
		return 0, err
	}
	return c.Conn.Write(b)
}
