// Package peertransfer wraps containerd's transfer service so that every pull
// through it (CRI's default path, `ctr image pull`) fetches content from peers
// first and falls back to the original upstream fetcher, which keeps the
// caller's credentials, headers and hosts configuration.
//
// containerd has no pluggable resolver and a second transfer plugin breaks
// CRI, so the stock io.containerd.transfer.v1.local registration is kept
// (same URI, same config) and only its InitFn is wrapped.
package peertransfer

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/containerd/containerd/v2/core/transfer"
	"github.com/containerd/containerd/v2/plugins"
	"github.com/containerd/log"
	"github.com/containerd/plugin"
	"github.com/containerd/plugin/registry"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/fetcher"
	"github.com/shoal-dev/shoal/plugin/pullhistory"
	"github.com/shoal-dev/shoal/plugin/recovery"
	"github.com/shoal-dev/shoal/plugin/registryaccess"
)

// PeerFetcher is what the wrapper needs from the P2P plugin.
type PeerFetcher interface {
	// PeerFirst returns a fetcher for image ref that tries peers before
	// upstream.
	PeerFirst(upstream transfer.Fetcher, ref string) Fetcher
	// ResolveFallback is asked after the upstream failed to resolve ref.
	// It resolves from peers when the upstream was unreachable, and
	// otherwise returns upstreamErr.
	ResolveFallback(ctx context.Context, ref string, upstreamErr error) (string, ocispec.Descriptor, error)
	// MarkAccess records, on a pulled image's root, whether its registry
	// serves it without credentials; only such images are resolved for
	// peers that cannot reach the registry.
	MarkAccess(ctx context.Context, target ocispec.Descriptor, anonymous bool) error
	// RecordPull is told about each pull once it is over (`shoal pulls`).
	RecordPull(pullhistory.Pull)
	// RegistryAccess is the plugin's registry clients, which know the
	// addresses Shoal must never ask (its own loopback mirror's); nil:
	// the wrapper uses clients of its own.
	RegistryAccess() *registryaccess.Access
}

// Fetcher is the fetcher of one image's pull that goes to peers first.
type Fetcher interface {
	transfer.Fetcher
	// Received is what the pull received through it, from where.
	Received() fetcher.Received
	// DiscardCorrupt discards the layers peers sent that failed
	// containerd's digest check, and reports whether there were any: the
	// pull failed on them, and another attempt fetches them elsewhere.
	DiscardCorrupt(ctx context.Context) bool
}

// Provider is the P2P plugin's instance: it hands out the peer fetcher.
type Provider interface {
	PeerFetcher() PeerFetcher
}

var (
	installOnce sync.Once
	installed   bool
)

// Install wraps the registered local transfer service so that pulls go to
// the plugin with ID p2pID (of type ServerPlugin) first. Shoal's builtins
// package calls it from its init, after containerd's transfer plugin package
// has registered the service (Go initialises a package's imports first), so
// a main that imports the builtins needs nothing else. Only the first call
// wraps; every call reports whether the service was found.
//
// Registrations cannot be replaced (the registry refuses a second one with
// the same ID), and re-registering all of them would change containerd's
// plugin order; the registry hands its filter the registrations themselves,
// so the InitFn is replaced in place, nothing else changes.
func Install(p2pID string) bool {
	installOnce.Do(func() {
		registry.Graph(func(reg *plugin.Registration) bool {
			if reg.Type == plugins.TransferPlugin && reg.ID == "local" {
				reg.InitFn = wrapInit(reg.InitFn, p2pID)
				installed = true
			}
			return false
		})
	})
	return installed
}

func wrapInit(inner func(*plugin.InitContext) (any, error), p2pID string) func(*plugin.InitContext) (any, error) {
	return func(ic *plugin.InitContext) (any, error) {
		inst, err := inner(ic)
		if err != nil {
			return nil, err
		}
		t, ok := inst.(transfer.Transferrer)
		if !ok {
			log.G(ic.Context).Warnf("p2p: transfer service is %T, not wrapping it", inst)
			return inst, nil
		}
		return NewService(t, lazyPeers(ic, p2pID)), nil
	}
}

// lazyPeers finds the P2P plugin at the first pull, when every plugin has
// been initialised whatever the order. A failed or disabled P2P plugin leaves
// pulls exactly as stock containerd does them.
func lazyPeers(ic *plugin.InitContext, id string) func() PeerFetcher {
	var (
		once sync.Once
		pf   PeerFetcher
	)
	return func() PeerFetcher {
		once.Do(func() {
			inst, err := ic.GetByID(plugins.ServerPlugin, id)
			if err != nil {
				log.G(ic.Context).WithError(err).Warn("p2p: plugin not available, pulls go upstream only")
				return
			}
			p, ok := inst.(Provider)
			if !ok {
				log.G(ic.Context).Warnf("p2p: plugin %s is %T, which provides no peer fetcher", id, inst)
				return
			}
			pf = p.PeerFetcher()
		})
		return pf
	}
}

// corruptRetries bounds the pulls made again after a layer from peers
// failed containerd's digest check. Each attempt penalizes the nodes that
// vouched for its bytes, so the next one takes it from others, or from the
// upstream.
const corruptRetries = 2

// Service is the wrapped transfer service.
type Service struct {
	inner transfer.Transferrer
	peers func() PeerFetcher
	// registries makes Shoal's own registry requests, unless the peer
	// fetcher shares its own.
	registries *registryaccess.Access
}

