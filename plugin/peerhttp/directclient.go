package peerhttp

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// A peer whose direct path failed is reached over libp2p streams until its
// next try: after directRetryMin, doubling while it keeps failing, up to
// directRetryMax. A peer that had restarted or lost this node's libp2p
// connection is back on the direct path within seconds; a firewall that
// drops the port costs a dial of half the dial timeout per try, and tries
// thin out.
const (
	directRetryMin = time.Second
	directRetryMax = time.Minute
)

type directEntry struct {
	addr     string    // "host:port" of its data path; empty: ask the peer
	failures int       // failed tries in a row
	retry    time.Time // no try before this
}

// errRefused: the peer's data port refused, reset or closed the connection,
// or refused this node's identity in the handshake. The peer may no longer
// see this node's libp2p connection (its connection manager trimmed it, or
// it restarted), or its data port moved.
var errRefused = errors.New("direct data path refused the connection")

// directConn opens a connection over p's direct data path. A refusal is
// answered by connecting to p over libp2p again and trying once more.
func (c *Client) directConn(ctx context.Context, p peer.ID) (net.Conn, error) {
	conn, err := c.dialDirect(ctx, p)
	if !errors.Is(err, errRefused) || ctx.Err() != nil {
		return conn, err
	}
	log.G(ctx).WithError(err).WithField("peer", p).Debug("p2p: direct data path refused, connecting to the peer again")
	if cerr := c.host.Connect(ctx, peer.AddrInfo{ID: p}); cerr != nil {
		return nil, fmt.Errorf("%w; connecting again over libp2p: %w", err, cerr)
	}
	return c.dialDirect(ctx, p)
}

// dialDirect opens a TLS connection to p's direct data path, checking in
// the handshake that it is p, and waits until p admits it.
func (c *Client) dialDirect(ctx context.Context, p peer.ID) (net.Conn, error) {
	addr, err := c.dataAddress(ctx, p)
	if err != nil {
		return nil, err
	}
	raw, err := c.dialTCP(ctx, p, addr)
	if err != nil {
		if refusal(err) {
			c.forgetAddress(p) // it may listen elsewhere since it restarted
			return nil, fmt.Errorf("%w: %w", errRefused, err)
		}
		return nil, err
	}
	conf, _ := c.identity.ConfigForPeer(p)
	conf.NextProtos = []string{dataALPN, dataALPNv1}
	batcher := &recordBatcher{Conn: raw}
	tc := tls.Client(batcher, conf)
	err = tc.HandshakeContext(ctx)
	if err == nil && tc.ConnectionState().NegotiatedProtocol == dataALPN {
		err = awaitAdmission(ctx, tc)
	}
	if err != nil {
		raw.Close()
		err = fmt.Errorf("handshake with %s at %s: %w", p, addr, err)
		if refusal(err) {
			c.forgetAddress(p)
			return nil, fmt.Errorf("%w: %w", errRefused, err)
		}
		return nil, err
	}
	release := c.protect.hold(p)
	return &releasingConn{Conn: newBatchedTLS(tc, batcher), release: release}, nil
}

// awaitAdmission reads the server's admission byte (see dataALPN).
func awaitAdmission(ctx context.Context, tc *tls.Conn) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(5 * time.Second)
	}
	tc.SetReadDeadline(deadline)
	var b [1]byte
	if _, err := io.ReadFull(tc, b[:]); err != nil {
		return fmt.Errorf("waiting for admission: %w", err)
	}
	if b[0] != admitted {
		return fmt.Errorf("unexpected admission answer %d", b[0])
	}
	return tc.SetReadDeadline(time.Time{})
}

// refusal reports whether a dial or handshake error is the server's doing:
// a reset or closed connection, or a TLS alert it sent.
func refusal(err error) bool {
	var op *net.OpError
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE) ||
		errors.As(err, &op) && op.Op == "remote error"
}

// dialTCP dials addr from the local address of this node's libp2p
// connection to p, which is the address p admits direct connections from.
func (c *Client) dialTCP(ctx context.Context, p peer.ID, addr string) (net.Conn, error) {
	var d net.Dialer
	if local := c.localAddressTo(p, addr); local.IsValid() {
		d.LocalAddr = &net.TCPAddr{IP: local.AsSlice()}
		conn, err := d.DialContext(ctx, "tcp", addr)
		if !errors.Is(err, syscall.EADDRNOTAVAIL) {
			return conn, err
		}
		d.LocalAddr = nil
	}
	return d.DialContext(ctx, "tcp", addr)
}

// localAddressTo is the local IP address of a libp2p connection to p at
// addr's IP address; invalid if there is none.
func (c *Client) localAddressTo(p peer.ID, addr string) netip.Addr {
	target, err := netip.ParseAddrPort(addr)
	if err != nil {
		return netip.Addr{}
	}
	for _, conn := range c.host.Network().ConnsToPeer(p) {
		if connIP(conn.RemoteMultiaddr()) != target.Addr().Unmap() {
			continue
		}
		if local := connIP(conn.LocalMultiaddr()); local.IsValid() && !local.IsUnspecified() && !local.IsLinkLocalUnicast() {
			return local
		}
	}
	return netip.Addr{}
}

// directDialTimeout bounds a direct connection's setup: its data address,
// TCP dial, TLS handshake and admission, a round trip or two each. Under
// load those round trips are long: in the sixteen-node lab at 8 Mbit/s, with
// every link's queue full, setups bounded by a request's wait (a second)
// failed over a thousand times per rollout, and the nodes moved their
// pieces over libp2p streams. A request waits for a setup no longer than
// before; the setup goes on without it, and the connection it makes serves
// the next request to the peer.
const directDialTimeout = 10 * time.Second

