// Package mirror is a read-only OCI registry on loopback for pulls that do
// not go through containerd's transfer service (CRI with
// use_local_image_pull, ctr --local, nerdctl, BuildKit). It is a front of
// the same verified peer fetcher. Clients list it in hosts.toml before the
// registry itself, so anything no peer holds costs one fast 404 and the
// client carries on to the registry with its own credentials. Tags, for
// clients that ask the mirror, are resolved at the registry anonymously, or
// from peers when it cannot be reached. The mirror reaches registries as a
// pull does, through a hosts directory (registryaccess), and never asks
// itself.
package mirror

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/leases"
	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/fetcher"
	"github.com/shoal-dev/shoal/plugin/inflight"
	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/recovery"
	"github.com/shoal-dev/shoal/plugin/registryaccess"
	"github.com/shoal-dev/shoal/plugin/resolve"
)

// smallBlobLimit: a blob no verified manifest lists is served only up to
// this size, read whole and verified in memory (the fetcher's in-memory
// limit).
const smallBlobLimit = 4 << 20

// Namespace is where the mirror keeps the layers it fetched, under a lease
// that expires, for the client to read.
const Namespace = "shoal-mirror"

// Options configure the mirror.
type Options struct {
	// DefaultRegistry answers requests that carry no ns parameter.
	DefaultRegistry string
	// Store is the content store the fetcher writes layers to.
	Store content.Store
	// Leases keep fetched layers alive until the client has read them.
	Leases leases.Manager
	// UpstreamTimeout bounds the anonymous requests to the registry.
	UpstreamTimeout time.Duration
	// Registries makes the requests to registries; it must skip the
	// mirror's own address, which the hosts.toml files it writes list.
	// Nil: clients of its own, which skip nothing.
	Registries *registryaccess.Access
	// Registry is how registries are reached: the hosts directory (mirrors,
	// CA, client certificates, plain HTTP) and headers.
	Registry registryaccess.Config
	// Mirrored are the registries (host[:port]) the mirror answers for;
	// "_default" means any. A request for another registry is refused
	// before any connection is made.
	Mirrored []string
	// ContentRoot is the local content store's directory: large layers are
	// streamed to the client while they arrive. Empty: sent once complete.
	ContentRoot string
	// MaxConcurrent bounds the requests served at once; more are answered
	// 429 and the client goes on to the registry. Default 32.
	MaxConcurrent int
}

// Mirror is the http.Handler.
type Mirror struct {
	f        *fetcher.Fetcher
	resolver *resolve.Resolver
	opts     Options
	known    *knownBlobs        // sizes from manifests the mirror verified
	arriving *inflight.Registry // nil: layers are sent once complete
	slots    chan struct{}      // MaxConcurrent

	// handler is serve, with its panics contained.
	handler http.Handler
}

// New returns a mirror over f.
func New(f *fetcher.Fetcher, r *resolve.Resolver, opts Options) *Mirror {
	if opts.UpstreamTimeout <= 0 {
		opts.UpstreamTimeout = 10 * time.Second
	}
	if opts.Registries == nil {
		opts.Registries = registryaccess.New(registryaccess.Options{})
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 32
	}
	m := &Mirror{f: f, resolver: r, opts: opts, known: newKnownBlobs(4096), slots: make(chan struct{}, opts.MaxConcurrent)}
	if opts.ContentRoot != "" {
		m.arriving = inflight.New(opts.ContentRoot, 0)
	}
	m.handler = recovery.Handler("p2p mirror: recovered from a panic", http.HandlerFunc(m.serve), oci.WriteInternalError)
	return m
}

func (m *Mirror) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.handler.ServeHTTP(w, r)
}

