// Package router answers "who holds this digest?": it owns the libp2p host
// and the Kademlia DHT, joins the peer network through the configured
// bootstrap peers, announces provider records and looks them up.
package router

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/ipfs/go-cid"
	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p-kad-dht/records"
	kb "github.com/libp2p/go-libp2p-kbucket"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/core/pnet"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/net/connmgr"
	ma "github.com/multiformats/go-multiaddr"
	"github.com/multiformats/go-multihash"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// ErrNoPeers is returned by lookups while this node knows no other peer.
var ErrNoPeers = fmt.Errorf("not connected to any peer: %w", errdefs.ErrUnavailable)

// Defaults of the settings a node's configuration names. The lookup's are
// its callers' (the fetcher and the resolver), each lookup bounded by them.
const (
	// DefaultPort is the TCP port peers listen on and are dialled at.
	DefaultPort              = 5050
	DefaultBootstrapInterval = 10 * time.Second
	DefaultMinPeers          = 3
	DefaultStartupGrace      = 2 * time.Second
	DefaultProviderTTL       = 30 * time.Minute
	DefaultLookupTimeout     = time.Second
	DefaultMaxProviders      = 3
)

// Options configure a Router.
type Options struct {
	// Key is the node's identity.
	Key crypto.PrivKey
	// ListenAddrs are libp2p multiaddrs to listen on.
	ListenAddrs []string
	// BootstrapPeers are "host:port" or multiaddr entries, IDs optional.
	BootstrapPeers []string
	// ProtocolPrefix keeps the DHT apart from any other (never the public one).
	ProtocolPrefix string
	// ProviderTTL is how long other nodes keep this node's provider records.
	// Default DefaultProviderTTL.
	ProviderTTL time.Duration
	// DialTimeout bounds one connection attempt to a bootstrap peer; 0:
	// libp2p's own dial timeout.
	DialTimeout time.Duration
	// BootstrapInterval is how often unconnected bootstrap peers are retried
	// while the routing table is small. Default DefaultBootstrapInterval.
	BootstrapInterval time.Duration
	// StartupGrace is how long a lookup made right after start waits for the
	// first bootstrap round to finish before answering "no peers".
	StartupGrace time.Duration
	// NetworkKey, when set, makes the peer network private: only hosts with
	// the same pre-shared key can connect at all.
	NetworkKey pnet.PSK
	// AllowedPeers and AllowedNetworks restrict connections, both ways, to
	// the listed peer IDs and to addresses in the listed CIDR ranges.
	AllowedPeers, AllowedNetworks []string
	// Sources are where else bootstrap peers come from: DNS, a file, mDNS.
	Sources Sources
	// MinPeers: while the routing table has fewer peers, bootstrap peers
	// are dialled again every BootstrapInterval (after a partition, a
	// reboot of the bootstrap nodes, or on the node that started first).
	// Default DefaultMinPeers.
	MinPeers int
	// StreamLimits cap inbound streams of protocols served beside the DHT,
	// per peer and in all (libp2p's resource manager enforces them).
	StreamLimits []StreamLimit
}

// StreamLimit caps the inbound streams of one protocol.
type StreamLimit struct {
	Protocol protocol.ID
	PerPeer  int
	Total    int
}

// Router is the node's place in the peer network.
type Router struct {
	opts      Options
	gater     *allowList
	host      host.Host
	dht       *dht.IpfsDHT
	bootstrap []bootstrapPeer

	file     *fileSource
	resolver *net.Resolver
	backoff  map[string]dialBackoff // by entry: failed dials are not repeated at once

	mu           sync.Mutex
	learnedIDs   map[string]peer.ID
	started      time.Time
	firstRound   chan struct{} // closed once the first bootstrap round ended
	firstRoundMu sync.Once
}

