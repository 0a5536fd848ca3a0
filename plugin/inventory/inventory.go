// Package inventory answers "what does this node hold?": it walks the
// content store of every namespace at start, follows containerd events, and
// keeps every digest announced to the peer network while it is held. It is
// the only part of Shoal that announces: layers still arriving are offered
// to it (Offer), and it decides, announces and withdraws them too.
package inventory

import (
	"context"
	"errors"
	"maps"
	"sync"
	"time"

	eventstypes "github.com/containerd/containerd/api/events"
	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/events"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/log"
	"github.com/containerd/typeurl/v2"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// Announcer publishes that this node holds a digest.
type Announcer interface {
	Provide(ctx context.Context, dgst digest.Digest) error
}

// NamespaceLister lists containerd namespaces.
type NamespaceLister func(ctx context.Context) ([]string, error)

// ImageLister lists the image names of the namespace in ctx.
type ImageLister func(ctx context.Context) ([]string, error)

// DefaultReannounceInterval is how often a node announces what it holds
// again: a third of router.DefaultProviderTTL, so a record outlives two
// missed announcements.
const DefaultReannounceInterval = 10 * time.Minute

// Options tune the inventory.
type Options struct {
	// ReannounceInterval is how often every held digest is announced again.
	// It must be well below the provider record lifetime. Default
	// DefaultReannounceInterval.
	ReannounceInterval time.Duration
	// RetryInterval is how soon failed announcements are retried.
	RetryInterval time.Duration
	// RescanDelay is how long after a deletion the store is walked again;
	// garbage collection runs shortly after the delete and emits no event.
	RescanDelay time.Duration
	// Concurrency bounds parallel announcements.
	Concurrency int
	// Images and ReferenceKey, when both set, make every image name held
	// announced too, under ReferenceKey(name).
	Images       ImageLister
	ReferenceKey func(name string) digest.Digest
	// Policy decides what may be shared; nil shares everything.
	Policy Policy
}

// Policy is the sharing policy (see package policy).
type Policy interface {
	ContentShared(ns string, labels map[string]string) bool
	ImageShared(ns, name string) bool
	DependsOnOrigin() bool
}

// Inventory tracks held content.
type Inventory struct {
	store     content.Store
	listNS    NamespaceLister
	announcer Announcer
	opts      Options

	mu       sync.RWMutex
	held     map[digest.Digest]map[string]struct{} // digest -> namespaces
	pending  map[digest.Digest]struct{}            // announcements to retry
	verified map[digest.Digest]struct{}            // checked against its digest since start
	corrupt  map[digest.Digest]struct{}            // found not to match its digest: never offered
	arriving map[digest.Digest]int                 // offers of content still arriving, counted
	origins  map[digest.Digest]origin              // labels arriving content was offered with
	rechecks int                                   // blobs waiting for their origin label
	// announcedAt is when content offered while it arrived was announced:
	// its commit then announces nothing new (announcedArriving).
	announcedAt map[digest.Digest]time.Time

	wake chan struct{}
}

// New returns an inventory over the namespaced content store.
func New(store content.Store, listNS NamespaceLister, announcer Announcer, opts Options) *Inventory {
	if opts.ReannounceInterval <= 0 {
		opts.ReannounceInterval = DefaultReannounceInterval
	}
	if opts.RetryInterval <= 0 {
		opts.RetryInterval = 5 * time.Second
	}
	if opts.RescanDelay <= 0 {
		opts.RescanDelay = 2 * time.Second
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 8
	}
	return &Inventory{
		store:       store,
		listNS:      listNS,
		announcer:   announcer,
		opts:        opts,
		held:        map[digest.Digest]map[string]struct{}{},
		pending:     map[digest.Digest]struct{}{},
		verified:    map[digest.Digest]struct{}{},
		corrupt:     map[digest.Digest]struct{}{},
		arriving:    map[digest.Digest]int{},
		origins:     map[digest.Digest]origin{},
		announcedAt: map[digest.Digest]time.Time{},
		wake:        make(chan struct{}, 1),
	}
}

// Namespaces returns the namespaces that hold dgst.
func (inv *Inventory) Namespaces(dgst digest.Digest) []string {
	inv.mu.RLock()
	defer inv.mu.RUnlock()
	var out []string
	for ns := range inv.held[dgst] {
		out = append(out, ns)
	}
	return out
}

// Len is the number of distinct digests held.
func (inv *Inventory) Len() int {
	inv.mu.RLock()
	defer inv.mu.RUnlock()
	return len(inv.held)
}

// Topics the inventory needs: new content, and deletions after which it
// must find out what garbage collection removed.
var Filters = []string{
	`topic=="/content/create"`,
	`topic=="/images/create"`,
	`topic=="/images/update"`,
	`topic=="/content/delete"`,
	`topic=="/images/delete"`,
	`topic=="/snapshot/remove"`,
}

// Subscribe opens a subscription to containerd's events (Filters).
type Subscribe func(ctx context.Context) (<-chan *events.Envelope, <-chan error)

// Run walks the store, announces what it holds and then follows events until
// ctx ends. When the subscription breaks it subscribes again and walks the
// store again, so nothing missed in between goes unannounced. Panics are
// contained: the inventory must never take containerd down with it.
func (inv *Inventory) Run(ctx context.Context, subscribe Subscribe) {
	defer recovery.Log(ctx, "p2p: inventory stopped")
	go inv.announceLoop(ctx)

	backoff := time.Second
	for ctx.Err() == nil {
		sctx, cancel := context.WithCancel(ctx)
		// Subscribe first, then walk: content created in between is seen
		// twice, never missed. The walk queues whatever is new.
		envelopes, errs := subscribe(sctx)
		if err := inv.Rescan(ctx); err != nil {
			log.G(ctx).WithError(err).Warn("p2p: content walk failed")
		}
		healthy := inv.follow(sctx, envelopes, errs)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if healthy {
			backoff = time.Second
		}
		log.G(ctx).WithField("retry_in", backoff).Warn("p2p: event subscription lost, subscribing again")
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 30*time.Second)
	}
}

