// Package fetcher answers "get these bytes, from a peer if one has them":
// given a descriptor it finds providers and reads from them with every wait
// bounded and nothing unverified let through: a layer by verified pieces
// (package swarm decides who sends which), a smaller object whole from one
// provider after another; the upstream fetcher is the fallback.
package fetcher

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/failures"
	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/penalty"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/pulling"
	"github.com/shoal-dev/shoal/plugin/router"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/window"
)

// Finder looks up which peers announced a digest.
type Finder interface {
	FindProviders(ctx context.Context, dgst digest.Digest, limit int) ([]peer.AddrInfo, error)
}

// Upstream is the fetcher that would have been used without peers.
type Upstream interface {
	Fetch(ctx context.Context, desc ocispec.Descriptor) (io.ReadCloser, error)
}

// Store is the content store the pull writes into: the fetcher commits
// layers into it (CommitLayers) and discards ingests of bad bytes.
type Store interface {
	content.Ingester
	content.IngestManager
	Info(ctx context.Context, dgst digest.Digest) (content.Info, error)
}

// Defaults of the settings a node's configuration names (see Options).
const (
	DefaultHedgeDelay          = 300 * time.Millisecond
	DefaultUpstreamIdleTimeout = 30 * time.Second
)

// Options tune the fetcher.
type Options struct {
	// Store is the pull's content store (see Store).
	Store Store
	// LookupTimeout bounds one provider lookup; a miss costs at most this.
	// Default router.DefaultLookupTimeout.
	LookupTimeout time.Duration
	// MaxProviders is how many providers are tried before upstream.
	// Default router.DefaultMaxProviders.
	MaxProviders int
	// InMemoryLimit: objects up to this size are read whole and verified
	// before they are returned; larger ones are written to Store. Default
	// oci.MaxManifestSize.
	InMemoryLimit int64
	// HedgeDelay: when the first provider has not answered after this long,
	// the next one is asked too. Default DefaultHedgeDelay.
	HedgeDelay time.Duration
	// Penalties say which peers to avoid; shared with everything else that
	// asks peers for content. Default: a board of the fetcher's own.
	Penalties *penalty.Board
	// Failures keeps the latest peer failures. Default: a log of its own.
	Failures *failures.Log
	// UpstreamIdleTimeout fails a read of an upstream body that sees no
	// byte for this long; 0: no bound. A node's is
	// DefaultUpstreamIdleTimeout unless configured.
	UpstreamIdleTimeout time.Duration
	// ExpectOrigin, if set, is told where a blob fetched upstream comes
	// from before containerd commits it (containerd labels it just after).
	ExpectOrigin func(ctx context.Context, dgst digest.Digest, labels map[string]string)
	// Lookups, if set, is told how long each provider lookup took.
	Lookups LookupObserver
	// Shuffle orders the providers found before they are asked, to spread
	// the load over holders. Default math/rand/v2's Shuffle.
	Shuffle func(n int, swap func(i, j int))
	// InFlight, if set, offers layers to peers while they arrive, from
	// the upstream or from other peers.
	InFlight InFlight
	// Self is this node.
	Self peer.ID
	// Peers, if set, are the peers this node is connected to. A node whose
	// lookup finds nobody before it for a layer asks the ones ranked first
	// directly whether they receive the layer: their announcement may not
	// be findable yet (make bench-dht: announce → findable p99 335 ms with
	// the CPUs saturated).
	Peers func() []peer.AddrInfo
	// Pulling, if set, is told of every fetch of every pull, from its
	// start until its body is closed: peers asking about a blob of a
	// repository learn whether this node pulls from it (askFirstRanked).
	Pulling *pulling.Tracker
	// Windows, if set, makes the fetcher fetch layers of two pieces or
	// more by pieces (package swarm, with Swarm's tunables; the zero
	// Config is swarm.DefaultConfig) and hold them there for peers.
	// SignTable signs the piece table of a layer this node takes from the
	// upstream; Tables, if set, keeps the signed table of each layer
	// fetched by pieces once containerd committed it, for the content
	// service to answer peers with.
	Windows   *window.Registry
	Swarm     swarm.Config
	SignTable func(pieces.Table) (pieces.Table, error)
	Tables    interface{ Put(pieces.Table) error }
	// UploadCap is this node's upload cap to peers in bytes per second
	// (0: none): a seed whose pieces leave it slowly leaves the layer to
	// a faster one.
	UploadCap int64
	// SpareUplink: this node is capped or serves nothing, and leaves
	// taking layers from the upstream to the others in a rollout.
	SpareUplink bool
	// Distance orders the nodes fetching a layer by pieces
	// (router.Distance: nearness to the layer's DHT key).
	Distance func(dgst digest.Digest, p peer.ID) string
}

