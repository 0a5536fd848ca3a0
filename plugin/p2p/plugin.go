// Package p2p registers the peer-to-peer mirror, io.containerd.server.v1.p2p:
// it wires the router, the inventory, the content service and the fetcher
// together. The logic lives in those packages.
package p2p

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/events"
	"github.com/containerd/containerd/v2/core/images"
	"github.com/containerd/containerd/v2/core/leases"
	"github.com/containerd/containerd/v2/core/metadata"
	"github.com/containerd/containerd/v2/core/transfer"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/containerd/v2/plugins"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/containerd/plugin"
	"github.com/containerd/plugin/registry"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/pnet"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/prometheus/client_golang/prometheus"
	bolt "go.etcd.io/bbolt"

	"github.com/shoal-dev/shoal/plugin/contentserver"
	"github.com/shoal-dev/shoal/plugin/control"
	"github.com/shoal-dev/shoal/plugin/fetcher"
	"github.com/shoal-dev/shoal/plugin/identity"
	"github.com/shoal-dev/shoal/plugin/inflight"
	"github.com/shoal-dev/shoal/plugin/inventory"
	"github.com/shoal-dev/shoal/plugin/metrics"
	"github.com/shoal-dev/shoal/plugin/mirror"
	"github.com/shoal-dev/shoal/plugin/netkey"
	"github.com/shoal-dev/shoal/plugin/peerhttp"
	"github.com/shoal-dev/shoal/plugin/policy"
	"github.com/shoal-dev/shoal/plugin/router"
)

// ID is the plugin's ID; its URI is io.containerd.server.v1.p2p.
const ID = "p2p"

// protocolPrefix keeps Shoal's DHT apart from the public IPFS one.
const protocolPrefix = "/shoal"

func init() {
	registry.Register(&plugin.Registration{
		Type: plugins.ServerPlugin,
		ID:   ID,
		Requires: []plugin.Type{
			plugins.EventPlugin,
			plugins.LeasePlugin,
			plugins.MetadataPlugin,
		},
		Config: defaultConfig(),
		InitFn: initPlugin,
	})
}

