// Package peerclient speaks the OCI distribution protocol to other nodes'
// content services: blobs whole or from an offset, bounded ranges, manifest
// resolution and description. Every request has one hard bound from dial to
// response headers, every answer is checked before a byte of it is used,
// and failures come back as error kinds the caller can decide by.
package peerclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/containerd/containerd/v2/core/images"
	"github.com/containerd/containerd/v2/pkg/reference"
	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/peerhttp"
	"github.com/shoal-dev/shoal/plugin/penalty"
	"github.com/shoal-dev/shoal/plugin/recovery"
	"github.com/shoal-dev/shoal/plugin/throttle"
)

// Error kinds. Each error a request returns wraps at most one of them.
var (
	// ErrStale: the peer does not hold what it announced (its provider
	// record outlived the content). It wraps errdefs.ErrNotFound.
	ErrStale = fmt.Errorf("peer no longer holds it (stale provider record): %w", errdefs.ErrNotFound)
	// ErrArriving: the peer is still receiving the blob and serves it only
	// as a stream, not as bounded ranges.
	ErrArriving = fmt.Errorf("peer is still receiving it: %w", errdefs.ErrUnavailable)
	// ErrBusy: the peer sheds load (429, or 503 for another reason than
	// ErrArriving); another holder, or this one a moment later, can serve.
	ErrBusy = fmt.Errorf("peer is busy: %w", errdefs.ErrUnavailable)
	// ErrFull: the peer sends as many pieces as it sends at once
	// (oci.FullHeader); it is ErrBusy too.
	ErrFull = fmt.Errorf("every upload slot taken: %w", ErrBusy)
	// ErrNoAnswer: no response headers within the request timeout, no
	// connection within the dial timeout, or a connection reset before the
	// answer (or a dial held back after one). A peer is slow, or the link
	// is: behind a saturated link of its own, a node's handshakes wait
	// seconds in its queue, and its holders give up writing to it and
	// reset their connections. A node at a tenth of the link that took
	// either for its holders leaving read most of the image from the
	// registry, or none of its largest layer in thirteen minutes.
	ErrNoAnswer = fmt.Errorf("no answer in time: %w", errdefs.ErrUnavailable)
	// ErrUnreachable: the request could not be sent (no connection, no
	// stream, a refused handshake).
	ErrUnreachable = fmt.Errorf("peer unreachable: %w", errdefs.ErrUnavailable)
	// ErrCorrupt: the peer's bytes do not match the digest asked for.
	ErrCorrupt = fmt.Errorf("content failed verification: %w", errdefs.ErrDataLoss)
	// ErrBadTable: a piece table the peer signed covered bytes that failed
	// the layer's digest (penalty.BadTable).
	ErrBadTable = fmt.Errorf("signed a piece table of bytes that failed the layer's digest: %w", ErrCorrupt)
)

// Transport sends an HTTP request to a peer's content service (see package
// peerhttp). The request's path and query are used; its host is not.
type Transport interface {
	Do(p peer.ID, req *http.Request) (*http.Response, error)
}

// Options bound what a Client accepts.
type Options struct {
	// RequestTimeout bounds a request from dial to response headers.
	// Default peerhttp.DefaultDialTimeout.
	RequestTimeout time.Duration
	// MaxManifestSize is the largest manifest or index accepted. Default
	// oci.MaxManifestSize.
	MaxManifestSize int64
	// Download paces every body read from peers; nil: no limit.
	Download *throttle.Limiter
}

// Client asks peers for content.
type Client struct {
	transport Transport
	opts      Options
}

// New returns a client over t.
func New(t Transport, opts Options) *Client {
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = peerhttp.DefaultDialTimeout
	}
	if opts.MaxManifestSize <= 0 {
		opts.MaxManifestSize = oci.MaxManifestSize
	}
	return &Client{transport: t, opts: opts}
}

// MaxManifestSize is the largest manifest the client accepts.
func (c *Client) MaxManifestSize() int64 { return c.opts.MaxManifestSize }

// Repository is where an image lives, as peers are asked for it: they serve
// content by digest whatever the repository, and resolve tags of this
// registry's repository.
type Repository struct {
	Registry string // host[:port]; empty: unknown
	Name     string
}

// RepositoryOf returns the repository of an image reference
// ("registry/name:tag", "registry/name@digest" or "registry/name").
func RepositoryOf(ref string) Repository {
	spec, err := reference.Parse(ref)
	if err != nil {
		return Repository{}
	}
	return Repository{Registry: spec.Hostname(), Name: strings.TrimPrefix(spec.Locator, spec.Hostname()+"/")}
}

