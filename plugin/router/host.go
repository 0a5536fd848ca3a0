package router

import (
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/connmgr"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/core/pnet"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/core/sec"
	bhost "github.com/libp2p/go-libp2p/p2p/host/basic"
	"github.com/libp2p/go-libp2p/p2p/host/eventbus"
	"github.com/libp2p/go-libp2p/p2p/host/observedaddrs"
	"github.com/libp2p/go-libp2p/p2p/host/peerstore/pstoremem"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/net/upgrader"
	"github.com/libp2p/go-libp2p/p2p/protocol/identify"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
	libp2ptls "github.com/libp2p/go-libp2p/p2p/security/tls"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	ma "github.com/multiformats/go-multiaddr"
)

// The host is assembled from the pieces Shoal uses instead of with
// libp2p.New: the root package and its config package refer to the QUIC,
// WebTransport and WebRTC transports at package level, and importing either
// links quic-go, webtransport-go, pion and fx (28 modules, 7 MB) into
// containerd. What is built here is what libp2p.New builds for the options
// Shoal used to pass it: TCP (no port reuse), TLS, yamux, the private-network
// protector, the resource and connection managers, the gater, identify and
// ping, observed-address discovery; no relay, NAT port mapping, AutoNAT,
// hole punching or metrics.

// hostConfig is what the host is made of.
type hostConfig struct {
	key         crypto.PrivKey
	listenAddrs []string
	psk         pnet.PSK // nil: no private network
	rm          network.ResourceManager
	cm          connmgr.ConnManager
	gater       connmgr.ConnectionGater
}

// newHost builds and starts a libp2p host: it listens when it returns. On
// error, everything is closed, rm and cm included, as libp2p.New does.
func newHost(cfg hostConfig) (host.Host, error) {
	var (
		ps peerstore.Peerstore
		sw *swarm.Swarm
	)
	// Until the host exists; from then on its Close closes the swarm, the
	// peerstore and both managers.
	fail := func(err error) (host.Host, error) {
		if sw != nil {
			sw.Close()
		}
		if ps != nil {
			ps.Close()
		}
		cfg.rm.Close()
		cfg.cm.Close()
		return nil, err
	}
	listen := make([]ma.Multiaddr, 0, len(cfg.listenAddrs))
	for _, s := range cfg.listenAddrs {
		a, err := ma.NewMultiaddr(s)
		if err != nil {
			return fail(fmt.Errorf("listen address %q: %w", s, err))
		}
		listen = append(listen, a)
	}
	if pnet.ForcePrivateNetwork && len(cfg.psk) == 0 {
		return fail(pnet.ErrNotInPrivateNetwork)
	}
	id, err := peer.IDFromPrivateKey(cfg.key)
	if err != nil {
		return fail(err)
	}
	if ps, err = pstoremem.NewPeerstore(); err != nil {
		return fail(err)
	}
	if err := errors.Join(ps.AddPrivKey(id, cfg.key), ps.AddPubKey(id, cfg.key.GetPublic())); err != nil {
		return fail(err)
	}

	bus := eventbus.NewBus()
	if sw, err = swarm.NewSwarm(id, ps, bus, swarm.WithConnectionGater(cfg.gater), swarm.WithResourceManager(cfg.rm)); err != nil {
		return fail(err)
	}
	muxers := []upgrader.StreamMuxer{{ID: yamux.ID, Muxer: yamux.DefaultTransport}}
	security, err := libp2ptls.New(libp2ptls.ID, cfg.key, muxers)
	if err != nil {
		return fail(err)
	}
	up, err := upgrader.New([]sec.SecureTransport{security}, muxers, cfg.psk, cfg.rm, cfg.gater)
	if err != nil {
		return fail(err)
	}
	// TCP+TLS+yamux: the fastest secure stack measured here, and the only
	// one that also works with a private-network key.
	// No port reuse: two nodes that dial each other at the same moment
	// (mDNS, mutual bootstrap lists) must not collide into one TCP
	// simultaneous open, which breaks the TLS handshake.
	tpt, err := tcp.NewTCPTransport(up, cfg.rm, nil, tcp.DisableReuseport())
	if err != nil {
		return fail(err)
	}
	if err := sw.AddTransport(tpt); err != nil {
		return fail(err)
	}
	observed, err := observedaddrs.NewManager(bus, sw)
	if err != nil {
		return fail(err)
	}
	bh, err := bhost.NewHost(sw, &bhost.HostOpts{
		EventBus:             bus,
		ConnManager:          cfg.cm,
		EnablePing:           true,
		ObservedAddrsManager: observed,
	})
	if err != nil {
		observed.Close()
		return fail(err)
	}
	h := &basicHost{BasicHost: bh, observed: observed}
	// Like libp2p.New: listening succeeds if one address can be bound.
	if err := sw.Listen(listen...); err != nil {
		h.Close()
		return nil, err
	}
	observed.Start(sw)
	bh.Start()
	return h, nil
}

