//go:build bench

package router

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/connmgr"
	"github.com/opencontainers/go-digest"
)

// TestDHTCalibration measures, on real nodes, the two delays the rollout
// simulator of plugin/fetcher models: how long after a node starts
// announcing a digest other nodes find it, and how long a lookup takes.
// Every node is this package's Router as the plugin makes it (New: a libp2p
// TCP host on its own 127.0.0.1 port, TLS, yamux, the private-network key,
// the DHT settings, Run dialling a few bootstrap peers), all in this
// process; where the process's open files cannot hold a connection between
// every two nodes, the same node with a smaller connection manager
// (calibrationRouter). It is a measurement, not a test: it runs with `make
// bench-dht` (SHOAL_CALIBRATE=100,200). The machine may be shared: every
// trial records whether the CPUs were saturated while it ran.
func TestDHTCalibration(t *testing.T) {
	sizes := os.Getenv("SHOAL_CALIBRATE")
	if sizes == "" {
		t.Fatal("SHOAL_CALIBRATE is unset: run it with make bench-dht (CALIBRATE=100,200)")
	}
	fds := fdLimit()
	var results []calibration
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 10 {
			t.Fatalf("SHOAL_CALIBRATE: %q is not a node count of 10 or more", f)
		}
		t.Run(fmt.Sprintf("nodes=%d", n), func(t *testing.T) { results = append(results, calibrate(t, n)) })
	}
	report := calibrationReport(results, fds)
	fmt.Println(report)
	if out := os.Getenv("SHOAL_BENCH_OUT"); out != "" {
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Error(err)
		} else if err := os.WriteFile(out, []byte(report), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// The measurement's sizes and bounds.
const (
	calTrials          = 50  // digests announced by one node each
	calPollers         = 5   // nodes looking for each of them
	calRollouts        = 10  // digests announced by 10% of the nodes at once
	calLookups         = 200 // lookups of each kind (hit, miss)
	calPollGap         = 20 * time.Millisecond
	calLookupBatch     = 10               // lookups of each kind between two CPU readings
	calPollLimit       = 200              // polls per poller and digest, at most
	calPollBound       = 30 * time.Second // a poller gives up after this
	calLookupTimeout   = 10 * time.Second // one lookup, at most
	calProvideTimeout  = 30 * time.Second // as the inventory announces
	calSettleBound     = 3 * time.Minute
	calSettleStable    = 5 // samples, a second apart, without growth
	calSaturatedShare  = 0.9
	calBootstrapPeers  = 3
	calRefreshParallel = 8
)

// sample is one measured duration, and whether the machine's CPUs were
// saturated (anything's, not only this process's) during the trial or the
// batch of lookups it belongs to.
type sample struct {
	d         time.Duration
	saturated bool
}

// phase is what one part of the measurement found, with the CPU it used.
type phase struct {
	findable   []sample // announce → the end of the first lookup that found it
	lastMiss   []sample // announce → the end of the last lookup that did not (0: none did)
	provide    []sample // Provide's own duration
	notFound   []sample // pollers that gave up (no duration)
	hit, miss  []sample // lookup durations
	hitAll     []sample // lookups of one holder with a limit of 3: they run to the end
	cpu        cpuUse
	announcers int
}

type calibration struct {
	nodes                 int
	settled               time.Duration
	rtBefore, rtAfter     [3]int // routing-table size after the join and after a refresh: min, median, max
	conns                 [3]int
	openFDs, peakFDs      int
	connCap               int // connections per node, 0: production's connection manager
	idle                  cpuUse
	gateWait              time.Duration // waiting for the rest of the machine to quieten
	single, rollout, look phase
}

func calibrate(t *testing.T, n int) calibration {
	c := calibration{nodes: n}
	rnd := rand.New(rand.NewPCG(7, uint64(n)))
	peak := watchFDs(t)
	routers := startCluster(t, &c, rnd)

	// The cluster at rest, for reference.
	cpu := startCPU()
	time.Sleep(5 * time.Second)
	c.idle = cpu.stop()

	ctx := context.Background()
	var gate quietGate

	// One announcer per digest, five other nodes polling for it.
	var held []heldRecord
	for i := range calTrials {
		d := digest.FromString(fmt.Sprintf("calibration %d single %d %d", n, i, time.Now().UnixNano()))
		order := rnd.Perm(n)
		announce(ctx, t, &gate, &c.single, routers, order[:1], order[1:1+calPollers], d)
		held = append(held, heldRecord{d: d, by: routers[order[0]].ID()})
	}
	c.single.announcers = 1
	t.Logf("%d nodes, one announcer: findable %s, CPU %s", n, quantiles(c.single.findable, all), c.single.cpu)

	// A rollout: 10% of the nodes announce the same new digest at once.
	k := max(1, n/10)
	for i := range calRollouts {
		d := digest.FromString(fmt.Sprintf("calibration %d rollout %d %d", n, i, time.Now().UnixNano()))
		order := rnd.Perm(n)
		announce(ctx, t, &gate, &c.rollout, routers, order[:k], order[k:k+calPollers], d)
	}
	c.rollout.announcers = k
	t.Logf("%d nodes, %d announcers at once: findable %s, CPU %s", n, k, quantiles(c.rollout.findable, all), c.rollout.cpu)

	// Lookups from random nodes, one after another: of a digest announced
	// above by a node other than the one looking (limit 1, and limit 3 with
	// one holder), and of one nobody announced.
	for b := 0; b < calLookups; b += calLookupBatch {
		var hit, hitAll, miss []time.Duration
		gate.wait()
		batch := startCPU()
		for i := b; i < min(b+calLookupBatch, calLookups); i++ {
			h := held[rnd.IntN(len(held))]
			finder := routers[rnd.IntN(n)]
			for finder.ID() == h.by {
				finder = routers[rnd.IntN(n)]
			}
			if dur, found := lookup(ctx, finder, h.d, 1); found > 0 {
				hit = append(hit, dur)
			} else {
				t.Logf("lookup of a held digest found nothing (%s)", dur)
			}
			if dur, found := lookup(ctx, finder, h.d, 3); found > 0 {
				hitAll = append(hitAll, dur)
			}
			dur, _ := lookup(ctx, finder, digest.FromString(fmt.Sprintf("calibration %d nobody %d %d", n, i, time.Now().UnixNano())), 1)
			miss = append(miss, dur)
		}
		use := batch.stop()
		c.look.cpu.add(use)
		sat := use.saturated()
		c.look.hit = appendSamples(c.look.hit, hit, sat)
		c.look.hitAll = appendSamples(c.look.hitAll, hitAll, sat)
		c.look.miss = appendSamples(c.look.miss, miss, sat)
	}
	t.Logf("%d nodes, lookups: hit %s, miss %s, CPU %s", n, quantiles(c.look.hit, all), quantiles(c.look.miss, all), c.look.cpu)
	c.peakFDs = peak()
	c.gateWait = gate.spent
	if limit := int(fdLimit()); c.peakFDs >= limit-64 {
		t.Errorf("%d nodes: the process ran out of open files (%d of %d): these figures measure that", n, c.peakFDs, limit)
	}
	return c
}

// startCluster starts c.nodes nodes and waits until they have settled.
// Every node joins through three earlier ones (host:port, as operators
// write them, without peer IDs), with the same private-network key; each
// node runs and is closed when the (sub)test ends.
func startCluster(t *testing.T, c *calibration, rnd *rand.Rand) []*Router {
	n := c.nodes
	start := time.Now()
	c.connCap = connectionCap(n)
	routers := make([]*Router, n)
	for i := range routers {
		var boots []string
		for _, j := range rnd.Perm(i)[:min(calBootstrapPeers, i)] {
			boots = append(boots, tcpHostPort(t, routers[j]))
		}
		routers[i] = calibrationRouter(t, Options{NetworkKey: testKey(1), BootstrapPeers: boots}, c.connCap)
	}

	// Settled: every node has a routing table of at least MinPeers (3) and
	// the total has not grown for five one-second samples. Then every node
	// refreshes its routing table once, as each does every ten minutes on
	// its own, and the same rule is applied again: the cluster measured is
	// one that has been up for a while.
	waitSettled(t, routers)
	c.rtBefore = spread(routers, (*Router).RoutingTableSize)
	var wg sync.WaitGroup
	sem := make(chan struct{}, calRefreshParallel)
	for _, r := range routers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			select {
			case <-r.dht.ForceRefresh():
			case <-time.After(time.Minute):
			}
		}()
	}
	wg.Wait()
	waitSettled(t, routers)
	c.rtAfter = spread(routers, (*Router).RoutingTableSize)
	c.conns = spread(routers, (*Router).ConnectedPeers)
	c.openFDs = openFDs()
	c.settled = time.Since(start)
	t.Logf("%d nodes settled in %s: routing tables %v after the join, %v after a refresh (min, median, max); connections %v (cap %d, 0: production's); %d open fds",
		n, c.settled.Round(time.Second), c.rtBefore, c.rtAfter, c.conns, c.connCap, c.openFDs)
	return routers
}

