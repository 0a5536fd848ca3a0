package fetcher

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"golang.org/x/time/rate"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/peerclient"
)

// A swarm simulation: N nodes, each running this package's fetcher as the
// plugin does (lookups, coordination, ranking, switching, streaming into a
// store), pull one new layer at the same moment. Only the world is
// modelled: every node and the registry sit behind a link of the same rate
// in each direction (a token bucket per direction; a transfer takes from
// the sender's uplink and the receiver's downlink), a lookup costs 20 ms,
// an announcement is found 50 ms after it is made, a request 2 ms, and
// bytes a node receives can be sent on hopDelay later (its store's write
// and the reader that follows the ingest). Time is synctest's: virtual, so
// that a thousand nodes fit on two cores.

// swarmLink is one direction of a link.
func swarmLink(bytesPerSecond float64) *rate.Limiter {
	return rate.NewLimiter(rate.Limit(bytesPerSecond), swarmChunk)
}

// swarmChunk is the most one body read moves at once.
const swarmChunk = 64 << 10

type chainSim struct {
	data     []byte
	desc     ocispec.Descriptor
	up       *rate.Limiter // the registry's uplink
	hopDelay time.Duration

	mu        sync.Mutex
	nodes     map[peer.ID]*swarmNode
	ids       []peer.ID
	announced []peer.ID
	upstream  int64 // bytes the registry sent
}

type swarmNode struct {
	s        *chainSim
	id       peer.ID
	up, down *rate.Limiter

	mu        sync.Mutex
	available int64 // what can be sent on
	received  int64
	holding   bool // arriving or stored
	complete  bool
	changed   chan struct{} // closed when available grows
	load      int
	sent      int64
}

func newSwarm(t testing.TB, n int, size int, bytesPerSecond float64, hopDelay time.Duration) *chainSim {
	s := &chainSim{data: make([]byte, size), nodes: map[peer.ID]*swarmNode{}, up: swarmLink(bytesPerSecond), hopDelay: hopDelay}
	if _, err := rand.Read(s.data); err != nil {
		t.Fatal(err)
	}
	s.desc = ocispec.Descriptor{MediaType: ocispec.MediaTypeImageLayer, Digest: digest.FromBytes(s.data), Size: int64(size)}
	for i := range n {
		id := peer.ID(fmt.Sprintf("node-%04d", i))
		s.nodes[id] = &swarmNode{s: s, id: id, up: swarmLink(bytesPerSecond), down: swarmLink(bytesPerSecond), changed: make(chan struct{})}
		s.ids = append(s.ids, id)
	}
	return s
}

func swarmScore(dgst digest.Digest, p peer.ID) string {
	sum := sha256.Sum256([]byte(dgst.String() + "\x00" + string(p)))
	return string(sum[:])
}

// rank is Router.Rank over every node of the swarm.
func (s *chainSim) rank(self peer.ID) func(digest.Digest) (int, int) {
	return func(dgst digest.Digest) (int, int) {
		mine, rank := swarmScore(dgst, self), 0
		for _, p := range s.ids {
			if p != self && swarmScore(dgst, p) > mine {
				rank++
			}
		}
		return rank, len(s.ids)
	}
}