// NewService wraps t; peers may return nil to pass pulls through unchanged.
func NewService(t transfer.Transferrer, peers func() PeerFetcher) *Service {
	return &Service{inner: t, peers: peers, registries: registryaccess.New(registryaccess.Options{})}
}

// registriesFor returns the registry clients of pulls through pf.
func (s *Service) registriesFor(pf PeerFetcher) *registryaccess.Access {
	if a := pf.RegistryAccess(); a != nil {
		return a
	}
	return s.registries
}

// Transfer implements transfer.Transferrer.
func (s *Service) Transfer(ctx context.Context, src, dst any, opts ...transfer.Opt) error {
	if fetcher, ok := src.(transfer.ImageFetcher); ok {
		if _, ok := dst.(transfer.ImageStorer); ok {
			if pf := s.peers(); pf != nil {
				wrapped := &source{ImageFetcher: fetcher, peers: pf, registries: s.registriesFor(pf)}
				start := time.Now()
				err := s.inner.Transfer(ctx, wrapped, dst, opts...)
				for retry := 0; err != nil && retry < corruptRetries && ctx.Err() == nil && wrapped.discardCorrupt(ctx); retry++ {
					log.G(ctx).WithError(err).Warn("p2p: a layer from peers failed verification and was discarded; pulling again without those peers")
					err = s.inner.Transfer(ctx, wrapped, dst, opts...)
				}
				wrapped.record(ctx, start, err)
				// Tidying up and labelling are content-store transactions,
				// each synced to disk: the caller need not wait for them.
				go wrapped.finish(context.WithoutCancel(ctx), err == nil)
				return err
			}
		}
	}
	return s.inner.Transfer(ctx, src, dst, opts...)
}

// source is an image source whose fetcher goes to peers first. It keeps the
// optional interfaces the pull path looks for on the original.
type source struct {
	transfer.ImageFetcher
	peers      PeerFetcher
	registries *registryaccess.Access

	// Set when the upstream resolved the image: the root, and whether an
	// anonymous client would have been served it (learned meanwhile).
	resolved  *ocispec.Descriptor
	anonymous chan bool

	mu       sync.Mutex
	fetchers []Fetcher
}

// finish runs once the pull is over: if it succeeded, the image's access
// is recorded.
func (s *source) finish(ctx context.Context, succeeded bool) {
	defer recovery.Log(ctx, "p2p: finishing a pull failed")
	if succeeded {
		s.markAccess(ctx)
	}
}

// discardCorrupt reports whether the fetchers discarded layers that peers
// sent corrupt.
func (s *source) discardCorrupt(ctx context.Context) bool {
	s.mu.Lock()
	fetchers := s.fetchers
	s.mu.Unlock()
	discarded := false
	for _, f := range fetchers {
		if f.DiscardCorrupt(ctx) {
			discarded = true
		}
	}
	return discarded
}

// markAccess labels the pulled image with whether it is served without
// credentials.
// Images resolved by peers (upstream unreachable) are not marked, so they
// are never passed on in a peer-only fallback either.
func (s *source) markAccess(ctx context.Context) {
	if s.resolved == nil {
		return
	}
	anonymous := <-s.anonymous
	if err := s.peers.MarkAccess(ctx, *s.resolved, anonymous); err != nil {
		log.G(ctx).WithError(err).Warn("p2p: could not record whether the image needs credentials")
	}
}

// Resolve asks the upstream first, always: it holds the truth about tags
// and checks the caller's credentials. Peers are asked only when it could
// not be reached.
func (s *source) Resolve(ctx context.Context) (string, ocispec.Descriptor, error) {
	name, desc, err := s.ImageFetcher.Resolve(ctx)
	image, ok := s.ImageFetcher.(interface{ Image() string })
	if err == nil {
		if ok {
			// Meanwhile, learn whether the registry would serve this image
			// to anyone; the answer is recorded once the pull is through.
			// It is asked now, while the pull's client is still there to
			// answer for its credentials.
			s.resolved = &desc
			s.anonymous = make(chan bool, 1)
			go s.learnAccess(context.WithoutCancel(ctx), image.Image())
		}
		return name, desc, nil
	}
	if !ok {
		return name, desc, err
	}
	return s.peers.ResolveFallback(ctx, image.Image(), err)
}

// learnAccess sends on s.anonymous whether image is served without
// credentials; false if that cannot be learned.
func (s *source) learnAccess(ctx context.Context, image string) {
	anonymous := false
	defer func() { s.anonymous <- anonymous }()
	defer recovery.Log(ctx, "p2p: learning whether an image needs credentials failed")
	anonymous = anonymousPull(ctx, s.registries, s.ImageFetcher, image)
}

func (s *source) Fetcher(ctx context.Context, ref string) (transfer.Fetcher, error) {
	up, err := s.ImageFetcher.Fetcher(ctx, ref)
	if err != nil {
		return nil, err
	}
	f := s.peers.PeerFirst(up, ref)
	s.mu.Lock()
	s.fetchers = append(s.fetchers, f)
	s.mu.Unlock()
	return f, nil
}

func (s *source) SetResolverOptions(opts ...transfer.ImageResolverOption) {
	if setter, ok := s.ImageFetcher.(transfer.ImageResolverOptionSetter); ok {
		setter.SetResolverOptions(opts...)
	}
}

func (s *source) String() string { return fmt.Sprint(s.ImageFetcher) }