func (m *Mirror) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		oci.WriteError(w, http.StatusMethodNotAllowed, oci.CodeUnsupported, "this mirror is read-only")
		return
	}
	w.Header().Set(oci.APIVersionHeader, oci.APIVersion)
	registry := r.URL.Query().Get(oci.NamespaceQuery)
	if registry != "" {
		w.Header().Set("OCI-Namespace", registry)
	} else {
		registry = m.opts.DefaultRegistry
	}
	if r.URL.Path == "/v2/" || r.URL.Path == "/v2" {
		w.WriteHeader(http.StatusOK)
		return
	}
	name, kind, ref, ok := oci.SplitPath(r.URL.Path)
	if !ok || r.URL.RawPath != "" || kind == oci.Pieces { // pieces: asked of peers only
		oci.WriteError(w, http.StatusNotFound, oci.CodeNotFound, "unknown endpoint")
		return
	}
	if !oci.ValidRepository(name) {
		oci.WriteError(w, http.StatusBadRequest, oci.CodeNameInvalid, "invalid repository name")
		return
	}
	if !oci.ValidRegistryHost(registry) {
		oci.WriteError(w, http.StatusNotFound, oci.CodeNameUnknown, "no registry: send ns= or configure default_registry")
		return
	}
	if !m.mirrors(registry) {
		// Never a request on behalf of a local client to a host the
		// operator did not name.
		oci.WriteError(w, http.StatusNotFound, oci.CodeNameUnknown, "registry "+registry+" is not mirrored here (mirror_registries)")
		return
	}
	select {
	case m.slots <- struct{}{}:
		defer func() { <-m.slots }()
	default:
		w.Header().Set("Retry-After", "1")
		oci.WriteError(w, http.StatusTooManyRequests, oci.CodeTooManyRequests, "mirror busy: ask the registry")
		return
	}
	repo := registry + "/" + name
	ctx := namespaces.WithNamespace(r.Context(), Namespace)
	if kind == oci.Manifests && oci.ValidTag(ref) {
		m.serveTag(ctx, w, r, repo, ref)
		return
	}
	dgst, err := digest.Parse(ref)
	if err != nil {
		if kind == oci.Manifests {
			// Neither a tag nor a digest: no such manifest, as registries answer.
			oci.WriteError(w, http.StatusNotFound, oci.CodeManifestUnknown, "manifest unknown")
			return
		}
		oci.WriteError(w, http.StatusBadRequest, oci.CodeDigestInvalid, "invalid digest")
		return
	}
	if kind == oci.Manifests {
		m.serveManifest(ctx, w, r, repo, dgst, false)
		return
	}
	m.serveBlob(ctx, w, r, repo, dgst)
}

// anonymous is the registry without credentials: it only ever hands out
// what anybody may pull.
func (m *Mirror) anonymous() remotes.Resolver {
	return m.opts.Registries.Resolver(m.opts.Registry)
}

// serveTag resolves repo:tag at the registry, or from peers when the
// registry cannot be reached, then serves that manifest.
func (m *Mirror) serveTag(ctx context.Context, w http.ResponseWriter, r *http.Request, repo, tag string) {
	ref := repo + ":" + tag
	uctx, cancel := context.WithTimeout(ctx, m.opts.UpstreamTimeout)
	_, desc, err := m.anonymous().Resolve(uctx, ref)
	cancel()
	if err != nil {
		_, desc, err = m.resolver.Fallback(ctx, ref, err)
	}
	if err != nil {
		log.G(ctx).WithError(err).WithField("ref", ref).Debug("p2p mirror: cannot resolve")
		oci.WriteError(w, http.StatusNotFound, oci.CodeManifestUnknown, "manifest unknown")
		return
	}
	m.serveManifest(ctx, w, r, repo, desc.Digest, true)
}

// serveManifest serves a manifest by digest, verified, from peers; after a
// tag resolved at the registry, from the registry if no peer has it.
func (m *Mirror) serveManifest(ctx context.Context, w http.ResponseWriter, r *http.Request, repo string, dgst digest.Digest, fromRegistry bool) {
	desc, err := m.resolver.Describe(ctx, repo, dgst, true)
	if err != nil && fromRegistry {
		desc, err = m.upstreamManifest(ctx, repo, dgst)
	}
	if err != nil {
		oci.WriteError(w, http.StatusNotFound, oci.CodeManifestUnknown, "manifest unknown")
		return
	}
	// Its blobs' sizes are now known from bytes that match its digest.
	m.known.addChildren(desc)
	w.Header().Set("Content-Type", desc.MediaType)
	w.Header().Set(oci.DigestHeader, dgst.String())
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(desc.Data))
}

