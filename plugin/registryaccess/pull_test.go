package registryaccess

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/transfer/registry"
)

// helper is a credential helper as CRI and ctr pass them.
type helper struct {
	creds map[string]registry.Credentials // by host
	block chan struct{}                   // if set, every answer waits for it

	mu    sync.Mutex
	asked []string
}

func (h *helper) GetCredentials(ctx context.Context, ref, host string) (registry.Credentials, error) {
	h.mu.Lock()
	h.asked = append(h.asked, ref+" "+host)
	h.mu.Unlock()
	if h.block != nil {
		<-h.block
	}
	return h.creds[host], nil
}

func TestAPullsOptionsAreLearnedFromItsSource(t *testing.T) {
	ctx := context.Background()
	headers := http.Header{"X-Cluster": []string{"blue"}}
	src, err := registry.NewOCIRegistry(ctx, "registry.test/team/app:v1",
		registry.WithHostDir("/etc/containerd/certs.d"), registry.WithHeaders(headers), registry.WithDefaultScheme("http"))
	if err != nil {
		t.Fatal(err)
	}
	pull := LearnPull(ctx, src)
	if pull == nil {
		t.Fatal("options of an OCIRegistry not learned")
	}
	defer pull.Close()
	if pull.Reference != "registry.test/team/app:v1" || pull.Config.HostDir != "/etc/containerd/certs.d" ||
		pull.Config.DefaultScheme != "http" || pull.Config.Headers.Get("X-Cluster") != "blue" {
		t.Errorf("learned %+v", pull)
	}
	if pull.HasCredentials(ctx, []string{"registry.test"}) {
		t.Error("a pull without a credential helper has credentials")
	}
}

func TestOtherSourcesTellNothing(t *testing.T) {
	if LearnPull(context.Background(), struct{}{}) != nil {
		t.Error("options learned from a source that is not an OCIRegistry")
	}
}

func TestThePullsHelperIsAskedForTheHostsOfItsResolve(t *testing.T) {
	ctx := context.Background()
	h := &helper{creds: map[string]registry.Credentials{
		"private.test": {Username: "u", Secret: "s"},
		"token.test":   {Secret: "refresh-token"},
		"header.test":  {Header: "Bearer x"},
	}}
	src, err := registry.NewOCIRegistry(ctx, "registry.test/team/app:v1", registry.WithCredentials(h))
	if err != nil {
		t.Fatal(err)
	}
	pull := LearnPull(ctx, src)
	if pull == nil {
		t.Fatal("options not learned")
	}
	defer pull.Close()
	// CRI always passes a helper; for most images it has nothing.
	if pull.HasCredentials(ctx, []string{"mirror.test", "registry.test"}) {
		t.Error("an empty helper counts as credentials")
	}
	for _, host := range []string{"private.test", "token.test", "header.test"} {
		if !pull.HasCredentials(ctx, []string{"registry.test", host}) {
			t.Errorf("credentials for %s not seen", host)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.asked) == 0 || h.asked[0] != "registry.test/team/app:v1 mirror.test" {
		t.Errorf("helper asked %q, want the pull's reference and each host", h.asked)
	}
}

func TestAHelperThatDoesNotAnswerCountsAsCredentials(t *testing.T) {
	h := &helper{block: make(chan struct{})}
	defer close(h.block)
	src, err := registry.NewOCIRegistry(context.Background(), "registry.test/team/app:v1", registry.WithCredentials(h))
	if err != nil {
		t.Fatal(err)
	}
	pull := LearnPull(context.Background(), src)
	defer pull.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if !pull.HasCredentials(ctx, []string{"registry.test", "other.test"}) {
		t.Error("a silent helper counts as no credentials")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("waited %s for a silent helper", took)
	}
}

func TestClosingEndsTheSourcesSideOfTheConversation(t *testing.T) {
	ctx := context.Background()
	before := runtime.NumGoroutine()
	for range 20 {
		src, err := registry.NewOCIRegistry(ctx, "registry.test/team/app:v1", registry.WithCredentials(&helper{}))
		if err != nil {
			t.Fatal(err)
		}
		pull := LearnPull(ctx, src)
		pull.HasCredentials(ctx, []string{"registry.test"})
		pull.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		t.Errorf("%d goroutines left behind by 20 pulls (before: %d)", n, before)
	}
}

// closeRecorder is a client's stream of HTTP debug logs.
type closeRecorder struct {
	mu     sync.Mutex
	closed bool
}

func (c *closeRecorder) Write(p []byte) (int, error) { return len(p), nil }
func (c *closeRecorder) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return nil
}

func TestAClientsDebugStreamIsLeftAlone(t *testing.T) {
	ctx := context.Background()
	logs := &closeRecorder{}
	var _ io.WriteCloser = logs
	src, err := registry.NewOCIRegistry(ctx, "registry.test/team/app:v1", registry.WithCredentials(&helper{}),
		registry.WithHTTPDebug(), registry.WithClientStream(logs))
	if err != nil {
		t.Fatal(err)
	}
	if pull := LearnPull(ctx, src); pull != nil {
		pull.Close()
		t.Error("options learned by taking over the client's debug stream")
	}
	time.Sleep(10 * time.Millisecond)
	logs.mu.Lock()
	defer logs.mu.Unlock()
	if logs.closed {
		t.Error("the client's debug stream was closed")
	}
}
