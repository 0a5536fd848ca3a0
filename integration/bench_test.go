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
	"syscall"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"
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

	// Raw blob throughput with sha256 on the client: one 256 MiB blob from
	// a peer's content service (private network, TLS, yamux) vs from the
	// registry over plain HTTP, side by side.
	{
		im := pushImage(t, reg.Addr, "bench/raw", "v1", 256<<20)
		a := startNode(t, "A", nodeOptions{})
		a.pull(im.Ref)
		client, id := peerClient(t, a)
		big := im.Data.Blobs()[1]
		var httpT, peerT []time.Duration
		var httpCPU, peerCPU time.Duration
		for i := 0; i < 3; i++ {
			d, cpu := hashedGet(t, func() (io.ReadCloser, error) {
				resp, err := http.Get("http://" + reg.Addr + "/v2/" + im.Repo + "/blobs/" + big.Desc.Digest.String())
				if err != nil {
					return nil, err
				}
				return resp.Body, nil
			}, reg.proc.PID(), big.Desc.Digest)
			httpT, httpCPU = append(httpT, d), httpCPU+cpu
			d, cpu = hashedGet(t, func() (io.ReadCloser, error) {
				req, _ := http.NewRequest(http.MethodGet, "/v2/"+im.Repo+"/blobs/"+big.Desc.Digest.String(), nil)
				resp, err := client.Do(id, req)
				if err != nil {
					return nil, err
				}
				return resp.Body, nil
			}, a.PID(), big.Desc.Digest)
			peerT, peerCPU = append(peerT, d), peerCPU+cpu
		}
		mbps := func(d time.Duration) float64 { return float64(big.Desc.Size) / d.Seconds() / 1e6 }
		gib := float64(3*big.Desc.Size) / (1 << 30)
		rows = append(rows, []string{"256 MiB blob, client hashes (loopback)",
			fmt.Sprintf("%.0f MB/s", mbps(median(httpT))), fmt.Sprintf("%.0f MB/s", mbps(median(peerT))),
			fmt.Sprintf("%.2f×", mbps(median(peerT))/mbps(median(httpT))),
			fmt.Sprintf("base: plain HTTP from the registry; CPU s/GiB (client+server): %.1f vs %.1f",
				httpCPU.Seconds()/gib, peerCPU.Seconds()/gib)})
		a.stop()
	}

	// A WAN-like upstream: the registry behind a 50 MB/s link (tbf on the
	// lab bridge shapes only what the registry sends); the nodes, each its
	// own host, talk to each other unshaped.
	{
		lab := newNetLab(t, 2)
		wanReg := lab.registry()
		run(t, "tc", "qdisc", "add", "dev", lab.bridge, "root", "tbf", "rate", "400mbit", "burst", "1mb", "latency", "100ms")
		var upT, peerT []time.Duration
		for i := 0; i < 3; i++ {
			im := pushImage(t, wanReg.Addr, fmt.Sprintf("bench/wan%d", i), "v1", 16<<20, 16<<20, 16<<20, 16<<20)
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
		add("pull 64 MiB / 4 layers, upstream limited to 50 MB/s", upT, peerT, "base: from upstream; shoal: from a peer on another (network-namespace) host")
	}

	// Idle memory: stock vs Shoal, 2 s after boot.
	{
		var stockRSS, shoalRSS []time.Duration // KiB, kept in Durations for median()
		for i := 0; i < 3; i++ {
			for _, c := range []struct {
				bin string
				out *[]time.Duration
			}{{filepath.Join(binDir, "containerd-stock"), &stockRSS}, {filepath.Join(binDir, "containerd"), &shoalRSS}} {
				n := startNode(t, "idle", nodeOptions{binary: c.bin})
				time.Sleep(2 * time.Second)
				*c.out = append(*c.out, time.Duration(rssKiB(t, n.PID())))
				n.stop()
			}
		}
		s, sh := float64(median(stockRSS))/1024, float64(median(shoalRSS))/1024
		rows = append(rows, []string{"idle RSS, 2 s after boot", fmt.Sprintf("%.0f MiB", s), fmt.Sprintf("%.0f MiB", sh),
			fmt.Sprintf("%.2f×", sh/s), fmt.Sprintf("difference %.0f MiB", sh-s)})
	}

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
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
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
