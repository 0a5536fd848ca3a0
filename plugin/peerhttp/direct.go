package peerhttp

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/connmgr"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	libp2ptls "github.com/libp2p/go-libp2p/p2p/security/tls"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// The direct data path: the same content service over TLS 1.3 on its own
// TCP port, beside the libp2p connection rather than inside it. A libp2p
// stream of a private network is encrypted twice (the network key's
// XSalsa20 under TLS) and multiplexed by one goroutine per connection; the
// direct path is one AES-GCM layer on a plain TCP connection per request
// stream, which is what makes peer transfers run at disk and hash speed.
//
// It keeps the private network's guarantees, and admits members only, in
// three steps:
//
//  1. Before TLS: a TCP connection is kept only if its source address is
//     the remote address of one of the host's libp2p connections, which
//     only the network key's holders (and the allow-lists) can have. Any
//     other host's connection is reset at once: it holds no handshake slot.
//  2. In the handshake: both ends prove their libp2p identity (libp2p's own
//     TLS certificates, so the client checks it reached the peer it meant),
//     and the server admits only a peer ID that holds a libp2p connection
//     to it at that moment, within its per-peer connection limit.
//  3. While open: when a peer's last libp2p connection ends, its direct
//     connections are closed with it. The libp2p connection of a peer with
//     open direct connections is protected from the connection manager.

// DefaultDataPort is the TCP port the direct data path listens on, beside
// libp2p's (router.DefaultPort).
const DefaultDataPort = 5051

// DataAddressProtocol is how a connected peer learns where the direct data
// path listens.
const DataAddressProtocol protocol.ID = "/shoal/data-address/1.0.0"

// ALPN names of the direct path, newest first. On dataALPN the server
// confirms admission with one byte (admitted) once the handshake is done:
// in TLS 1.3 the client's handshake completes before the server has
// checked its certificate, and without the byte a refusal would reach the
// client as the failure of its first request. dataALPNv1 (no byte) is what
// nodes before it speak; both are served.
const (
	dataALPN   = "shoal-data/2"
	dataALPNv1 = "shoal-data/1"
	admitted   = byte(1)
)

// keepAlive closes a connection that waits this long for its next request
// (both paths; clients drop idle connections sooner, see Client).
const keepAlive = 30 * time.Second

// firstRequestTimeout closes a connection whose first request has not
// arrived this long after it was accepted (http.Server.ReadHeaderTimeout).
const firstRequestTimeout = 10 * time.Second

// Tags under which the libp2p connection of a peer with open direct
// connections is protected from the connection manager: closing it would
// close them too.
const (
	protectServing = "shoal-data-in"
	protectFetch   = "shoal-data-out"
)

// DirectOptions tune the direct data path's listener.
type DirectOptions struct {
	// IdleTimeout: a write that cannot hand a byte to the peer for
	// writeIdleTimes this long fails. Default DefaultIdleTimeout.
	IdleTimeout time.Duration
	// HandshakeTimeout bounds the TLS handshake of one connection, from
	// its accept to the admission. Default 3s.
	HandshakeTimeout time.Duration
	// MaxHandshakes bounds handshakes in progress at once, in all; more
	// connections are reset at once. Default 64.
	MaxHandshakes int
	// MaxHandshakesPerAddress bounds handshakes in progress from one
	// source address (several members may share one behind NAT). Default 32.
	MaxHandshakesPerAddress int
	// MaxConnsPerPeer bounds the open connections of one peer; more are
	// refused in the handshake (the peer then uses a libp2p stream).
	// Default 64: twice the content service's default per-peer requests.
	MaxConnsPerPeer int
}

func (o *DirectOptions) setDefaults() {
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = 3 * time.Second
	}
	if o.MaxHandshakes <= 0 {
		o.MaxHandshakes = 64
	}
	if o.MaxHandshakesPerAddress <= 0 {
		o.MaxHandshakesPerAddress = 32
	}
	if o.MaxConnsPerPeer <= 0 {
		o.MaxConnsPerPeer = 64
	}
}

