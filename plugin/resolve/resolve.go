// Package resolve answers "what is this reference?" when peers have to say
// it: a tag or digest resolved by the nodes that hold the image while the
// upstream registry cannot be reached (and only then, and only when they
// agree), and a digest described by its providers for a front that is asked
// by digest alone (the loopback mirror).
package resolve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	remoteerrors "github.com/containerd/containerd/v2/core/remotes/errors"
	"github.com/containerd/containerd/v2/pkg/reference"
	"github.com/containerd/containerd/v2/pkg/tracing"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerblob"
	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/penalty"
	"github.com/shoal-dev/shoal/plugin/router"
)

// Finder looks up which peers announced a key.
type Finder interface {
	FindProviders(ctx context.Context, key digest.Digest, limit int) ([]peer.AddrInfo, error)
}

// Options tune the resolver.
type Options struct {
	// ReferenceKey maps an image reference to the key its holders
	// announce; without it tags are never resolved by peers.
	ReferenceKey func(ref string) digest.Digest
	// FallbackLatest lets peers resolve the tag "latest".
	FallbackLatest bool
	// LookupTimeout bounds one provider lookup. Default
	// router.DefaultLookupTimeout.
	LookupTimeout time.Duration
	// MaxProviders is how many providers are asked. Default
	// router.DefaultMaxProviders.
	MaxProviders int
	// Penalties say which peers to avoid. Default: a board of its own.
	Penalties *penalty.Board
}

// Resolver resolves references through peers.
type Resolver struct {
	finder   Finder
	client   *peerclient.Client
	opts     Options
	resolved atomic.Int64
}

// New returns a resolver that finds holders with finder and asks them with
// client.
func New(finder Finder, client *peerclient.Client, opts Options) *Resolver {
	if opts.LookupTimeout <= 0 {
		opts.LookupTimeout = router.DefaultLookupTimeout
	}
	if opts.MaxProviders <= 0 {
		opts.MaxProviders = router.DefaultMaxProviders
	}
	if opts.Penalties == nil {
		opts.Penalties = penalty.New(penalty.Options{})
	}
	return &Resolver{finder: finder, client: client, opts: opts}
}

// Resolved counts references resolved by peers while the upstream was
// unreachable.
func (r *Resolver) Resolved() int64 { return r.resolved.Load() }

// UpstreamUnreachable reports whether a resolve error means the upstream
// could not be asked (connection refused, DNS failure, timeout, 5xx), as
// opposed to an answer (404, 401, 403), which is never second-guessed.
func UpstreamUnreachable(err error) bool {
	if err == nil || errdefs.IsNotFound(err) {
		return false
	}
	var status remoteerrors.ErrUnexpectedStatus
	if errors.As(err, &status) {
		return status.StatusCode >= 500
	}
	if errdefs.IsUnauthorized(err) || errdefs.IsPermissionDenied(err) || strings.Contains(err.Error(), "authorization") {
		return false
	}
	var (
		dnsErr *net.DNSError
		opErr  *net.OpError
		netErr net.Error
	)
	return errors.As(err, &dnsErr) || errors.As(err, &opErr) ||
		(errors.As(err, &netErr) && netErr.Timeout()) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) ||
		errors.Is(err, os.ErrDeadlineExceeded)
}

// Fallback resolves ref from peers when the upstream could not be asked.
// Any other upstream error is returned as it is. Peers are asked only for
// the exact reference; every provider that answers must agree.
func (r *Resolver) Fallback(ctx context.Context, ref string, upstreamErr error) (_ string, _ ocispec.Descriptor, err error) {
	if !UpstreamUnreachable(upstreamErr) || ctx.Err() != nil || r.opts.ReferenceKey == nil {
		return "", ocispec.Descriptor{}, upstreamErr
	}
	ctx, span := tracing.StartSpan(ctx, spanFallback,
		tracing.WithAttribute(attrRef, ref), tracing.WithAttribute(attrUpstreamError, upstreamErr.Error()))
	defer func() { endSpan(span, err) }()
	desc, tried, err := r.fromPeers(ctx, ref)
	span.SetAttributes(tracing.Attribute(attrProviders, tried), tracing.Attribute(attrDigest, desc.Digest.String()))
	if err != nil {
		return "", ocispec.Descriptor{}, fmt.Errorf("resolve %s: upstream unreachable (%w); peers: %s (asked %d)", ref, upstreamErr, err, tried)
	}
	r.resolved.Add(1)
	log.G(ctx).WithError(upstreamErr).WithFields(log.Fields{"ref": ref, "digest": desc.Digest, "providers": tried}).
		Warn("p2p: upstream unreachable, resolved from peers")
	return ref, desc, nil
}

