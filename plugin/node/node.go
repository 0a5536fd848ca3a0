// Package node assembles one node's peer-to-peer mirror from its parts: the
// router (who has it), the inventory (what do I hold, what do I announce),
// the content service (serve it), the fetcher and the resolver (get it from
// peers), and the fronts that expose them (the control socket, the loopback
// mirror, metrics). The containerd plugin only registers it and hands it
// containerd's stores; everything here can be built and tested without a
// running containerd.
package node

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/events"
	"github.com/containerd/containerd/v2/core/images"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/pnet"
	"github.com/opencontainers/go-digest"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/shoal-dev/shoal/plugin/contentserver"
	"github.com/shoal-dev/shoal/plugin/control"
	"github.com/shoal-dev/shoal/plugin/failures"
	"github.com/shoal-dev/shoal/plugin/fetcher"
	"github.com/shoal-dev/shoal/plugin/identity"
	"github.com/shoal-dev/shoal/plugin/inflight"
	"github.com/shoal-dev/shoal/plugin/inventory"
	"github.com/shoal-dev/shoal/plugin/metrics"
	"github.com/shoal-dev/shoal/plugin/mirror"
	"github.com/shoal-dev/shoal/plugin/netkey"
	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/peerhttp"
	"github.com/shoal-dev/shoal/plugin/peertransfer"
	"github.com/shoal-dev/shoal/plugin/penalty"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/policy"
	"github.com/shoal-dev/shoal/plugin/pullhistory"
	"github.com/shoal-dev/shoal/plugin/pulling"
	"github.com/shoal-dev/shoal/plugin/recovery"
	"github.com/shoal-dev/shoal/plugin/registryaccess"
	"github.com/shoal-dev/shoal/plugin/resolve"
	"github.com/shoal-dev/shoal/plugin/router"
	"github.com/shoal-dev/shoal/plugin/tables"
	"github.com/shoal-dev/shoal/plugin/throttle"
	"github.com/shoal-dev/shoal/plugin/window"
)

// ProtocolPrefix keeps Shoal's DHT apart from the public IPFS one.
const ProtocolPrefix = "/shoal"

// ErrNoNetworkKey: the configuration names no network key and does not
// allow an open network, so the mirror stays off.
var ErrNoNetworkKey = fmt.Errorf("p2p mirror off: set network_key_file (make one with `shoal network-key -o /etc/containerd/shoal.key`), or allow_open_network = true: %w", errdefs.ErrFailedPrecondition)

// Dependencies are what the node takes from containerd.
type Dependencies struct {
	// Store is the namespaced content store (the metadata database's).
	Store content.Store
	// Namespaces lists containerd's namespaces.
	Namespaces func(ctx context.Context) ([]string, error)
	// Images is the namespaced image store.
	Images images.Store
	// Events are followed to learn what arrives and what is deleted.
	Events events.Subscriber
	// RootDir holds the node's identity; StateDir its control socket.
	RootDir, StateDir string
	// ContentRoot is the local content store's directory, for serving
	// layers while they arrive; empty: only complete layers are served.
	ContentRoot string
	// Metrics receives the containerd_p2p_* collectors; nil: none.
	Metrics prometheus.Registerer
}

// Node is a running peer mirror.
type Node struct {
	ctx    context.Context
	cancel context.CancelFunc

	router    *router.Router
	inventory *inventory.Inventory
	content   *contentserver.Server
	server    *peerhttp.Server
	direct    *peerhttp.Server // nil: off
	transport *peerhttp.Client
	fetcher   *fetcher.Fetcher
	resolver  *resolve.Resolver
	failures  *failures.Log
	history   *pullhistory.Ring // the latest pulls, for `shoal pulls`
	events    events.Subscriber
	store     content.Store
	control   *control.Server
	mirror    *http.Server
	// registries makes Shoal's own requests to registries (anonymous
	// checks, the mirror's upstream), never to the mirror itself.
	registries *registryaccess.Access

	exports map[string]string
}

