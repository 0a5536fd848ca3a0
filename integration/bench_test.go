//go:build bench

package integration

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/peerhttp"
)

// The measurements behind `make bench`. They are comparisons run side by
// side in one run and printed as a table; they assert nothing about speed.
// SHOAL_BENCH_ONLY (a regular expression) picks sections by name.
func TestBenchmarkReport(t *testing.T) {
	if os.Getenv("SHOAL_BENCH") == "" {
		t.Fatal("SHOAL_BENCH is unset: run it with make bench")
	}
	only := regexp.MustCompile(os.Getenv("SHOAL_BENCH_ONLY"))
	r := &benchReport{}
	for _, sec := range []struct {
		name string
		run  func(*testing.T, *benchReport)
	}{
		{"boot", benchBoot},
		{"pull", benchPull},
		{"wan", benchWAN},
		{"miss", benchMiss},
		{"miss-link", benchMissLink},
		{"raw", benchRaw},
		{"crowd", benchCrowd},
		{"rollout", benchRollout},
		{"pieces", benchPieces},
		{"ranges", benchRanges},
		{"chunked", benchChunked},
		{"idle", benchIdleRSS},
	} {
		if only.MatchString(sec.name) {
			sec.run(t, r)
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Measured %s on %s/%s, %d CPUs (%s), kernel %s, %s; median of runs, side by side in one run\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel(), kernelRelease(), runtime.Version())
	sb.WriteString("| measurement | base | shoal | shoal/base | note |\n|---|---|---|---|---|\n")
	for _, row := range r.rows {
		sb.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	fmt.Println(sb.String())
	if out := os.Getenv("SHOAL_BENCH_OUT"); out != "" {
		os.WriteFile(out, []byte(sb.String()), 0o644)
	}
}

type benchReport struct{ rows [][]string }

func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func kernelRelease() string {
	data, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return strings.TrimSpace(string(data))
}

// times adds a row comparing two sets of durations by their medians.
func (r *benchReport) times(what string, base, shoal []time.Duration, note string) {
	b, s := median(base), median(shoal)
	r.rows = append(r.rows, []string{what, b.Round(100 * time.Microsecond).String(), s.Round(100 * time.Microsecond).String(),
		fmt.Sprintf("%.2f×", float64(s)/float64(b)), note})
}

func (r *benchReport) row(cells ...string) { r.rows = append(r.rows, cells) }

const benchReps = 7

// Boot: exec to serving, stock containerd vs Shoal's, interleaved.
func benchBoot(t *testing.T, r *benchReport) {
	var stockBoot, shoalBoot []time.Duration
	for i := 0; i < benchReps; i++ {
		stockBoot = append(stockBoot, bootTime(t, filepath.Join(binDir, "containerd-stock")))
		shoalBoot = append(shoalBoot, bootTime(t, filepath.Join(binDir, "containerd")))
	}
	r.times("containerd boot (its own \"successfully booted in\")", stockBoot, shoalBoot,
		fmt.Sprintf("difference %s", (median(shoalBoot)-median(stockBoot)).Round(100*time.Microsecond)))
}

// benchImages are the pull sizes: name, layer sizes, repetitions.
var benchImages = []struct {
	name   string
	layers []int
	reps   int
}{
	{"10 MiB / 1 layer", []int{10 << 20}, 5},
	{"256 MiB / 4 layers", []int{64 << 20, 64 << 20, 64 << 20, 64 << 20}, 3},
	{"1 GiB / 1 layer", []int{1 << 30}, 3},
}

// Pulls on loopback: node A from the upstream, then node B from A, fresh
// nodes each time. During the 1 GiB pull both nodes' RSS is sampled.
func benchPull(t *testing.T, r *benchReport) {
	reg := startRegistry(t)
	for i, size := range benchImages {
		im := pushImage(t, reg.Addr, fmt.Sprintf("bench/pull%d", i), "v1", size.layers...)
		var upT, peerT []time.Duration
		var peakServe, peakFetch int64
		for rep := 0; rep < size.reps; rep++ {
			a := startNode(t, "A", nodeOptions{})
			b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
			upT = append(upT, timed(func() { a.pull(im.Ref) }))
			a.waitAnnounced(len(im.Blobs) + 1)
			before := reg.blobRequests(im.Repo)
			sampler := sampleRSS(t, a.PID(), b.PID())
			peerT = append(peerT, timed(func() { b.pull(im.Ref) }))
			grew := sampler()
			peakServe, peakFetch = max(peakServe, grew[0]), max(peakFetch, grew[1])
			if n := reg.blobRequests(im.Repo) - before; n != 0 {
				t.Fatalf("peer pull made %d upstream blob requests", n)
			}
			a.stop()
			b.stop()
		}
		r.times("pull "+size.name+" (loopback)", upT, peerT, "base: from upstream; shoal: from a peer, 0 upstream blob requests")
		if size.layers[0] >= 1<<30 {
			r.row("RSS growth during the 1 GiB peer pull", "", fmt.Sprintf("%.0f / %.0f MiB", float64(peakServe)/1024, float64(peakFetch)/1024), "",
				"serving / fetching node, peak over the pull minus before it: streaming, no whole-blob buffers")
		}
	}
}

// A WAN-like upstream: the registry behind a 50 MB/s link (tbf on the lab
// bridge shapes only what the registry sends); the nodes, each its own
// host, talk to each other unshaped.
func benchWAN(t *testing.T, r *benchReport) {
	lab := newNetLab(t, 2)
	wanReg := lab.registry()
	run(t, "tc", "qdisc", "add", "dev", lab.bridge, "root", "tbf", "rate", "400mbit", "burst", "1mb", "latency", "100ms")
	for i, size := range benchImages {
		im := pushImage(t, wanReg.Addr, fmt.Sprintf("bench/wan%d", i), "v1", size.layers...)
		var upT, peerT []time.Duration
		for rep := 0; rep < min(size.reps, 2); rep++ {
			a := lab.node(1, "A", nodeOptions{})
			b := lab.node(2, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
			upT = append(upT, timed(func() { a.pull(im.Ref) }))
			a.waitAnnounced(len(im.Blobs) + 2)
			before := wanReg.blobRequests(im.Repo)
			peerT = append(peerT, timed(func() { b.pull(im.Ref) }))
			if n := wanReg.blobRequests(im.Repo) - before; n != 0 {
				t.Fatalf("peer pull made %d upstream blob requests", n)
			}
			a.stop()
			b.stop()
		}
		r.times("pull "+size.name+", upstream limited to 50 MB/s", upT, peerT, "base: from upstream; shoal: from a peer on another (network-namespace) host")
	}
}

// benchMissCases are the images no peer holds: layer sizes, repetitions
// (benchReps at least; more where the spread is wide for the time a pull
// takes).
var benchMissCases = []struct {
	name   string
	layers []int
	reps   int
}{
	{"20 layers of 64 KiB", slices.Repeat([]int{64 << 10}, 20), 11},
	{"4 layers of 1 MiB", slices.Repeat([]int{1 << 20}, 4), 11},
	{"4 layers of 8 MiB", slices.Repeat([]int{8 << 20}, 4), 11},
	{"2 layers of 64 MiB", slices.Repeat([]int{64 << 20}, 2), benchReps},
}

// Miss overhead: an image nobody holds, pulled by stock containerd and by a
// Shoal node while three other Shoal nodes are up and idle (the four all
// bootstrapped to each other and connected, so the puller's router knows
// three peers). Every pull is of an image pushed for it under a new name;
// the same nodes serve the whole section (each warmed up by one untimed
// pull), and stock and Shoal take turns going first. The note gives each
// side's min–max, the CPU time each node spent per pull (the idle nodes'
// too), and, from the Shoal node's log, what each layer waited before
// going upstream: the DHT lookup of a small one, and for a layer fetched
// by pieces whether the puller took it from the upstream at once (no
// holder known when it decided). Both pullers' logs are kept next to the
// report.
func benchMiss(t *testing.T, r *benchReport) {
	reg := startRegistry(t)
	const idle = 3
	var addrs []string
	for i := 0; i <= idle; i++ {
		addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", freePort(t)))
	}
	// Every Shoal node lists all four; a node that lists itself ignores itself.
	var idleNodes []*node
	for i := 1; i <= idle; i++ {
		n := newNodeAt(t, fmt.Sprintf("idle%d", i), addrs[i], nodeOptions{bootstrap: addrs})
		n.start()
		idleNodes = append(idleNodes, n)
	}
	// SHOAL_BENCH_DEBUG_SOCKET: debug sockets for ctr pprof, the puller's
	// there and stock containerd's at that path and ".stock".
	pullerExtra, stockExtra := "", ""
	if sock := os.Getenv("SHOAL_BENCH_DEBUG_SOCKET"); sock != "" {
		debug := "[plugins.\"io.containerd.server.v1.debug\"]\n  address = %q\n"
		pullerExtra += fmt.Sprintf(debug, sock)
		stockExtra = fmt.Sprintf(debug, sock+".stock")
	}
	puller := newNodeAt(t, "shoal", addrs[0], nodeOptions{bootstrap: addrs, extra: pullerExtra})
	puller.start()
	shoalNodes := append(slices.Clone(idleNodes), puller)
	stock := startNode(t, "stock", nodeOptions{binary: filepath.Join(binDir, "containerd-stock"), extra: stockExtra})
	for _, n := range shoalNodes {
		n.waitReady()
	}
	waitFor(t, 30*time.Second, "every Shoal node to connect to the other three", func() bool {
		for _, n := range shoalNodes {
			if n.connectedPeers() < idle {
				return false
			}
		}
		return true
	})
	defer func() { // the pullers' logs, kept next to the report
		if out := os.Getenv("SHOAL_BENCH_OUT"); out != "" {
			for name, n := range map[string]*node{"shoal": puller, "stock": stock} {
				logs := n.Logs()
				if data, err := os.ReadFile(logs[len(logs)-1]); err == nil {
					os.WriteFile(filepath.Join(filepath.Dir(out), "bench-miss-"+name+".log"), data, 0o644)
				}
			}
		}
	}()
	// A first pull on a fresh containerd pays for what it sets up once.
	stock.pull(pushImage(t, reg.Addr, "bench/miss-warm-stock", "v1", 64<<10).Ref)
	puller.pull(pushImage(t, reg.Addr, "bench/miss-warm-shoal", "v1", 64<<10).Ref)
	idleCPU := func() (sum time.Duration) {
		for _, n := range idleNodes {
			sum += procCPU(t, n.PID())
		}
		return sum
	}
	for ci, c := range benchMissCases {
		started := time.Now()
		reps := max(c.reps, benchReps)
		var stockT, shoalT []time.Duration
		var stockCPU, shoalCPU, idleShoalCPU, idleStockCPU time.Duration
		var stockFaults, shoalFaults int64
		var layers []digest.Digest
		leastPeers := idle
		for i := 0; i < reps; i++ {
			imStock := pushImage(t, reg.Addr, fmt.Sprintf("bench/miss%d-stock%d", ci, i), "v1", c.layers...)
			imShoal := pushImage(t, reg.Addr, fmt.Sprintf("bench/miss%d-shoal%d", ci, i), "v1", c.layers...)
			for _, l := range imShoal.Data.Layers {
				layers = append(layers, l.Desc.Digest)
			}
			leastPeers = min(leastPeers, puller.connectedPeers())
			pullStock := func() {
				cpu, idle0, faults := procCPU(t, stock.PID()), idleCPU(), procFaults(t, stock.PID())
				stockT = append(stockT, timed(func() { stock.pull(imStock.Ref) }))
				stockCPU += procCPU(t, stock.PID()) - cpu
				stockFaults += procFaults(t, stock.PID()) - faults
				idleStockCPU += idleCPU() - idle0
			}
			pullShoal := func() {
				cpu, idle0, faults := procCPU(t, puller.PID()), idleCPU(), procFaults(t, puller.PID())
				shoalT = append(shoalT, timed(func() { puller.pull(imShoal.Ref) }))
				shoalCPU += procCPU(t, puller.PID()) - cpu
				shoalFaults += procFaults(t, puller.PID()) - faults
				idleShoalCPU += idleCPU() - idle0
			}
			if (i+ci)%2 == 0 {
				pullStock()
				pullShoal()
			} else {
				pullShoal()
				pullStock()
			}
			if n := reg.blobRequests(imShoal.Repo); n < len(imShoal.Data.Layers) {
				t.Fatalf("the Shoal node made %d upstream blob requests for an image no peer holds (%d layers)", n, len(imShoal.Data.Layers))
			}
		}
		waits := missWaits(puller, layers)
		perPull := func(d time.Duration) time.Duration { return (d / time.Duration(reps)).Round(time.Millisecond) }
		cpu := fmt.Sprintf("CPU per pull: stock %s, Shoal %s; the 3 idle nodes during it %s vs %s; page faults per pull: stock %d, Shoal %d",
			perPull(stockCPU), perPull(shoalCPU), perPull(idleStockCPU), perPull(idleShoalCPU), stockFaults/int64(reps), shoalFaults/int64(reps))
		fmt.Printf("miss, %s (%d reps, %s): stock %s | shoal %s\n  %s\n  %s\n", c.name, reps, time.Since(started).Round(time.Second),
			durations(stockT), durations(shoalT), cpu, waits)
		r.times("pull of an image no peer holds, "+c.name+", 3 other Shoal nodes idle (loopback)", stockT, shoalT,
			fmt.Sprintf("base: stock containerd; min–max %s–%s vs %s–%s; %d reps, puller connected to ≥ %d peers; %s; Shoal log, before going upstream: %s",
				slices.Min(stockT).Round(time.Millisecond), slices.Max(stockT).Round(time.Millisecond),
				slices.Min(shoalT).Round(time.Millisecond), slices.Max(shoalT).Round(time.Millisecond), reps, leastPeers, cpu, waits))
	}
}

var (
	missPieces = regexp.MustCompile(`msg="p2p: fetching a layer by pieces".*\bseed=(true|false)`)
	missLookup = regexp.MustCompile(`msg="p2p: no peer holds it, fetching upstream".*\blookup=(\S+)`)
)

// benchMissLink is the miss overhead in the world a node pulls in: every
// host behind a link of missLinkMbit (tbf, both directions), the
// registry's too, stock containerd on one host and a Shoal node on
// another, each pulling images no peer holds, with three other Shoal nodes
// up and idle on hosts of their own. On loopback (benchMiss) the same
// pulls measure the CPU each path costs; here, the time a pull takes.
func benchMissLink(t *testing.T, r *benchReport) {
	const hosts = 5 // 1: the Shoal puller, 2–4: idle Shoal nodes, 5: stock containerd
	lab := newRolloutLabWith(t, hosts, missLinkMbit, func(host int) nodeOptions {
		if host == hosts {
			return nodeOptions{binary: filepath.Join(binDir, "containerd-stock")}
		}
		return nodeOptions{}
	})
	puller, stock := lab.nodes[0], lab.nodes[hosts-1]
	// A first pull on a fresh containerd pays for what it sets up once.
	stock.pull(lab.push("bench/misslink-warm-stock", 64<<10).Ref)
	puller.pull(lab.push("bench/misslink-warm-shoal", 64<<10).Ref)
	for ci, c := range benchMissCases {
		reps := max(c.reps, benchReps)
		var stockT, shoalT []time.Duration
		var busy []float64
		for i := range reps {
			imStock := lab.push(fmt.Sprintf("bench/misslink%d-stock%d", ci, i), c.layers...)
			imShoal := lab.push(fmt.Sprintf("bench/misslink%d-shoal%d", ci, i), c.layers...)
			pull := func(n *node, ref string, into *[]time.Duration) {
				cpu := cpuBusy(t)
				*into = append(*into, timed(func() { n.pull(ref) }))
				busy = append(busy, cpu())
			}
			if (i+ci)%2 == 0 {
				pull(stock, imStock.Ref, &stockT)
				pull(puller, imShoal.Ref, &shoalT)
			} else {
				pull(puller, imShoal.Ref, &shoalT)
				pull(stock, imStock.Ref, &stockT)
			}
			if n := lab.reg.blobRequests(imShoal.Repo); n < len(imShoal.Data.Layers) {
				t.Fatalf("the Shoal node made %d upstream blob requests for an image no peer holds (%d layers)", n, len(imShoal.Data.Layers))
			}
		}
		fmt.Printf("miss-link, %s (%d reps): stock %s | shoal %s\n", c.name, reps, durations(stockT), durations(shoalT))
		r.times(fmt.Sprintf("pull of an image no peer holds, %s, 3 other Shoal nodes idle, every host and the registry behind a %d Mbit/s link", c.name, missLinkMbit), stockT, shoalT,
			fmt.Sprintf("base: stock containerd; min–max %s–%s vs %s–%s; %d reps; CPU busy %s",
				slices.Min(stockT).Round(time.Millisecond), slices.Max(stockT).Round(time.Millisecond),
				slices.Min(shoalT).Round(time.Millisecond), slices.Max(shoalT).Round(time.Millisecond), reps, spanOf(percent(busy), "%")))
	}
}

// missLinkMbit is the links' rate in benchMissLink: a registry that sends
// 25 MB/s, so that the two CPUs of the machines this runs on are not what
// a pull waits for.
const missLinkMbit = 200

// missWaits sums up, from n's log, what the layers waited before their
// fetch went upstream: the lookup's time for each small one, and whether
// each layer fetched by pieces was taken from the upstream at once.
func missWaits(n *node, layers []digest.Digest) string {
	var lookups []time.Duration
	byPieces := map[string]int{}
	logs := n.Logs()
	data, _ := os.ReadFile(logs[len(logs)-1])
	for _, line := range strings.Split(string(data), "\n") {
		if !slices.ContainsFunc(layers, func(d digest.Digest) bool { return strings.Contains(line, d.String()) }) {
			continue
		}
		if m := missPieces.FindStringSubmatch(line); m != nil {
			byPieces[m[1]]++
		}
		if m := missLookup.FindStringSubmatch(line); m != nil {
			if d, err := time.ParseDuration(strings.Trim(m[1], `"`)); err == nil {
				lookups = append(lookups, d)
			}
		}
	}
	s := fmt.Sprintf("%d of %d layers went upstream after a lookup", len(lookups), len(layers))
	if len(lookups) > 0 {
		s += fmt.Sprintf(" (median %s, max %s)", median(lookups).Round(100*time.Microsecond), slices.Max(lookups).Round(100*time.Microsecond))
	}
	if n := byPieces["true"] + byPieces["false"]; n > 0 {
		s += fmt.Sprintf("; %d went by pieces, %d of them from the upstream at once", n, byPieces["true"])
	}
	return s
}

// durations lists ds rounded to the millisecond.
func durations(ds []time.Duration) string {
	var s []string
	for _, d := range ds {
		s = append(s, d.Round(time.Millisecond).String())
	}
	return strings.Join(s, " ")
}

// Raw blob throughput with sha256 on the client: one 256 MiB blob from the
// registry over plain HTTP, and from a peer's content service over the
// direct data path and over libp2p streams (private network key on), side
// by side.
func benchRaw(t *testing.T, r *benchReport) {
	reg := startRegistry(t)
	im := pushImage(t, reg.Addr, "bench/raw", "v1", 256<<20)
	a := startNode(t, "A", nodeOptions{})
	a.pull(im.Ref)
	direct, id := peerClientWith(t, a, peerhttp.ClientOptions{IdleTimeout: 10 * time.Second, Direct: true})
	streams, _ := peerClientWith(t, a, peerhttp.ClientOptions{IdleTimeout: 10 * time.Second})
	big := im.Data.Blobs()[1]
	path := "/v2/" + im.Repo + "/blobs/" + big.Desc.Digest.String()
	fromPeer := func(c *peerhttp.Client) func() (io.ReadCloser, error) {
		return func() (io.ReadCloser, error) {
			req, _ := http.NewRequest(http.MethodGet, path, nil)
			resp, err := c.Do(id, req)
			if err != nil {
				return nil, err
			}
			return resp.Body, nil
		}
	}
	variants := []struct {
		name string
		open func() (io.ReadCloser, error)
		pid  int
		t    []time.Duration
		cpu  time.Duration
	}{
		{name: "plain HTTP", pid: reg.proc.PID(), open: func() (io.ReadCloser, error) {
			resp, err := http.Get("http://" + reg.Addr + path)
			if err != nil {
				return nil, err
			}
			return resp.Body, nil
		}},
		{name: "direct data path", pid: a.PID(), open: fromPeer(direct)},
		{name: "libp2p stream", pid: a.PID(), open: fromPeer(streams)},
	}
	for i := 0; i < 5; i++ {
		for j := range variants {
			v := &variants[j]
			d, cpu := hashedGet(t, v.open, v.pid, big.Desc.Digest)
			v.t, v.cpu = append(v.t, d), v.cpu+cpu
		}
	}
	mbps := func(ds []time.Duration) float64 { return float64(big.Desc.Size) / median(ds).Seconds() / 1e6 }
	gib := float64(5*big.Desc.Size) / (1 << 30)
	base := variants[0]
	for _, v := range variants[1:] {
		r.row("256 MiB blob, client hashes (loopback), "+v.name,
			fmt.Sprintf("%.0f MB/s", mbps(base.t)), fmt.Sprintf("%.0f MB/s", mbps(v.t)),
			fmt.Sprintf("%.2f×", mbps(v.t)/mbps(base.t)),
			fmt.Sprintf("base: plain HTTP from the registry; CPU s/GiB (client+server): %.1f vs %.1f",
				base.cpu.Seconds()/gib, v.cpu.Seconds()/gib))
	}
	a.stop()
}

// Five nodes pull the same new image at the same moment, the upstream
// behind one shared 50 MB/s link: stock containerd (every node fetches its
// own copy, as with a mirror that only serves complete blobs) vs Shoal.
// Copies are the registry's own count of layer bytes sent.
func benchCrowd(t *testing.T, r *benchReport) {
	const nodes = 5
	lab, reg := wanLab(t, nodes)
	pullAll := func(all []*node, ref string) time.Duration {
		var wg sync.WaitGroup
		errs := make([]error, len(all))
		start := time.Now()
		for i, n := range all {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = n.Ctr(5*time.Minute, "image", "pull", "--plain-http", ref)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		return time.Since(start)
	}
	copies := func(im testImage) float64 {
		var sent, size int64
		for _, l := range im.Data.Layers {
			sent += reg.blobBytes(l.Desc.Digest)
			size += l.Desc.Size
		}
		return float64(sent) / float64(size)
	}
	layers := []int{64 << 20, 64 << 20, 64 << 20, 64 << 20}
	var stock, shoal []*node
	for i := 1; i <= nodes; i++ {
		stock = append(stock, lab.node(i, fmt.Sprintf("stock%d", i), nodeOptions{binary: filepath.Join(binDir, "containerd-stock")}))
	}
	imStock := pushImage(t, reg.Addr, "bench/rollout-stock", "v1", layers...)
	stockT := pullAll(stock, imStock.Ref)
	for _, n := range stock {
		n.stop()
	}
	for i := 1; i <= nodes; i++ {
		opts := nodeOptions{}
		if i > 1 {
			opts.bootstrap = []string{shoal[0].bootstrapAddr()}
		}
		shoal = append(shoal, lab.node(i, fmt.Sprintf("n%d", i), opts))
	}
	waitFor(t, 30*time.Second, "every node to connect to every other", func() bool {
		for _, n := range shoal {
			if n.connectedPeers() < nodes-1 {
				return false
			}
		}
		return true
	})
	imShoal := pushImage(t, reg.Addr, "bench/rollout-shoal", "v1", layers...)
	shoalT := pullAll(shoal, imShoal.Ref)
	r.times("5 nodes pull one new 256 MiB / 4-layer image at once, upstream 50 MB/s shared", []time.Duration{stockT}, []time.Duration{shoalT},
		fmt.Sprintf("base: stock containerd; upstream sent %.2f vs %.2f copies of the layers (registry's byte count)", copies(imStock), copies(imShoal)))
}

// Rollouts on the rollout tests' bed (rollout_test.go): n nodes and the
// registry, each on a host of its own behind a link of one rate in both
// directions, all pulling one new 96 MiB image (layers of 64, 24 and 8 MiB)
// at the same moment. Stock containerd and Shoal take turns in the same lab,
// each with an image of its own. Times are multiples of size ÷ link rate:
// 1.0× is a node receiving at its link's full rate from the start. With
// the 8-node lab, a second row gives one node a tenth of the rate.
func benchRollout(t *testing.T, r *benchReport) {
	t.Run("8 nodes", func(t *testing.T) { rolloutRows(t, r, 8, 200, true) })
	t.Run("16 nodes", func(t *testing.T) { rolloutRows(t, r, 16, 100, false) })
}

func rolloutRows(t *testing.T, r *benchReport, nodes, mbit int, slowToo bool) {
	stock := func(int) nodeOptions { return nodeOptions{binary: filepath.Join(binDir, "containerd-stock")} }
	lab := newRolloutLabWith(t, nodes, mbit, stock)
	imStock := lab.push("bench/rollout-stock", rolloutImage...)
	imShoal := lab.push("bench/rollout-shoal", rolloutImage...)
	unit := lab.linkTime(imShoal)
	stockT := lab.pullAllAtOnce(imStock.Ref)
	lab.startNodes(nil)
	shoalT := lab.pullAllAtOnce(imShoal.Ref)
	up := lab.uploaded()
	config := fmt.Sprintf("%d nodes at %d Mbit/s", nodes, mbit)
	fmt.Printf("rollout, %s: size ÷ link = %s\n", config, unit.Round(time.Millisecond))
	rolloutDetail("stock", stockT, unit, lab.copies(imStock), nil, imStock)
	rolloutDetail("shoal", shoalT, unit, lab.copies(imShoal), up, imShoal)
	r.row(config+": all pull a new 96 MiB image at once (registry behind the same link); first / median / last, × size÷link",
		spread(stockT, unit), spread(shoalT, unit), fmt.Sprintf("%.2f×", float64(slices.Max(shoalT))/float64(slices.Max(stockT))),
		fmt.Sprintf("size÷link %s; upstream copies %.2f (stock %.2f); most uploaded by one node %.2f copies; shoal/base of the last",
			unit.Round(time.Millisecond), lab.copies(imShoal), lab.copies(imStock), float64(slices.Max(up))/float64(imShoal.Data.Size())))
	if !slowToo {
		return
	}
	// The last node's link at a tenth of the others' rate.
	slow := nodes
	lab.setRate(slow, mbit*100)
	imStock = lab.push("bench/rollout-slow-stock", rolloutImage...)
	imShoal = lab.push("bench/rollout-slow-shoal", rolloutImage...)
	lab.startNodes(stock)
	stockT = lab.pullAllAtOnce(imStock.Ref)
	lab.startNodes(nil)
	shoalT = lab.pullAllAtOnce(imShoal.Ref)
	up = lab.uploaded()
	fmt.Printf("rollout, %s, n%d at %d Mbit/s:\n", config, slow, mbit/10)
	rolloutDetail("stock", stockT, unit, lab.copies(imStock), nil, imStock)
	rolloutDetail("shoal", shoalT, unit, lab.copies(imShoal), up, imShoal)
	others := func(ds []time.Duration) []time.Duration { return ds[:slow-1] }
	r.row(fmt.Sprintf("%s, one node's link at %d Mbit/s: the others' first / median / last, × size÷link", config, mbit/10),
		spread(others(stockT), unit), spread(others(shoalT), unit),
		fmt.Sprintf("%.2f×", float64(slices.Max(others(shoalT)))/float64(slices.Max(others(stockT)))),
		fmt.Sprintf("the slow node %.2f× (stock %.2f×); upstream copies %.2f (stock %.2f); most uploaded by one node %.2f copies; shoal/base of the others' last",
			float64(shoalT[slow-1])/float64(unit), float64(stockT[slow-1])/float64(unit), lab.copies(imShoal), lab.copies(imStock),
			float64(slices.Max(up))/float64(imShoal.Data.Size())))
}

// spread is "first / median / last" of ds as multiples of unit.
func spread(ds []time.Duration, unit time.Duration) string {
	x := func(d time.Duration) float64 { return float64(d) / float64(unit) }
	return fmt.Sprintf("%.2f / %.2f / %.2f×", x(slices.Min(ds)), x(median(ds)), x(slices.Max(ds)))
}

// rolloutDetail prints every node's completion time and, for Shoal, what
// each uploaded to peers, in copies of the image.
func rolloutDetail(what string, ds []time.Duration, unit time.Duration, copies float64, up []int64, im testImage) {
	fmt.Printf("  %s: first / median / last %s; upstream copies %.2f\n", what, spread(ds, unit), copies)
	fmt.Printf("    completion (× size÷link):")
	for i, m := range multiples(ds, unit) {
		fmt.Printf(" n%d %s", i+1, m)
	}
	fmt.Println()
	if up != nil {
		fmt.Printf("    uploaded to peers (copies):")
		for i, b := range up {
			fmt.Printf(" n%d %.2f", i+1, float64(b)/float64(im.Data.Size()))
		}
		fmt.Println()
	}
}

// A 1 GiB layer from peers whose uplinks are limited to 100 MB/s each
// (tbf on each holder's interface): held by one vs held by three, pulled
// by a node that shares nothing itself.
func benchRanges(t *testing.T, r *benchReport) {
	lab := newNetLab(t, 4)
	reg := lab.registry()
	var holders []*node
	for i := 1; i <= 3; i++ {
		opts := nodeOptions{}
		if i > 1 {
			opts.bootstrap = []string{holders[0].bootstrapAddr()}
		}
		holders = append(holders, lab.node(i, fmt.Sprintf("H%d", i), opts))
	}
	byThree := pushImage(t, reg.Addr, "bench/ranges-three", "v1", 1<<30)
	byOne := pushImage(t, reg.Addr, "bench/ranges-one", "v1", 1<<30)
	for _, h := range holders {
		h.pull(byThree.Ref)
		h.waitAnnounced(len(byThree.Blobs) + 1)
	}
	holders[0].pull(byOne.Ref)
	holders[0].waitAnnounced(2*len(byOne.Blobs) + 2)
	for i := 1; i <= 3; i++ {
		run(t, "ip", "netns", "exec", lab.hosts[i-1], "tc", "qdisc", "add", "dev", "eth0", "root", "tbf", "rate", "800mbit", "burst", "1mb", "latency", "100ms")
	}
	d := lab.node(4, "D", nodeOptions{bootstrap: []string{holders[0].bootstrapAddr()}, extra: `  shared_namespaces = ["nothing-shared"]`})
	before := reg.blobRequests(byOne.Repo) + reg.blobRequests(byThree.Repo)
	// Fetch only (no unpack: --all-platforms), so the row is the arrival.
	fetch := func(ref string) { d.ctr("image", "pull", "--plain-http", "--all-platforms", ref) }
	oneT := timed(func() { fetch(byOne.Ref) })
	threeT := timed(func() { fetch(byThree.Ref) })
	if n := reg.blobRequests(byOne.Repo) + reg.blobRequests(byThree.Repo) - before; n != 0 {
		t.Fatalf("D made %d upstream blob requests", n)
	}
	r.times("fetch of a 1 GiB layer from peers limited to 100 MB/s each: held by three vs by one", []time.Duration{oneT}, []time.Duration{threeT},
		fmt.Sprintf("base: one holder; speed-up %.2f×", float64(oneT)/float64(threeT)))
}

// benchChunkedRate is the registry's limit per connection in the chunked
// section: a layer read over one connection takes four times as long as
// over six.
const benchChunkedRate = 16 << 20

// Chunked: the first pull of a new image (2 × 32 MiB) from a registry that
// limits each connection, with containerd's chunked layer fetch set
// (chunkedFetch) on stock containerd and on Shoal (one idle peer up) alike;
// and stock containerd without it, for what the setting itself gives.
func benchChunked(t *testing.T, r *benchReport) {
	reg := startRegistry(t)
	proxy := startPacedProxy(t, reg.Addr, benchChunkedRate)
	idle := startNode(t, "idle", nodeOptions{extra: chunkedFetch})
	shoal := startNode(t, "shoal", nodeOptions{bootstrap: []string{idle.bootstrapAddr()}, extra: chunkedFetch})
	stockBin := filepath.Join(binDir, "containerd-stock")
	stock := startNode(t, "stock", nodeOptions{binary: stockBin, extra: chunkedFetch})
	plain := startNode(t, "stock-plain", nodeOptions{binary: stockBin})
	waitFor(t, 30*time.Second, "the Shoal node to connect to its peer", func() bool { return shoal.connectedPeers() > 0 })
	var plainT, stockT, shoalT []time.Duration
	var stockRanges, shoalRanges int
	for i := 0; i < 5; i++ {
		pull := func(n *node, name string) (time.Duration, int) {
			im := pushImage(t, reg.Addr, fmt.Sprintf("bench/chunked-%s%d", name, i), "v1", 32<<20, 32<<20)
			d := timed(func() { n.pull(strings.Replace(im.Ref, reg.Addr, proxy.addr(), 1)) })
			ranges := 0
			for _, l := range im.Data.Layers {
				ranges += reg.partialAnswers(l.Desc.Digest)
			}
			return d, ranges
		}
		d, _ := pull(plain, "plain")
		plainT = append(plainT, d)
		d, n := pull(stock, "stock")
		stockT, stockRanges = append(stockT, d), stockRanges+n
		d, n = pull(shoal, "shoal")
		shoalT, shoalRanges = append(shoalT, d), shoalRanges+n
	}
	r.times("first pull of 2 × 32 MiB, chunked layer fetch set, registry at 16 MiB/s per connection", stockT, shoalT,
		fmt.Sprintf("base: stock containerd with the same setting; registry range answers per pull: %.1f vs %.1f", float64(stockRanges)/5, float64(shoalRanges)/5))
	r.times("the same, stock containerd without vs with the setting", plainT, stockT, "what the setting gives behind a per-connection limit")
}

// Idle memory: stock vs Shoal, 2 s after boot.
func benchIdleRSS(t *testing.T, r *benchReport) {
	var stockRSS, shoalRSS []time.Duration // KiB, kept in Durations for median()
	for i := 0; i < 3; i++ {
		for _, c := range []struct {
			bin string
			out *[]time.Duration
		}{{filepath.Join(binDir, "containerd-stock"), &stockRSS}, {filepath.Join(binDir, "containerd"), &shoalRSS}} {
			n := startNode(t, "idle", nodeOptions{binary: c.bin})
			time.Sleep(2 * time.Second) // the measurement's moment, not a synchronisation
			*c.out = append(*c.out, time.Duration(rssKiB(t, n.PID())))
			n.stop()
		}
	}
	s, sh := float64(median(stockRSS))/1024, float64(median(shoalRSS))/1024
	r.row("idle RSS, 2 s after boot", fmt.Sprintf("%.0f MiB", s), fmt.Sprintf("%.0f MiB", sh),
		fmt.Sprintf("%.2f×", sh/s), fmt.Sprintf("difference %.0f MiB", sh-s))
}

// hashedGet reads a blob through sha256 and returns the wall time and the
// CPU time spent by this process and the serving one.
func hashedGet(t *testing.T, open func() (io.ReadCloser, error), serverPID int, want digest.Digest) (time.Duration, time.Duration) {
	t.Helper()
	cpu0 := selfCPU() + procCPU(t, serverPID)
	start := time.Now()
	body, err := open()
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	if _, err := io.Copy(h, body); err != nil {
		t.Fatal(err)
	}
	body.Close()
	d := time.Since(start)
	if got := digest.NewDigest(digest.SHA256, h); got != want {
		t.Fatalf("read %s, want %s", got, want)
	}
	return d, selfCPU() + procCPU(t, serverPID) - cpu0
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU is a process's user+system time from /proc (clock ticks of 10 ms).
func procCPU(t *testing.T, pid int) time.Duration {
	f := procStat(t, pid)
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// procFaults is the minor page faults of process pid so far: memory it
// touched for the first time, each a trap into the kernel.
func procFaults(t *testing.T, pid int) int64 {
	var n int64
	fmt.Sscan(procStat(t, pid)[7], &n)
	return n
}

// procStat is /proc/<pid>/stat's fields after the command's name.
func procStat(t *testing.T, pid int) []string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
}

func timed(fn func()) time.Duration {
	start := time.Now()
	fn()
	return time.Since(start)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

var bootedIn = regexp.MustCompile(`containerd successfully booted in ([0-9.]+)s`)

// bootTime is containerd's own measure of its boot, from its log.
func bootTime(t *testing.T, binary string) time.Duration {
	n := newNode(t, "boot", nodeOptions{binary: binary})
	n.start()
	n.waitReady()
	var d time.Duration
	waitFor(t, 10*time.Second, "the boot log line", func() bool {
		data, _ := os.ReadFile(n.Logs()[0])
		m := bootedIn.FindSubmatch(data)
		if m == nil {
			return false
		}
		var secs float64
		fmt.Sscan(string(m[1]), &secs)
		d = time.Duration(secs * float64(time.Second))
		return true
	})
	n.stop()
	return d
}