// basicHost also stops what runs beside the host.
type basicHost struct {
	*bhost.BasicHost
	observed *observedaddrs.Manager
}

func (h *basicHost) Close() error {
	h.observed.Close()
	return h.BasicHost.Close()
}

// resourceManager is libp2p's default (as libp2p.New makes it: scaled to
// the machine, with the limits of the bundled services this host runs),
// plus the configured stream limits.
func resourceManager(limits []StreamLimit) (network.ResourceManager, error) {
	cfg := rcmgr.DefaultLimits
	addServiceLimits(&cfg)
	for _, l := range limits {
		cfg.AddProtocolLimit(l.Protocol, rcmgr.BaseLimit{
			Streams: 2 * l.Total, StreamsInbound: l.Total, StreamsOutbound: l.Total, Memory: 256 << 20,
		}, rcmgr.BaseLimitIncrease{})
		cfg.AddProtocolPeerLimit(l.Protocol, rcmgr.BaseLimit{
			Streams: 2 * l.PerPeer, StreamsInbound: l.PerPeer, StreamsOutbound: l.PerPeer, Memory: 64 << 20,
		}, rcmgr.BaseLimitIncrease{})
	}
	return rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(cfg.AutoScale()))
}

// addServiceLimits is libp2p.SetDefaultServiceLimits (go-libp2p v0.52.0,
// limits.go) for the services this host runs: identify and ping. The
// others it sets limits for (AutoNAT, hole punching, relay) never run here.
func addServiceLimits(cfg *rcmgr.ScalingLimitConfig) {
	cfg.AddServiceLimit(identify.ServiceName,
		rcmgr.BaseLimit{StreamsInbound: 64, StreamsOutbound: 64, Streams: 128, Memory: 4 << 20},
		rcmgr.BaseLimitIncrease{StreamsInbound: 64, StreamsOutbound: 64, Streams: 128, Memory: 4 << 20})
	cfg.AddServicePeerLimit(identify.ServiceName,
		rcmgr.BaseLimit{StreamsInbound: 16, StreamsOutbound: 16, Streams: 32, Memory: 1 << 20},
		rcmgr.BaseLimitIncrease{})
	for _, id := range [...]protocol.ID{identify.ID, identify.IDPush} {
		cfg.AddProtocolLimit(id,
			rcmgr.BaseLimit{StreamsInbound: 64, StreamsOutbound: 64, Streams: 128, Memory: 4 << 20},
			rcmgr.BaseLimitIncrease{StreamsInbound: 64, StreamsOutbound: 64, Streams: 128, Memory: 4 << 20})
		cfg.AddProtocolPeerLimit(id,
			rcmgr.BaseLimit{StreamsInbound: 16, StreamsOutbound: 16, Streams: 32, Memory: 32 * (256<<20 + 16<<10)},
			rcmgr.BaseLimitIncrease{})
	}

	pingLimit := rcmgr.BaseLimit{StreamsInbound: 64, StreamsOutbound: 64, Streams: 64, Memory: 4 << 20}
	pingIncrease := rcmgr.BaseLimitIncrease{StreamsInbound: 64, StreamsOutbound: 64, Streams: 64, Memory: 4 << 20}
	cfg.AddServiceLimit(ping.ServiceName, pingLimit, pingIncrease)
	cfg.AddProtocolLimit(ping.ID, pingLimit, pingIncrease)
	pingPeer := rcmgr.BaseLimit{StreamsInbound: 2, StreamsOutbound: 3, Streams: 4, Memory: 32 * (256<<20 + 16<<10)}
	cfg.AddServicePeerLimit(ping.ServiceName, pingPeer, rcmgr.BaseLimitIncrease{})
	cfg.AddProtocolPeerLimit(ping.ID, pingPeer, rcmgr.BaseLimitIncrease{})
}
