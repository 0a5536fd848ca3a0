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
	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/recovery"
	"github.com/shoal-dev/shoal/plugin/registryaccess"
	"github.com/shoal-dev/shoal/plugin/resolve"
)

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
}

// Mirror is the http.Handler.
type Mirror struct {
	f        *fetcher.Fetcher
	resolver *resolve.Resolver
	opts     Options

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
	m := &Mirror{f: f, resolver: r, opts: opts}
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
	if !ok || r.URL.RawPath != "" {
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

// serveBlob serves a blob that peers hold: fetched and verified (layers into
// the store first) and served from there. Anything else is a 404.
func (m *Mirror) serveBlob(ctx context.Context, w http.ResponseWriter, r *http.Request, repo string, dgst digest.Digest) {
	ctx, err := m.lease(ctx)
	if err != nil {
		oci.WriteError(w, http.StatusInternalServerError, oci.CodeUnknown, err.Error())
		return
	}
	if m.serveStored(ctx, w, r, dgst) {
		return
	}
	desc, err := m.resolver.Describe(ctx, repo, dgst, false)
	if err != nil {
		// No peer has it: a fast 404, and the client asks the registry
		// itself, with its own credentials.
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "no peer holds this blob")
		return
	}
	up, err := m.anonymous().Fetcher(ctx, repo)
	if err != nil {
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "blob unknown")
		return
	}
	rc, err := m.f.WrapFetcher(up, repo).Fetch(ctx, desc)
	if errdefs.IsAlreadyExists(err) && m.serveStored(ctx, w, r, dgst) {
		return // a layer, committed (verified) by the fetcher
	}
	if err != nil {
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "blob unknown")
		return
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, desc.Size+1)) // small: verified by the fetcher
	if err != nil || int64(len(data)) != desc.Size {
		oci.WriteError(w, http.StatusBadGateway, oci.CodeBlobUnknown, "blob could not be read")
		return
	}
	w.Header().Set(oci.DigestHeader, dgst.String())
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
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
