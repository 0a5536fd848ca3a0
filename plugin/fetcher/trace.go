package fetcher

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/containerd/containerd/v2/pkg/tracing"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/penalty"
)

// Spans of a fetch. They are children of the span in the context the pull
// hands to Fetch (containerd's transfer service and unpacker start those),
// and go wherever containerd's tracing sends its own; with tracing off they
// cost next to nothing.
//
//	shoal.fetcher.Fetch          one descriptor: where its bytes came from
//	├── shoal.fetcher.Lookup     who announced it
//	├── shoal.fetcher.PeerRequest one request to a peer, until its body is closed
//	└── shoal.fetcher.Upstream   the registry, after a miss or to finish a blob
//
// Each time the fetch leaves a peer (an error, a stall, bad bytes) the Fetch
// span gets an event shoal.failover.
const (
	spanFetch       = "shoal.fetcher.Fetch"
	spanLookup      = "shoal.fetcher.Lookup"
	spanPeerRequest = "shoal.fetcher.PeerRequest"
	spanUpstream    = "shoal.fetcher.Upstream"
	eventFailover   = "shoal.failover"
)

// Attributes.
const (
	attrDigest    = "shoal.digest"
	attrSize      = "shoal.size"
	attrMediaType = "shoal.media_type"
	attrRef       = "shoal.ref"
	attrSource    = "shoal.source" // where a Fetch's bytes came from: "peers", "upstream" or "peers+upstream"
	attrProviders = "shoal.providers"
	attrPeer      = "shoal.peer.id"
	attrRequest   = "shoal.request" // "stream" (from offset to the end) or "range"
	attrOffset    = "shoal.offset"
	attrLength    = "shoal.length"
	attrBytes     = "shoal.bytes" // received before the body was closed
	attrOutcome   = "shoal.outcome"
	attrReason    = "shoal.reason"
)

func (pf *PeerFirst) startFetch(ctx context.Context, desc ocispec.Descriptor) (context.Context, *tracing.Span) {
	return tracing.StartSpan(ctx, spanFetch,
		tracing.WithAttribute(attrDigest, desc.Digest.String()),
		tracing.WithAttribute(attrSize, desc.Size),
		tracing.WithAttribute(attrMediaType, desc.MediaType),
		tracing.WithAttribute(attrRef, pf.ref))
}

// endFetch ends a Fetch span with its outcome.
func endFetch(span *tracing.Span, err error) {
	if err != nil {
		span.SetStatus(err)
	}
	span.End()
}

// fromSource records on the Fetch span in ctx where the bytes come from.
func fromSource(ctx context.Context, source string) {
	tracing.SpanFromContext(ctx).SetAttributes(tracing.Attribute(attrSource, source))
}

// failover records on the span in ctx (the Fetch's) that the fetch left p,
// at offset.
func failover(ctx context.Context, p peer.ID, offset int64, err error) {
	tracing.SpanFromContext(ctx).AddEvent(eventFailover,
		tracing.Attribute(attrPeer, p.String()),
		tracing.Attribute(attrOffset, offset),
		tracing.Attribute(attrReason, outcome(ctx, err)),
		tracing.Attribute("exception.message", err.Error()))
}

// outcome names how a request to a source ended, by error kind: "ok",
// "not_found", "busy", "unresponsive", "corrupt", "arriving", "stall",
// "cancelled" or "error".
func outcome(ctx context.Context, err error) string {
	switch {
	case err == nil:
		return "ok"
	case ctx.Err() != nil:
		return "cancelled"
	case errors.Is(err, peerclient.ErrArriving):
		return "arriving"
	case isStall(err):
		return "stall"
	}
	switch kind := peerclient.PenaltyKind(err); kind {
	case penalty.Stale:
		return "not_found"
	case penalty.None:
		return "error"
	default:
		return kind.String() // busy, unresponsive, corrupt
	}
}

func startLookup(ctx context.Context, dgst digest.Digest) (context.Context, *tracing.Span) {
	return tracing.StartSpan(ctx, spanLookup, tracing.WithAttribute(attrDigest, dgst.String()))
}

func endLookup(span *tracing.Span, providers []peer.AddrInfo, err error) {
	span.SetAttributes(tracing.Attribute(attrProviders, len(providers)))
	if err != nil {
		span.SetStatus(err)
	}
	span.End()
}

// startPeerRequest starts the span of a request to p for desc's bytes
// from offset: length of them, or (length 0) up to the end.
func startPeerRequest(ctx context.Context, p peer.ID, desc ocispec.Descriptor, offset, length int64) (context.Context, *tracing.Span) {
	request := "range"
	if length == 0 {
		request, length = "stream", desc.Size-offset
	}
	return tracing.StartSpan(ctx, spanPeerRequest,
		tracing.WithAttribute(attrPeer, p.String()),
		tracing.WithAttribute(attrDigest, desc.Digest.String()),
		tracing.WithAttribute(attrRequest, request),
		tracing.WithAttribute(attrOffset, offset),
		tracing.WithAttribute(attrLength, length))
}

func startUpstream(ctx context.Context, desc ocispec.Descriptor, offset int64, reason string) (context.Context, *tracing.Span) {
	return tracing.StartSpan(ctx, spanUpstream,
		tracing.WithAttribute(attrDigest, desc.Digest.String()),
		tracing.WithAttribute(attrReason, reason),
		tracing.WithAttribute(attrOffset, offset))
}

// endRequest ends the span of a request to a source with its outcome.
func endRequest(ctx context.Context, span *tracing.Span, err error) {
	span.SetAttributes(tracing.Attribute(attrOutcome, outcome(ctx, err)))
	if err != nil {
		span.SetStatus(err)
	}
	span.End()
}

// traced ends the span of a request that failed, or hands it to the body,
// to be ended when the body is closed.
func traced(ctx context.Context, span *tracing.Span, body io.ReadCloser, want int64, err error) io.ReadCloser {
	if err != nil {
		endRequest(ctx, span, err)
		return body
	}
	return traceBody(ctx, span, body, want)
}

// tracedBody ends a request's span when its body is closed, with the bytes
// read and how the reading ended. An end of file is a clean end (the readers
// check lengths and digests); a body closed before its end without an error
// was given up by its reader (a hedged request that lost).
type tracedBody struct {
	io.ReadCloser
	ctx  context.Context
	span *tracing.Span
	want int64

	n    atomic.Int64
	mu   sync.Mutex
	err  error // the first read error, io.EOF included
	once sync.Once
}

func traceBody(ctx context.Context, span *tracing.Span, rc io.ReadCloser, want int64) io.ReadCloser {
	return keepSeek(rc, &tracedBody{ReadCloser: rc, ctx: ctx, span: span, want: want})
}

func (b *tracedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	if err != nil {
		b.mu.Lock()
		if b.err == nil {
			b.err = err
		}
		b.mu.Unlock()
	}
	return n, err
}

func (b *tracedBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(func() {
		b.mu.Lock()
		readErr := b.err
		b.mu.Unlock()
		n := b.n.Load()
		b.span.SetAttributes(tracing.Attribute(attrBytes, n))
		switch {
		case n >= b.want || readErr == io.EOF:
			readErr = nil
		case readErr == nil:
			b.span.SetAttributes(tracing.Attribute(attrOutcome, "abandoned"))
			b.span.End()
			return
		}
		endRequest(b.ctx, b.span, readErr)
	})
	return err
}
