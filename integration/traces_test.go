package integration

import (
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracev1 "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
)

// otlpReceiver is an OpenTelemetry collector reduced to what the test
// needs: it keeps every span exported to it over OTLP/gRPC.
type otlpReceiver struct {
	collectortrace.UnimplementedTraceServiceServer
	Endpoint string

	mu    sync.Mutex
	spans []*tracev1.Span
}

func startOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &otlpReceiver{Endpoint: "http://" + l.Addr().String()}
	s := grpc.NewServer()
	collectortrace.RegisterTraceServiceServer(s, r)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return r
}

func (r *otlpReceiver) Export(_ context.Context, req *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

func (r *otlpReceiver) received() []*tracev1.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracev1.Span(nil), r.spans...)
}

// tracedBy is the environment that turns on containerd's tracing (its
// processor io.containerd.tracing.processor.v1.otlp is configured by the
// OpenTelemetry variables, as containerd 2 documents), every trace sampled
// and spans sent within 100 ms, as the command prefix of a node.
func tracedBy(r *otlpReceiver) []string {
	return []string{"env",
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + r.Endpoint,
		"OTEL_EXPORTER_OTLP_PROTOCOL=grpc",
		"OTEL_EXPORTER_OTLP_INSECURE=true",
		"OTEL_TRACES_SAMPLER=traceidratio",
		"OTEL_TRACES_SAMPLER_ARG=1.0",
		"OTEL_BSP_SCHEDULE_DELAY=100",
	}
}

func spanKey(trace, span []byte) string {
	return hex.EncodeToString(trace) + "/" + hex.EncodeToString(span)
}

func spanAttr(s *tracev1.Span, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			v := kv.Value
			if v.GetStringValue() != "" {
				return v.GetStringValue()
			}
			return fmt.Sprint(v.GetIntValue())
		}
	}
	return ""
}

// With containerd's tracing on, the trace of a `ctr image pull` shows
// Shoal's work inside containerd's own spans: for each blob a Fetch span,
// child of the unpacker's span for it (UnpackHandler for the manifest and
// config, fetchLayer for a layer) in the trace of the transfer service's
// RPC, with the provider lookup and the requests to the peer that served
// it under it; sent by containerd's own OTLP exporter, with no tracing
// setup of Shoal's.
func TestPullTraceShowsShoalsLookupsAndPeerRequestsInsideContainerdsSpans(t *testing.T) {
	reg := startRegistry(t)
	collector := startOTLPReceiver(t)
	a := startNode(t, "A", nodeOptions{})
	b := newNodeWith(t, "B", fmt.Sprintf("127.0.0.1:%d", freePort(t)), "127.0.0.1", tracedBy(collector),
		nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	b.start()
	b.waitReady()
	im := pushImage(t, reg.Addr, "peer/traced", "v1", 1<<20, 6<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)
	holder := a.peerID()

	before := reg.blobRequests(im.Repo)
	b.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B's pull made %d upstream blob requests, want 0", n)
	}

	// One Fetch span per blob and the manifest, each with its peer
	// request, and the pull's RPC, once the exporter has sent them.
	want := len(im.Blobs) + 1
	var spans []*tracev1.Span
	waitFor(t, 30*time.Second, "B's spans at the collector", func() bool {
		spans = collector.received()
		fetches, requests, rpc := 0, 0, false
		for _, s := range spans {
			switch {
			case s.Name == "shoal.fetcher.Fetch":
				fetches++
			case s.Name == "shoal.fetcher.PeerRequest":
				requests++
			case strings.HasSuffix(s.Name, "transfer.v1.Transfer/Transfer"):
				rpc = true
			}
		}
		return fetches >= want && requests >= want && rpc
	})
	byID := map[string]*tracev1.Span{}
	for _, s := range spans {
		byID[spanKey(s.TraceId, s.SpanId)] = s
	}
	parent := func(s *tracev1.Span) *tracev1.Span {
		t.Helper()
		p := byID[spanKey(s.TraceId, s.ParentSpanId)]
		if p == nil {
			t.Fatalf("the parent of %s (span %x of trace %x) was not received", s.Name, s.ParentSpanId, s.TraceId)
		}
		return p
	}

	// Each Fetch span is a child of a span of containerd's pull (the
	// unpacker's), in the trace of the transfer service's RPC.
	pullTraces := map[string]bool{}
	underContainerd := map[string]int{}
	for _, s := range spans {
		if s.Name != "shoal.fetcher.Fetch" {
			continue
		}
		p := parent(s)
		if strings.HasPrefix(p.Name, "shoal.") {
			t.Errorf("Fetch of %s is a child of %q, not of a span of containerd's", spanAttr(s, "shoal.digest"), p.Name)
		}
		underContainerd[p.Name]++
		root := p
		for len(root.ParentSpanId) > 0 {
			root = parent(root)
		}
		if !strings.HasSuffix(root.Name, "transfer.v1.Transfer/Transfer") {
			t.Errorf("Fetch of %s is in the trace of %q, not of the pull's Transfer RPC", spanAttr(s, "shoal.digest"), root.Name)
		}
		if got := spanAttr(s, "shoal.source"); got != "peers" {
			t.Errorf("Fetch of %s: source %q, want peers", spanAttr(s, "shoal.digest"), got)
		}
		pullTraces[hex.EncodeToString(s.TraceId)] = true
	}
	if len(pullTraces) != 1 {
		t.Errorf("B's Fetch spans are in %d traces, want the pull's one", len(pullTraces))
	}
	if layers := len(im.Blobs) - 1; underContainerd["pkg.unpack.unpacker.fetchLayer"] != layers {
		t.Errorf("Fetch spans by containerd parent: %v; want one under each of the %d layers' fetchLayer", underContainerd, layers)
	}

	lookups, requests := 0, 0
	for _, s := range spans {
		switch s.Name {
		case "shoal.fetcher.Lookup":
			lookups++
		case "shoal.fetcher.PeerRequest":
			requests++
			if peer, outcome := spanAttr(s, "shoal.peer.id"), spanAttr(s, "shoal.outcome"); peer != holder || outcome != "ok" {
				t.Errorf("peer request to %s: outcome %q; want %s, ok", peer, outcome, holder)
			}
		case "shoal.fetcher.Upstream":
			t.Errorf("an upstream span, for %s: every blob came from A", spanAttr(s, "shoal.digest"))
		default:
			continue
		}
		if p := parent(s); p.Name != "shoal.fetcher.Fetch" {
			t.Errorf("%s is a child of %q, want a Fetch span", s.Name, p.Name)
		}
	}
	if lookups < want || requests < want {
		t.Errorf("%d lookups and %d peer requests, want at least %d each", lookups, requests, want)
	}
	t.Logf("%d spans received; Shoal's Fetch spans by containerd parent: %v", len(spans), underContainerd)
	for _, s := range spans {
		if s.Name == "shoal.fetcher.PeerRequest" && spanAttr(s, "shoal.digest") == im.Blobs[len(im.Blobs)-1].Digest.String() {
			chain := []string{s.Name}
			for p := s; len(p.ParentSpanId) > 0; {
				p = parent(p)
				chain = append([]string{p.Name}, chain...)
			}
			t.Logf("the larger layer from A (one of its piece requests): %s", strings.Join(chain, " > "))
			break
		}
	}
}