// New creates the libp2p host (it listens at once) and the DHT. It does not
// dial anything; call Run for that.
func New(ctx context.Context, opts Options) (*Router, error) {
	if opts.Key == nil {
		return nil, errors.New("router: no identity key")
	}
	if opts.ProviderTTL <= 0 {
		opts.ProviderTTL = DefaultProviderTTL
	}
	if opts.ProtocolPrefix == "" || opts.ProtocolPrefix == "/ipfs" {
		return nil, fmt.Errorf("router: protocol prefix %q would join the public IPFS DHT", opts.ProtocolPrefix)
	}
	var boots []bootstrapPeer
	for _, entry := range opts.BootstrapPeers {
		bp, err := parseBootstrapPeer(entry)
		if err != nil {
			return nil, err
		}
		boots = append(boots, bp)
	}

	gater, err := newAllowList(opts.AllowedPeers, opts.AllowedNetworks)
	if err != nil {
		return nil, err
	}
	cm, err := connmgr.NewConnManager(100, 400, connmgr.WithGracePeriod(time.Minute))
	if err != nil {
		return nil, err
	}
	rm, err := resourceManager(opts.StreamLimits)
	if err != nil {
		cm.Close()
		return nil, fmt.Errorf("resource manager: %w", err)
	}
	h, err := newHost(hostConfig{
		key:         opts.Key,
		listenAddrs: opts.ListenAddrs,
		psk:         opts.NetworkKey, // nil: no key
		rm:          rm,
		cm:          cm,
		gater:       gater,
	})
	if err != nil {
		return nil, fmt.Errorf("start libp2p host on %v: %w", opts.ListenAddrs, err)
	}

	r, err := newOnHost(h, opts, boots, gater)
	if err != nil {
		h.Close()
		return nil, err
	}
	return r, nil
}

// dhtOptions are the DHT settings of every Shoal node: server mode, the
// private protocol prefix, provider records only, messages sent at once
// on streams of their own (streamSender).
func dhtOptions(opts Options, extra ...dht.Option) []dht.Option {
	return append([]dht.Option{
		dht.Mode(dht.ModeServer),
		dht.ProtocolPrefix(protocol.ID(opts.ProtocolPrefix)),
		dht.DisableValues(),
		dht.ProviderManagerOpts(records.ProvideValidity(opts.ProviderTTL)),
		dht.WithCustomMessageSender(newStreamSender),
	}, extra...)
}

// newOnHost starts the DHT on h (a real host, or a simulated one).
func newOnHost(h host.Host, opts Options, boots []bootstrapPeer, gater *allowList, extra ...dht.Option) (*Router, error) {
	kad, err := dht.New(h, dhtOptions(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("start DHT: %w", err)
	}
	return &Router{
		gater:      gater,
		opts:       opts,
		host:       h,
		dht:        kad,
		bootstrap:  boots,
		learnedIDs: map[string]peer.ID{},
		started:    time.Now(),
		resolver:   net.DefaultResolver,
		backoff:    map[string]dialBackoff{},
		file:       fileFor(opts.Sources.File),
		firstRound: make(chan struct{}),
	}, nil
}

// Host is the libp2p host, for protocols that run beside the DHT.
func (r *Router) Host() host.Host { return r.host }

// ID is this node's peer ID.
func (r *Router) ID() peer.ID { return r.host.ID() }

// Addrs are the addresses this node listens on, with its peer ID.
func (r *Router) Addrs() []string {
	var out []string
	for _, a := range r.host.Addrs() {
		out = append(out, a.Encapsulate(ma.StringCast("/p2p/"+r.host.ID().String())).String())
	}
	return out
}

// Peers are the peers this node knows (connected, or in its routing
// table) with their known addresses.
func (r *Router) Peers() []peer.AddrInfo {
	var out []peer.AddrInfo
	for _, p := range r.known() {
		out = append(out, r.host.Peerstore().PeerInfo(p))
	}
	return out
}

// ConnectedPeers is the number of peers with an open connection.
func (r *Router) ConnectedPeers() int { return len(r.host.Network().Peers()) }

// RoutingTableSize is the number of peers in the DHT routing table.
func (r *Router) RoutingTableSize() int { return r.dht.RoutingTable().Size() }

// Run joins the network and keeps it joined: every BootstrapInterval,
// while the routing table has fewer than MinPeers peers, it dials the
// bootstrap peers from every source that it is not connected to. It
// returns when ctx ends.
func (r *Router) Run(ctx context.Context) {
	defer r.endFirstRound()
	r.logFirstPeer(ctx, r.started)
	if r.opts.Sources.MDNS {
		stop := r.startMDNS(ctx)
		defer stop()
	}
	interval := r.opts.BootstrapInterval
	if interval <= 0 {
		interval = DefaultBootstrapInterval
	}
	minPeers := r.opts.MinPeers
	if minPeers <= 0 {
		minPeers = DefaultMinPeers
	}
	for {
		if r.RoutingTableSize() < minPeers {
			candidates := r.candidates(ctx)
			if len(candidates) == 0 && !r.opts.Sources.MDNS {
				log.G(ctx).Debug("p2p: no bootstrap peers known, waiting for others to connect")
			}
			connected := r.bootstrapRound(ctx, candidates)
			log.G(ctx).WithFields(log.Fields{"connected": connected, "candidates": len(candidates),
				"routing_table": r.RoutingTableSize()}).Debug("p2p: bootstrap round done")
		}
		r.endFirstRound()
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// candidates are the bootstrap peers from every source, without repeats.
func (r *Router) candidates(ctx context.Context) []bootstrapPeer {
	all := append([]bootstrapPeer(nil), r.bootstrap...)
	if len(r.opts.Sources.DNS) > 0 {
		port := r.opts.Sources.DNSPort
		if port == 0 {
			port = DefaultPort
		}
		all = append(all, resolveDNS(ctx, r.resolver, r.opts.Sources.DNS, port)...)
	}
	if r.file != nil {
		all = append(all, r.file.read(ctx)...)
	}
	seen := map[string]bool{}
	var out []bootstrapPeer
	for _, bp := range all {
		key := bp.addr.String() + "/" + bp.id.String()
		if !seen[key] {
			seen[key] = true
			out = append(out, bp)
		}
	}
	return out
}

func fileFor(path string) *fileSource {
	if path == "" {
		return nil
	}
	return &fileSource{path: path}
}

// dialBackoff remembers a failed bootstrap dial: dead peers must not cost a
// dial timeout every round.
type dialBackoff struct {
	next  time.Time
	delay time.Duration
}

const maxDialBackoff = 30 * time.Second

func (r *Router) endFirstRound() { r.firstRoundMu.Do(func() { close(r.firstRound) }) }

// logFirstPeer logs once when the first peer connects, and how long after
// start, so operators can see when the mirror became useful.
func (r *Router) logFirstPeer(ctx context.Context, start time.Time) {
	var once sync.Once
	r.host.Network().Notify(&network.NotifyBundle{
		ConnectedF: func(_ network.Network, c network.Conn) {
			once.Do(func() {
				log.G(ctx).WithField("peer", c.RemotePeer()).WithField("after", time.Since(start).Round(time.Millisecond)).
					Info("p2p: first peer connected")
			})
		},
	})
}

// bootstrapRound dials, in parallel, every candidate that is not connected
// and not backing off after a failure, and returns how many are connected.
func (r *Router) bootstrapRound(ctx context.Context, candidates []bootstrapPeer) int {
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		connected int
	)
	now := time.Now()
	for _, bp := range candidates {
		mu.Lock()
		b := r.backoff[bp.entry]
		mu.Unlock()
		if now.Before(b.next) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer recovery.Log(ctx, "p2p: connecting a bootstrap peer failed")
			err := r.connectBootstrap(ctx, bp)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				b.delay = min(max(2*b.delay, 2*time.Second), maxDialBackoff)
				b.next = time.Now().Add(b.delay)
				r.backoff[bp.entry] = b
				log.G(ctx).WithError(err).WithField("peer", bp.entry).WithField("retry_in", b.delay).Debug("p2p: bootstrap peer not reachable")
				return
			}
			delete(r.backoff, bp.entry)
			connected++
		}()
	}
	wg.Wait()
	return connected
}