// FindProviders answers after a lookup's time with what was announced.
func (s *chainSim) FindProviders(ctx context.Context, d digest.Digest, limit int) ([]peer.AddrInfo, error) {
	select {
	case <-time.After(20 * time.Millisecond):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []peer.AddrInfo
	// The DHT answers with the records nearest the key, in no useful order.
	for _, i := range shuffled(len(s.announced)) {
		if len(out) == limit {
			break
		}
		out = append(out, peer.AddrInfo{ID: s.announced[i]})
	}
	return out, nil
}

func shuffled(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	for i := n - 1; i > 0; i-- {
		var b [1]byte
		rand.Read(b[:])
		j := int(b[0]) % (i + 1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Begin is the node's offer of the layer while it arrives: findable by
// others after an announcement's time.
func (n *swarmNode) Begin(ctx context.Context, ref string, desc ocispec.Descriptor, labels map[string]string) func() {
	n.mu.Lock()
	n.holding = true
	n.mu.Unlock()
	go func() {
		time.Sleep(50 * time.Millisecond)
		n.s.mu.Lock()
		n.s.announced = append(n.s.announced, n.id)
		n.s.mu.Unlock()
	}()
	return func() {}
}

// Write is the node's store receiving the layer from its fetcher; the
// bytes can be sent on hopDelay later.
func (n *swarmNode) Write(b []byte) (int, error) {
	n.mu.Lock()
	n.received += int64(len(b))
	upTo := n.received
	n.mu.Unlock()
	time.AfterFunc(n.s.hopDelay, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		if upTo > n.available {
			n.available = upTo
			n.complete = n.available == n.s.desc.Size
			close(n.changed)
			n.changed = make(chan struct{})
		}
	})
	return len(b), nil
}

// move takes k bytes from the sender's uplink and the receiver's
// downlink, waiting as long as the busier one needs.
func move(ctx context.Context, from, to *rate.Limiter, k int) error {
	now := time.Now()
	a, b := from.ReserveN(now, k), to.ReserveN(now, k)
	d := max(a.DelayFrom(now), b.DelayFrom(now))
	if d <= 0 {
		return nil
	}
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// swarmTransport is one node's way to its peers.
type swarmTransport struct{ self *swarmNode }

func (t swarmTransport) Do(p peer.ID, req *http.Request) (*http.Response, error) {
	time.Sleep(2 * time.Millisecond)
	holder := t.self.s.nodes[p]
	holder.mu.Lock()
	holding, complete, available, load := holder.holding, holder.complete, holder.available, holder.load
	holder.mu.Unlock()
	size := holder.s.desc.Size
	if !holding {
		return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Body: io.NopCloser(strings.NewReader(""))}, nil
	}
	h := http.Header{}
	h.Set(oci.LoadHeader, strconv.Itoa(load))
	if !complete {
		h.Set(oci.ArrivingHeader, "true")
		h.Set(oci.AvailableHeader, strconv.FormatInt(available, 10))
	}
	start, end := int64(0), size
	status := http.StatusOK
	if rng := req.Header.Get("Range"); rng != "" {
		status = http.StatusPartialContent
		var s, e int64
		if n, _ := fmt.Sscanf(rng, "bytes=%d-%d", &s, &e); n == 2 {
			start, end = s, e+1
		} else {
			fmt.Sscanf(rng, "bytes=%d-", &start)
		}
		h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, end-1, size))
	}
	h.Set("Content-Length", strconv.FormatInt(end-start, 10))
	resp := &http.Response{StatusCode: status, Status: http.StatusText(status), Header: h, ContentLength: end - start, Request: req}
	if req.Method == http.MethodHead {
		resp.Body = io.NopCloser(strings.NewReader(""))
		return resp, nil
	}
	holder.mu.Lock()
	holder.load++
	holder.mu.Unlock()
	resp.Body = &swarmBody{ctx: req.Context(), from: holder, to: t.self, pos: start, end: end}
	return resp, nil
}

// swarmBody sends what its holder has, as it arrives, at the links' pace.
type swarmBody struct {
	ctx      context.Context
	from, to *swarmNode
	pos, end int64
	closed   bool
}

func (b *swarmBody) Read(p []byte) (int, error) {
	if b.pos >= b.end {
		return 0, io.EOF
	}
	for {
		b.from.mu.Lock()
		avail, changed := b.from.available, b.from.changed
		b.from.mu.Unlock()
		if avail > b.pos {
			break
		}
		select {
		case <-changed:
		case <-b.ctx.Done():
			return 0, b.ctx.Err()
		}
	}
	b.from.mu.Lock()
	avail := b.from.available
	b.from.mu.Unlock()
	k := int(min(int64(len(p)), swarmChunk, avail-b.pos, b.end-b.pos))
	if err := move(b.ctx, b.from.up, b.to.down, k); err != nil {
		return 0, err
	}
	copy(p, b.from.s.data[b.pos:b.pos+int64(k)])
	b.pos += int64(k)
	b.from.mu.Lock()
	b.from.sent += int64(k)
	b.from.mu.Unlock()
	return k, nil
}

func (b *swarmBody) Close() error {
	if !b.closed {
		b.closed = true
		b.from.mu.Lock()
		b.from.load--
		b.from.mu.Unlock()
	}
	return nil
}

// swarmUpstream is the registry, as one node reaches it.
type swarmUpstream struct{ self *swarmNode }

func (u swarmUpstream) Fetch(ctx context.Context, desc ocispec.Descriptor) (io.ReadCloser, error) {
	time.Sleep(2 * time.Millisecond)
	return &upstreamBody{ctx: ctx, s: u.self.s, to: u.self}, nil
}

type upstreamBody struct {
	ctx context.Context
	s   *chainSim
	to  *swarmNode
	pos int64
}

func (b *upstreamBody) Read(p []byte) (int, error) {
	if b.pos >= b.s.desc.Size {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), swarmChunk, b.s.desc.Size-b.pos))
	if err := move(b.ctx, b.s.up, b.to.down, k); err != nil {
		return 0, err
	}
	copy(p, b.s.data[b.pos:b.pos+int64(k)])
	b.pos += int64(k)
	b.s.mu.Lock()
	b.s.upstream += int64(k)
	b.s.mu.Unlock()
	return k, nil
}