// follow applies events until the subscription ends. It reports whether the
// subscription delivered anything, to reset the reconnect backoff.
func (inv *Inventory) follow(ctx context.Context, envelopes <-chan *events.Envelope, errs <-chan error) bool {
	reannounce := time.NewTicker(inv.opts.ReannounceInterval)
	defer reannounce.Stop()
	var rescan <-chan time.Time
	delivered := false
	for {
		select {
		case <-ctx.Done():
			return delivered
		case env, ok := <-envelopes:
			if !ok {
				return delivered
			}
			delivered = true
			if inv.handle(ctx, env) && rescan == nil {
				rescan = time.After(inv.opts.RescanDelay)
			}
		case err := <-errs:
			if err != nil && !errors.Is(err, context.Canceled) {
				log.G(ctx).WithError(err).Warn("p2p: event subscription ended")
			}
			return delivered
		case <-rescan:
			rescan = nil
			if err := inv.Rescan(ctx); err != nil {
				log.G(ctx).WithError(err).Warn("p2p: content walk failed")
			}
		case <-reannounce.C:
			if err := inv.Rescan(ctx); err != nil {
				log.G(ctx).WithError(err).Warn("p2p: content walk failed")
			}
			inv.queueAll()
		}
	}
}

// handle applies one event; it reports whether a rescan is needed.
func (inv *Inventory) handle(ctx context.Context, env *events.Envelope) bool {
	switch env.Topic {
	case "/content/create":
		ev, err := typeurl.UnmarshalAny(env.Event)
		if err != nil {
			log.G(ctx).WithError(err).Debug("p2p: undecodable content event")
			return false
		}
		created, ok := ev.(*eventstypes.ContentCreate)
		if !ok {
			return false
		}
		dgst, err := digest.Parse(created.Digest)
		if err != nil {
			return false
		}
		// containerd verified it against its digest when it was committed.
		inv.MarkVerified(dgst)
		if p := inv.opts.Policy; p != nil {
			info, err := inv.store.Info(namespaces.WithNamespace(ctx, env.Namespace), dgst)
			if err == nil && !p.ContentShared(env.Namespace, info.Labels) && inv.offeredAsShared(env.Namespace, dgst) {
				// Containerd labels its origin a moment after this event;
				// it was offered while it arrived, with that origin.
				info.Labels = inv.originLabels(dgst)
			}
			if err != nil || !p.ContentShared(env.Namespace, info.Labels) {
				// Where it came from is labelled just after the commit: look
				// again then, or walk the store when too many wait.
				return p.DependsOnOrigin() && !inv.recheck(ctx, env.Namespace, dgst)
			}
		}
		if inv.add(env.Namespace, dgst) && !inv.announcedArriving(dgst) {
			inv.queue(dgst)
		}
		return false
	case "/images/create", "/images/update":
		if inv.opts.ReferenceKey == nil {
			return false
		}
		ev, err := typeurl.UnmarshalAny(env.Event)
		if err != nil {
			return false
		}
		var name string
		switch e := ev.(type) {
		case *eventstypes.ImageCreate:
			name = e.Name
		case *eventstypes.ImageUpdate:
			name = e.Name
		}
		if name == "" || (inv.opts.Policy != nil && !inv.opts.Policy.ImageShared(env.Namespace, name)) {
			return false
		}
		if key := inv.opts.ReferenceKey(name); inv.add(env.Namespace, key) {
			inv.queue(key)
		}
		return false
	default:
		return true
	}
}