func (r *Router) connectBootstrap(ctx context.Context, bp bootstrapPeer) error {
	if r.opts.DialTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.opts.DialTimeout)
		defer cancel()
	}

	id := bp.id
	if id == "" {
		r.mu.Lock()
		id = r.learnedIDs[bp.entry]
		r.mu.Unlock()
	}
	if id != "" && r.host.Network().Connectedness(id) == network.Connected {
		return nil
	}
	if id == "" {
		learned, err := learnPeerID(ctx, r.opts.Key, r.opts.NetworkKey, r.gater, bp.addr)
		if err != nil {
			return err
		}
		id = learned
	}
	if id == r.host.ID() {
		return nil // this node is in its own bootstrap list
	}
	if err := r.host.Connect(ctx, peer.AddrInfo{ID: id, Addrs: []ma.Multiaddr{bp.addr}}); err != nil {
		// The ID may belong to a previous incarnation of that address.
		r.mu.Lock()
		delete(r.learnedIDs, bp.entry)
		r.mu.Unlock()
		return err
	}
	r.mu.Lock()
	if bp.id == "" {
		r.learnedIDs[bp.entry] = id
	}
	r.mu.Unlock()
	r.host.ConnManager().Protect(id, "bootstrap")
	log.G(ctx).WithField("peer", id).WithField("address", bp.entry).Info("p2p: connected to bootstrap peer")
	return nil
}

// CID maps an OCI digest to the DHT key it is announced under. Only sha256
// digests have one.
func CID(dgst digest.Digest) (cid.Cid, error) {
	if err := dgst.Validate(); err != nil {
		return cid.Undef, err
	}
	if dgst.Algorithm() != digest.SHA256 {
		return cid.Undef, fmt.Errorf("digest algorithm %s is not announced to peers", dgst.Algorithm())
	}
	sum, err := hex.DecodeString(dgst.Encoded())
	if err != nil {
		return cid.Undef, err
	}
	raw, err := multihash.Encode(sum, multihash.SHA2_256)
	if err != nil {
		return cid.Undef, err
	}
	return cid.NewCidV1(cid.Raw, raw), nil
}