func (m *Mirror) upstreamManifest(ctx context.Context, repo string, dgst digest.Digest) (ocispec.Descriptor, error) {
	ctx, cancel := context.WithTimeout(ctx, m.opts.UpstreamTimeout)
	defer cancel()
	resolver := m.anonymous()
	_, desc, err := resolver.Resolve(ctx, repo+"@"+dgst.String())
	if err != nil {
		return desc, err
	}
	f, err := resolver.Fetcher(ctx, repo)
	if err != nil {
		return desc, err
	}
	rc, err := f.Fetch(ctx, desc)
	if err != nil {
		return desc, err
	}
	defer rc.Close()
	desc.Data, err = io.ReadAll(io.LimitReader(rc, 4<<20+1))
	if err != nil || digest.FromBytes(desc.Data) != dgst {
		return desc, fmt.Errorf("manifest %s from the registry does not verify", dgst)
	}
	return desc, nil
}

// serveBlob serves a blob of an image whose manifest the mirror served and
// verified, when peers hold it: fetched and verified, streamed while it
// arrives with its last bytes withheld until the whole is verified.
// Anything else is a fast 404: the client asks the registry itself, with
// its own credentials.
func (m *Mirror) serveBlob(ctx context.Context, w http.ResponseWriter, r *http.Request, repo string, dgst digest.Digest) {
	if m.serveStored(ctx, w, r, dgst) {
		return
	}
	// A size a peer claims is believed only for a small blob, which is read
	// whole and verified in memory; a layer's size must come from a
	// manifest the mirror verified. A peer claiming a huge size could
	// otherwise fill the disk.
	desc, ok := m.known.get(dgst)
	if ok {
		if n, err := m.resolver.Providers(ctx, dgst); err != nil || n == 0 {
			ok = false
		}
	} else if d, err := m.resolver.Describe(ctx, repo, dgst, false); err == nil && d.Size <= smallBlobLimit {
		desc, ok = d, true
	}
	if !ok {
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "no peer holds this blob")
		return
	}
	ctx, err := m.lease(ctx)
	if err != nil {
		oci.WriteError(w, http.StatusInternalServerError, oci.CodeUnknown, err.Error())
		return
	}
	up, err := m.anonymous().Fetcher(ctx, repo)
	if err != nil {
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "blob unknown")
		return
	}
	// A layer goes to the store (then it is streamed while it arrives); a
	// small object is read whole and verified in memory.
	if desc.Size > smallBlobLimit && r.Method == http.MethodGet && r.Header.Get("Range") == "" && m.arriving != nil {
		m.streamBlob(ctx, w, r, up, repo, desc)
		return
	}
	rc, err := m.f.WrapFetcher(up, repo, fetcher.CommitLayers()).Fetch(ctx, desc)
	if errdefs.IsAlreadyExists(err) && m.serveStored(ctx, w, r, dgst) {
		return // a layer, committed (verified) by the fetcher
	}
	if err != nil {
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "blob unknown")
		return
	}
	defer rc.Close()
	// A small object, read whole. The fetcher verified it if a peer sent
	// it, not if the upstream did: verified here either way.
	data, err := io.ReadAll(io.LimitReader(rc, desc.Size+1))
	if err != nil || int64(len(data)) != desc.Size || desc.Digest.Algorithm().FromBytes(data) != desc.Digest {
		oci.WriteError(w, http.StatusBadGateway, oci.CodeBlobUnknown, "blob could not be read whole and verified")
		return
	}
	w.Header().Set(oci.DigestHeader, dgst.String())
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

