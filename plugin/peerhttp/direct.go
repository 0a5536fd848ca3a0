package peerhttp

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	libp2ptls "github.com/libp2p/go-libp2p/p2p/security/tls"
	manet "github.com/multiformats/go-multiaddr/net"
)

// The direct data path: the same content service over TLS 1.3 on its own
// TCP port, beside the libp2p connection rather than inside it. A libp2p
// stream of a private network is encrypted twice (the network key's
// XSalsa20 under TLS) and multiplexed by one goroutine per connection; the
// direct path is one AES-GCM layer on a plain TCP connection per request
// stream, which is what makes peer transfers run at disk and hash speed.
//
// It keeps the private network's guarantees: both ends prove their libp2p
// identity in the handshake (libp2p's own TLS certificates, so the client
// checks it reached the peer it meant), and the server admits only peers
// that hold a connection to it over the libp2p network at that moment,
// which only the network key's holders (and the allow-list) can have.

// DataAddressProtocol is how a connected peer learns where the direct data
// path listens.
const DataAddressProtocol protocol.ID = "/shoal/data-address/1.0.0"

// dataALPN keeps direct-path handshakes apart from libp2p's.
const dataALPN = "shoal-data/1"

// DirectOptions tune the direct data path's listener.
type DirectOptions struct {
	// IdleTimeout closes a connection whose reader takes no byte for this long.
	IdleTimeout time.Duration
	// HandshakeTimeout bounds one TLS handshake. Default 5s.
	HandshakeTimeout time.Duration
	// MaxHandshakes bounds handshakes in progress at once; more connections
	// are closed at once. Default 64.
	MaxHandshakes int
}

// ServeDirect serves handler on the direct data path at addr ("host:port")
// and answers DataAddressProtocol on h with where it listens. The caller's
// peer ID is in r.RemoteAddr, as on the libp2p path.
func ServeDirect(h host.Host, addr string, handler http.Handler, opts DirectOptions) (*Server, error) {
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = 5 * time.Second
	}
	if opts.HandshakeTimeout <= 0 {
		opts.HandshakeTimeout = 5 * time.Second
	}
	if opts.MaxHandshakes <= 0 {
		opts.MaxHandshakes = 64
	}
	identity, err := hostIdentity(h)
	if err != nil {
		return nil, err
	}
	tcp, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("direct data path: %w", err)
	}
	ln := &memberListener{
		tcp:      tcp,
		identity: identity,
		admit: func(p peer.ID) bool {
			return h.Network().Connectedness(p) == network.Connected
		},
		opts:  opts,
		sent:  new(atomic.Int64),
		conns: make(chan net.Conn),
		done:  make(chan struct{}),
	}
	go ln.run()
	advertised := advertisedAddress(tcp.Addr().(*net.TCPAddr))
	h.SetStreamHandler(DataAddressProtocol, func(s network.Stream) {
		defer s.Close()
		s.SetWriteDeadline(time.Now().Add(opts.HandshakeTimeout))
		io.WriteString(s, advertised+"\n") //nolint:errcheck // the peer falls back to libp2p
	})
	s := &Server{
		ln:    ln,
		srv:   newHTTPServer(handler),
		close: func() { h.RemoveStreamHandler(DataAddressProtocol) },
		sent:  ln.sent,
	}
	go s.srv.Serve(&idleWriteListener{Listener: ln, idle: opts.IdleTimeout}) //nolint:errcheck // ErrServerClosed
	return s, nil
}

// Addr is where the server listens.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// SentBytes is how many bytes (TLS records included) the direct data path
// sent; zero for a libp2p-stream server.
func (s *Server) SentBytes() int64 {
	if s.sent == nil {
		return 0
	}
	return s.sent.Load()
}

// advertisedAddress is "ip:port", or ":port" when the listener is on every
// address: the peer then uses the address it reaches this node's libp2p
// connection at.
func advertisedAddress(a *net.TCPAddr) string {
	if a.IP == nil || a.IP.IsUnspecified() {
		return fmt.Sprintf(":%d", a.Port)
	}
	return a.String()
}

func hostIdentity(h host.Host) (*libp2ptls.Identity, error) {
	key := h.Peerstore().PrivKey(h.ID())
	if key == nil {
		return nil, errors.New("direct data path: the host's private key is not in its peerstore")
	}
	return libp2ptls.NewIdentity(key)
}

// memberListener hands out connections that completed a TLS handshake with
// an admitted peer. Handshakes run concurrently, so a slow or hostile
// client cannot hold up the others.
type memberListener struct {
	tcp      net.Listener
	identity *libp2ptls.Identity
	admit    func(peer.ID) bool
	opts     DirectOptions
	sent     *atomic.Int64

	conns     chan net.Conn
	done      chan struct{}
	closeOnce sync.Once
}

func (l *memberListener) run() {
	slots := make(chan struct{}, l.opts.MaxHandshakes)
	for {
		raw, err := l.tcp.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			l.Close()
			return
		}
		select {
		case slots <- struct{}{}:
		default:
			raw.Close() // too many handshakes at once
			continue
		}
		go func() {
			defer func() { <-slots }()
			conn, err := l.handshake(raw)
			if err != nil {
				log.L.WithError(err).WithField("remote", raw.RemoteAddr()).Debug("p2p: direct data path refused a connection")
				raw.Close()
				return
			}
			select {
			case l.conns <- conn:
			case <-l.done:
				conn.Close()
			}
		}()
	}
}