func (r Repository) path(kind, object string) string {
	name := r.Name
	if name == "" {
		name = "library/unknown" // content is served by digest whatever the name
	}
	return oci.Path(name, kind, object, r.Registry)
}

// Kind is where a descriptor's content is served: manifests or blobs.
func Kind(desc ocispec.Descriptor) string {
	if images.IsManifestType(desc.MediaType) || images.IsIndexType(desc.MediaType) {
		return oci.Manifests
	}
	return oci.Blobs
}

// Open asks p for desc's content from offset and returns the body once the
// status and length are right. The caller reads and verifies it.
func (c *Client) Open(ctx context.Context, p peer.ID, repo Repository, desc ocispec.Descriptor, offset int64) (io.ReadCloser, error) {
	h := http.Header{"Accept": {desc.MediaType}}
	if offset > 0 {
		h.Set("Range", "bytes="+strconv.FormatInt(offset, 10)+"-")
	}
	resp, err := c.send(ctx, p, http.MethodGet, repo.path(Kind(desc), desc.Digest.String()), h)
	if err != nil {
		return nil, err
	}
	want := http.StatusOK
	if offset > 0 {
		want = http.StatusPartialContent
	}
	if resp.StatusCode != want {
		resp.Body.Close()
		return nil, statusError(resp)
	}
	// Our content service always sends the length; without it a peer could
	// send more than the descriptor allows.
	if resp.ContentLength != desc.Size-offset {
		resp.Body.Close()
		return nil, fmt.Errorf("peer offers %d bytes from offset %d, descriptor says %d in all", resp.ContentLength, offset, desc.Size)
	}
	return resp.Body, nil
}

// ReadRange fills buf with desc's bytes from start, from p.
//
// It also returns how many bytes from the start p held when it answered:
// desc.Size unless p is still receiving the blob itself.
func (c *Client) ReadRange(ctx context.Context, p peer.ID, repo Repository, desc ocispec.Descriptor, start int64, buf []byte) (available int64, err error) {
	end := start + int64(len(buf)) - 1
	h := http.Header{"Range": {"bytes=" + strconv.FormatInt(start, 10) + "-" + strconv.FormatInt(end, 10)}}
	resp, err := c.send(ctx, p, http.MethodGet, repo.path(Kind(desc), desc.Digest.String()), h)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent {
		return 0, fmt.Errorf("range %d-%d: %w", start, end, statusError(resp))
	}
	if resp.ContentLength != int64(len(buf)) {
		return 0, fmt.Errorf("range %d-%d: peer offers %d bytes", start, end, resp.ContentLength)
	}
	available = availableIn(resp, desc.Size)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		return available, fmt.Errorf("range %d-%d: %w", start, end, err)
	}
	return max(available, end+1), nil
}

// Holding is what a peer says of a blob it holds.
type Holding struct {
	// Available is how many bytes from the start it holds: all of them,
	// or what arrived so far where it is still receiving the blob.
	Available int64
	// Load is how many bodies of the blob it is sending.
	Load int
	// Pulling: p is pulling from repo now (oci.PullingHeader). It is set
	// also when p holds nothing of desc and Probe fails.
	Pulling bool
}

// Probe asks p what it holds of desc.
func (c *Client) Probe(ctx context.Context, p peer.ID, repo Repository, desc ocispec.Descriptor) (Holding, error) {
	resp, err := c.send(ctx, p, http.MethodHead, repo.path(Kind(desc), desc.Digest.String()), nil)
	if err != nil {
		return Holding{}, err
	}
	resp.Body.Close()
	pulling := resp.Header.Get(oci.PullingHeader) == "true"
	if resp.StatusCode != http.StatusOK {
		return Holding{Pulling: pulling}, fmt.Errorf("peer %s: %w", p, statusError(resp))
	}
	if resp.ContentLength != desc.Size {
		return Holding{Pulling: pulling}, fmt.Errorf("peer %s offers %d bytes, descriptor says %d", p, resp.ContentLength, desc.Size)
	}
	load, _ := strconv.Atoi(resp.Header.Get(oci.LoadHeader))
	return Holding{Available: availableIn(resp, desc.Size), Load: max(load, 0), Pulling: pulling}, nil
}