func (r *Resolver) fromPeers(ctx context.Context, ref string) (ocispec.Descriptor, int, error) {
	spec, err := reference.Parse(ref)
	if err != nil {
		return ocispec.Descriptor{}, 0, err
	}
	key, object := r.opts.ReferenceKey(ref), spec.Object
	if d := spec.Digest(); d != "" {
		key, object = d, d.String()
	} else if object == "" {
		return ocispec.Descriptor{}, 0, errors.New("reference has neither tag nor digest")
	} else if object == "latest" && !r.opts.FallbackLatest {
		return ocispec.Descriptor{}, 0, errors.New(`"latest" is resolved only by the registry (set fallback_latest to let peers answer)`)
	}
	providers, err := r.lookup(ctx, key)
	if err != nil {
		return ocispec.Descriptor{}, 0, err
	}
	if len(providers) == 0 {
		return ocispec.Descriptor{}, 0, errors.New("no peer holds this reference")
	}
	repo := peerclient.RepositoryOf(ref)
	var (
		agreed  *ocispec.Descriptor
		lastErr error
	)
	for _, p := range providers {
		desc, err := r.client.HeadManifest(ctx, p.ID, repo, object)
		answered(ctx, p.ID, desc, err)
		if err != nil {
			lastErr = err
			continue
		}
		if d := spec.Digest(); d != "" && desc.Digest != d {
			lastErr = fmt.Errorf("peer %s answered %s for %s", p.ID, desc.Digest, d)
			continue
		}
		if agreed == nil {
			agreed = &desc
		} else if agreed.Digest != desc.Digest {
			return ocispec.Descriptor{}, len(providers), fmt.Errorf("peers disagree on what %s points to (%s, %s): not trusting either", ref, agreed.Digest, desc.Digest)
		}
	}
	if agreed == nil {
		return ocispec.Descriptor{}, len(providers), fmt.Errorf("no provider answered: %w", lastErr)
	}
	return *agreed, len(providers), nil
}

// Manifest fetches manifest dgst from its providers, verified, for a front
// that is asked by digest alone; its bytes are in the descriptor's Data.
func (r *Resolver) Manifest(ctx context.Context, repository string, dgst digest.Digest) (_ ocispec.Descriptor, err error) {
	ctx, span := tracing.StartSpan(ctx, spanManifest, tracing.WithAttribute(attrDigest, dgst.String()))
	defer func() { endSpan(span, err) }()
	providers, err := r.lookup(ctx, dgst)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	repo := peerclient.RepositoryOf(repository)
	lastErr := errors.New("no peer holds it")
	for _, p := range providers {
		if r.opts.Penalties.IsCorrupt(p.ID, dgst) {
			continue
		}
		desc, err := r.client.FetchManifest(ctx, p.ID, repo, dgst)
		answered(ctx, p.ID, desc, err)
		if err == nil {
			return desc, nil
		}
		r.opts.Penalties.Judge(p.ID, dgst, peerclient.PenaltyKind(err))
		lastErr = err
	}
	return ocispec.Descriptor{}, fmt.Errorf("manifest %s: %w", dgst, lastErr)
}

// Blob opens blob dgst of repository at its providers, to be read piece by
// piece (package peerblob). size is its size from a verified manifest, or 0:
// then the providers that agree say it.
func (r *Resolver) Blob(ctx context.Context, repository string, dgst digest.Digest, size int64) (*peerblob.Blob, error) {
	providers, err := r.lookup(ctx, dgst)
	if err != nil {
		return nil, err
	}
	ids := make([]peer.ID, len(providers))
	for i, p := range providers {
		ids[i] = p.ID
	}
	return peerblob.Open(ctx, r.client, r.opts.Penalties, peerclient.RepositoryOf(repository), dgst, size, ids)
}

// Providers counts the peers that announced key (at most MaxProviders).
func (r *Resolver) Providers(ctx context.Context, key digest.Digest) (int, error) {
	found, err := r.lookup(ctx, key)
	return len(found), err
}

func (r *Resolver) lookup(ctx context.Context, key digest.Digest) ([]peer.AddrInfo, error) {
	ctx, span := tracing.StartSpan(ctx, spanLookup, tracing.WithAttribute(attrDigest, key.String()))
	ctx, cancel := context.WithTimeout(ctx, r.opts.LookupTimeout)
	defer cancel()
	providers, err := r.finder.FindProviders(ctx, key, r.opts.MaxProviders)
	span.SetAttributes(tracing.Attribute(attrProviders, len(providers)))
	endSpan(span, err)
	return providers, err
}