// connectionCap is 0 when this process's open-file limit lets every node
// hold a connection to every other, as in production (the connection
// manager trims above 400 connections): the nodes are then New's. Else it
// is how many connections each node may hold so that all of them fit,
// both ends in this process, with a margin.
func connectionCap(n int) int {
	budget := int(float64(fdLimit())*0.85) - 8*n
	if n*(n-1) <= budget {
		return 0
	}
	return budget / n
}

// calibrationRouter is newTestRouterWith's node; with a connection cap, the
// same node made as New makes it but with a connection manager that trims
// above 80% of the cap (to 55%), 5 s after a connection opened, at most
// every second. It refuses no connection: a node refused by its bootstrap
// peers would be left out.
func calibrationRouter(t *testing.T, opts Options, connCap int) *Router {
	if connCap == 0 {
		return newTestRouterWith(t, opts)
	}
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	opts.Key = key
	opts.ListenAddrs = []string{"/ip4/127.0.0.1/tcp/0"}
	opts.ProtocolPrefix = "/shoal-test"
	opts.ProviderTTL = time.Hour
	opts.StartupGrace = 2 * time.Second
	opts.DialTimeout = time.Second
	var boots []bootstrapPeer
	for _, e := range opts.BootstrapPeers {
		bp, err := parseBootstrapPeer(e)
		if err != nil {
			t.Fatal(err)
		}
		boots = append(boots, bp)
	}
	gater := &allowList{}
	cm, err := connmgr.NewConnManager(connCap*55/100, connCap*8/10, connmgr.WithGracePeriod(5*time.Second), connmgr.WithSilencePeriod(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	rm, err := resourceManager(nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := newHost(hostConfig{key: key, listenAddrs: opts.ListenAddrs, psk: opts.NetworkKey, rm: rm, cm: cm, gater: gater})
	if err != nil {
		t.Fatal(err)
	}
	r, err := newOnHost(h, opts, boots, gater)
	if err != nil {
		h.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; r.Close() })
	return r
}

// watchFDs samples this process's open files every half second until the
// (sub)test ends; the returned function is the most seen.
func watchFDs(t *testing.T) func() int {
	var (
		mu   sync.Mutex
		most int
	)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			n := openFDs()
			mu.Lock()
			most = max(most, n)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return most
	}
}

// heldRecord is a digest announced by one node, and that node.
type heldRecord struct {
	d  digest.Digest
	by peer.ID
}

// announce has the nodes at announcers start announcing d at one moment
// and the nodes at pollers look for it from that moment on, each until it
// finds one of them or its bounds end.
func announce(ctx context.Context, t *testing.T, gate *quietGate, p *phase, routers []*Router, announcers, pollers []int, d digest.Digest) {
	var (
		wg                          sync.WaitGroup
		mu                          sync.Mutex
		findable, lastMiss, provide []time.Duration
		notFound                    int
	)
	startLine := make(chan struct{})
	var t0 time.Time
	for _, i := range announcers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-startLine
			actx, cancel := context.WithTimeout(ctx, calProvideTimeout)
			defer cancel()
			s := time.Now()
			err := routers[i].Provide(actx, d)
			dur := time.Since(s)
			if err != nil {
				t.Logf("Provide: %v after %s", err, dur)
			}
			mu.Lock()
			provide = append(provide, dur)
			mu.Unlock()
		}()
	}
	for _, i := range pollers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-startLine
			found, miss, hit := poll(ctx, routers[i], d, t0)
			mu.Lock()
			defer mu.Unlock()
			if !found {
				notFound++
				return
			}
			findable = append(findable, hit)
			lastMiss = append(lastMiss, miss)
		}()
	}
	gate.wait()
	cpu := startCPU()
	t0 = time.Now()
	close(startLine)
	wg.Wait()
	use := cpu.stop()
	p.cpu.add(use)
	sat := use.saturated()
	p.findable = appendSamples(p.findable, findable, sat)
	p.lastMiss = appendSamples(p.lastMiss, lastMiss, sat)
	p.provide = appendSamples(p.provide, provide, sat)
	p.notFound = appendSamples(p.notFound, make([]time.Duration, notFound), sat)
}

