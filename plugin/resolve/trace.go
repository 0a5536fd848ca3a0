package resolve

import (
	"context"

	"github.com/containerd/containerd/v2/pkg/tracing"
	"github.com/libp2p/go-libp2p/core/peer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// Spans of a resolution by peers, children of the span in the caller's
// context (the pull's, for the transfer service), exported by containerd's
// tracing; no-ops when it is off. Each provider's answer is an event
// shoal.peer.answer on the span that asked.
const (
	spanFallback = "shoal.resolve.Fallback" // a reference resolved by peers, the upstream unreachable
	spanManifest = "shoal.resolve.Manifest" // a manifest fetched by digest from its providers
	spanLookup   = "shoal.resolve.Lookup"   // who announced the key
	eventAnswer  = "shoal.peer.answer"
)

// Attributes, named as the fetcher's.
const (
	attrRef           = "shoal.ref"
	attrDigest        = "shoal.digest"
	attrProviders     = "shoal.providers"
	attrPeer          = "shoal.peer.id"
	attrUpstreamError = "shoal.upstream.error"
)

// answered records on the span in ctx what p answered: a descriptor, or
// an error.
func answered(ctx context.Context, p peer.ID, desc ocispec.Descriptor, err error) {
	answer := tracing.Attribute(attrDigest, desc.Digest.String())
	if err != nil {
		answer = tracing.Attribute("exception.message", err.Error())
	}
	tracing.SpanFromContext(ctx).AddEvent(eventAnswer, tracing.Attribute(attrPeer, p.String()), answer)
}

// endSpan ends span, with err as its status if there is one.
func endSpan(span *tracing.Span, err error) {
	if err != nil {
		span.SetStatus(err)
	}
	span.End()
}