func (b *upstreamBody) Close() error { return nil }

// swarmResult is one simulated rollout.
type swarmResult struct {
	times    []time.Duration // each node's pull, from the common start
	upstream float64         // copies the registry sent
	maxSent  float64         // the most one node uploaded, in copies
	failed   int
}

// runSwarm pulls the layer on every node at once, in virtual time.
func runSwarm(t *testing.T, n, size int, bytesPerSecond float64, hopDelay time.Duration) swarmResult {
	var res swarmResult
	synctest.Test(t, func(t *testing.T) {
		s := newSwarm(t, n, size, bytesPerSecond, hopDelay)
		res.times = make([]time.Duration, n)
		ctx := namespaces.WithNamespace(context.Background(), "default")
		start := time.Now()
		var wg sync.WaitGroup
		var mu sync.Mutex
		for i, id := range s.ids {
			node := s.nodes[id]
			f := New(s, peerclient.New(swarmTransport{node}, peerclient.Options{}), Options{
				LookupTimeout:      time.Second,
				InFlight:           node,
				Rank:               s.rank(id),
				CoordinationWindow: 500 * time.Millisecond,
				Score:              swarmScore,
				Self:               id,
			})
			wg.Go(func() {
				pf := f.WrapFetcher(swarmUpstream{node}, "registry.example/team/app:v1")
				rc, err := pf.Fetch(ctx, s.desc)
				if err == nil {
					_, err = io.Copy(node, rc)
					rc.Close()
				}
				mu.Lock()
				defer mu.Unlock()
				res.times[i] = time.Since(start)
				node.mu.Lock()
				got := node.received
				node.mu.Unlock()
				if err != nil || got != s.desc.Size {
					res.failed++
				}
			})
		}
		wg.Wait()
		res.upstream = float64(s.upstream) / float64(size)
		for _, node := range s.nodes {
			res.maxSent = max(res.maxSent, float64(node.sent)/float64(size))
		}
	})
	return res
}

func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1)]
}

// A small swarm in every test run: every node gets the layer, the
// registry sends one copy, no node uploads more than two.
func TestASimulatedSwarmSharesOneUpstreamCopy(t *testing.T) {
	res := runSwarm(t, 12, 8<<20, 8<<20, 5*time.Millisecond)
	if res.failed != 0 {
		t.Fatalf("%d of 12 nodes failed", res.failed)
	}
	limit := time.Second
	t.Logf("median %.2f×, last %.2f× of size÷link; upstream %.2f copies; most uploaded %.2f copies",
		float64(quantile(res.times, 0.5))/float64(limit), float64(slices.Max(res.times))/float64(limit), res.upstream, res.maxSent)
	if res.upstream > 1.05 {
		t.Errorf("the registry sent %.2f copies, want one", res.upstream)
	}
	if res.maxSent > 2 {
		t.Errorf("a node uploaded %.2f copies, want at most two", res.maxSent)
	}
}

// TestSwarmReport runs the simulation at the sizes in SHOAL_SWARM (`make
// bench-swarm`); without it, at 24 nodes, so that the report itself is
// exercised by every test run.
func TestSwarmReport(t *testing.T) {
	sizes := os.Getenv("SHOAL_SWARM")
	if sizes == "" {
		sizes = "24"
	}
	const (
		size = 32 << 20
		rate = 32 << 20 // bytes per second: size÷link is 1 s
	)
	var sb strings.Builder
	fmt.Fprintf(&sb, "Simulated %s on %s/%s, %d CPUs: one new %d MiB layer pulled by every node at once, every link (and the registry's) the same rate; times as multiples of size÷link\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), size>>20)
	sb.WriteString("| nodes | hop delay | p50 | p90 | p99 | last | upstream copies | most uploaded by one node | failed |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		for _, hop := range []time.Duration{time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond} {
			res := runSwarm(t, n, size, rate, hop)
			x := func(q float64) string { return fmt.Sprintf("%.2f×", quantile(res.times, q).Seconds()) }
			fmt.Fprintf(&sb, "| %d | %s | %s | %s | %s | %.2f× | %.2f | %.2f | %d |\n", n, hop, x(0.5), x(0.9), x(0.99), slices.Max(res.times).Seconds(), res.upstream, res.maxSent, res.failed)
		}
		t.Logf("%d nodes simulated in %s", n, time.Since(began).Round(time.Second))
	}
	fmt.Println(sb.String())
	if out := os.Getenv("SHOAL_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