// quietGate waits, before a trial, until the rest of the machine (other
// processes: the machine is shared) uses less than calOthersQuiet cores
// over a quarter second, at most calGateWait each time and calGateBudget
// per cluster size; the trial runs after that in any case, and its samples
// are marked by what the CPUs did during it.
type quietGate struct {
	spent time.Duration
}

const (
	calOthersQuiet = 0.3
	calGateWait    = 15 * time.Second
	calGateBudget  = 4 * time.Minute
)

func (g *quietGate) wait() {
	start := time.Now()
	defer func() { g.spent += time.Since(start) }()
	for g.spent+time.Since(start) < calGateBudget && time.Since(start) < calGateWait {
		m := startCPU()
		time.Sleep(250 * time.Millisecond)
		if u := m.stop(); u.machine-u.cores < calOthersQuiet {
			return
		}
	}
}

func appendSamples(to []sample, ds []time.Duration, saturated bool) []sample {
	for _, d := range ds {
		to = append(to, sample{d: d, saturated: saturated})
	}
	return to
}

// all and quiet pick samples: all of them, or those measured while the
// machine's CPUs were not saturated.
func all(sample) bool     { return true }
func quiet(s sample) bool { return !s.saturated }

// durations are the picked samples' durations, sorted.
func durations(ss []sample, pick func(sample) bool) []time.Duration {
	var ds []time.Duration
	for _, s := range ss {
		if pick(s) {
			ds = append(ds, s.d)
		}
	}
	slices.Sort(ds)
	return ds
}

