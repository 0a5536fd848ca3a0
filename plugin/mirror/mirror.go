// Package mirror is a read-only OCI registry on loopback for pulls that do
// not go through containerd's transfer service (CRI with
// use_local_image_pull, ctr --local, nerdctl, BuildKit). Blobs come from
// the peers that hold them, piece by piece, verified, and are stored
// nowhere: the client stores what it pulls. Clients list it in hosts.toml
// before the registry itself, so anything no peer holds costs one fast 404
// and the client carries on to the registry with its own credentials. Tags, for
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

	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/log"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/recovery"
	"github.com/shoal-dev/shoal/plugin/registryaccess"
	"github.com/shoal-dev/shoal/plugin/resolve"
)

// Options configure the mirror.
type Options struct {
	// DefaultRegistry answers requests that carry no ns parameter.
	DefaultRegistry string
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
	// MaxConcurrent bounds the requests served at once; more are answered
	// 429 and the client goes on to the registry. Default 32.
	MaxConcurrent int
}

// Mirror is the http.Handler.
type Mirror struct {
	resolver *resolve.Resolver
	opts     Options
	known    *knownBlobs   // sizes from manifests the mirror verified
	slots    chan struct{} // MaxConcurrent

	// handler is serve, with its panics contained.
	handler http.Handler
}

// New returns a mirror of what r finds at peers.
func New(r *resolve.Resolver, opts Options) *Mirror {
	if opts.UpstreamTimeout <= 0 {
		opts.UpstreamTimeout = 10 * time.Second
	}
	if opts.Registries == nil {
		opts.Registries = registryaccess.New(registryaccess.Options{})
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 32
	}
	m := &Mirror{resolver: r, opts: opts, known: newKnownBlobs(4096), slots: make(chan struct{}, opts.MaxConcurrent)}
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
	if !ok || r.URL.RawPath != "" || kind == oci.Swarm { // asked of peers only
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
	ctx := r.Context()
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
	desc, err := m.resolver.Manifest(ctx, repo, dgst)
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
	desc.Data, err = io.ReadAll(io.LimitReader(rc, oci.MaxManifestSize+1))
	if err != nil || digest.FromBytes(desc.Data) != dgst {
		return desc, fmt.Errorf("manifest %s from the registry does not verify", dgst)
	}
	return desc, nil
}

// serveBlob serves what r asks of blob dgst from the peers that hold it,
// piece by piece, each piece checked against the table they agree on, and
// a blob sent whole checked against its digest before its last piece
// leaves (package peerblob). Nothing is stored; memory is one piece per
// request. A blob of a manifest the mirror verified must have the size the
// manifest gives; another has the size its holders agree on. No holder, or
// holders that disagree: a fast 404, and the client asks the registry
// itself, with its own credentials.
func (m *Mirror) serveBlob(ctx context.Context, w http.ResponseWriter, r *http.Request, repo string, dgst digest.Digest) {
	desc, _ := m.known.get(dgst)
	blob, err := m.resolver.Blob(ctx, repo, dgst, desc.Size)
	if err != nil {
		log.G(ctx).WithError(err).WithField("digest", dgst).Debug("p2p mirror: no peer offers the blob")
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "no peer holds this blob")
		return
	}
	body := &failedRead{ReaderAt: blob}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set(oci.DigestHeader, dgst.String())
	http.ServeContent(w, r, "", time.Time{}, io.NewSectionReader(body, 0, blob.Size()))
	if body.err != nil {
		log.G(ctx).WithError(body.err).WithField("digest", dgst).Warn("p2p mirror: blob not read from its holders; response cut short")
		panic(http.ErrAbortHandler) // the client cannot take it for whole
	}
}

// failedRead keeps the first error of a read but the end.
type failedRead struct {
	io.ReaderAt
	err error
}

func (f *failedRead) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.ReaderAt.ReadAt(p, off)
	if err != nil && err != io.EOF && f.err == nil {
		f.err = err
	}
	return n, err
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