// ServeDirect serves handler on the direct data path at addr ("host:port")
// and answers DataAddressProtocol on h with where it listens. The caller's
// peer ID is in r.RemoteAddr, as on the libp2p path.
func ServeDirect(h host.Host, addr string, handler http.Handler, opts DirectOptions) (*Server, error) {
	tcp, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("direct data path: %w", err)
	}
	s, err := serveDirect(h, tcp, handler, opts)
	if err != nil {
		tcp.Close()
	}
	return s, err
}

// serveDirect is ServeDirect on a listener of the caller's.
func serveDirect(h host.Host, tcp net.Listener, handler http.Handler, opts DirectOptions) (*Server, error) {
	opts.setDefaults()
	identity, err := hostIdentity(h)
	if err != nil {
		return nil, err
	}
	ln := &memberListener{
		tcp:      tcp,
		identity: identity,
		members:  h.Network(),
		protect:  newProtector(h.ConnManager(), protectServing),
		opts:     opts,
		sent:     new(atomic.Int64),
		conns:    make(chan net.Conn),
		done:     make(chan struct{}),
		pending:  map[netip.Addr]int{},
		open:     map[peer.ID]map[*rawConn]struct{}{},
	}
	notifiee := &network.NotifyBundle{DisconnectedF: ln.disconnected}
	h.Network().Notify(notifiee)
	go ln.run()
	advertised := advertisedAddress(tcp.Addr().(*net.TCPAddr))
	h.SetStreamHandler(DataAddressProtocol, func(s network.Stream) {
		defer s.Close()
		s.SetWriteDeadline(time.Now().Add(opts.HandshakeTimeout))
		io.WriteString(s, advertised+"\n") //nolint:errcheck // the peer falls back to libp2p
	})
	srv := newHTTPServer(handler)
	s := &Server{
		ln:  ln,
		srv: srv,
		close: func() {
			h.RemoveStreamHandler(DataAddressProtocol)
			h.Network().StopNotify(notifiee)
		},
		sent: ln.sent,
	}
	go srv.Serve(&idleWriteListener{Listener: ln, idle: writeIdleTimes * opts.IdleTimeout}) //nolint:errcheck // ErrServerClosed
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

// memberListener hands out connections of admitted members. Handshakes
// run concurrently, so a slow or hostile client cannot hold up the others.
type memberListener struct {
	tcp      net.Listener
	identity *libp2ptls.Identity
	members  network.Network
	protect  *protector
	opts     DirectOptions
	sent     *atomic.Int64

	conns     chan net.Conn
	done      chan struct{}
	closeOnce sync.Once

	mu         sync.Mutex
	handshakes int                               // in progress, in all
	pending    map[netip.Addr]int                // handshakes in progress by source address
	open       map[peer.ID]map[*rawConn]struct{} // admitted connections by peer
	strangers  int                               // reset before TLS since lastReport
	lastReport time.Time
}

// Accept errors are retried after acceptRetryMin, doubling up to
// acceptRetryMax, as net/http's Server does: running out of file
// descriptors must not end the data path for the life of the process.
const (
	acceptRetryMin = 5 * time.Millisecond
	acceptRetryMax = time.Second
)

func (l *memberListener) run() {
	defer recovery.Log(context.Background(), "p2p: direct data path stopped accepting")
	var delay time.Duration
	for {
		raw, err := l.tcp.Accept()
		if err != nil {
			if l.closed() || errors.Is(err, net.ErrClosed) {
				l.Close()
				return
			}
			delay = min(max(2*delay, acceptRetryMin), acceptRetryMax)
			log.L.WithError(err).Warnf("p2p: direct data path could not accept a connection; retrying in %s", delay)
			select {
			case <-time.After(delay):
			case <-l.done:
				return
			}
			continue
		}
		delay = 0
		from := sourceAddr(raw)
		if !l.fromMember(from) {
			l.reset(raw, from)
			continue
		}
		if !l.startHandshake(from) {
			reset(raw)
			continue
		}
		go l.serveConn(&rawConn{Conn: raw}, from)
	}
}

func (l *memberListener) closed() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// sourceAddr is the IP address a connection comes from, IPv4 as IPv4.
func sourceAddr(c net.Conn) netip.Addr {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return a.AddrPort().Addr().Unmap().WithZone("")
	}
	return netip.Addr{}
}