func initPlugin(ic *plugin.InitContext) (any, error) {
	cfg := ic.Config.(*Config)
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("invalid p2p config: %w", err)
	}
	m, err := ic.GetSingle(plugins.MetadataPlugin)
	if err != nil {
		return nil, err
	}
	db := m.(*metadata.DB)
	ep, err := ic.GetSingle(plugins.EventPlugin)
	if err != nil {
		return nil, err
	}
	subscriber, ok := ep.(events.Subscriber)
	if !ok {
		return nil, fmt.Errorf("event plugin %T cannot be subscribed to", ep)
	}

	var networkKey pnet.PSK
	switch {
	case cfg.NetworkKeyFile != "":
		if networkKey, err = netkey.Load(cfg.NetworkKeyFile); err != nil {
			return nil, err
		}
	case cfg.AllowOpenNetwork:
		log.G(ic.Context).Warn("p2p: no network key, allow_open_network is set: any host that reaches the listen port can join and read shared content")
	default:
		return nil, fmt.Errorf("p2p mirror off: set network_key_file (make one with `shoal network-key -o /etc/containerd/shoal.key`), or allow_open_network = true: %w", plugin.ErrSkipPlugin)
	}

	root := ic.Properties[plugins.PropertyRootDir]
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, err
	}
	key, err := identity.LoadOrCreate(filepath.Join(root, "identity.key"))
	if err != nil {
		return nil, err
	}
	rt, err := router.New(ic.Context, router.Options{
		Key:            key,
		ListenAddrs:    cfg.ListenAddresses,
		BootstrapPeers: cfg.BootstrapPeers,
		ProtocolPrefix: protocolPrefix,
		NetworkKey:     networkKey,
		Sources: router.Sources{
			DNS: cfg.BootstrapDNS, DNSPort: cfg.BootstrapDNSPort, File: cfg.BootstrapFile, MDNS: cfg.MDNS,
		},
		BootstrapInterval: cfg.BootstrapInterval.std(),
		MinPeers:          cfg.MinPeers,
		AllowedPeers:      cfg.AllowedPeers,
		AllowedNetworks:   cfg.AllowedNetworks,
		ProviderTTL:       cfg.ProviderTTL.std(),
		DialTimeout:       cfg.DialTimeout.std(),
		StartupGrace:      cfg.StartupGrace.std(),
	})
	if err != nil {
		return nil, err
	}

	sharing, err := policy.New(cfg.SharedNamespaces, cfg.PrivateNamespaces, cfg.SharedRegistries, cfg.PrivateRegistries)
	if err != nil {
		rt.Close()
		return nil, fmt.Errorf("invalid p2p sharing policy: %w", err)
	}
	store := db.ContentStore()
	imageStore := metadata.NewImageStore(db)
	inv := inventory.New(store, listNamespaces(db), rt, inventory.Options{
		ReannounceInterval: cfg.ReannounceInterval.std(),
		Images:             imageNames(imageStore),
		ReferenceKey:       router.ReferenceKey,
		Policy:             sharing,
	})
	var arriving *inflight.Registry
	if cfg.ServeInFlight {
		arriving = inFlightRegistry(ic)
	}
	serverOpts := contentserver.Options{Policy: sharing}
	if arriving != nil {
		serverOpts.InFlight = arrivingBlobs{arriving}
	}
	content := contentserver.New(store, inv, &imageLookup{db: db, images: imageStore}, serverOpts)
	server, err := peerhttp.Serve(rt.Host(), content, cfg.IdleTimeout.std())
	if err != nil {
		rt.Close()
		return nil, fmt.Errorf("serve content to peers: %w", err)
	}
	var direct *peerhttp.Server
	if cfg.DataAddress != "" {
		direct, err = peerhttp.ServeDirect(rt.Host(), cfg.DataAddress, content, peerhttp.DirectOptions{IdleTimeout: cfg.IdleTimeout.std()})
		if err != nil {
			// Peers still reach this node over libp2p streams.
			log.G(ic.Context).WithError(err).Warn("p2p: direct data path not available")
		} else {
			ic.Meta.Exports["data_address"] = direct.Addr().String()
		}
	}
	client := peerhttp.NewClient(rt.Host(), peerhttp.ClientOptions{
		DialTimeout:   cfg.DialTimeout.std(),
		HeaderTimeout: cfg.DialTimeout.std(),
		IdleTimeout:   cfg.IdleTimeout.std(),
		Direct:        true,
	})

	controlPath := filepath.Join(ic.Properties[plugins.PropertyStateDir], "shoal.sock")
	ic.Meta.Exports["control_socket"] = controlPath
	ic.Meta.Exports["peer_id"] = rt.ID().String()
	ic.Meta.Exports["listen_addresses"] = strings.Join(rt.Addrs(), ",")

	var observed *metrics.Metrics
	fetchOpts := fetcher.Options{
		Store:              store,
		ReferenceKey:       router.ReferenceKey,
		LookupTimeout:      cfg.LookupTimeout.std(),
		MaxProviders:       cfg.MaxProviders,
		HedgeDelay:         cfg.HedgeDelay.std(),
		FallbackLatest:     cfg.FallbackLatest,
		RequestTimeout:     cfg.DialTimeout.std(),
		Rank:               rt.Rank,
		CoordinationWindow: cfg.CoordinationWindow.std(),
		OnLookup: func(d time.Duration, hit bool) {
			if observed != nil {
				observed.ObserveLookup(d, hit)
			}
		},
	}
	if arriving != nil {
		fetchOpts.InFlight = &offerArriving{registry: arriving, policy: sharing, announce: rt.Provide}
	}
	f := fetcher.New(rt, client, fetchOpts)
	// containerd's metrics endpoint serves the default registry.
	observed, err = metrics.Register(prometheus.DefaultRegisterer, metrics.Sources{
		Fetcher:     f.Stats(),
		ServedBytes: content.ServedBytes,
		DirectSentBytes: func() int64 {
			if direct == nil {
				return 0
			}
			return direct.SentBytes()
		},
		ConnectedPeers:   rt.ConnectedPeers,
		RoutingTableSize: rt.RoutingTableSize,
		AnnouncedKeys:    inv.Len,
	})
	if err != nil {
		log.G(ic.Context).WithError(err).Warn("p2p: some metrics could not be registered")
	}

	ctx, cancel := context.WithCancel(ic.Context)
	s := &Service{
		ctx:        ctx,
		cancel:     cancel,
		router:     rt,
		inventory:  inv,
		server:     server,
		direct:     direct,
		client:     client,
		subscriber: subscriber,
		store:      store,
		fetcher:    f,
	}
	if cfg.MirrorAddress != "" {
		s.startMirror(ic, cfg)
	}
	if s.control, err = control.Serve(controlPath, s); err != nil {
		// Only `shoal status` needs it: the mirror works without.
		log.G(ic.Context).WithError(err).Warn("p2p: control socket not available")
	}
	log.G(ic.Context).WithField("peer_id", rt.ID()).WithField("addresses", rt.Addrs()).Info("p2p: peer mirror listening")
	return s, nil
}