// New builds the node and starts serving peers; Start joins the network.
// On error, everything it started is stopped again.
func New(ctx context.Context, cfg *Config, deps Dependencies) (_ *Node, retErr error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("invalid p2p config: %w", err)
	}
	networkKey, err := loadNetworkKey(ctx, cfg)
	if err != nil {
		return nil, err
	}
	sharing, err := policy.New(cfg.SharedNamespaces, cfg.PrivateNamespaces, cfg.SharedRegistries, cfg.PrivateRegistries,
		policy.ShareUnknownOrigin(cfg.ShareUnknownOrigin))
	if err != nil {
		return nil, fmt.Errorf("invalid p2p sharing policy: %w", err)
	}
	if err := os.MkdirAll(deps.RootDir, 0o700); err != nil {
		return nil, err
	}
	key, err := identity.LoadOrCreate(filepath.Join(deps.RootDir, "identity.key"))
	if err != nil {
		return nil, err
	}
	rt, err := router.New(ctx, router.Options{
		Key:            key,
		ListenAddrs:    cfg.ListenAddresses,
		BootstrapPeers: cfg.BootstrapPeers,
		ProtocolPrefix: ProtocolPrefix,
		NetworkKey:     networkKey,
		Sources: router.Sources{
			DNS: cfg.BootstrapDNS, DNSPort: cfg.BootstrapDNSPort, File: cfg.BootstrapFile, MDNS: cfg.MDNS,
		},
		BootstrapInterval: cfg.BootstrapInterval.std(),
		MinPeers:          cfg.MinPeers,
		AllowedPeers:      cfg.AllowedPeers,
		AllowedNetworks:   cfg.AllowedNetworks,
		ProviderTTL:       cfg.ProviderTTL.std(),
		// Twice the content service's limits (it answers 429 past them):
		// clients keep idle streams for reuse, and a cap at the limit
		// itself reset 1 request in 3,000 of 32 busy workers.
		StreamLimits: []router.StreamLimit{
			{Protocol: peerhttp.Protocol, PerPeer: 2 * cfg.MaxServingRequestsPerPeer, Total: 2 * cfg.MaxServingRequests},
			{Protocol: peerhttp.DataAddressProtocol, PerPeer: 2, Total: 64},
		},
		DialTimeout:  cfg.DialTimeout.std(),
		StartupGrace: cfg.StartupGrace.std(),
	})
	if err != nil {
		return nil, err
	}
	nctx, cancel := context.WithCancel(ctx)
	n := &Node{ctx: nctx, cancel: cancel, router: rt, events: deps.Events, store: deps.Store, exports: map[string]string{}}
	defer func() {
		if retErr != nil {
			n.Close()
		}
	}()

	var announcer inventory.Announcer = rt
	if !cfg.ServePeers {
		announcer = silent{}
	}
	n.inventory = inventory.New(deps.Store, deps.Namespaces, announcer, inventory.Options{
		ReannounceInterval: cfg.ReannounceInterval.std(),
		Images:             imageNames(deps.Images),
		ReferenceKey:       router.ReferenceKey,
		Policy:             sharing,
	})
	var arriving *inflight.Registry
	if cfg.ServeInFlight && cfg.ServePeers && deps.ContentRoot != "" {
		arriving = inflight.New(deps.ContentRoot, 0)
	}
	// A node that spares its uplink (capped, or serving nothing or nothing
	// in flight) takes layers from the upstream last and does not tell
	// peers it pulls: in a six-node rollout, the nodes ranked after such
	// nodes waited for them until they stalled, 2 s a layer.
	spareUplink := cfg.MaxUploadBytesPerSecond > 0 || !cfg.ServePeers || !cfg.ServeInFlight
	pulls := pulling.New()
	windows := window.New(cfg.PieceMemoryBytes)
	kept, err := tables.Open(filepath.Join(deps.RootDir, "tables"))
	if err != nil {
		return nil, err
	}
	signTable := func(t pieces.Table) (pieces.Table, error) { return t.Sign(key) }

	n.content = contentserver.New(deps.Store, n.inventory, &imageLookup{namespaces: deps.Namespaces, images: deps.Images},
		contentOptions(cfg, sharing, arriving, pulls, spareUplink, windows, signTable, kept))
	if cfg.ServePeers {
		if err := n.serve(ctx, cfg); err != nil {
			return nil, err
		}
	} else {
		log.G(ctx).Info("p2p: serve_peers is off: this node fetches from peers but serves and announces nothing")
	}

	n.transport = peerhttp.NewClient(rt.Host(), peerhttp.ClientOptions{
		DialTimeout: cfg.DialTimeout.std(),
		IdleTimeout: cfg.IdleTimeout.std(),
		Direct:      true,
	})
	peers := peerclient.New(n.transport, peerclient.Options{
		RequestTimeout: cfg.DialTimeout.std(),
		Download:       throttle.New(cfg.MaxDownloadBytesPerSecond),
	})
	penalties := penalty.New(penalty.Options{})
	n.failures = failures.NewLog(0)
	n.history = pullhistory.New(0)
	observed := metrics.New()
	n.fetcher = fetcher.New(rt, peers, fetcher.Options{
		Store:               deps.Store,
		LookupTimeout:       cfg.LookupTimeout.std(),
		MaxProviders:        cfg.MaxProviders,
		HedgeDelay:          cfg.HedgeDelay.std(),
		UpstreamIdleTimeout: cfg.UpstreamIdleTimeout.std(),
		Penalties:           penalties,
		Failures:            n.failures,
		Self:                rt.ID(),
		Peers:               rt.Peers,
		Pulling:             pulls,
		Windows:             windows,
		Distance:            rt.Distance,
		SignTable:           signTable,
		Tables:              kept,
		UploadCap:           cfg.MaxUploadBytesPerSecond,
		SpareUplink:         spareUplink,
		Lookups:             observed,
		InFlight:            offerArrivingIn(arriving, n.inventory),
		ExpectOrigin:        expectOrigin(n.inventory),
	})
	n.resolver = resolve.New(rt, peers, resolve.Options{
		ReferenceKey:   router.ReferenceKey,
		FallbackLatest: cfg.FallbackLatest,
		LookupTimeout:  cfg.LookupTimeout.std(),
		MaxProviders:   cfg.MaxProviders,
		Penalties:      penalties,
	})
	if deps.Metrics != nil {
		err := observed.Register(deps.Metrics, metrics.Sources{
			Fetcher:          n.fetcher.Stats(),
			PeerResolves:     n.resolver.Resolved,
			ServedBytes:      n.content.ServedBytes,
			PassedOn:         n.content.PassedOn,
			DirectSentBytes:  n.directSent,
			ConnectedPeers:   rt.ConnectedPeers,
			RoutingTableSize: rt.RoutingTableSize,
			AnnouncedKeys:    n.inventory.Len,
		})
		if err != nil {
			log.G(ctx).WithError(err).Warn("p2p: some metrics could not be registered")
		}
	}

	// Shoal's own requests to registries (anonymous checks, the mirror's
	// upstream) skip the loopback mirror, which the hosts.toml files list.
	mirrorListener := listenMirror(ctx, cfg)
	n.registries = registryaccess.New(registryaccess.Options{Skip: listenerAddrs(mirrorListener)})
	if mirrorListener != nil {
		n.serveMirror(ctx, cfg, mirrorListener)
	}
	controlPath := filepath.Join(deps.StateDir, "shoal.sock")
	n.exports["control_socket"] = controlPath
	if n.control, err = control.Serve(controlPath, statusSource{n}); err != nil {
		// Only `shoal status` needs it: the mirror works without.
		log.G(ctx).WithError(err).Warn("p2p: control socket not available")
	}
	n.exports["peer_id"] = rt.ID().String()
	n.exports["listen_addresses"] = strings.Join(rt.Addrs(), ",")
	log.G(ctx).WithField("peer_id", rt.ID()).WithField("addresses", rt.Addrs()).Info("p2p: peer mirror listening")
	return n, nil
}

