package integration

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shoal-dev/shoal/integration/cluster"
)

var (
	binDir      = os.Getenv("SHOAL_BIN_DIR")
	registryBin = os.Getenv("SHOAL_REGISTRY_BIN")
)

// requireEnv skips only when the test binary was started outside the
// Makefile; `make test` always provides both, so CI never skips.
func requireEnv(t *testing.T) {
	t.Helper()
	if binDir == "" || registryBin == "" {
		t.Skip("integration tests need SHOAL_BIN_DIR and SHOAL_REGISTRY_BIN: run `make test-integration`")
	}
	if os.Geteuid() != 0 {
		t.Fatal("integration tests run containerd and must run as root")
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	port, err := cluster.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// shortTempDir: unix socket paths must stay under 108 bytes.
func shortTempDir(t *testing.T, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cluster.Cleanup(dir) })
	return dir
}

func startProcess(t *testing.T, logPath, name string, args ...string) *cluster.Process {
	t.Helper()
	p, err := cluster.StartProcess(logPath, name, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}

// ---- upstream registry ----

func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting for %s", timeout, what)
}

func regexpLast(s, pattern string) string {
	m := regexp.MustCompile(pattern).FindAllString(s, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1]
}

// sampleRSS samples the processes' RSS every 50 ms until the returned
// function is called, which gives each one's peak growth in KiB.
func sampleRSS(t *testing.T, pids ...int) func() []int64 {
	base := make([]int64, len(pids))
	peak := make([]int64, len(pids))
	for i, pid := range pids {
		base[i] = rssKiB(t, pid)
		peak[i] = base[i]
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				for i, pid := range pids {
					if v := rssKiBOrZero(pid); v > peak[i] {
						peak[i] = v
					}
				}
			}
		}
	}()
	return func() []int64 {
		close(stop)
		<-done
		out := make([]int64, len(pids))
		for i := range pids {
			out[i] = peak[i] - base[i]
		}
		return out
	}
}

func rssKiBOrZero(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kib int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kib)
			return kib
		}
	}
	return 0
}
