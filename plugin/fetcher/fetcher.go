// Package fetcher answers "get these bytes, from a peer if one has them":
// given a descriptor it finds providers, reads from them with every wait
// bounded, verifies what it can before handing it on, fails over between
// peers mid-blob, and falls back to the upstream fetcher.
package fetcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/containerd/containerd/v2/core/images"
	"github.com/containerd/containerd/v2/pkg/reference"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// Finder looks up which peers announced a digest.
type Finder interface {
	FindProviders(ctx context.Context, dgst digest.Digest, limit int) ([]peer.AddrInfo, error)
}

// PeerClient sends an HTTP request to a peer's content service.
type PeerClient interface {
	Do(p peer.ID, req *http.Request) (*http.Response, error)
}

// Upstream is the fetcher that would have been used without peers.
type Upstream interface {
	Fetch(ctx context.Context, desc ocispec.Descriptor) (io.ReadCloser, error)
}

// Options tune the fetcher.
type Options struct {
	// LookupTimeout bounds one provider lookup; a miss costs at most this.
	LookupTimeout time.Duration
	// MaxProviders is how many providers are tried before upstream.
	MaxProviders int
	// InMemoryLimit: objects up to this size are read whole and verified
	// before they are returned; larger ones are streamed and verified by
	// containerd at commit.
	InMemoryLimit int64
}

// Fetcher fetches content from peers.
type Fetcher struct {
	finder Finder
	client PeerClient
	opts   Options
}

// New returns a Fetcher.
func New(finder Finder, client PeerClient, opts Options) *Fetcher {
	if opts.LookupTimeout <= 0 {
		opts.LookupTimeout = time.Second
	}
	if opts.MaxProviders <= 0 {
		opts.MaxProviders = 3
	}
	if opts.InMemoryLimit <= 0 {
		opts.InMemoryLimit = 4 << 20
	}
	return &Fetcher{finder: finder, client: client, opts: opts}
}

// WrapFetcher returns a fetcher for the image ref that tries peers first and
// falls back to upstream.
func (f *Fetcher) WrapFetcher(upstream Upstream, ref string) *PeerFirst {
	pf := &PeerFirst{f: f, upstream: upstream, ref: ref}
	if spec, err := reference.Parse(ref); err == nil {
		pf.registry = spec.Hostname()
		pf.repository = strings.TrimPrefix(spec.Locator, spec.Hostname()+"/")
	}
	return pf
}

// PeerFirst is a remotes.Fetcher for one image.
type PeerFirst struct {
	f          *Fetcher
	upstream   Upstream
	ref        string
	registry   string
	repository string
}