// availableIn reads how much of a size-byte blob the answer says is there.
func availableIn(resp *http.Response, size int64) int64 {
	v := resp.Header.Get(oci.AvailableHeader)
	if v == "" {
		return size
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return min(n, size)
}

// manifestAccept is every manifest type containerd pulls.
var manifestAccept = strings.Join([]string{ocispec.MediaTypeImageIndex, ocispec.MediaTypeImageManifest,
	images.MediaTypeDockerSchema2ManifestList, images.MediaTypeDockerSchema2Manifest}, ", ")

// HeadManifest asks p what it holds under object (a tag or digest) in repo:
// the descriptor of a manifest or index, well-formed and bounded.
func (c *Client) HeadManifest(ctx context.Context, p peer.ID, repo Repository, object string) (ocispec.Descriptor, error) {
	resp, err := c.send(ctx, p, http.MethodHead, repo.path(oci.Manifests, object), http.Header{"Accept": {manifestAccept}})
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s: %w", p, statusError(resp))
	}
	dgst, err := digest.Parse(resp.Header.Get(oci.DigestHeader))
	if err != nil {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s sent a bad digest: %w", p, err)
	}
	size, err := strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64)
	if err != nil || size <= 0 || size > c.opts.MaxManifestSize {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s sent a bad manifest size %q", p, resp.Header.Get("Content-Length"))
	}
	mediaType := resp.Header.Get("Content-Type")
	if !images.IsManifestType(mediaType) && !images.IsIndexType(mediaType) {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s sent media type %q for a manifest", p, mediaType)
	}
	return ocispec.Descriptor{MediaType: mediaType, Digest: dgst, Size: size}, nil
}

// DescribeBlob asks p for the media type and size of blob dgst. The size is
// the peer's word: the caller's fetch verifies it.
func (c *Client) DescribeBlob(ctx context.Context, p peer.ID, repo Repository, dgst digest.Digest) (ocispec.Descriptor, error) {
	resp, err := c.send(ctx, p, http.MethodHead, repo.path(oci.Blobs, dgst.String()), nil)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ContentLength <= 0 {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s: %w", p, statusError(resp))
	}
	return ocispec.Descriptor{MediaType: resp.Header.Get("Content-Type"), Digest: dgst, Size: resp.ContentLength}, nil
}

// FetchManifest reads manifest dgst whole from p and verifies it; the
// descriptor carries the bytes in Data.
func (c *Client) FetchManifest(ctx context.Context, p peer.ID, repo Repository, dgst digest.Digest) (ocispec.Descriptor, error) {
	resp, err := c.send(ctx, p, http.MethodGet, repo.path(oci.Manifests, dgst.String()), http.Header{"Accept": {manifestAccept}})
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ContentLength <= 0 {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s: %w", p, statusError(resp))
	}
	desc := ocispec.Descriptor{MediaType: resp.Header.Get("Content-Type"), Digest: dgst, Size: resp.ContentLength}
	if desc.Size > c.opts.MaxManifestSize {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s offers a %d-byte manifest", p, desc.Size)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, desc.Size))
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	if digest.SHA256.FromBytes(data) != dgst || (!images.IsManifestType(desc.MediaType) && !images.IsIndexType(desc.MediaType)) {
		return ocispec.Descriptor{}, fmt.Errorf("peer %s sent manifest %s: %w", p, dgst, ErrCorrupt)
	}
	desc.Data = data
	return desc, nil
}

// PenaltyKind is what a failure of a request costs the peer (see package
// penalty): the one place where error kinds become penalties.
func PenaltyKind(err error) penalty.Kind {
	switch {
	case err == nil, errors.Is(err, ErrArriving):
		return penalty.None
	case errors.Is(err, ErrStale):
		return penalty.Stale
	case errors.Is(err, ErrBusy):
		return penalty.Busy
	case errors.Is(err, ErrNoAnswer), errors.Is(err, ErrUnreachable):
		return penalty.Unresponsive
	case errors.Is(err, ErrBadTable):
		return penalty.BadTable
	case errors.Is(err, ErrCorrupt):
		return penalty.Corrupt
	}
	return penalty.None
}

// statusError is the error for an answer that is not the one asked for.
func statusError(resp *http.Response) error {
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return ErrStale
	case resp.StatusCode == http.StatusGone:
		return fmt.Errorf("its own copy does not match the digest: %w", ErrCorrupt)
	case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get(oci.ArrivingHeader) == "true":
		return ErrArriving
	case resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get(oci.FullHeader) != "":
		return fmt.Errorf("%w (%s)", ErrFull, resp.Status)
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable:
		return fmt.Errorf("%w (%s)", ErrBusy, resp.Status)
	}
	return fmt.Errorf("peer answered %s", resp.Status)
}

