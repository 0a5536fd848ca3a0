package fetcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/containerd/containerd/v2/core/images"
	remoteerrors "github.com/containerd/containerd/v2/core/remotes/errors"
	"github.com/containerd/containerd/v2/pkg/reference"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// ReferenceKeyFunc maps an image reference to the DHT key its holders
// announce.
type ReferenceKeyFunc func(ref string) digest.Digest

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

// ResolveFallback resolves ref from peers when the upstream could not be
// asked. Any other upstream error is returned as it is. Peers are asked only
// for the exact reference; every provider that answers must agree.
func (f *Fetcher) ResolveFallback(ctx context.Context, ref string, upstreamErr error) (string, ocispec.Descriptor, error) {
	if !UpstreamUnreachable(upstreamErr) || ctx.Err() != nil || f.opts.ReferenceKey == nil {
		return "", ocispec.Descriptor{}, upstreamErr
	}
	desc, tried, err := f.resolveFromPeers(ctx, ref)
	if err != nil {
		return "", ocispec.Descriptor{}, fmt.Errorf("resolve %s: upstream unreachable (%w); peers: %s (asked %d)", ref, upstreamErr, err, tried)
	}
	f.stats.PeerResolves.Add(1)
	log.G(ctx).WithError(upstreamErr).WithFields(log.Fields{"ref": ref, "digest": desc.Digest, "providers": tried}).
		Warn("p2p: upstream unreachable, resolved from peers")
	return ref, desc, nil
}

func (f *Fetcher) resolveFromPeers(ctx context.Context, ref string) (ocispec.Descriptor, int, error) {
	spec, err := reference.Parse(ref)
	if err != nil {
		return ocispec.Descriptor{}, 0, err
	}
	pf := f.WrapFetcher(nil, ref)
	key, object := f.opts.ReferenceKey(ref), spec.Object
	if d := spec.Digest(); d != "" {
		key, object = d, d.String()
	} else if object == "" {
		return ocispec.Descriptor{}, 0, errors.New("reference has neither tag nor digest")
	} else if object == "latest" && !f.opts.FallbackLatest {
		return ocispec.Descriptor{}, 0, errors.New(`"latest" is resolved only by the registry (set fallback_latest to let peers answer)`)
	}
	providers, _, err := pf.lookup(ctx, key)
	if err != nil {
		return ocispec.Descriptor{}, 0, err
	}
	if len(providers) == 0 {
		return ocispec.Descriptor{}, 0, errors.New("no peer holds this reference")
	}
	var (
		agreed  *ocispec.Descriptor
		answers int
		lastErr error
	)
	for _, p := range providers {
		desc, err := pf.headManifest(ctx, p.ID, object)
		if err != nil {
			lastErr = err
			continue
		}
		if d := spec.Digest(); d != "" && desc.Digest != d {
			lastErr = fmt.Errorf("peer %s answered %s for %s", p.ID, desc.Digest, d)
			continue
		}
		answers++
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

// headManifest asks a peer what it holds under object (tag or digest).
func (pf *PeerFirst) headManifest(ctx context.Context, p peer.ID, object string) (ocispec.Descriptor, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, pf.requestPath("manifests", object), nil)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	req.Header.Set("Accept", strings.Join([]string{ocispec.MediaTypeImageIndex, ocispec.MediaTypeImageManifest,
		images.MediaTypeDockerSchema2ManifestList, images.MediaTypeDockerSchema2Manifest}, ", "))
	resp, err := pf.f.do(p, req)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s answered %s", p, resp.Status)
	}
	dgst, err := digest.Parse(resp.Header.Get("Docker-Content-Digest"))
	if err != nil {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s sent a bad digest: %w", p, err)
	}
	size, err := strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64)
	if err != nil || size <= 0 || size > pf.f.opts.InMemoryLimit {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s sent a bad manifest size %q", p, resp.Header.Get("Content-Length"))
	}
	mediaType := resp.Header.Get("Content-Type")
	if !images.IsManifestType(mediaType) && !images.IsIndexType(mediaType) {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s sent media type %q for a manifest", p, mediaType)
	}
	return ocispec.Descriptor{MediaType: mediaType, Digest: dgst, Size: size}, nil
}

// Describe asks the providers of dgst what it is, for a front that is asked
// by digest alone (the loopback mirror). A manifest is fetched whole and
// verified, and returned in the descriptor's Data; for a blob the size is
// taken from the first provider that has it.
func (f *Fetcher) Describe(ctx context.Context, ref string, dgst digest.Digest, manifest bool) (ocispec.Descriptor, error) {
	pf := f.WrapFetcher(nil, ref)
	providers, _, err := pf.lookup(ctx, dgst)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	kind, method := "blobs", http.MethodHead
	if manifest {
		kind, method = "manifests", http.MethodGet
	}
	lastErr := errors.New("no peer holds it")
	for _, p := range providers {
		if f.penalties.penalized(p.ID, dgst) {
			continue
		}
		desc, err := pf.describeAt(ctx, p.ID, kind, method, dgst)
		if err == nil {
			return desc, nil
		}
		lastErr = err
	}
	return ocispec.Descriptor{}, fmt.Errorf("describe %s: %w", dgst, lastErr)
}

func (pf *PeerFirst) describeAt(ctx context.Context, p peer.ID, kind, method string, dgst digest.Digest) (ocispec.Descriptor, error) {
	req, err := http.NewRequestWithContext(ctx, method, pf.requestPath(kind, dgst.String()), nil)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	resp, err := pf.f.do(p, req)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ContentLength <= 0 {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s answered %s", p, resp.Status)
	}
	desc := ocispec.Descriptor{MediaType: resp.Header.Get("Content-Type"), Digest: dgst, Size: resp.ContentLength}
	if method == http.MethodHead {
		return desc, nil
	}
	if desc.Size > pf.f.opts.InMemoryLimit {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s offers a %d-byte manifest", p, desc.Size)
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	if digest.SHA256.FromBytes(data) != dgst || (!images.IsManifestType(desc.MediaType) && !images.IsIndexType(desc.MediaType)) {
		pf.f.penalties.penalize(p, dgst)
		return ocispec.Descriptor{}, fmt.Errorf("peer %s sent a manifest that does not verify", p)
	}
	desc.Data = data
	return desc, nil
}