// Verified reports whether dgst was checked against its digest since start.
func (inv *Inventory) Verified(dgst digest.Digest) bool {
	inv.mu.RLock()
	defer inv.mu.RUnlock()
	_, ok := inv.verified[dgst]
	return ok
}

// MarkVerified records that the stored content of dgst matches it.
func (inv *Inventory) MarkVerified(dgst digest.Digest) {
	inv.mu.Lock()
	inv.verified[dgst] = struct{}{}
	delete(inv.corrupt, dgst)
	inv.mu.Unlock()
}

// MarkCorrupt records that the stored content of dgst does not match it:
// it is neither offered nor announced again until it is written anew.
func (inv *Inventory) MarkCorrupt(dgst digest.Digest) {
	inv.mu.Lock()
	inv.corrupt[dgst] = struct{}{}
	delete(inv.verified, dgst)
	delete(inv.held, dgst)
	delete(inv.pending, dgst)
	inv.mu.Unlock()
}

func (inv *Inventory) add(ns string, dgst digest.Digest) (isNew bool) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	if _, bad := inv.corrupt[dgst]; bad {
		return false
	}
	nss, ok := inv.held[dgst]
	if !ok {
		nss = map[string]struct{}{}
		inv.held[dgst] = nss
	}
	nss[ns] = struct{}{}
	return !ok
}

// Rescan replaces the inventory with what the store holds now. Digests that
// are gone stop being announced (provider records then expire on their own).
func (inv *Inventory) Rescan(ctx context.Context) error {
	nss, err := inv.listNS(ctx)
	if err != nil {
		return err
	}
	held := map[digest.Digest]map[string]struct{}{}
	for _, ns := range nss {
		nctx := namespaces.WithNamespace(ctx, ns)
		err := inv.store.Walk(nctx, func(info content.Info) error {
			if inv.opts.Policy != nil && !inv.opts.Policy.ContentShared(ns, info.Labels) {
				return nil
			}
			m, ok := held[info.Digest]
			if !ok {
				m = map[string]struct{}{}
				held[info.Digest] = m
			}
			m[ns] = struct{}{}
			return nil
		})
		if err != nil {
			return err
		}
		if inv.opts.Images == nil || inv.opts.ReferenceKey == nil {
			continue
		}
		names, err := inv.opts.Images(nctx)
		if err != nil {
			return err
		}
		for _, name := range names {
			if inv.opts.Policy != nil && !inv.opts.Policy.ImageShared(ns, name) {
				continue
			}
			key := inv.opts.ReferenceKey(name)
			if held[key] == nil {
				held[key] = map[string]struct{}{}
			}
			held[key][ns] = struct{}{}
		}
	}
	inv.mu.Lock()
	for d := range inv.corrupt {
		delete(held, d)
	}
	var added []digest.Digest
	for d := range held {
		if _, ok := inv.held[d]; !ok {
			added = append(added, d)
		}
	}
	removed := 0
	for d := range inv.held {
		if _, ok := held[d]; !ok {
			removed++
			delete(inv.pending, d)
			delete(inv.verified, d)
		}
	}
	inv.held = held
	inv.mu.Unlock()
	for _, d := range added {
		inv.queue(d)
	}
	if removed > 0 || len(added) > 0 {
		log.G(ctx).WithFields(log.Fields{"held": len(held), "added": len(added), "removed": removed}).Debug("p2p: inventory rescanned")
	}
	return nil
}