// serve starts answering peers: over libp2p streams, and on the direct
// data path where it can listen.
func (n *Node) serve(ctx context.Context, cfg *Config) error {
	var err error
	if n.server, err = peerhttp.Serve(n.router.Host(), n.content, cfg.IdleTimeout.std()); err != nil {
		return fmt.Errorf("serve content to peers: %w", err)
	}
	if cfg.DataAddress != "" {
		n.direct, err = peerhttp.ServeDirect(n.router.Host(), cfg.DataAddress, n.content, peerhttp.DirectOptions{IdleTimeout: cfg.IdleTimeout.std()})
		if err != nil {
			// Peers still reach this node over libp2p streams.
			log.G(ctx).WithError(err).Warn("p2p: direct data path not available")
		} else {
			n.exports["data_address"] = n.direct.Addr().String()
		}
	}
	return nil
}

// contentOptions are the content service's: what it shares, how much at
// once, and the pieces and tables it serves of layers fetched by pieces
// (only of layers committed, when it serves nothing in flight).
func contentOptions(cfg *Config, sharing *policy.Policy, arriving *inflight.Registry, pulls *pulling.Tracker, spareUplink bool,
	windows *window.Registry, signTable func(pieces.Table) (pieces.Table, error), kept *tables.Store) contentserver.Options {
	opts := contentserver.Options{
		Policy:             sharing,
		MaxRequests:        cfg.MaxServingRequests,
		MaxRequestsPerPeer: cfg.MaxServingRequestsPerPeer,
		Upload:             throttle.New(cfg.MaxUploadBytesPerSecond),
		SignTable:          signTable,
		Tables:             kept,
	}
	if !spareUplink {
		opts.Pulling = pulls
	}
	if arriving != nil {
		opts.InFlight = arrivingBlobs{arriving}
		opts.Windows = windows
	}
	return opts
}