// Provide announces that this node holds dgst.
func (r *Router) Provide(ctx context.Context, dgst digest.Digest) error {
	key, err := CID(dgst)
	if err != nil {
		return err
	}
	// Provide records this node in its own provider store first, so peers
	// that ask it directly find it even before the announcement spreads.
	err = r.dht.Provide(ctx, key, true)
	if err != nil && r.RoutingTableSize() == 0 {
		return ErrNoPeers
	}
	return err
}

// FindProviders returns up to limit other peers that announced dgst. Right
// after start it waits (at most StartupGrace) for the first bootstrap round,
// so the first pull on a fresh node already finds its peers.
func (r *Router) FindProviders(ctx context.Context, dgst digest.Digest, limit int) ([]peer.AddrInfo, error) {
	key, err := CID(dgst)
	if err != nil {
		return nil, err
	}
	if r.RoutingTableSize() == 0 {
		grace := time.NewTimer(r.opts.StartupGrace)
		defer grace.Stop()
		select {
		case <-r.firstRound:
		case <-grace.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if r.RoutingTableSize() == 0 && !r.waitRoutingTable(ctx) {
			return nil, ErrNoPeers
		}
	}
	var found []peer.AddrInfo
	// Ask for one more than needed: this node may be among the providers.
	results := r.dht.FindProvidersAsync(ctx, key, limit+1)
	for {
		select {
		case info, ok := <-results:
			if !ok {
				return found, nil
			}
			if info.ID == r.host.ID() {
				continue
			}
			if len(info.Addrs) > 0 {
				r.host.Peerstore().AddAddrs(info.ID, info.Addrs, peerstore.TempAddrTTL)
			}
			found = append(found, info)
			if len(found) == limit {
				return found, nil
			}
		case <-ctx.Done():
			// The query may still be waiting on peers that do not answer
			// (a partition); what was found in time is the answer.
			return found, nil
		}
	}
}

// waitRoutingTable gives a just-connected peer a moment to finish the
// identify exchange that puts it into the routing table.
func (r *Router) waitRoutingTable(ctx context.Context) bool {
	if len(r.host.Network().Peers()) == 0 {
		return false
	}
	for i := 0; i < 20; i++ {
		if r.RoutingTableSize() > 0 {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
	return r.RoutingTableSize() > 0
}

// Close stops the DHT and the host.
func (r *Router) Close() error {
	return errors.Join(r.dht.Close(), r.host.Close())
}

// ReferenceKey is the key under which the holders of an image reference
// (registry/repository:tag) announce it, so a node can ask them what the
// reference points to when its upstream is unreachable.
func ReferenceKey(ref string) digest.Digest {
	return digest.SHA256.FromString("shoal/reference/v1\x00" + ref)
}

// Distance is p's nearness to dgst in the DHT's key space (higher first):
// the order of nodes fetching a layer by pieces.
func (r *Router) Distance(dgst digest.Digest, p peer.ID) string { return DistanceScore(dgst, p) }

// DistanceScore is Distance, for those without a Router: the complement
// of the XOR distance between p and dgst's provider key, the routing
// table's metric. Nodes nearer a key fill more of each other's routing
// tables than random ones do, so of the nodes pulling a layer only the
// nearest finds no nearer one among those it knows, and it alone takes the
// layer from the upstream. With a rendezvous hash each node's view is a
// random sample instead: in the piece swarm's simulator (1,000 nodes,
// Kademlia-shaped views), 5.61 upstream copies with rendezvous, 1.00 with
// this order.
func DistanceScore(dgst digest.Digest, p peer.ID) string {
	distance := kb.Xor(kb.ConvertPeerID(p), kb.ConvertKey(dhtKey(dgst)))
	for i := range distance {
		distance[i] = ^distance[i] // nearer: higher
	}
	return string(distance)
}

// dhtKey is the key dgst's providers are announced under (the multihash
// of its CID), or, for a digest with no CID, the digest itself.
func dhtKey(dgst digest.Digest) string {
	c, err := CID(dgst)
	if err != nil {
		return dgst.String()
	}
	return string(c.Hash())
}

// known are the peers this node is connected to or has in its routing
// table, each once.
func (r *Router) known() []peer.ID {
	seen := map[peer.ID]bool{r.host.ID(): true}
	var out []peer.ID
	for _, p := range append(r.host.Network().Peers(), r.dht.RoutingTable().ListPeers()...) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