func (l *memberListener) handshake(raw net.Conn) (net.Conn, error) {
	conf, keys := l.identity.ConfigForPeer("")
	verify := conf.VerifyPeerCertificate
	var remote peer.ID
	conf.VerifyPeerCertificate = func(certs [][]byte, chains [][]*x509.Certificate) error {
		if err := verify(certs, chains); err != nil {
			return err
		}
		id, err := peer.IDFromPublicKey(<-keys)
		if err != nil {
			return err
		}
		if !l.admit(id) {
			return fmt.Errorf("peer %s has no connection over the private peer network", id)
		}
		remote = id
		return nil
	}
	conf.NextProtos = []string{dataALPN}
	ctx, cancel := context.WithTimeout(context.Background(), l.opts.HandshakeTimeout)
	defer cancel()
	batcher := &recordBatcher{Conn: raw}
	tc := tls.Server(batcher, conf)
	if err := tc.HandshakeContext(ctx); err != nil {
		return nil, err
	}
	return &peerConn{Conn: newBatchedTLS(tc, batcher), remote: remote, sent: l.sent}, nil
}

func (l *memberListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *memberListener) Close() error {
	l.closeOnce.Do(func() {
		close(l.done)
		l.tcp.Close()
	})
	return nil
}

func (l *memberListener) Addr() net.Addr { return l.tcp.Addr() }

// peerConn names its remote end by peer ID, as gostream's connections do.
type peerConn struct {
	net.Conn
	remote peer.ID
	sent   *atomic.Int64
}

func (c *peerConn) RemoteAddr() net.Addr { return peerAddr(c.remote) }

func (c *peerConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.sent.Add(int64(n))
	return n, err
}

type peerAddr peer.ID

func (a peerAddr) Network() string { return "libp2p" }
func (a peerAddr) String() string  { return peer.ID(a).String() }

// directUnavailableTTL is how long a peer whose direct path failed is
// reached through libp2p streams only: a firewall that drops the port
// costs a dial timeout each time it is tried.
const directUnavailableTTL = 10 * time.Minute

type directEntry struct {
	addr  string    // "host:port"; empty: unavailable
	until time.Time // for an unavailable entry
}

// dialDirect opens a TLS connection to p's direct data path, checking in
// the handshake that it is p.
func (c *Client) dialDirect(ctx context.Context, p peer.ID) (net.Conn, error) {
	addr, err := c.dataAddress(ctx, p)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	raw, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		c.directFailed(p)
		log.G(ctx).WithError(err).WithField("peer", p).WithField("address", addr).
			Warnf("p2p: peer's direct data path unreachable, using libp2p streams (slower) for %s; open its data_address port", directUnavailableTTL)
		return nil, err
	}
	conf, _ := c.identity.ConfigForPeer(p)
	conf.NextProtos = []string{dataALPN}
	batcher := &recordBatcher{Conn: raw}
	tc := tls.Client(batcher, conf)
	if err := tc.HandshakeContext(ctx); err != nil {
		raw.Close()
		c.directFailed(p)
		return nil, fmt.Errorf("handshake with %s at %s: %w", p, addr, err)
	}
	return newBatchedTLS(tc, batcher), nil
}

func (c *Client) directFailed(p peer.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.direct[p] = directEntry{until: time.Now().Add(directUnavailableTTL)}
}

// dataAddress asks p, over libp2p, where its direct path listens, and
// remembers the answer.
func (c *Client) dataAddress(ctx context.Context, p peer.ID) (string, error) {
	c.mu.Lock()
	e, ok := c.direct[p]
	c.mu.Unlock()
	if ok && e.addr != "" {
		return e.addr, nil
	}
	if ok && time.Now().Before(e.until) {
		return "", errors.New("direct data path unavailable")
	}
	addr, err := c.askDataAddress(ctx, p)
	if err != nil {
		c.directFailed(p)
		return "", err
	}
	c.mu.Lock()
	if len(c.direct) >= maxTransports {
		clear(c.direct)
	}
	c.direct[p] = directEntry{addr: addr}
	c.mu.Unlock()
	return addr, nil
}

func (c *Client) askDataAddress(ctx context.Context, p peer.ID) (string, error) {
	s, err := c.host.NewStream(ctx, p, DataAddressProtocol)
	if err != nil {
		return "", err
	}
	defer s.Close()
	if d, ok := ctx.Deadline(); ok {
		s.SetReadDeadline(d)
	}
	line, err := bufio.NewReader(io.LimitReader(s, 128)).ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("read data address of %s: %w", p, err)
	}
	ip, err := manet.ToIP(s.Conn().RemoteMultiaddr())
	if err != nil {
		return "", fmt.Errorf("data address of %s: %w", p, err)
	}
	addr, err := dataAddress(line, ip)
	if err != nil {
		return "", fmt.Errorf("data address of %s: %w", p, err)
	}
	return addr, nil
}

// dataAddress is where to dial a peer's data path, from its answer
// ("[host]:port") and the address its libp2p connection comes from. Only
// the port is taken from the peer: a member must not be able to point
// others' connections at another host.
func dataAddress(answer string, connIP net.IP) (string, error) {
	answer = strings.TrimSuffix(answer, "\n")
	host, portText, err := net.SplitHostPort(answer)
	if err != nil {
		return "", err
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil || port == 0 {
		return "", fmt.Errorf("invalid port %q", portText)
	}
	if host != "" {
		ip := net.ParseIP(host)
		if ip == nil || (!ip.IsUnspecified() && !ip.Equal(connIP)) {
			return "", fmt.Errorf("address %q is not the peer's own (%s)", answer, connIP)
		}
	}
	return net.JoinHostPort(connIP.String(), strconv.FormatUint(port, 10)), nil
}
