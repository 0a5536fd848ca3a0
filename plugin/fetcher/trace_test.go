package fetcher

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// spanRecorder keeps the spans that ended, as a tracing processor of
// containerd would export them.
type spanRecorder struct {
	mu    sync.Mutex
	ended []sdktrace.ReadOnlySpan
}

func (r *spanRecorder) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (r *spanRecorder) Shutdown(context.Context) error                  { return nil }
func (r *spanRecorder) ForceFlush(context.Context) error                { return nil }
func (r *spanRecorder) OnEnd(s sdktrace.ReadOnlySpan) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = append(r.ended, s)
}

// named returns the ended spans called name, in the order they ended.
func (r *spanRecorder) named(name string) []sdktrace.ReadOnlySpan {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []sdktrace.ReadOnlySpan
	for _, s := range r.ended {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

// fetchTraced fetches d inside a span of containerd's pull, with tracing
// on, and returns the pull's span and every span that ended.
func fetchTraced(t *testing.T, f *Fetcher, up Upstream, d ocispec.Descriptor) (trace.SpanContext, *spanRecorder) {
	t.Helper()
	rec := &spanRecorder{}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	ctx, pull := tp.Tracer("containerd").Start(testNamespace(), "pkg.unpack.unpacker.fetchLayer")
	pf := f.WrapFetcher(up, "registry.example/team/app:v1")
	rc, err := pf.Fetch(ctx, d)
	switch {
	case err != nil:
		t.Fatal(err)
	default:
		if _, err := io.Copy(io.Discard, rc); err != nil {
			t.Fatal(err)
		}
		rc.Close()
	}
	pull.End()
	return pull.SpanContext(), rec
}

// describe is a span as the tests compare it: its name and the attributes
// asked for, in that order ("-" for one it lacks).
func describe(name string, kvs []attribute.KeyValue, keys ...string) string {
	have := map[string]string{}
	for _, kv := range kvs {
		have[string(kv.Key)] = kv.Value.Emit()
	}
	out := []string{name}
	for _, k := range keys {
		v, ok := have[k]
		if !ok {
			v = "-"
		}
		out = append(out, k+"="+v)
	}
	return strings.Join(out, " ")
}

// one returns the only span called name, after checking that its parent is
// parent.
func one(t *testing.T, rec *spanRecorder, name string, parent trace.SpanContext) sdktrace.ReadOnlySpan {
	t.Helper()
	spans := rec.named(name)
	if len(spans) != 1 {
		t.Fatalf("%d spans %s, want 1", len(spans), name)
	}
	childOf(t, spans[0], parent)
	return spans[0]
}

func childOf(t *testing.T, s sdktrace.ReadOnlySpan, parent trace.SpanContext) {
	t.Helper()
	if s.Parent().SpanID() != parent.SpanID() || s.SpanContext().TraceID() != parent.TraceID() {
		t.Fatalf("%s is not a child of span %s", s.Name(), parent.SpanID())
	}
}

func expect(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// With containerd's tracing on, the trace of a pull shows what Shoal did
// for each blob, inside containerd's own span for it: the lookup, each
// request to a peer, each failover and the upstream.
func TestTracesShowWhereEachBlobCameFrom(t *testing.T) {
	requestKeys := []string{attrPeer, attrRequest, attrOffset, attrLength, attrBytes, attrOutcome}

	t.Run("hit: a manifest comes from the peer that holds it", func(t *testing.T) {
		data := []byte(`{"mediaType":"application/vnd.oci.image.manifest.v1+json"}`)
		d := desc(data, ocispec.MediaTypeImageManifest)
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serves(data)}}
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA}}, client, Options{})
		pull, rec := fetchTraced(t, f, &fakeUpstream{}, d)

		fetch := one(t, rec, spanFetch, pull)
		expect(t, describe(fetch.Name(), fetch.Attributes(), attrDigest, attrSize, attrMediaType, attrRef, attrSource),
			fmt.Sprintf("shoal.fetcher.Fetch shoal.digest=%s shoal.size=%d shoal.media_type=%s shoal.ref=registry.example/team/app:v1 shoal.source=peers",
				d.Digest, d.Size, d.MediaType))
		lookup := one(t, rec, spanLookup, fetch.SpanContext())
		expect(t, describe(lookup.Name(), lookup.Attributes(), attrDigest, attrProviders),
			fmt.Sprintf("shoal.fetcher.Lookup shoal.digest=%s shoal.providers=1", d.Digest))
		req := one(t, rec, spanPeerRequest, fetch.SpanContext())
		expect(t, describe(req.Name(), req.Attributes(), requestKeys...),
			fmt.Sprintf("shoal.fetcher.PeerRequest shoal.peer.id=%s shoal.request=stream shoal.offset=0 shoal.length=%d shoal.bytes=%d shoal.outcome=ok",
				peerA, d.Size, d.Size))
		if n := len(rec.named(spanUpstream)); n != 0 {
			t.Errorf("%d upstream spans, want none", n)
		}
	})

	t.Run("failover: a blob a peer broke off comes from the next peer", func(t *testing.T) {
		data := randomBytes(t, 64<<10)
		client := &fakeClient{peers: map[peer.ID]peerBehaviour{
			peerA: breaksAfter(data, 10000),
			peerC: serves(data),
		}}
		f := newFetcher(t, fakeFinder{providers: []peer.ID{peerA, peerC}}, client, Options{})
		pull, rec := fetchTraced(t, f, &fakeUpstream{data: data}, desc(data, ocispec.MediaTypeImageLayer))

		fetch := one(t, rec, spanFetch, pull)
		expect(t, describe(fetch.Name(), fetch.Attributes(), attrSource), "shoal.fetcher.Fetch shoal.source=peers")
		var requests []string
		for _, req := range rec.named(spanPeerRequest) {
			childOf(t, req, fetch.SpanContext())
			requests = append(requests, describe(req.Name(), req.Attributes(), requestKeys...))
		}
		expect(t, strings.Join(requests, "\n"), strings.Join([]string{
			fmt.Sprintf("shoal.fetcher.PeerRequest shoal.peer.id=%s shoal.request=stream shoal.offset=0 shoal.length=65536 shoal.bytes=10000 shoal.outcome=error", peerA),
			fmt.Sprintf("shoal.fetcher.PeerRequest shoal.peer.id=%s shoal.request=stream shoal.offset=0 shoal.length=65536 shoal.bytes=65536 shoal.outcome=ok", peerC),
		}, "\n"))
		var failovers []string
		for _, e := range fetch.Events() {
			failovers = append(failovers, describe(e.Name, e.Attributes, attrPeer, attrOffset, attrReason))
		}
		expect(t, strings.Join(failovers, "\n"), strings.Join([]string{
			fmt.Sprintf("shoal.failover shoal.peer.id=%s shoal.offset=0 shoal.reason=error", peerA),
		}, "\n"))
		if n := len(rec.named(spanUpstream)); n != 0 {
			t.Errorf("%d upstream spans, want none", n)
		}
	})

	t.Run("miss: nobody holds it, the upstream sends it", func(t *testing.T) {
		data := randomBytes(t, 100)
		f := newFetcher(t, fakeFinder{}, &fakeClient{}, Options{})
		pull, rec := fetchTraced(t, f, &fakeUpstream{data: data}, desc(data, ocispec.MediaTypeImageConfig))

		fetch := one(t, rec, spanFetch, pull)
		expect(t, describe(fetch.Name(), fetch.Attributes(), attrSource), "shoal.fetcher.Fetch shoal.source=upstream")
		lookup := one(t, rec, spanLookup, fetch.SpanContext())
		expect(t, describe(lookup.Name(), lookup.Attributes(), attrProviders), "shoal.fetcher.Lookup shoal.providers=0")
		up := one(t, rec, spanUpstream, fetch.SpanContext())
		expect(t, describe(up.Name(), up.Attributes(), attrReason, attrOffset, attrBytes, attrOutcome),
			"shoal.fetcher.Upstream shoal.reason=no peer holds it shoal.offset=0 shoal.bytes=100 shoal.outcome=ok")
		if n := len(rec.named(spanPeerRequest)); n != 0 {
			t.Errorf("%d peer requests, want none", n)
		}
	})
}