// Fetch returns the content of desc, from a peer where possible.
func (pf *PeerFirst) Fetch(ctx context.Context, desc ocispec.Descriptor) (io.ReadCloser, error) {
	if !pf.eligible(desc) {
		return pf.upstream.Fetch(ctx, desc)
	}
	logger := log.G(ctx).WithField("digest", desc.Digest).WithField("size", desc.Size)

	start := time.Now()
	lctx, cancel := context.WithTimeout(ctx, pf.f.opts.LookupTimeout)
	providers, err := pf.f.finder.FindProviders(lctx, desc.Digest, pf.f.opts.MaxProviders)
	cancel()
	lookup := time.Since(start)
	if err != nil || len(providers) == 0 {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		logger.WithError(err).WithField("lookup", lookup).Debug("p2p: no peer holds it, fetching upstream")
		return pf.upstream.Fetch(ctx, desc)
	}

	src := &sources{pf: pf, desc: desc, peers: providers}
	if desc.Size <= pf.f.opts.InMemoryLimit {
		if data, from, err := src.readVerified(ctx); err == nil {
			logger.WithFields(log.Fields{"peer": from, "peer_bytes": len(data), "took": time.Since(start).Round(time.Millisecond)}).
				Info("p2p: fetched from peer")
			return io.NopCloser(bytes.NewReader(data)), nil
		}
		logger.Debug("p2p: no peer delivered verified content, fetching upstream")
		return pf.upstream.Fetch(ctx, desc)
	}

	r := &blobReader{ctx: ctx, src: src, size: desc.Size, start: start, received: map[string]int64{}}
	// Open the first source now, so a pull that cannot be served by any
	// peer goes upstream through the ordinary path.
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

// eligible: only content that can be addressed by digest on the peer network.
func (pf *PeerFirst) eligible(desc ocispec.Descriptor) bool {
	return desc.Digest.Algorithm() == digest.SHA256 && desc.Digest.Validate() == nil &&
		desc.Size > 0 && len(desc.URLs) == 0
}

// sources walks the providers in order and then upstream.
type sources struct {
	pf     *PeerFirst
	desc   ocispec.Descriptor
	peers  []peer.AddrInfo
	next   int
	failed []peer.ID
}

func (s *sources) path() string {
	kind := "blobs"
	if images.IsManifestType(s.desc.MediaType) || images.IsIndexType(s.desc.MediaType) {
		kind = "manifests"
	}
	repo := s.pf.repository
	if repo == "" {
		repo = "library/unknown"
	}
	p := "/v2/" + repo + "/" + kind + "/" + s.desc.Digest.String()
	if s.pf.registry != "" {
		p += "?ns=" + url.QueryEscape(s.pf.registry)
	}
	return p
}

// openPeer asks the next provider for the content from offset. It returns
// io.EOF when every provider was tried.
func (s *sources) openPeer(ctx context.Context, offset int64) (io.ReadCloser, peer.ID, error) {
	for s.next < len(s.peers) {
		p := s.peers[s.next].ID
		s.next++
		body, err := s.request(ctx, p, offset)
		if err != nil {
			log.G(ctx).WithError(err).WithField("peer", p).WithField("digest", s.desc.Digest).Debug("p2p: peer did not serve")
			s.failed = append(s.failed, p)
			continue
		}
		return body, p, nil
	}
	return nil, "", io.EOF
}

func (s *sources) request(ctx context.Context, p peer.ID, offset int64) (io.ReadCloser, error) {
	u, err := url.Parse(s.path())
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", s.desc.MediaType)
	if offset > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(offset, 10)+"-")
	}
	resp, err := s.pf.f.client.Do(p, req)
	if err != nil {
		return nil, err
	}
	want := http.StatusOK
	if offset > 0 {
		want = http.StatusPartialContent
	}
	if resp.StatusCode != want {
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			return nil, fmt.Errorf("peer no longer holds it: %w", errdefs.ErrNotFound)
		}
		return nil, fmt.Errorf("peer answered %s", resp.Status)
	}
	if resp.ContentLength >= 0 && resp.ContentLength != s.desc.Size-offset {
		resp.Body.Close()
		return nil, fmt.Errorf("peer announced %d bytes, want %d", resp.ContentLength, s.desc.Size-offset)
	}
	// A peer may never deliver more than the descriptor says.
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(resp.Body, s.desc.Size-offset), resp.Body}, nil
}

// readVerified reads the whole object from the first provider that delivers
// bytes matching the descriptor.
func (s *sources) readVerified(ctx context.Context) ([]byte, peer.ID, error) {
	for {
		body, p, err := s.openPeer(ctx, 0)
		if err != nil {
			return nil, "", err
		}
		data, err := io.ReadAll(body)
		body.Close()
		if err == nil && int64(len(data)) == s.desc.Size && digest.SHA256.FromBytes(data) == s.desc.Digest {
			return data, p, nil
		}
		if err == nil {
			err = fmt.Errorf("content does not match %s", s.desc.Digest)
		}
		log.G(ctx).WithError(err).WithField("peer", p).WithField("digest", s.desc.Digest).Warn("p2p: discarded content from peer")
		s.failed = append(s.failed, p)
	}
}