// silent is the announcer of a node that serves nothing.
type silent struct{}

func (silent) Provide(context.Context, digest.Digest) error { return nil }

func loadNetworkKey(ctx context.Context, cfg *Config) (pnet.PSK, error) {
	switch {
	case cfg.NetworkKeyFile != "":
		return netkey.Load(cfg.NetworkKeyFile)
	case cfg.AllowOpenNetwork:
		log.G(ctx).Warn("p2p: no network key, allow_open_network is set: any host that reaches the listen port can join and read shared content")
		return nil, nil
	default:
		return nil, ErrNoNetworkKey
	}
}

// Exports are what the plugin publishes through containerd's introspection
// service: the peer ID, the addresses, the control socket.
func (n *Node) Exports() map[string]string { return n.exports }

// Start joins the peer network and starts following the content store, in
// the background: containerd's start never waits for peers.
func (n *Node) Start(context.Context) error {
	recovery.Go(n.ctx, "p2p: router", n.router.Run)
	recovery.Go(n.ctx, "p2p: inventory", func(ctx context.Context) {
		n.inventory.Run(ctx, func(ctx context.Context) (<-chan *events.Envelope, <-chan error) {
			return n.events.Subscribe(ctx, inventory.Filters...)
		})
	})
	return nil
}

// PeerFetcher is what the wrapped transfer service pulls through.
func (n *Node) PeerFetcher() peertransfer.PeerFetcher {
	return &Pulls{fetcher: n.fetcher, resolver: n.resolver, store: n.store, registries: n.registries, history: n.history}
}

// listenMirror listens for the loopback registry mirror, if configured.
// A failure is logged: the rest of the node works without the mirror.
func listenMirror(ctx context.Context, cfg *Config) net.Listener {
	if cfg.MirrorAddress == "" {
		return nil
	}
	addr, err := mirror.LoopbackAddress(cfg.MirrorAddress)
	if err == nil {
		var ln net.Listener
		if ln, err = net.Listen("tcp", addr); err == nil {
			return ln
		}
	}
	log.G(ctx).WithError(err).Error("p2p: mirror not started")
	return nil
}

func listenerAddrs(ln net.Listener) []string {
	if ln == nil {
		return nil
	}
	return []string{ln.Addr().String()}
}

// serveMirror serves the loopback registry mirror on ln, and writes the
// hosts.toml files that list it.
func (n *Node) serveMirror(ctx context.Context, cfg *Config, ln net.Listener) {
	n.mirror = &http.Server{
		Handler: mirror.New(n.resolver, mirror.Options{
			DefaultRegistry: cfg.DefaultRegistry, Mirrored: cfg.MirrorRegistries,
			Registries: n.registries, Registry: registryaccess.Config{HostDir: cfg.RegistryConfigPath},
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go n.mirror.Serve(ln) //nolint:errcheck // ErrServerClosed on Close
	n.exports["mirror_address"] = ln.Addr().String()
	log.G(ctx).WithField("address", ln.Addr()).Info("p2p: loopback registry mirror listening")
	if cfg.MirrorHostsDir != "" && len(cfg.MirrorRegistries) > 0 {
		if err := mirror.WriteHostsFiles(cfg.MirrorHostsDir, cfg.MirrorRegistries, ln.Addr().String()); err != nil {
			log.G(ctx).WithError(err).Warn("p2p: some hosts.toml files were not written")
		}
	}
}

func (n *Node) directSent() int64 {
	if n.direct == nil {
		return 0
	}
	return n.direct.SentBytes()
}

// Close stops everything the node started.
func (n *Node) Close() error {
	n.cancel()
	if n.control != nil {
		n.control.Close()
	}
	if n.mirror != nil {
		n.mirror.Close()
	}
	var err error
	if n.server != nil {
		err = n.server.Close()
	}
	if n.direct != nil {
		err = errors.Join(err, n.direct.Close())
	}
	err = errors.Join(err, n.router.Close())
	if n.transport != nil {
		n.transport.Close()
	}
	return err
}