// fromMember reports whether a libp2p connection of the host comes from
// (or goes to) ip.
func (l *memberListener) fromMember(ip netip.Addr) bool {
	if !ip.IsValid() {
		return false
	}
	for _, c := range l.members.Conns() {
		if connIP(c.RemoteMultiaddr()) == ip {
			return true
		}
	}
	return false
}

// connIP is the IP address of a libp2p connection's multiaddr; invalid
// for one without.
func connIP(a ma.Multiaddr) netip.Addr {
	ip, err := manet.ToIP(a)
	if err != nil {
		return netip.Addr{}
	}
	addr, ok := netip.AddrFromSlice(ip)
	if !ok {
		return netip.Addr{}
	}
	return addr.Unmap()
}

// reset refuses a connection from a host without a libp2p connection. It
// is counted, not logged each time: such hosts can open connections
// faster than a log should grow.
func (l *memberListener) reset(raw net.Conn, from netip.Addr) {
	reset(raw)
	l.mu.Lock()
	l.strangers++
	n := l.strangers
	report := time.Since(l.lastReport) >= time.Minute
	if report {
		l.strangers, l.lastReport = 0, time.Now()
	}
	l.mu.Unlock()
	if report {
		log.L.WithField("last", from).Infof("p2p: direct data path reset %d connection(s) from addresses without a peer connection", n)
	}
}

// reset closes c with a TCP reset: no TIME_WAIT is left behind.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0) //nolint:errcheck // closing anyway
	}
	c.Close()
}

func (l *memberListener) startHandshake(from netip.Addr) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.handshakes >= l.opts.MaxHandshakes || l.pending[from] >= l.opts.MaxHandshakesPerAddress {
		return false
	}
	l.handshakes++
	l.pending[from]++
	return true
}

func (l *memberListener) endHandshake(from netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.handshakes--
	if l.pending[from]--; l.pending[from] <= 0 {
		delete(l.pending, from)
	}
}

func (l *memberListener) serveConn(raw *rawConn, from netip.Addr) {
	defer recovery.Log(context.Background(), "p2p: direct data path handshake failed")
	conn, err := l.handshake(raw)
	l.endHandshake(from)
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
}

// handshake runs TLS on raw and admits the peer, within HandshakeTimeout.
func (l *memberListener) handshake(raw *rawConn) (net.Conn, error) {
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
		if err := l.mayAdmit(id); err != nil {
			return err
		}
		remote = id
		return nil
	}
	conf.NextProtos = []string{dataALPN, dataALPNv1}
	deadline := time.Now().Add(l.opts.HandshakeTimeout)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	batcher := &recordBatcher{Conn: raw}
	tc := tls.Server(batcher, conf)
	if err := tc.HandshakeContext(ctx); err != nil {
		return nil, err
	}
	if err := l.admit(remote, raw); err != nil {
		return nil, err
	}
	conn := newBatchedTLS(tc, batcher)
	if tc.ConnectionState().NegotiatedProtocol == dataALPN {
		conn.SetWriteDeadline(deadline)
		if _, err := conn.Write([]byte{admitted}); err != nil {
			return nil, err
		}
		conn.SetWriteDeadline(time.Time{})
	}
	return &peerConn{Conn: conn, remote: remote, sent: l.sent}, nil
}