// blobReader streams a large blob, continuing from the next provider, then
// upstream, at the current offset whenever a source fails.
type blobReader struct {
	ctx    context.Context
	src    *sources
	size   int64
	offset int64
	start  time.Time

	body     io.ReadCloser
	current  string           // peer ID, or upstreamSource
	received map[string]int64 // bytes by source
	closed   bool
}

const upstreamSource = "upstream"

func (r *blobReader) open() error {
	body, p, err := r.src.openPeer(r.ctx, r.offset)
	if err == nil {
		r.body, r.current = body, p.String()
		return nil
	}
	body, err = r.src.pf.upstream.Fetch(r.ctx, r.src.desc)
	if err != nil {
		return err
	}
	if r.offset > 0 {
		if err := skipTo(body, r.offset); err != nil {
			body.Close()
			return fmt.Errorf("resume %s upstream at %d: %w", r.src.desc.Digest, r.offset, err)
		}
	}
	r.body, r.current = body, upstreamSource
	return nil
}

func skipTo(rc io.ReadCloser, offset int64) error {
	if s, ok := rc.(io.Seeker); ok {
		n, err := s.Seek(offset, io.SeekStart)
		if err == nil && n != offset {
			err = fmt.Errorf("seeked to %d", n)
		}
		return err
	}
	_, err := io.CopyN(io.Discard, rc, offset)
	return err
}

func (r *blobReader) Read(p []byte) (int, error) {
	if r.closed {
		return 0, errors.New("read from closed blob reader")
	}
	for {
		if r.offset >= r.size {
			return 0, io.EOF
		}
		if r.body == nil {
			if err := r.open(); err != nil {
				return 0, err
			}
		}
		n, err := r.body.Read(p)
		r.offset += int64(n)
		r.received[r.current] += int64(n)
		if err == nil || (err == io.EOF && r.offset >= r.size) {
			return n, nil
		}
		if r.current == upstreamSource {
			// Upstream errors are containerd's to handle, as without peers.
			return n, err
		}
		log.G(r.ctx).WithError(err).WithFields(log.Fields{"peer": r.current, "digest": r.src.desc.Digest, "offset": r.offset}).
			Warn("p2p: peer failed mid-blob, continuing elsewhere")
		r.src.failed = append(r.src.failed, peer.ID(r.current))
		r.body.Close()
		r.body = nil
		if n > 0 {
			return n, nil
		}
	}
}

// Seek lets containerd resume an interrupted ingest at its offset.
func (r *blobReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.offset
	default:
		return r.offset, fmt.Errorf("seek whence %d: %w", whence, errdefs.ErrNotImplemented)
	}
	if offset < 0 || offset > r.size {
		return r.offset, fmt.Errorf("seek to %d outside 0..%d: %w", offset, r.size, errdefs.ErrInvalidArgument)
	}
	if offset != r.offset && r.body != nil {
		r.body.Close()
		r.body = nil
		// Start over with the providers that have not failed yet.
		r.src.next = 0
		r.src.peers = without(r.src.peers, r.src.failed)
	}
	r.offset = offset
	return offset, nil
}

func without(all []peer.AddrInfo, drop []peer.ID) []peer.AddrInfo {
	var out []peer.AddrInfo
outer:
	for _, p := range all {
		for _, d := range drop {
			if p.ID == d {
				continue outer
			}
		}
		out = append(out, p)
	}
	return out
}

func (r *blobReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	// One line per source, so where every byte came from can be read off.
	for source, n := range r.received {
		if source == upstreamSource || n == 0 {
			continue
		}
		log.G(r.ctx).WithFields(log.Fields{
			"digest": r.src.desc.Digest, "size": r.size, "peer": source, "peer_bytes": n,
			"took": time.Since(r.start).Round(time.Millisecond),
		}).Info("p2p: fetched from peer")
	}
	if n := r.received[upstreamSource]; n > 0 {
		log.G(r.ctx).WithFields(log.Fields{"digest": r.src.desc.Digest, "size": r.size, "upstream_bytes": n}).
			Info("p2p: finished blob upstream after peers failed")
	}
	if r.body != nil {
		return r.body.Close()
	}
	return nil
}