// poll looks for d with a limit of 1 until it is found, calPollGap apart,
// at most calPollLimit times and for calPollBound. The announcement became
// findable between lastMiss and hit (both from t0, lookup ends).
func poll(ctx context.Context, r *Router, d digest.Digest, t0 time.Time) (found bool, lastMiss, hit time.Duration) {
	for range calPollLimit {
		if time.Since(t0) > calPollBound {
			return false, lastMiss, 0
		}
		_, n := lookup(ctx, r, d, 1)
		if n > 0 {
			return true, lastMiss, time.Since(t0)
		}
		lastMiss = time.Since(t0)
		time.Sleep(calPollGap)
	}
	return false, lastMiss, 0
}

// lookup is one FindProviders, bounded, with its duration and what it found.
func lookup(ctx context.Context, r *Router, d digest.Digest, limit int) (time.Duration, int) {
	lctx, cancel := context.WithTimeout(ctx, calLookupTimeout)
	defer cancel()
	s := time.Now()
	found, _ := r.FindProviders(lctx, d, limit)
	return time.Since(s), len(found)
}

// waitSettled waits until every routing table holds at least three peers
// and their total has not grown for calSettleStable seconds, or for
// calSettleBound.
func waitSettled(t *testing.T, routers []*Router) {
	deadline := time.Now().Add(calSettleBound)
	last, stable, samples := -1, 0, 0
	for time.Now().Before(deadline) {
		time.Sleep(time.Second)
		total, least := 0, len(routers)
		for _, r := range routers {
			s := r.RoutingTableSize()
			total += s
			least = min(least, s)
		}
		if least >= min(3, len(routers)-1) && total <= last {
			stable++
		} else {
			stable = 0
		}
		last = max(last, total)
		if samples++; samples%10 == 0 {
			t.Logf("settling: routing tables %d in all (smallest %d), %d open fds of %d", total, least, openFDs(), fdLimit())
		}
		if stable >= calSettleStable {
			return
		}
	}
	t.Logf("routing tables still changing after %s: measuring anyway", calSettleBound)
}

