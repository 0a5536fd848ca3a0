//go:build bench

package router

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dht "github.com/libp2p/go-libp2p-kad-dht"
	pb "github.com/libp2p/go-libp2p-kad-dht/pb"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/routing"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"
	"github.com/opencontainers/go-digest"
)

// TestScaleReport runs N nodes' routing layer — this package's DHT setup —
// on libp2p's in-memory network and measures what grows with N. It runs
// with `make bench-scale` (SHOAL_SCALE=10,100,1000).
func TestScaleReport(t *testing.T) {
	sizes := os.Getenv("SHOAL_SCALE")
	if sizes == "" {
		t.Fatal("SHOAL_SCALE is unset: run it with make bench-scale (SCALE=10,100,1000)")
	}
	var rows []string
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, simulate(t, n))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Measured %s on %s/%s, %d CPUs, libp2p mocknet (no latency), Shoal's DHT settings\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	sb.WriteString("| nodes | lookup p50 | lookup p99 | peers queried per lookup (median) | DHT messages per announced blob | → per node for 5,000 blobs | heap per node | announce → findable (median) |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		sb.WriteString(r + "\n")
	}
	fmt.Println(sb.String())
	if out := os.Getenv("SHOAL_BENCH_OUT"); out != "" {
		os.WriteFile(out, []byte(sb.String()), 0o644)
	}
}

func simulate(t *testing.T, n int) string {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	mn := mocknet.New()
	defer mn.Close()
	var received atomic.Int64 // DHT requests received by all nodes
	hook := dht.OnRequestHook(func(context.Context, network.Stream, *pb.Message) { received.Add(1) })
	opts := Options{ProtocolPrefix: "/shoal-sim", ProviderTTL: time.Hour}
	routers := make([]*Router, n)
	for i := range routers {
		h, err := mn.GenPeer()
		if err != nil {
			t.Fatal(err)
		}
		r, err := newOnHost(h, opts, nil, &allowList{}, hook, dht.DisableAutoRefresh())
		if err != nil {
			t.Fatal(err)
		}
		routers[i] = r
	}
	defer func() {
		for _, r := range routers {
			r.dht.Close()
		}
	}()
	if err := mn.LinkAll(); err != nil {
		t.Fatal(err)
	}
	// Each node joins through three earlier ones, as through bootstrap peers.
	rnd := rand.New(rand.NewPCG(1, uint64(n)))
	for i := 1; i < n; i++ {
		for k := 0; k < min(3, i); k++ {
			j := rnd.IntN(i)
			if _, err := mn.ConnectPeers(routers[i].host.ID(), routers[j].host.ID()); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Fill routing tables the way a running node does (a refresh).
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	for _, r := range routers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			<-r.dht.ForceRefresh()
		}()
	}
	wg.Wait()

	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	heapPerNode := float64(after.HeapInuse-min(after.HeapInuse, before.HeapInuse)) / float64(n) / (1 << 20)

	// Announce cost: DHT requests per Provide, over a sample of blobs from
	// one node; traffic for 5,000 blobs is that times 5,000 per
	// re-announcement.
	const sample = 100
	announcer := routers[0]
	received.Store(0)
	digests := make([]digest.Digest, sample)
	var findable []time.Duration
	for i := range digests {
		digests[i] = digest.FromString(fmt.Sprintf("blob-%d-%d", n, i))
		start := time.Now()
		if err := announcer.Provide(ctx, digests[i]); err != nil {
			t.Fatal(err)
		}
		if i < 20 {
			finder := routers[1+rnd.IntN(n-1)]
			if _, err := finder.FindProviders(ctx, digests[i], 1); err != nil {
				t.Fatal(err)
			}
			findable = append(findable, time.Since(start))
		}
	}
	perBlob := float64(received.Load()) / sample

	// Lookups from random nodes.
	var lat []time.Duration
	var queried []int
	for i := 0; i < 200; i++ {
		finder := routers[1+rnd.IntN(n-1)]
		cctx, ccancel := context.WithCancel(ctx)
		qctx, events := routing.RegisterForQueryEvents(cctx)
		var count atomic.Int64
		done := make(chan struct{})
		go func() {
			for e := range events {
				if e.Type == routing.SendingQuery {
					count.Add(1)
				}
			}
			close(done)
		}()
		start := time.Now()
		found, err := finder.FindProviders(qctx, digests[rnd.IntN(sample)], 1)
		lat = append(lat, time.Since(start))
		if err != nil || len(found) == 0 {
			t.Fatalf("N=%d: lookup failed: %v %v", n, found, err)
		}
		// The query's events end with its context.
		ccancel()
		<-done
		queried = append(queried, int(count.Load()))
	}
	slices.Sort(lat)
	slices.Sort(queried)
	slices.Sort(findable)
	return fmt.Sprintf("| %d | %s | %s | %d | %.1f | %.0f k | %.2f MiB | %s |", n,
		lat[len(lat)/2].Round(10*time.Microsecond), lat[len(lat)*99/100].Round(10*time.Microsecond),
		queried[len(queried)/2], perBlob, perBlob*5000/1000, heapPerNode, findable[len(findable)/2].Round(10*time.Microsecond))
}