func (inv *Inventory) queue(dgst digest.Digest) {
	inv.mu.Lock()
	inv.pending[dgst] = struct{}{}
	inv.mu.Unlock()
	select {
	case inv.wake <- struct{}{}:
	default:
	}
}

func (inv *Inventory) queueAll() {
	inv.mu.Lock()
	for d := range inv.held {
		inv.pending[d] = struct{}{}
	}
	for d := range inv.arriving {
		inv.pending[d] = struct{}{}
	}
	inv.mu.Unlock()
	select {
	case inv.wake <- struct{}{}:
	default:
	}
}

// announceLoop drains the pending set; failures stay pending and are
// retried after RetryInterval (e.g. while no peer is connected yet).
func (inv *Inventory) announceLoop(ctx context.Context) {
	defer recovery.Log(ctx, "p2p: announcer stopped")
	retry := time.NewTimer(inv.opts.RetryInterval)
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-inv.wake:
		case <-retry.C:
		}
		failed := inv.announcePending(ctx)
		if failed > 0 {
			retry.Reset(inv.opts.RetryInterval)
		}
	}
}

func (inv *Inventory) announcePending(ctx context.Context) (failed int) {
	inv.mu.Lock()
	batch := make([]digest.Digest, 0, len(inv.pending))
	for d := range inv.pending {
		if inv.offered(d) {
			batch = append(batch, d)
		}
		delete(inv.pending, d)
	}
	inv.mu.Unlock()
	if len(batch) == 0 {
		return 0
	}

	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		lastErr error
		sem     = make(chan struct{}, inv.opts.Concurrency)
	)
	start := time.Now()
	for _, d := range batch {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			defer recovery.Log(ctx, "p2p: announcing failed")
			actx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			if err := inv.announcer.Provide(actx, d); err != nil {
				mu.Lock()
				failed++
				lastErr = err
				mu.Unlock()
				inv.mu.Lock()
				if inv.offered(d) {
					inv.pending[d] = struct{}{}
				}
				inv.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	entry := log.G(ctx).WithFields(log.Fields{"announced": len(batch) - failed, "failed": failed, "took": time.Since(start).Round(time.Millisecond)})
	if failed > 0 {
		entry.WithError(lastErr).Debug("p2p: some announcements failed, will retry")
	} else {
		entry.Debug("p2p: announced")
	}
	return failed
}

// offered reports whether d is held or arriving; inv.mu must be held.
func (inv *Inventory) offered(d digest.Digest) bool {
	_, held := inv.held[d]
	return held || inv.arriving[d] > 0
}

// Offer announces content that is still arriving in namespace ns, if the
// sharing policy lets it be shared (judged by labels, the source it comes
// from). It is announced until withdraw is called, and after that only if
// it was committed meanwhile: a layer whose fetch failed stops being
// announced, and its provider records expire on their own.
func (inv *Inventory) Offer(ctx context.Context, ns string, dgst digest.Digest, labels map[string]string) (withdraw func(), ok bool) {
	if inv.opts.Policy != nil && !inv.opts.Policy.ContentShared(ns, labels) {
		return nil, false
	}
	inv.mu.Lock()
	if _, bad := inv.corrupt[dgst]; bad {
		inv.mu.Unlock()
		return nil, false
	}
	inv.arriving[dgst]++
	inv.rememberOrigin(ns, dgst, labels)
	inv.mu.Unlock()
	// At once, not behind the announcements queued before it: nodes that
	// missed the same layer wait for this one to follow it.
	recovery.Go(context.WithoutCancel(ctx), "p2p: announcing an arriving layer failed", func(ctx context.Context) {
		actx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		start := time.Now()
		if err := inv.announcer.Provide(actx, dgst); err != nil {
			log.G(ctx).WithError(err).WithField("digest", dgst).Debug("p2p: could not announce an arriving layer; retrying")
			inv.queue(dgst)
			return
		}
		log.G(ctx).WithFields(log.Fields{"announced": 1, "failed": 0, "took": time.Since(start).Round(time.Millisecond), "digest": dgst}).Debug("p2p: announced")
		inv.mu.Lock()
		now := time.Now()
		maps.DeleteFunc(inv.announcedAt, func(_ digest.Digest, at time.Time) bool { return now.Sub(at) >= inv.opts.ReannounceInterval })
		inv.announcedAt[dgst] = now
		inv.mu.Unlock()
	})
	var once sync.Once
	return func() {
		once.Do(func() {
			inv.mu.Lock()
			defer inv.mu.Unlock()
			if inv.arriving[dgst]--; inv.arriving[dgst] <= 0 {
				delete(inv.arriving, dgst)
			}
		})
	}, true
}

// announcedArriving reports whether dgst, just committed, was announced
// while it arrived, within the re-announcement interval: its provider
// record stands, and announcing it again would send every node of a
// rollout to the nodes nearest the layer's key a second time.
func (inv *Inventory) announcedArriving(dgst digest.Digest) bool {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	at, ok := inv.announcedAt[dgst]
	delete(inv.announcedAt, dgst)
	return ok && time.Since(at) < inv.opts.ReannounceInterval
}

// recheckDelays are when a blob committed without its origin label is
// looked at again: containerd labels it a moment after the commit. Content
// still without one came from no registry.
var recheckDelays = []time.Duration{50 * time.Millisecond, 500 * time.Millisecond, 2 * time.Second}

// maxRechecks bounds the rechecks waiting at once; beyond, a walk of the
// store finds what they would have.
const maxRechecks = 4096

// recheck adds dgst of namespace ns once its labels let it be shared. It
// reports false when too many rechecks wait already.
func (inv *Inventory) recheck(ctx context.Context, ns string, dgst digest.Digest) bool {
	inv.mu.Lock()
	if inv.rechecks >= maxRechecks {
		inv.mu.Unlock()
		return false
	}
	inv.rechecks++
	inv.mu.Unlock()
	recovery.Go(ctx, "p2p: rechecking a blob's origin", func(ctx context.Context) {
		defer func() {
			inv.mu.Lock()
			inv.rechecks--
			inv.mu.Unlock()
		}()
		nctx := namespaces.WithNamespace(ctx, ns)
		for _, d := range recheckDelays {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			info, err := inv.store.Info(nctx, dgst)
			if err != nil {
				return // gone
			}
			if inv.opts.Policy.ContentShared(ns, info.Labels) {
				if inv.add(ns, dgst) {
					inv.queue(dgst)
				}
				return
			}
		}
	})
	return true
}

// origin is what arriving content was offered with: its namespace and
// labels, kept a while after it arrived (its commit event may come after
// the offer ends).
type origin struct {
	ns      string
	labels  map[string]string
	expires time.Time
}

// maxOrigins bounds the origins kept.
const maxOrigins = 4096

// ExpectOrigin records where content about to be committed in ns comes
// from (the labels containerd gives it a moment after its commit), so that
// it is announced at its commit rather than when the label lands.
func (inv *Inventory) ExpectOrigin(ns string, dgst digest.Digest, labels map[string]string) {
	if inv.opts.Policy != nil && !inv.opts.Policy.ContentShared(ns, labels) {
		return
	}
	inv.mu.Lock()
	defer inv.mu.Unlock()
	inv.rememberOrigin(ns, dgst, labels)
}

// rememberOrigin records the origin of an offer; inv.mu must be held.
func (inv *Inventory) rememberOrigin(ns string, dgst digest.Digest, labels map[string]string) {
	now := time.Now()
	if len(inv.origins) >= maxOrigins {
		for d, o := range inv.origins {
			if o.expires.Before(now) || len(inv.origins) >= maxOrigins {
				delete(inv.origins, d)
			}
		}
	}
	inv.origins[dgst] = origin{ns: ns, labels: labels, expires: now.Add(time.Minute)}
}

// offeredAsShared reports whether dgst was offered in ns lately.
func (inv *Inventory) offeredAsShared(ns string, dgst digest.Digest) bool {
	inv.mu.RLock()
	defer inv.mu.RUnlock()
	o, ok := inv.origins[dgst]
	return ok && o.ns == ns && time.Now().Before(o.expires)
}

func (inv *Inventory) originLabels(dgst digest.Digest) map[string]string {
	inv.mu.RLock()
	defer inv.mu.RUnlock()
	return inv.origins[dgst].labels
}
