package node

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/images"
	"github.com/containerd/containerd/v2/core/transfer"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/contentserver"
	"github.com/shoal-dev/shoal/plugin/control"
	"github.com/shoal-dev/shoal/plugin/fetcher"
	"github.com/shoal-dev/shoal/plugin/inflight"
	"github.com/shoal-dev/shoal/plugin/inventory"
	"github.com/shoal-dev/shoal/plugin/peertransfer"
	"github.com/shoal-dev/shoal/plugin/pullhistory"
	"github.com/shoal-dev/shoal/plugin/registryaccess"
	"github.com/shoal-dev/shoal/plugin/resolve"
	"github.com/shoal-dev/shoal/plugin/router"
)

// Pulls is what the wrapped transfer service needs of the node
// (peertransfer.PeerFetcher).
type Pulls struct {
	fetcher    *fetcher.Fetcher
	resolver   *resolve.Resolver
	store      content.Store
	registries *registryaccess.Access
	history    *pullhistory.Ring
}

// RecordPull keeps a pull for `shoal pulls`.
func (p *Pulls) RecordPull(r pullhistory.Pull) { p.history.Add(r) }

// RegistryAccess shares the node's registry clients with the transfer
// wrapper: they never ask the loopback mirror.
func (p *Pulls) RegistryAccess() *registryaccess.Access { return p.registries }

// PeerFirst returns a fetcher for image ref that tries peers first.
func (p *Pulls) PeerFirst(upstream transfer.Fetcher, ref string) peertransfer.Fetcher {
	return p.fetcher.WrapFetcher(upstream, ref)
}

// ResolveFallback resolves ref from peers when the upstream was unreachable.
func (p *Pulls) ResolveFallback(ctx context.Context, ref string, upstreamErr error) (string, ocispec.Descriptor, error) {
	return p.resolver.Fallback(ctx, ref, upstreamErr)
}

// MarkAccess labels a pulled image's root with whether its registry serves
// it without credentials.
func (p *Pulls) MarkAccess(ctx context.Context, target ocispec.Descriptor, anonymous bool) error {
	_, err := p.store.Update(ctx, content.Info{
		Digest: target.Digest,
		Labels: map[string]string{contentserver.AnonymousPullLabel: strconv.FormatBool(anonymous)},
	}, "labels."+contentserver.AnonymousPullLabel)
	return err
}

// statusSource answers the control socket.
type statusSource struct{ n *Node }

func (s statusSource) Status() control.Status {
	n := s.n
	st := n.fetcher.Stats()
	passedOn, passCut := n.content.PassedOn()
	return control.Status{
		PeerID:         n.router.ID().String(),
		Addresses:      n.router.Addrs(),
		ConnectedPeers: n.router.ConnectedPeers(),
		RoutingTable:   n.router.RoutingTableSize(),
		AnnouncedKeys:  n.inventory.Len(),
		Counters: map[string]int64{
			"peer_bytes": st.PeerBytes.Load(), "upstream_bytes": st.UpstreamBytes.Load(),
			"lookup_hits": st.Hits.Load(), "lookup_misses": st.Misses.Load(),
			"corrupt": st.Corrupt.Load(), "failovers": st.Failovers.Load(), "stalls": st.Stalls.Load(),
			"stale_records": st.NotFound.Load(), "busy_answers": st.Busy.Load(), "peer_resolves": n.resolver.Resolved(),
			"direct_path_sent_bytes": n.directSent(),
			"lone_misses":            st.LoneMisses.Load(),
			"piece_bytes_arrived":    st.PieceBytesArrived.Load(),
			"piece_bytes_kept":       st.PieceBytesKept.Load(),
			"piece_bytes_cancelled":  st.PieceBytesCancelled.Load(),
			"piece_bytes_failed":     st.PieceBytesFailed.Load(),
			"hedges":                 st.Hedges.Load(),
			"pieces_without_table":   st.PiecesWithoutTable.Load(),
			"state_bytes_sent":       n.content.StateBytes(),
			"states_sent":            n.content.States(),
			"pieces_passed_on":       passedOn,
			"pieces_passed_on_cut":   passCut,
		},
		RecentFailures: n.failures.Recent(),
	}
}

func (s statusSource) Peers() []control.Peer { return toPeers(s.n.router.Peers()) }

func (s statusSource) Pulls() []pullhistory.Pull { return s.n.history.Recent() }

// Providers lists the peers that announced key, and this node if it holds it.
func (s statusSource) Providers(ctx context.Context, key digest.Digest) ([]control.Peer, error) {
	found, err := s.n.router.FindProviders(ctx, key, 20)
	if err != nil && !errors.Is(err, router.ErrNoPeers) {
		return nil, err
	}
	peers := toPeers(found)
	if len(s.n.inventory.Namespaces(key)) > 0 {
		peers = append([]control.Peer{{ID: s.n.router.ID().String() + " (this node)", Addresses: s.n.router.Addrs()}}, peers...)
	}
	return peers, nil
}

func (s statusSource) ReferenceKey(ref string) digest.Digest { return router.ReferenceKey(ref) }

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

func imageNames(is images.Store) inventory.ImageLister {
	if is == nil {
		return nil
	}
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
	namespaces func(context.Context) ([]string, error)
	images     images.Store
}

func (l *imageLookup) Lookup(ctx context.Context, name string) (string, ocispec.Descriptor, error) {
	if l.images == nil {
		return "", ocispec.Descriptor{}, fmt.Errorf("image %s: %w", name, errdefs.ErrNotFound)
	}
	nss, err := l.namespaces(ctx)
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

// offerArrivingIn is what the fetcher offers layers to peers through while
// they arrive: nothing when the node serves nothing in flight.
func offerArrivingIn(arriving *inflight.Registry, inv *inventory.Inventory) fetcher.InFlight {
	if arriving == nil {
		return nil
	}
	return &offerArriving{registry: arriving, inventory: inv}
}

// expectOrigin tells the inventory where a blob fetched upstream comes
// from, in the namespace of the pull's context.
func expectOrigin(inv *inventory.Inventory) func(ctx context.Context, dgst digest.Digest, labels map[string]string) {
	return func(ctx context.Context, dgst digest.Digest, labels map[string]string) {
		if ns, ok := namespaces.Namespace(ctx); ok {
			inv.ExpectOrigin(ns, dgst, labels)
		}
	}
}

// offerArriving offers a layer to peers from the moment it starts to
// arrive: the inventory decides whether it is shared and announces it, and
// the in-flight registry serves it while it arrives.
type offerArriving struct {
	registry  *inflight.Registry
	inventory *inventory.Inventory
}

func (o *offerArriving) Begin(ctx context.Context, ref string, desc ocispec.Descriptor, labels map[string]string) func() {
	ns, ok := namespaces.Namespace(ctx)
	if !ok {
		return func() {}
	}
	// Registered before it is announced, so that no peer that learns of it
	// finds nothing to read.
	t, err := o.registry.Begin(ns, ref, desc, labels)
	if err != nil {
		log.G(ctx).WithError(err).Debug("p2p: layer not offered while it arrives")
		return func() {}
	}
	withdraw, ok := o.inventory.Offer(ctx, ns, desc.Digest, labels)
	if !ok {
		t.End()
		return func() {}
	}
	return func() {
		t.End()
		withdraw()
	}
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
