package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The measurements behind `make bench`. They are comparisons run side by
// side in one run and printed as a table; they assert nothing about speed.
func TestBenchmarkReport(t *testing.T) {
	if os.Getenv("SHOAL_BENCH") == "" {
		t.Skip("measurements run with `make bench`")
	}
	const reps = 7
	var rows [][]string
	add := func(what string, base, shoal []time.Duration, note string) {
		b, s := median(base), median(shoal)
		rows = append(rows, []string{what, b.Round(100 * time.Microsecond).String(), s.Round(100 * time.Microsecond).String(),
			fmt.Sprintf("%.2f×", float64(s)/float64(b)), note})
	}

	// Boot: exec to serving, stock containerd vs Shoal's, interleaved.
	var stockBoot, shoalBoot []time.Duration
	for i := 0; i < reps; i++ {
		stockBoot = append(stockBoot, bootTime(t, filepath.Join(binDir, "containerd-stock")))
		shoalBoot = append(shoalBoot, bootTime(t, filepath.Join(binDir, "containerd")))
	}
	add("containerd boot (its own \"successfully booted in\")", stockBoot, shoalBoot,
		fmt.Sprintf("difference %s", (median(shoalBoot)-median(stockBoot)).Round(100*time.Microsecond)))

	// Pull of a 64 MiB / 4-layer image: from upstream vs from a peer.
	reg := startRegistry(t)
	var upstreamPull, peerPull []time.Duration
	for i := 0; i < 3; i++ {
		im := pushImage(t, reg.Addr, fmt.Sprintf("bench/pull%d", i), "v1", 16<<20, 16<<20, 16<<20, 16<<20)
		a := startNode(t, "A", nodeOptions{})
		b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
		upstreamPull = append(upstreamPull, timed(func() { a.pull(im.Ref) }))
		a.waitAnnounced(len(im.Blobs) + 1)
		before := reg.blobRequests(im.Repo)
		peerPull = append(peerPull, timed(func() { b.pull(im.Ref) }))
		if n := reg.blobRequests(im.Repo) - before; n != 0 {
			t.Fatalf("peer pull made %d upstream blob requests", n)
		}
		a.stop()
		b.stop()
	}
	add("pull 64 MiB / 4 layers (loopback)", upstreamPull, peerPull, "base: from upstream; shoal: from a peer, 0 upstream blob requests")

	// Miss overhead: an image nobody holds, P2P disabled vs enabled.
	const layers = 20
	sizes := make([]int, layers)
	for i := range sizes {
		sizes[i] = 64 << 10
	}
	var off, on []time.Duration
	for i := 0; i < reps; i++ {
		peer := startNode(t, "peer", nodeOptions{})
		withP2P := startNode(t, "with-p2p", nodeOptions{bootstrap: []string{peer.bootstrapAddr()}})
		withoutP2P := startNode(t, "without-p2p", nodeOptions{binary: filepath.Join(binDir, "containerd-stock")})
		imOn := pushImage(t, reg.Addr, fmt.Sprintf("bench/miss-on%d", i), "v1", sizes...)
		imOff := pushImage(t, reg.Addr, fmt.Sprintf("bench/miss-off%d", i), "v1", sizes...)
		if i%2 == 0 {
			off = append(off, timed(func() { withoutP2P.pull(imOff.Ref) }))
			on = append(on, timed(func() { withP2P.pull(imOn.Ref) }))
		} else {
			on = append(on, timed(func() { withP2P.pull(imOn.Ref) }))
			off = append(off, timed(func() { withoutP2P.pull(imOff.Ref) }))
		}
		peer.stop()
		withP2P.stop()
		withoutP2P.stop()
	}
	perBlob := (median(on) - median(off)) / (layers + 1)
	add(fmt.Sprintf("pull of an image no peer holds (%d blobs)", layers+1), off, on,
		fmt.Sprintf("base: stock containerd; miss overhead ≈ %s per blob", perBlob.Round(100*time.Microsecond)))

	var sb strings.Builder
	fmt.Fprintf(&sb, "Measured %s on %s/%s, %d CPUs (median of runs, side by side in one run)\n\n", time.Now().UTC().Format("2006-01-02"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	sb.WriteString("| measurement | base | shoal | shoal/base | note |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		sb.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	fmt.Println(sb.String())
	if out := os.Getenv("SHOAL_BENCH_OUT"); out != "" {
		os.WriteFile(out, []byte(sb.String()), 0o644)
	}
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
