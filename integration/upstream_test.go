package integration

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/integration/cluster"
)

// upstream is a real distribution registry whose own access log is the
// evidence of what was fetched from it.
type upstream struct {
	Addr string
	proc *cluster.Process
	dir  string
	bin  string
	auth string
	exec []string // command prefix, e.g. ip netns exec NAME
	t    *testing.T
}

func startRegistry(t *testing.T) *upstream {
	t.Helper()
	return startRegistryWith(t, "")
}

// startRegistryWith starts a registry whose config has auth appended (YAML).
func startRegistryWith(t *testing.T, auth string) *upstream {
	t.Helper()
	return startRegistryOn(t, fmt.Sprintf("127.0.0.1:%d", freePort(t)), auth)
}

// startRegistryAt starts a registry on addr.
func startRegistryAt(t *testing.T, addr string) *upstream {
	t.Helper()
	return startRegistryOn(t, addr, "")
}

func startRegistryOn(t *testing.T, addr, auth string) *upstream {
	t.Helper()
	requireEnv(t)
	u := &upstream{dir: shortTempDir(t, "reg-"), t: t, bin: registryBin, auth: auth}
	u.Addr = addr
	u.start()
	return u
}

func (u *upstream) start() {
	t := u.t
	cfg := fmt.Sprintf(`version: 0.1
log:
  level: warn
  accesslog:
    disabled: false
storage:
  filesystem:
    rootdirectory: %s/data
  delete:
    enabled: true
http:
  addr: %s
%s
`, u.dir, u.Addr, u.auth)
	cfgPath := filepath.Join(u.dir, "config.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	// Append: restarts keep earlier requests in the evidence.
	logPath := filepath.Join(u.dir, fmt.Sprintf("access-%d.log", time.Now().UnixNano()))
	argv := append(append([]string(nil), u.exec...), u.bin, "serve", cfgPath)
	u.proc = startProcess(t, logPath, argv[0], argv[1:]...)
	waitFor(t, 15*time.Second, "registry to listen", func() bool {
		c, err := net.DialTimeout("tcp", u.Addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
}

func (u *upstream) stop() { u.proc.Stop() }

var accessLine = regexp.MustCompile(`"(GET|HEAD) (/v2/[^ ]+) HTTP/[0-9.]+" (\d{3}) (\d+|-)`)

// blobRequests counts GET and HEAD requests for blobs of repo in the
// registry's access log.
func (u *upstream) blobRequests(repo string) int {
	return u.countRequests(func(path string) bool {
		return strings.HasPrefix(path, "/v2/"+repo+"/blobs/")
	})
}

// manifestByDigestRequests counts manifest fetches by digest (tag
// resolution, which always goes upstream, is by tag).
func (u *upstream) manifestByDigestRequests(repo string) int {
	return u.countRequests(func(path string) bool {
		return strings.HasPrefix(path, "/v2/"+repo+"/manifests/sha256:")
	})
}

func (u *upstream) countRequests(match func(path string) bool) int {
	n, _ := u.served(match)
	return n
}

// blobBytes is how many bytes of blob dgst the registry sent, in all.
func (u *upstream) blobBytes(dgst digest.Digest) int64 {
	_, b := u.served(func(path string) bool { return strings.HasSuffix(path, "/blobs/"+dgst.String()) })
	return b
}

// served counts the answered requests whose path matches, and the body
// bytes sent for them.
func (u *upstream) served(match func(path string) bool) (int, int64) {
	u.t.Helper()
	return u.answered(func(path, status string) bool { return status < "400" && match(path) })
}

// partialAnswers counts the range answers (206) for blob dgst.
func (u *upstream) partialAnswers(dgst digest.Digest) int {
	u.t.Helper()
	n, _ := u.answered(func(path, status string) bool {
		return status == "206" && strings.HasSuffix(path, "/blobs/"+dgst.String())
	})
	return n
}

// answered counts the requests of the registry's access log that match,
// and the bytes answered to them.
func (u *upstream) answered(match func(path, status string) bool) (int, int64) {
	u.t.Helper()
	var sent int64
	logs, _ := filepath.Glob(filepath.Join(u.dir, "access-*.log"))
	n := 0
	for _, l := range logs {
		data, err := os.ReadFile(l)
		if err != nil {
			u.t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			m := accessLine.FindStringSubmatch(sc.Text())
			if m != nil && match(m[2], m[3]) {
				n++
				var b int64
				fmt.Sscan(m[4], &b)
				sent += b
			}
		}
	}
	return n, sent
}

// ---- nodes ----