// mayAdmit is the check in the handshake: id is connected over libp2p and
// has room for another connection.
func (l *memberListener) mayAdmit(id peer.ID) error {
	if l.members.Connectedness(id) != network.Connected {
		return fmt.Errorf("peer %s has no connection over the private peer network", id)
	}
	l.mu.Lock()
	n := len(l.open[id])
	l.mu.Unlock()
	if n >= l.opts.MaxConnsPerPeer {
		return fmt.Errorf("peer %s has %d direct connections open, the most allowed", id, n)
	}
	return nil
}

// admit registers raw as a connection of id, to be closed when id's last
// libp2p connection ends.
func (l *memberListener) admit(id peer.ID, raw *rawConn) error {
	l.mu.Lock()
	conns := l.open[id]
	if len(conns) >= l.opts.MaxConnsPerPeer {
		l.mu.Unlock()
		return fmt.Errorf("peer %s has %d direct connections open, the most allowed", id, len(conns))
	}
	if conns == nil {
		conns = map[*rawConn]struct{}{}
		l.open[id] = conns
	}
	conns[raw] = struct{}{}
	l.mu.Unlock()
	unprotect := l.protect.hold(id)
	release := func() {
		l.mu.Lock()
		delete(l.open[id], raw)
		if len(l.open[id]) == 0 {
			delete(l.open, id)
		}
		l.mu.Unlock()
		unprotect()
	}
	if !raw.onClose(release) {
		release()
		return net.ErrClosed
	}
	// The libp2p connection may have ended between the check in the
	// handshake and the registration: disconnected did not see raw then.
	if l.members.Connectedness(id) != network.Connected {
		return fmt.Errorf("peer %s disconnected during the handshake", id)
	}
	return nil
}

// disconnected closes the direct connections of a peer whose last libp2p
// connection ended: admission holds only while it lasts.
func (l *memberListener) disconnected(n network.Network, c network.Conn) {
	id := c.RemotePeer()
	if n.Connectedness(id) == network.Connected {
		return
	}
	l.mu.Lock()
	var conns []*rawConn
	for raw := range l.open[id] {
		conns = append(conns, raw)
	}
	l.mu.Unlock()
	if len(conns) == 0 {
		return
	}
	log.L.WithField("peer", id).Debugf("p2p: peer disconnected, closing its %d direct data path connection(s)", len(conns))
	for _, raw := range conns {
		raw.Close()
	}
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

// rawConn is the TCP connection under a direct path's TLS. Closing it ends
// the connection at once, whatever TLS or HTTP is doing with it, and
// releases what the connection held.
type rawConn struct {
	net.Conn

	mu      sync.Mutex
	closed  bool
	release func()
}

func (c *rawConn) Close() error {
	c.mu.Lock()
	release := c.release
	c.release, c.closed = nil, true
	c.mu.Unlock()
	if release != nil {
		release()
	}
	return c.Conn.Close()
}

// onClose sets what Close releases; false if c is closed already.
func (c *rawConn) onClose(release func()) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.release = release
	return true
}

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

// protector keeps the libp2p connections of peers with open direct
// connections out of the connection manager's trimming.
type protector struct {
	cm  connmgr.ConnManager
	tag string

	mu    sync.Mutex
	holds map[peer.ID]int
}

func newProtector(cm connmgr.ConnManager, tag string) *protector {
	return &protector{cm: cm, tag: tag, holds: map[peer.ID]int{}}
}

// hold protects id until every release returned for it has been called.
func (p *protector) hold(id peer.ID) (release func()) {
	p.mu.Lock()
	if p.holds[id]++; p.holds[id] == 1 && p.cm != nil {
		p.cm.Protect(id, p.tag)
	}
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.holds[id]--; p.holds[id] <= 0 {
				delete(p.holds, id)
				if p.cm != nil {
					p.cm.Unprotect(id, p.tag)
				}
			}
		})
	}
}