// directDial is one direct connection being set up to a peer; conn, once
// done, waits for the first request to claim it.
type directDial struct {
	done   chan struct{}
	conn   net.Conn // set when done, until claimed
	closed bool     // the client closed: a late conn is not kept
}

// awaitDirect is a direct connection to p when one is set up within wait:
// one set up earlier and not yet claimed, or the one being set up (started
// now if p's direct path is due and none is). Nil: use libp2p streams.
func (c *Client) awaitDirect(ctx context.Context, p peer.ID, wait time.Duration) net.Conn {
	c.mu.Lock()
	d := c.dialing[p]
	if d == nil {
		if !c.directDueLocked(p) {
			c.mu.Unlock()
			return nil
		}
		d = &directDial{done: make(chan struct{})}
		c.dialing[p] = d
		recovery.Go(context.WithoutCancel(ctx), "p2p: setting up a direct data path connection", func(ctx context.Context) { c.dialInBackground(ctx, p, d) })
	}
	c.mu.Unlock()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-d.done:
	case <-t.C:
		return nil
	case <-ctx.Done():
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	conn := d.conn
	d.conn = nil
	if c.dialing[p] == d {
		delete(c.dialing, p) // claimed or failed: the next request sets up another
	}
	return conn
}

// parkedFor is how long a direct connection set up in the background
// waits for a request to claim it. It has sent no request, so its server
// closes it at firstRequestTimeout, and a request sent on it then reads
// EOF: in the sixteen-node lab at 8 Mbit/s, connections kept for 20 s
// made holders "unreachable" 58–90 times per run (four runs), each dropped
// for the rest of its layer; kept for 5 s, none in seven.
const parkedFor = firstRequestTimeout / 2

// dialInBackground sets up d, a direct connection to p, and keeps it for
// the next request to p for a while (parkedFor).
func (c *Client) dialInBackground(ctx context.Context, p peer.ID, d *directDial) {
	dctx, cancel := context.WithTimeout(ctx, directDialTimeout)
	conn, err := c.directConn(dctx, p)
	cancel()
	if err != nil {
		c.directFailed(ctx, p, err)
	} else {
		c.directWorked(p)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if d.closed && conn != nil {
		conn.Close()
		conn = nil
	}
	d.conn = conn
	close(d.done)
	if conn == nil {
		if c.dialing[p] == d {
			delete(c.dialing, p)
		}
		return
	}
	time.AfterFunc(parkedFor, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if d.conn != nil {
			d.conn.Close()
			d.conn = nil
		}
		if c.dialing[p] == d {
			delete(c.dialing, p)
		}
	})
}

// directDueLocked reports whether p's direct path is to be tried now.
func (c *Client) directDueLocked(p peer.ID) bool { return !time.Now().Before(c.direct[p].retry) }

func (c *Client) directWorked(p peer.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.direct[p]; ok && e.failures > 0 {
		e.failures, e.retry = 0, time.Time{}
		c.direct[p] = e
	}
}

// directFailed puts off p's direct path for a growing while.
func (c *Client) directFailed(ctx context.Context, p peer.ID, err error) {
	c.mu.Lock()
	e := c.direct[p]
	e.addr = ""
	e.failures++
	wait := directRetryMax
	if e.failures <= 16 {
		wait = min(directRetryMin<<(e.failures-1), directRetryMax)
	}
	e.retry = time.Now().Add(wait)
	c.setDirectLocked(p, e)
	c.mu.Unlock()

	entry := log.G(ctx).WithError(err).WithField("peer", p)
	switch {
	case e.failures > 1:
		entry.Debugf("p2p: peer's direct data path failed again, using libp2p streams; next try in %s", wait)
	case errors.Is(err, errNoDataAddress):
		entry.Debug("p2p: peer offers no direct data path, using libp2p streams")
	case errors.Is(err, errRefused):
		entry.Warnf("p2p: peer's direct data path refused this node, using libp2p streams (slower); next try in %s", wait)
	default:
		entry.Warnf("p2p: peer's direct data path unreachable, using libp2p streams (slower); next try in %s; open its data_address port", wait)
	}
}

func (c *Client) forgetAddress(p peer.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.direct[p]; ok {
		e.addr = ""
		c.direct[p] = e
	}
}

func (c *Client) setDirectLocked(p peer.ID, e directEntry) {
	if _, ok := c.direct[p]; !ok && len(c.direct) >= maxTransports {
		clear(c.direct)
	}
	c.direct[p] = e
}

// errNoDataAddress: the peer did not say where its data path listens.
var errNoDataAddress = errors.New("no data address")

// dataAddress asks p, over libp2p, where its direct path listens, and
// remembers the answer.
func (c *Client) dataAddress(ctx context.Context, p peer.ID) (string, error) {
	c.mu.Lock()
	e := c.direct[p]
	c.mu.Unlock()
	if e.addr != "" {
		return e.addr, nil
	}
	addr, err := c.askDataAddress(ctx, p)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errNoDataAddress, err)
	}
	c.mu.Lock()
	e = c.direct[p]
	e.addr = addr
	c.setDirectLocked(p, e)
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

// releasingConn calls release once, when it is closed.
type releasingConn struct {
	net.Conn
	release func()
}

func (c *releasingConn) Close() error {
	c.release()
	return c.Conn.Close()
}