// Service is the plugin instance.
type Service struct {
	ctx        context.Context
	cancel     context.CancelFunc
	router     *router.Router
	inventory  *inventory.Inventory
	server     *peerhttp.Server
	direct     *peerhttp.Server // nil: off
	client     *peerhttp.Client
	subscriber events.Subscriber
	fetcher    *fetcher.Fetcher
	store      content.Store
	control    *control.Server
	mirror     *http.Server
}

// startMirror serves the loopback registry mirror. Its failure is logged:
// the rest of the plugin works without it.
func (s *Service) startMirror(ic *plugin.InitContext, cfg *Config) {
	logger := log.G(ic.Context)
	addr, err := mirror.LoopbackAddress(cfg.MirrorAddress)
	if err != nil {
		logger.WithError(err).Error("p2p: mirror not started")
		return
	}
	var lm leases.Manager
	if l, err := ic.GetSingle(plugins.LeasePlugin); err == nil {
		lm, _ = l.(leases.Manager)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		logger.WithError(err).Error("p2p: mirror not started")
		return
	}
	s.mirror = &http.Server{
		Handler:           mirror.New(s.fetcher, mirror.Options{DefaultRegistry: cfg.DefaultRegistry, Store: s.store, Leases: lm}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go s.mirror.Serve(ln) //nolint:errcheck // ErrServerClosed on Close
	ic.Meta.Exports["mirror_address"] = ln.Addr().String()
	logger.WithField("address", ln.Addr()).Info("p2p: loopback registry mirror listening")
	if cfg.MirrorHostsDir != "" && len(cfg.MirrorRegistries) > 0 {
		if err := mirror.WriteHostsFiles(cfg.MirrorHostsDir, cfg.MirrorRegistries, ln.Addr().String()); err != nil {
			logger.WithError(err).Warn("p2p: some hosts.toml files were not written")
		}
	}
}

// Status implements control.Source.
func (s *Service) Status() control.Status {
	st := s.fetcher.Stats()
	return control.Status{
		PeerID:         s.router.ID().String(),
		Addresses:      s.router.Addrs(),
		ConnectedPeers: s.router.ConnectedPeers(),
		RoutingTable:   s.router.RoutingTableSize(),
		AnnouncedKeys:  s.inventory.Len(),
		Counters: map[string]int64{
			"peer_bytes": st.PeerBytes.Load(), "upstream_bytes": st.UpstreamBytes.Load(),
			"lookup_hits": st.Hits.Load(), "lookup_misses": st.Misses.Load(),
			"corrupt": st.Corrupt.Load(), "failovers": st.Failovers.Load(), "stalls": st.Stalls.Load(),
			"stale_records": st.NotFound.Load(), "peer_resolves": st.PeerResolves.Load(),
			"direct_path_sent_bytes": s.directSent(),
			"coordination_waits":     st.CoordinationWaits.Load(), "coordinated_hits": st.CoordinatedHits.Load(),
		},
		RecentFailures: failures(s.fetcher.RecentFailures()),
	}
}

func (s *Service) directSent() int64 {
	if s.direct == nil {
		return 0
	}
	return s.direct.SentBytes()
}

func failures(fs []fetcher.Failure) []control.Failure {
	out := make([]control.Failure, 0, len(fs))
	for _, f := range fs {
		out = append(out, control.Failure(f))
	}
	return out
}

// Peers implements control.Source.
func (s *Service) Peers() []control.Peer { return toPeers(s.router.Peers()) }

// Providers implements control.Source: the peers that announced key, and
// this node if it holds it.
func (s *Service) Providers(ctx context.Context, key digest.Digest) ([]control.Peer, error) {
	found, err := s.router.FindProviders(ctx, key, 20)
	if err != nil && !errors.Is(err, router.ErrNoPeers) {
		return nil, err
	}
	peers := toPeers(found)
	if len(s.inventory.Namespaces(key)) > 0 {
		peers = append([]control.Peer{{ID: s.router.ID().String() + " (this node)", Addresses: s.router.Addrs()}}, peers...)
	}
	return peers, nil
}

// ReferenceKey implements control.Source.
func (s *Service) ReferenceKey(ref string) digest.Digest { return router.ReferenceKey(ref) }

func toPeers(infos []peer.AddrInfo) []control.Peer {
	out := []control.Peer{}
	for _, i := range infos {
		p := control.Peer{ID: i.ID.String()}
		for _, a := range i.Addrs {
			p.Addresses = append(p.Addresses, a.String())
		}
		out = append(out, p)
	}
	return out
}

// Start joins the peer network and starts following the content store, in
// the background: containerd's start never waits for peers.
func (s *Service) Start(context.Context) error {
	s.goSafe("router", s.router.Run)
	s.goSafe("inventory", func(ctx context.Context) {
		s.inventory.Run(ctx, func(ctx context.Context) (<-chan *events.Envelope, <-chan error) {
			return s.subscriber.Subscribe(ctx, inventory.Filters...)
		})
	})
	return nil
}

func (s *Service) goSafe(name string, fn func(context.Context)) {
	go func() {
		defer func() {
			if p := recover(); p != nil {
				log.G(s.ctx).WithField("panic", p).WithField("stack", string(debug.Stack())).Errorf("p2p: %s stopped", name)
			}
		}()
		fn(s.ctx)
	}()
}

// PeerFirst implements peertransfer.PeerFetcher.
func (s *Service) PeerFirst(upstream transfer.Fetcher, ref string) transfer.Fetcher {
	return s.fetcher.WrapFetcher(upstream, ref)
}

// MarkAccess implements peertransfer.PeerFetcher.
func (s *Service) MarkAccess(ctx context.Context, target ocispec.Descriptor, anonymous bool) error {
	_, err := s.store.Update(ctx, content.Info{
		Digest: target.Digest,
		Labels: map[string]string{contentserver.AnonymousPullLabel: strconv.FormatBool(anonymous)},
	}, "labels."+contentserver.AnonymousPullLabel)
	return err
}

// ResolveFallback implements peertransfer.PeerFetcher.
func (s *Service) ResolveFallback(ctx context.Context, ref string, upstreamErr error) (string, ocispec.Descriptor, error) {
	return s.fetcher.ResolveFallback(ctx, ref, upstreamErr)
}

// Close stops everything the plugin started.
func (s *Service) Close() error {
	s.cancel()
	if s.control != nil {
		s.control.Close()
	}
	if s.mirror != nil {
		s.mirror.Close()
	}
	err := s.server.Close()
	if s.direct != nil {
		err = errors.Join(err, s.direct.Close())
	}
	err = errors.Join(err, s.router.Close())
	s.client.Close()
	return err
}

func listNamespaces(db *metadata.DB) inventory.NamespaceLister {
	return func(ctx context.Context) ([]string, error) {
		var nss []string
		err := db.View(func(tx *bolt.Tx) error {
			var err error
			nss, err = metadata.NewNamespaceStore(tx).List(ctx)
			return err
		})
		return nss, err
	}
}

func imageNames(is images.Store) inventory.ImageLister {
	return func(ctx context.Context) ([]string, error) {
		imgs, err := is.List(ctx)
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(imgs))
		for _, img := range imgs {
			names = append(names, img.Name)
		}
		return names, nil
	}
}

// imageLookup finds an image by name in any namespace.
type imageLookup struct {
	db     *metadata.DB
	images images.Store
}

func (l *imageLookup) Lookup(ctx context.Context, name string) (string, ocispec.Descriptor, error) {
	nss, err := listNamespaces(l.db)(ctx)
	if err != nil {
		return "", ocispec.Descriptor{}, err
	}
	for _, ns := range nss {
		img, err := l.images.Get(namespaces.WithNamespace(ctx, ns), name)
		if err == nil {
			return ns, img.Target, nil
		}
	}
	return "", ocispec.Descriptor{}, fmt.Errorf("image %s: %w", name, errdefs.ErrNotFound)
}

func (d Duration) std() time.Duration { return time.Duration(d) }

// contentPluginDir is where containerd's local content store keeps its
// files, beside this plugin's own directory.
const contentPluginDir = "io.containerd.content.v1.content"

// inFlightRegistry serves arriving layers from the local content store's
// ingests; nil (with a warning) if that store is not where it should be.
func inFlightRegistry(ic *plugin.InitContext) *inflight.Registry {
	dir := filepath.Join(filepath.Dir(ic.Properties[plugins.PropertyRootDir]), contentPluginDir)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		log.G(ic.Context).WithField("dir", dir).Warn("p2p: local content store not found; layers are served only once complete")
		return nil
	}
	return inflight.New(dir, 0)
}