// LookupObserver is told how long each provider lookup took, and whether
// it found a usable provider.
type LookupObserver interface {
	ObserveLookup(d time.Duration, hit bool)
}

// InFlight makes a blob that is arriving into the ingest ref available to
// peers before it is complete. Its end function says the arrival is over.
type InFlight interface {
	Begin(ctx context.Context, ref string, desc ocispec.Descriptor, labels map[string]string) (end func())
}

// Fetcher fetches content from peers.
type Fetcher struct {
	finder    Finder
	client    *peerclient.Client
	opts      Options
	penalties *penalty.Board
	failures  *failures.Log
	stats     Stats

	// fetchingByPieces counts the layers whose pieces are being fetched
	// now: they share the node's downlink (swarm.Session.SetLayers).
	fetchingByPieces atomic.Int32
}

// judge records a failed request to p for d: kept for `shoal status`, and
// penalized by its kind (peerclient.PenaltyKind).
func (f *Fetcher) judge(p peer.ID, d digest.Digest, err error) {
	kind := peerclient.PenaltyKind(err)
	switch kind {
	case penalty.Stale:
		f.stats.NotFound.Add(1)
	case penalty.Busy:
		f.stats.Busy.Add(1)
	case penalty.Corrupt, penalty.BadTable:
		f.stats.Corrupt.Add(1)
	}
	f.penalties.Judge(p, d, kind)
	f.failures.Record(d.String(), p.String(), err)
}

// New returns a Fetcher that finds providers with finder and asks them
// with client.
func New(finder Finder, client *peerclient.Client, opts Options) *Fetcher {
	if opts.LookupTimeout <= 0 {
		opts.LookupTimeout = router.DefaultLookupTimeout
	}
	if opts.MaxProviders <= 0 {
		opts.MaxProviders = router.DefaultMaxProviders
	}
	if opts.InMemoryLimit <= 0 {
		opts.InMemoryLimit = oci.MaxManifestSize
	}
	if opts.HedgeDelay <= 0 {
		opts.HedgeDelay = DefaultHedgeDelay
	}
	if opts.Penalties == nil {
		opts.Penalties = penalty.New(penalty.Options{})
	}
	if opts.Failures == nil {
		opts.Failures = failures.NewLog(0)
	}
	if opts.Shuffle == nil {
		opts.Shuffle = rand.Shuffle
	}
	if opts.Swarm == (swarm.Config{}) {
		opts.Swarm = swarm.DefaultConfig()
	}
	return &Fetcher{finder: finder, client: client, opts: opts, penalties: opts.Penalties, failures: opts.Failures}
}

// Stats are the fetcher's counters.
func (f *Fetcher) Stats() *Stats { return &f.stats }

// WrapFetcher returns a fetcher for the image ref that tries peers first and
// falls back to upstream.
func (f *Fetcher) WrapFetcher(upstream Upstream, ref string) *PeerFirst {
	return &PeerFirst{f: f, upstream: upstream, ref: ref, repo: peerclient.RepositoryOf(ref), pull: swarm.NewPull()}
}

// PeerFirst is a remotes.Fetcher for one image.
type PeerFirst struct {
	f        *Fetcher
	upstream Upstream
	ref      string
	repo     peerclient.Repository

	mu         sync.Mutex
	deliveries []delivery // for DiscardCorrupt

	tally tally // what this image's pull received, from where
	// arrived counts the layer bytes this pull received from any source
	// as they arrive.
	arrived atomic.Int64

	// pull is what the sessions of this pull's layers share.
	pull *swarm.Pull
}

// Fetch returns the content of desc, from peers where possible. A small
// object from peers is read whole and verified first; a layer comes as a
// body that fetches it by pieces as it is read (fetchByPieces).
func (pf *PeerFirst) Fetch(ctx context.Context, desc ocispec.Descriptor) (io.ReadCloser, error) {
	end := pf.f.opts.Pulling.Begin(pulling.Key(pf.repo.Registry, pf.repo.Name))
	rc, err := pf.fetch(ctx, desc)
	if err != nil || rc == nil {
		end()
		return rc, err
	}
	return endOnClose(rc, end), nil
}