// spread is the min, median and max of f over the routers.
func spread(routers []*Router, f func(*Router) int) [3]int {
	v := make([]int, len(routers))
	for i, r := range routers {
		v[i] = f(r)
	}
	slices.Sort(v)
	return [3]int{v[0], v[len(v)/2], v[len(v)-1]}
}

// cpuUse is the CPU time (user+sys) of this process over the wall time of
// a phase, in cores, and that of the whole machine (/proc/stat): what
// else runs there shares the two cores too.
type cpuUse struct {
	cores, machine float64
	wall           time.Duration
}

// add counts u in c: the phase's CPU is that of its trials, without the
// waits between them.
func (c *cpuUse) add(u cpuUse) {
	w := c.wall + u.wall
	if w > 0 {
		c.cores = (c.cores*float64(c.wall) + u.cores*float64(u.wall)) / float64(w)
		c.machine = (c.machine*float64(c.wall) + u.machine*float64(u.wall)) / float64(w)
	}
	c.wall = w
}

func (c cpuUse) saturated() bool {
	return max(c.cores, c.machine) >= calSaturatedShare*float64(runtime.NumCPU())
}

func (c cpuUse) String() string {
	s := fmt.Sprintf("%.2f of %d cores (machine %.2f)", c.cores, runtime.NumCPU(), c.machine)
	if c.saturated() {
		s += ", saturated"
	}
	return s
}

type cpuMeter struct {
	wall        time.Time
	cpu         time.Duration
	busy, total uint64
}

func startCPU() cpuMeter {
	busy, total := machineCPU()
	return cpuMeter{wall: time.Now(), cpu: processCPU(), busy: busy, total: total}
}

func (m cpuMeter) stop() cpuUse {
	wall := time.Since(m.wall)
	busy, total := machineCPU()
	u := cpuUse{cores: float64(processCPU()-m.cpu) / float64(wall), wall: wall}
	if total > m.total {
		u.machine = float64(busy-m.busy) / float64(total-m.total) * float64(runtime.NumCPU())
	}
	return u
}

// machineCPU is the busy and the total time of all CPUs, in clock ticks,
// from the first line of /proc/stat (user nice system idle iowait irq
// softirq steal ...; idle and iowait are not busy).
func machineCPU() (busy, total uint64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	for i := 1; i < len(f) && i <= 8; i++ {
		v, _ := strconv.ParseUint(f[i], 10, 64)
		total += v
		if i != 4 && i != 5 {
			busy += v
		}
	}
	return busy, total
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// fdLimit is this process's open-file limit (Go raises the soft limit to
// the hard one at start). 200 nodes in one process hold both ends of every
// connection among them; in production each node, a process of its own,
// holds one.
func fdLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return lim.Cur
}

func openFDs() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(entries)
}

// pct is the p-th percentile (nearest rank) of sorted ds.
func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	i := int(float64(len(ds))*p/100+0.999999) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

func ms(d time.Duration) string {
	switch {
	case d >= 100*time.Millisecond:
		return fmt.Sprintf("%.0f ms", float64(d)/1e6)
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.2f ms", float64(d)/1e6)
	}
}

func quantiles(ss []sample, pick func(sample) bool) string {
	ds := durations(ss, pick)
	return fmt.Sprintf("p50 %s p90 %s p99 %s max %s (n=%d)", ms(pct(ds, 50)), ms(pct(ds, 90)), ms(pct(ds, 99)), ms(pct(ds, 100)), len(ds))
}

// pcts formats the percentiles of ds, or dashes when there are none.
func pcts(ds []time.Duration, ps ...float64) []any {
	var out []any
	for _, p := range ps {
		if len(ds) == 0 {
			out = append(out, "–")
		} else {
			out = append(out, ms(pct(ds, p)))
		}
	}
	return out
}

