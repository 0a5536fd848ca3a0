package resolve

import (
	"context"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/shoal-dev/shoal/plugin/peerclient"
)

// spanRecorder keeps the spans that ended.
type spanRecorder struct {
	mu    sync.Mutex
	ended map[string]sdktrace.ReadOnlySpan
}

func (r *spanRecorder) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (r *spanRecorder) Shutdown(context.Context) error                  { return nil }
func (r *spanRecorder) ForceFlush(context.Context) error                { return nil }
func (r *spanRecorder) OnEnd(s sdktrace.ReadOnlySpan) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended[s.Name()] = s
}

// A tag resolved by peers while the upstream is down shows in the pull's
// trace: who was asked and what each answered.
func TestAResolutionByPeersIsTracedInThePull(t *testing.T) {
	m1 := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.FromString("m1"), Size: 100}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: tagAnswer(m1), peerB: tagAnswer(m1)}}
	r := New(fakeFinder{providers: []peer.ID{peerA, peerB}}, peerclient.New(client, peerclient.Options{}),
		Options{ReferenceKey: func(ref string) digest.Digest { return digest.FromString(ref) }})
	rec := &spanRecorder{ended: map[string]sdktrace.ReadOnlySpan{}}
	ctx, pull := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("containerd").Start(context.Background(), "pull")
	if _, _, err := r.Fallback(ctx, "registry.example/app:v1", refused); err != nil {
		t.Fatal(err)
	}
	pull.End()

	fallback, lookup := rec.ended[spanFallback], rec.ended[spanLookup]
	if fallback == nil || lookup == nil {
		t.Fatalf("spans %v", rec.ended)
	}
	if fallback.Parent().SpanID() != pull.SpanContext().SpanID() || lookup.Parent().SpanID() != fallback.SpanContext().SpanID() {
		t.Fatal("the lookup is not inside the resolution, or the resolution not inside the pull")
	}
	got := map[string]string{}
	for _, kv := range fallback.Attributes() {
		got[string(kv.Key)] = kv.Value.Emit()
	}
	if got[attrRef] != "registry.example/app:v1" || got[attrDigest] != m1.Digest.String() || got[attrProviders] != "2" {
		t.Errorf("resolution attributes %v", got)
	}
	answers := map[string]string{}
	for _, e := range fallback.Events() {
		a := map[string]string{}
		for _, kv := range e.Attributes {
			a[string(kv.Key)] = kv.Value.Emit()
		}
		answers[a[attrPeer]] = a[attrDigest]
	}
	if answers[peerA.String()] != m1.Digest.String() || answers[peerB.String()] != m1.Digest.String() {
		t.Errorf("answers recorded %v, want both peers with %s", answers, m1.Digest)
	}
}