// send builds a request and sends it with do.
func (c *Client) send(ctx context.Context, p peer.ID, method, path string, h http.Header) (*http.Response, error) {
	return c.sendBehind(ctx, p, method, path, h, 0)
}

// sendBehind is send for a request whose answer may wait behind what the
// caller receives already (doBehind).
func (c *Client) sendBehind(ctx context.Context, p peer.ID, method, path string, h http.Header, behind time.Duration) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, path, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	return c.doBehind(p, req, behind)
}

// do sends req to peer p with one hard bound from dial to response headers,
// whatever the state of the connection underneath: a partition leaves it
// open and silent, and not every layer below gives up when asked to. Every
// request to a peer goes through here. Closing the body releases the request.
func (c *Client) do(p peer.ID, req *http.Request) (*http.Response, error) {
	return c.doBehind(p, req, 0)
}

// IdleExtender is a connection whose reads may wait longer for a byte than
// its idle timeout (peerhttp's): the transport's connection is told, for
// each request it carries, how much longer.
type IdleExtender interface {
	ExtendIdle(d time.Duration)
}

// doBehind is do for a request whose answer may wait behind for what the
// caller receives already: that much longer for its headers, and for each
// byte of its body.
func (c *Client) doBehind(p peer.ID, req *http.Request, behind time.Duration) (*http.Response, error) {
	behind = max(behind, 0)
	timeout := c.opts.RequestTimeout + behind
	parent := req.Context()
	ctx, cancel := context.WithCancel(parent)
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if conn, ok := info.Conn.(IdleExtender); ok {
				conn.ExtendIdle(behind)
			}
		},
	}))
	deadline := time.AfterFunc(timeout, cancel)
	answered := make(chan doResult, 1)
	go func() {
		var (
			resp *http.Response
			err  error
		)
		defer func() { answered <- doResult{resp, err} }()
		defer recovery.Catch(ctx, "p2p: request to a peer failed", &err)
		resp, err = c.transport.Do(p, req)
		if err == nil && (resp.StatusCode < 200 || resp.StatusCode > 299) {
			keepConnection(resp) // within the bound: a peer may stall the body too
		}
	}()
	select {
	case r := <-answered:
		if !deadline.Stop() {
			// Too late: the request context is already cancelled.
			if r.resp != nil {
				r.resp.Body.Close()
			}
			return nil, fmt.Errorf("%w (%s)", ErrNoAnswer, timeout)
		}
		if r.err != nil {
			cancel()
			if err := parent.Err(); err != nil {
				return nil, err // the caller gave up, not the peer
			}
			if timedOut(r.err) || reset(r.err) {
				return nil, fmt.Errorf("%w: %w", ErrNoAnswer, r.err)
			}
			return nil, fmt.Errorf("%w: %w", ErrUnreachable, r.err)
		}
		r.resp.Body = &cancelOnClose{ReadCloser: c.opts.Download.ReadCloser(ctx, r.resp.Body), cancel: cancel}
		return r.resp, nil
	case <-ctx.Done():
		go func() {
			defer recovery.Log(context.Background(), "p2p: closing an abandoned request failed")
			if r := <-answered; r.resp != nil {
				r.resp.Body.Close()
			}
		}()
		if err := parent.Err(); err != nil {
			return nil, err // the caller gave up, not the peer
		}
		return nil, fmt.Errorf("%w (%s)", ErrNoAnswer, timeout)
	}
}

// timedOut reports whether err is a dial or handshake that ran out of
// time, rather than one refused.
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// reset reports whether err is a connection that broke under a request,
// or one not dialled again so soon after such a break (libp2p's dial
// backoff), rather than one refused: the peer was there.
func reset(err error) bool {
	return errors.Is(err, network.ErrReset) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, swarm.ErrDialBackoff)
}

// maxErrorBody is the most of an error answer's body read ahead: an OCI
// error document is a few hundred bytes.
const maxErrorBody = 4 << 10

// keepConnection reads an error answer's body (a busy holder's 429, a 404
// for a piece not held) before the caller sees it: a body closed unread
// closes its connection, and the next request to that peer would pay a
// new TLS handshake (in the lab, 12% of the nodes' CPU went to them).
func keepConnection(resp *http.Response) {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
}

type doResult struct {
	resp *http.Response
	err  error
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}