// streamBlob fetches desc and sends it while it arrives: headers once the
// first bytes are in (a source answered), every byte but the last as it
// lands, and the last only once the fetcher committed the blob, verified,
// in one pass. Anything else cuts the response short, so the client can
// never commit bytes that were not verified.
func (m *Mirror) streamBlob(ctx context.Context, w http.ResponseWriter, r *http.Request, up fetcher.Upstream, repo string, desc ocispec.Descriptor) {
	var (
		mu     sync.Mutex
		rounds int
	)
	begun := make(chan struct{}, 1)
	pf := m.f.WrapFetcher(up, repo, fetcher.CommitLayers(), fetcher.WithArrival(func(ctx context.Context, ref string, d ocispec.Descriptor) func() {
		mu.Lock()
		rounds++
		first := rounds == 1
		mu.Unlock()
		if !first {
			return func() {}
		}
		t, err := m.arriving.Begin(Namespace, ref, d, nil)
		if err != nil {
			return func() {}
		}
		begun <- struct{}{}
		return t.End
	}))
	done := make(chan error, 1)
	recovery.Go(ctx, "p2p mirror: fetching a layer failed", func(ctx context.Context) {
		_, err := pf.Fetch(ctx, desc)
		done <- err
	})
	var fetchErr error
	select {
	case <-begun:
	case fetchErr = <-done:
		if errdefs.IsAlreadyExists(fetchErr) && m.serveStored(ctx, w, r, desc.Digest) {
			return
		}
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "blob unknown")
		return
	}
	rd, _, ok := m.arriving.Open(ctx, desc.Digest)
	if !ok {
		fetchErr = <-done
		if errdefs.IsAlreadyExists(fetchErr) && m.serveStored(ctx, w, r, desc.Digest) {
			return
		}
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "blob unknown")
		return
	}
	defer rd.Close()
	// Headers only once a source has sent bytes: a mirror that answers and
	// then fails leaves containerd no way to go to the next host.
	first := make([]byte, min(64<<10, desc.Size-1))
	if _, err := rd.ReadAt(first, 0); err != nil && len(first) > 0 {
		fetchErr = <-done
		if errdefs.IsAlreadyExists(fetchErr) && m.serveStored(ctx, w, r, desc.Digest) {
			return
		}
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "blob unknown")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set(oci.DigestHeader, desc.Digest.String())
	h.Set("Content-Length", strconv.FormatInt(desc.Size, 10))
	w.WriteHeader(http.StatusOK)
	if _, err := io.Copy(w, io.NewSectionReader(rd, 0, desc.Size-1)); err != nil {
		panic(http.ErrAbortHandler) // cut short: the client cannot commit it
	}
	fetchErr = <-done
	mu.Lock()
	oneRound := rounds == 1
	mu.Unlock()
	last, err := m.lastByte(ctx, desc)
	if !errdefs.IsAlreadyExists(fetchErr) || !oneRound || err != nil {
		// Not committed, or committed from another attempt than the bytes
		// sent: the client must not get a whole blob.
		log.G(ctx).WithError(fetchErr).WithField("digest", desc.Digest).Warn("p2p mirror: layer not verified; response cut short")
		panic(http.ErrAbortHandler)
	}
	w.Write(last) //nolint:errcheck // the client may have gone
}

// lastByte reads the last byte of the committed blob desc.
func (m *Mirror) lastByte(ctx context.Context, desc ocispec.Descriptor) ([]byte, error) {
	ra, err := m.opts.Store.ReaderAt(ctx, desc)
	if err != nil {
		return nil, err
	}
	defer ra.Close()
	b := make([]byte, 1)
	_, err = ra.ReadAt(b, desc.Size-1)
	return b, err
}

// mirrors reports whether the mirror answers for registry.
func (m *Mirror) mirrors(registry string) bool {
	for _, r := range m.opts.Mirrored {
		if r == "_default" || r == registry {
			return true
		}
	}
	return false
}

// serveStored serves dgst from the mirror's namespace if it is there.
func (m *Mirror) serveStored(ctx context.Context, w http.ResponseWriter, r *http.Request, dgst digest.Digest) bool {
	info, err := m.opts.Store.Info(ctx, dgst)
	if err != nil {
		return false
	}
	ra, err := m.opts.Store.ReaderAt(ctx, ocispec.Descriptor{Digest: dgst, Size: info.Size})
	if err != nil {
		return false
	}
	defer ra.Close()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set(oci.DigestHeader, dgst.String())
	http.ServeContent(w, r, "", time.Time{}, io.NewSectionReader(ra, 0, info.Size))
	return true
}

// lease keeps what the fetcher writes for this request for an hour, long
// enough for the client to read it; then garbage collection takes it.
func (m *Mirror) lease(ctx context.Context) (context.Context, error) {
	if m.opts.Leases == nil {
		return ctx, nil
	}
	l, err := m.opts.Leases.Create(ctx, leases.WithRandomID(), leases.WithExpiration(time.Hour))
	if err != nil {
		return nil, err
	}
	return leases.WithLease(ctx, l.ID), nil
}