func calibrationReport(results []calibration, fdLimit uint64) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Measured %s on %s/%s, %d CPUs, %s: real libp2p nodes (TCP on 127.0.0.1, TLS, yamux, private-network key, Shoal's DHT settings), all in one process (open-file limit %d)\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), fdLimit)
	picks := []struct {
		name string
		pick func(sample) bool
	}{{"all", all}, {"CPUs not saturated", quiet}}

	sb.WriteString("| nodes | announcers of one digest | trials | found | announce → findable p50 | p90 | p99 | max | end of the last lookup that missed p50 / p99 | Provide p50 | Provide p99 |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range results {
		for _, p := range []phase{c.single, c.rollout} {
			for _, k := range picks {
				f, l, pr := durations(p.findable, k.pick), durations(p.lastMiss, k.pick), durations(p.provide, k.pick)
				found := fmt.Sprintf("%d of %d", len(f), len(f)+len(durations(p.notFound, k.pick)))
				row := []any{c.nodes, p.announcers, k.name, found}
				row = append(row, pcts(f, 50, 90, 99, 100)...)
				row = append(row, pcts(l, 50, 99)...)
				row = append(row, pcts(pr, 50, 99)...)
				fmt.Fprintf(&sb, "| %d | %d | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s |\n", row...)
			}
		}
	}

	sb.WriteString("\n| nodes | lookups | hit (limit 1) p50 | p99 | one holder, limit 3 p50 | p99 | miss p50 | p99 |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, c := range results {
		for _, k := range picks {
			h, a, m := durations(c.look.hit, k.pick), durations(c.look.hitAll, k.pick), durations(c.look.miss, k.pick)
			row := []any{c.nodes, fmt.Sprintf("%s (%d)", k.name, len(m))}
			row = append(row, pcts(h, 50, 99)...)
			row = append(row, pcts(a, 50, 99)...)
			row = append(row, pcts(m, 50, 99)...)
			fmt.Fprintf(&sb, "| %d | %s | %s | %s | %s | %s | %s | %s |\n", row...)
		}
	}

	sb.WriteString("\n| nodes | CPU at rest | one announcer | 10% announcing | lookups | settled after | waited for other processes | routing table min / median / max | connections per node min / median / max (cap) | open files (most) |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range results {
		capped := "none"
		if c.connCap > 0 {
			capped = strconv.Itoa(c.connCap)
		}
		fmt.Fprintf(&sb, "| %d | %s | %s | %s | %s | %s | %s | %d / %d / %d | %d / %d / %d (%s) | %d (%d) |\n",
			c.nodes, c.idle, c.single.cpu, c.rollout.cpu, c.look.cpu, c.settled.Round(time.Second), c.gateWait.Round(time.Second),
			c.rtAfter[0], c.rtAfter[1], c.rtAfter[2], c.conns[0], c.conns[1], c.conns[2], capped, c.openFDs, c.peakFDs)
	}

	fmt.Fprintf(&sb, "\nAnnounce → findable: from the moment the announcers call Provide to the end of the first lookup (FindProviders, limit 1) by another node that finds one of them; %d other nodes per digest look, %s apart, from that same moment, each at most %d times and for %s; %d digests with one announcer, %d with 10%% of the nodes announcing at once. The announcement became findable between the end of the last lookup that missed and the end of the first that found it. Lookups: %d of each kind from random nodes, one at a time. "+
		"CPU: user+sys time over the wall time, in cores, of this process and (machine) of all processes (/proc/stat): the machine is shared. Before each trial and batch of lookups, the measurement waits (at most 15 s, 4 min in all per cluster size) until other processes use less than 0.3 cores. A sample counts as \"CPUs not saturated\" when the machine's CPUs were less than %.0f%% busy during its trial (or its batch of %d lookups). "+
		"Settled: every node joined through %d earlier ones (host:port, no peer ID), then every routing table had 3 peers or more and their total stopped growing for %d s, after the join and again after one refresh on every node. "+
		"A connection cap: both ends of every connection are in this process, whose open files would not hold a connection between every two nodes (production's connection manager trims above 400); each node's connection manager then trims above 80%% of the cap to 55%% (it keeps the peers of its two farthest buckets, up to 40), and lookups dial the peers it dropped again.\n",
		calPollers, calPollGap, calPollLimit, calPollBound, calTrials, calRollouts, calLookups, calSaturatedShare*100, calLookupBatch, calBootstrapPeers, calSettleStable)
	return sb.String()
}