// offerArriving offers a layer to peers from the moment it starts to
// arrive: registered for the content service, and announced.
type offerArriving struct {
	registry *inflight.Registry
	policy   *policy.Policy
	announce func(context.Context, digest.Digest) error
}

func (o *offerArriving) Begin(ctx context.Context, ref string, desc ocispec.Descriptor, labels map[string]string) func() {
	ns, ok := namespaces.Namespace(ctx)
	if !ok || !o.policy.ContentShared(ns, labels) {
		return func() {}
	}
	t, err := o.registry.Begin(ns, ref, desc, labels)
	if err != nil {
		log.G(ctx).WithError(err).Debug("p2p: layer not offered while it arrives")
		return func() {}
	}
	go func() {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if err := o.announce(actx, desc.Digest); err != nil {
			log.G(ctx).WithError(err).WithField("digest", desc.Digest).Debug("p2p: could not announce an arriving layer")
		}
	}()
	return t.End
}

// arrivingBlobs gives the content service the layers still arriving.
type arrivingBlobs struct{ registry *inflight.Registry }

func (a arrivingBlobs) Open(ctx context.Context, dgst digest.Digest) (contentserver.Arriving, string, map[string]string, bool) {
	r, t, ok := a.registry.Open(ctx, dgst)
	if !ok {
		return nil, "", nil, false
	}
	return r, t.Namespace, t.Labels, true
}