func (pf *PeerFirst) fetch(ctx context.Context, desc ocispec.Descriptor) (_ io.ReadCloser, err error) {
	if !pf.eligible(desc) {
		rc, err := pf.upstream.Fetch(ctx, desc)
		if err != nil {
			return nil, err
		}
		return countingReader(rc, &pf.tally.upstream), nil
	}
	ctx, span := pf.startFetch(ctx, desc)
	streaming := false // then the stream ends the span
	defer func() {
		if !streaming {
			endFetch(span, err)
		}
	}()
	logger := log.G(ctx).WithField("digest", desc.Digest).WithField("size", desc.Size)

	// A layer is offered to peers as soon as its fetch starts, before its
	// first byte: the nodes after this one in a rollout find it at once,
	// and wait for its bytes. Whatever source it then gets is its own.
	var arrival func()
	if pf.shareInFlight(desc) {
		arrival = pf.f.opts.InFlight.Begin(ctx, remotes.MakeRefKey(ctx, desc), desc, pf.sourceLabels())
	}
	defer func() {
		if arrival != nil { // not handed on
			arrival()
		}
	}()
	handOn := func() func() {
		a := arrival
		arrival = nil
		return a
	}

	if desc.Size > pf.f.opts.InMemoryLimit {
		// A layer comes by verified pieces, or whole from the upstream.
		if !pf.byPieces(desc) {
			return pf.upstreamFetch(ctx, desc, "not fetched by pieces", handOn())
		}
		holders, _, _ := pf.lookup(ctx, desc.Digest)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if pf.f.opts.ExpectOrigin != nil {
			pf.f.opts.ExpectOrigin(ctx, desc.Digest, pf.sourceLabels()) // containerd commits it
		}
		a := handOn()
		rc, perr := pf.fetchByPieces(ctx, desc, holders, a, func(err error) { endFetch(span, err) })
		if perr == nil {
			streaming = true // the fetch by pieces ends the span
			return rc, nil
		}
		logger.WithError(perr).Debug("p2p: not fetched by pieces")
		return pf.upstreamFetch(ctx, desc, perr.Error(), a)
	}

	providers, lookup, err := pf.lookup(ctx, desc.Digest)
	src := newSources(pf, desc, providers)
	hit := err == nil && src.remaining() > 0
	if pf.f.opts.Lookups != nil {
		pf.f.opts.Lookups.ObserveLookup(lookup, hit)
	}
	if !hit {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		pf.f.stats.Misses.Add(1)
		// found > 0: every holder found is being avoided (penalty.Board).
		logger.WithError(err).WithFields(log.Fields{"lookup": lookup, "found": len(providers)}).
			Debug("p2p: no peer holds it, fetching upstream")
		return pf.upstreamFetch(ctx, desc, "no peer holds it", handOn())
	}

	logger.WithField("providers", len(providers)).WithField("lookup", lookup).Debug("p2p: providers found")
	pf.f.stats.Hits.Add(1)
	pf.f.stats.InFlight.Add(1)
	defer pf.f.stats.InFlight.Add(-1)
	data, from, err := pf.readVerified(ctx, src)
	if err != nil {
		logger.WithError(err).Debug("p2p: no peer delivered verified content, fetching upstream")
		return pf.upstreamFetch(ctx, desc, fmt.Sprintf("%d providers failed", len(providers)), handOn())
	}
	pf.f.stats.PeerBytes.Add(int64(len(data)))
	pf.tally.fromPeer(from, int64(len(data)))
	fromSource(ctx, "peers")
	logger.WithFields(log.Fields{"peer": from, "peer_bytes": len(data), "lookup": lookup}).Info("p2p: fetched from peer")
	if pf.f.opts.ExpectOrigin != nil {
		pf.f.opts.ExpectOrigin(ctx, desc.Digest, pf.sourceLabels()) // containerd commits it
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}

// upstreamFetch is the fallback; its error says that peers were tried too.
// A layer read from the upstream is offered to peers while it arrives;
// arrival, if not nil, ends the offer the fetch made already.
func (pf *PeerFirst) upstreamFetch(ctx context.Context, desc ocispec.Descriptor, peers string, arrival func()) (io.ReadCloser, error) {
	if pf.f.opts.ExpectOrigin != nil && pf.eligible(desc) {
		pf.f.opts.ExpectOrigin(ctx, desc.Digest, pf.sourceLabels())
	}
	end := func() {}
	if arrival != nil {
		end = arrival
	} else if pf.shareInFlight(desc) {
		// Offered before the upstream answers, so that nodes starting it
		// see it a round trip sooner; they wait for the first bytes.
		// The ingest is containerd's own, opened before it asked for them.
		end = pf.f.opts.InFlight.Begin(ctx, remotes.MakeRefKey(ctx, desc), desc, pf.sourceLabels())
	}
	fromSource(ctx, "upstream")
	ctx, span := startUpstream(ctx, desc, 0, peers)
	rc, err := pf.upstream.Fetch(ctx, desc)
	if err != nil {
		endRequest(ctx, span, err)
		end()
		return nil, fmt.Errorf("fetch %s of %s: peers: %s; upstream: %w", desc.Digest, pf.ref, peers, err)
	}
	rc = traceBody(ctx, span, withIdleTimeout(rc, pf.f.opts.UpstreamIdleTimeout), desc.Size)
	return endOnClose(countingReader(rc, &pf.f.stats.UpstreamBytes, &pf.tally.upstream, &pf.arrived), end), nil
}

// byPieces reports whether desc is fetched by pieces: a layer of two
// pieces or more, written into containerd's own ingest.
func (pf *PeerFirst) byPieces(desc ocispec.Descriptor) bool {
	return pf.f.opts.Windows != nil && desc.Size > pf.f.opts.InMemoryLimit &&
		pieces.SwarmPieceCount(desc.Size) >= 2 && desc.Size <= pieces.MaxSwarmLayerSize && pf.eligible(desc)
}

func (pf *PeerFirst) shareInFlight(desc ocispec.Descriptor) bool {
	return pf.f.opts.InFlight != nil && desc.Size > pf.f.opts.InMemoryLimit && pf.eligible(desc)
}

// sourceLabels are the labels containerd gives content of this image's
// registry, for the sharing policy of content still arriving.
func (pf *PeerFirst) sourceLabels() map[string]string {
	if pf.repo.Registry == "" {
		return nil
	}
	return map[string]string{"containerd.io/distribution.source." + pf.repo.Registry: pf.repo.Name}
}

// endOnClose ends the in-flight offer when containerd is done reading.
func endOnClose(rc io.ReadCloser, end func()) io.ReadCloser {
	return keepSeek(rc, &ending{ReadCloser: rc, end: end})
}

type ending struct {
	io.ReadCloser
	end  func()
	once sync.Once
}

func (e *ending) Close() error {
	err := e.ReadCloser.Close()
	e.once.Do(e.end)
	return err
}

// countingReader counts what is read, in each of counters.
func countingReader(rc io.ReadCloser, counters ...*atomic.Int64) io.ReadCloser {
	return keepSeek(rc, &counted{ReadCloser: rc, counters: counters})
}

// keepSeek gives wrapped the Seek of orig, when it has one: containerd
// resumes an interrupted download by seeking its body.
func keepSeek(orig, wrapped io.ReadCloser) io.ReadCloser {
	if s, ok := orig.(io.Seeker); ok {
		return struct {
			io.ReadCloser
			io.Seeker
		}{wrapped, s}
	}
	return wrapped
}

type counted struct {
	io.ReadCloser
	counters []*atomic.Int64
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	for _, counter := range c.counters {
		counter.Add(int64(n))
	}
	return n, err
}

func (pf *PeerFirst) lookup(ctx context.Context, dgst digest.Digest) ([]peer.AddrInfo, time.Duration, error) {
	// More than are asked, so that the ones asked can be spread: every node
	// asking the same first holders would load their uplinks alone.
	return pf.lookupUpTo(ctx, dgst, max(4*pf.f.opts.MaxProviders, swarm.LookupHolders))
}

func (pf *PeerFirst) lookupUpTo(ctx context.Context, dgst digest.Digest, limit int) ([]peer.AddrInfo, time.Duration, error) {
	start := time.Now()
	ctx, span := startLookup(ctx, dgst)
	lctx, cancel := context.WithTimeout(ctx, pf.f.opts.LookupTimeout)
	defer cancel()
	providers, err := pf.f.finder.FindProviders(lctx, dgst, limit)
	endLookup(span, providers, err)
	return providers, time.Since(start), err
}

// eligible: only content that can be addressed by digest on the peer network.
func (pf *PeerFirst) eligible(desc ocispec.Descriptor) bool {
	return desc.Digest.Algorithm() == digest.SHA256 && desc.Digest.Validate() == nil &&
		desc.Size > 0 && len(desc.URLs) == 0
}

// readVerified reads a small object whole from the first provider whose
// bytes match the descriptor.
func (pf *PeerFirst) readVerified(ctx context.Context, src *sources) ([]byte, peer.ID, error) {
	for {
		body, p, err := src.openPeer(ctx)
		if err != nil {
			return nil, "", err
		}
		data, err := io.ReadAll(body) // request() bounded it to desc.Size
		body.Close()
		if err != nil {
			pf.f.stats.Failovers.Add(1)
			if isStall(err) {
				pf.f.stats.Stalls.Add(1)
			}
			pf.judge(p, src.desc.Digest, err)
			failover(ctx, p, 0, err)
			log.G(ctx).WithError(err).WithField("peer", p).Debug("p2p: peer failed while sending")
			continue
		}
		if int64(len(data)) == src.desc.Size && digest.SHA256.FromBytes(data) == src.desc.Digest {
			return data, p, nil
		}
		pf.judge(p, src.desc.Digest, peerclient.ErrCorrupt)
		failover(ctx, p, 0, peerclient.ErrCorrupt)
		log.G(ctx).WithFields(log.Fields{"peer": p, "digest": src.desc.Digest}).Error("p2p: content from peer failed verification, discarded")
	}
}
