package integration

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/client"
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
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// shortTempDir: unix socket paths must stay under 108 bytes.
func shortTempDir(t *testing.T, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// overlay mounts of unpacked snapshots may linger briefly
		exec.Command("umount", "-R", dir).Run()
		os.RemoveAll(dir)
	})
	return dir
}

// process is a child process that the test stops at cleanup.
type process struct {
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	err  error
}

func startProcess(t *testing.T, logPath string, name string, args ...string) *process {
	t.Helper()
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(name, args...)
	cmd.Stdout = f
	cmd.Stderr = f
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatal(err)
	}
	p := &process{cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	t.Cleanup(p.stop)
	return p
}

// stop sends SIGTERM, then SIGKILL after 10s.
func (p *process) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
	}
}

// ---- upstream registry ----

// upstream is a real distribution registry whose own access log is the
// evidence of what was fetched from it.
type upstream struct {
	Addr string
	proc *process
	dir  string
	bin  string
	port int
	t    *testing.T
}

func startRegistry(t *testing.T) *upstream {
	t.Helper()
	requireEnv(t)
	u := &upstream{dir: shortTempDir(t, "reg-"), port: freePort(t), t: t, bin: registryBin}
	u.Addr = fmt.Sprintf("127.0.0.1:%d", u.port)
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
`, u.dir, u.Addr)
	cfgPath := filepath.Join(u.dir, "config.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	// Append: restarts keep earlier requests in the evidence.
	logPath := filepath.Join(u.dir, fmt.Sprintf("access-%d.log", time.Now().UnixNano()))
	u.proc = startProcess(t, logPath, u.bin, "serve", cfgPath)
	waitFor(t, 15*time.Second, "registry to listen", func() bool {
		c, err := net.DialTimeout("tcp", u.Addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
}

func (u *upstream) stop() { u.proc.stop() }

var accessLine = regexp.MustCompile(`"(GET|HEAD) (/v2/[^ ]+) HTTP/[0-9.]+" (\d{3})`)

// blobRequests counts GET and HEAD requests for blobs of repo in the
// registry's access log.
func (u *upstream) blobRequests(repo string) int {
	return u.countRequests(func(path string) bool {
		return strings.HasPrefix(path, "/v2/"+repo+"/blobs/")
	})
}

func (u *upstream) countRequests(match func(path string) bool) int {
	u.t.Helper()
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
			if m != nil && match(m[2]) {
				n++
			}
		}
	}
	return n
}

// ---- nodes ----

type nodeOptions struct {
	bootstrap []string
	extra     string // appended to the config
	binary    string // default: bin/containerd
}

// node is one bin/containerd process with its own root, state, sockets
// and P2P port.
type node struct {
	t       *testing.T
	name    string
	dir     string
	socket  string
	p2pPort int
	cfgPath string
	proc    *process
	opts    nodeOptions
	logs    []string
}

func newNode(t *testing.T, name string, opts nodeOptions) *node {
	t.Helper()
	requireEnv(t)
	n := &node{t: t, name: name, dir: shortTempDir(t, "node-"), p2pPort: freePort(t), opts: opts}
	n.socket = filepath.Join(n.dir, "c.sock")
	n.cfgPath = filepath.Join(n.dir, "config.toml")
	n.writeConfig()
	return n
}

// startNode starts a node and waits until every plugin has loaded.
func startNode(t *testing.T, name string, opts nodeOptions) *node {
	n := newNode(t, name, opts)
	n.start()
	n.waitReady()
	return n
}

func (n *node) bootstrapAddr() string { return fmt.Sprintf("127.0.0.1:%d", n.p2pPort) }

func (n *node) writeConfig() {
	var boots []string
	for _, b := range n.opts.bootstrap {
		boots = append(boots, fmt.Sprintf("%q", b))
	}
	cfg := fmt.Sprintf(`version = 4
root = "%[1]s/root"
state = "%[1]s/state"

[plugins."io.containerd.server.v1.grpc"]
  address = "%[1]s/c.sock"
[plugins."io.containerd.server.v1.ttrpc"]
  address = "%[1]s/c.sock.ttrpc"
[plugins."io.containerd.nri.v1.nri"]
  disable = true
[plugins."io.containerd.cri.v1.images".registry]
  config_path = "%[1]s/certs.d"
[plugins."io.containerd.cri.v1.runtime".cni]
  conf_dir = "%[1]s/cni/conf"
  bin_dirs = ["%[1]s/cni/bin"]
[plugins."io.containerd.server.v1.p2p"]
  listen_addresses = ["/ip4/127.0.0.1/tcp/%[2]d"]
  bootstrap_peers = [%[3]s]
%[4]s
`, n.dir, n.p2pPort, strings.Join(boots, ", "), n.opts.extra)
	if err := os.WriteFile(n.cfgPath, []byte(cfg), 0o644); err != nil {
		n.t.Fatal(err)
	}
}

func (n *node) start() {
	bin := n.opts.binary
	if bin == "" {
		bin = filepath.Join(binDir, "containerd")
	}
	logPath := filepath.Join(n.dir, fmt.Sprintf("containerd-%d.log", len(n.logs)))
	n.logs = append(n.logs, logPath)
	n.proc = startProcess(n.t, logPath, bin, "--config", n.cfgPath, "--log-level", "debug")
	n.t.Cleanup(func() {
		if n.t.Failed() {
			n.dumpLog()
		}
	})
}

func (n *node) dumpLog() {
	for _, l := range n.logs {
		data, _ := os.ReadFile(l)
		lines := strings.Split(string(data), "\n")
		var keep []string
		for _, line := range lines {
			if strings.Contains(line, "p2p") || strings.Contains(line, "level=error") || strings.Contains(line, "level=warn") {
				keep = append(keep, line)
			}
		}
		if len(keep) > 200 {
			keep = keep[len(keep)-200:]
		}
		n.t.Logf("---- %s log %s (p2p, warnings, errors) ----\n%s", n.name, l, strings.Join(keep, "\n"))
	}
}

func (n *node) stop() { n.proc.stop() }

func (n *node) restart() {
	n.stop()
	n.start()
	n.waitReady()
}

// waitReady waits, like containerd's own integration tests, until the
// daemon serves and every plugin has either loaded or skipped itself.
func (n *node) waitReady() {
	n.t.Helper()
	waitFor(n.t, 30*time.Second, n.name+" to serve", func() bool {
		select {
		case <-n.proc.done:
			n.dumpLog()
			n.t.Fatalf("%s exited: %v", n.name, n.proc.err)
		default:
		}
		c, err := client.New(n.socket, client.WithTimeout(200*time.Millisecond))
		if err != nil {
			return false
		}
		defer c.Close()
		ok, err := c.IsServing(context.Background())
		return err == nil && ok
	})
}

// plugins returns "type.id" -> status as ctr reports them.
func (n *node) plugins() map[string]string {
	n.t.Helper()
	out := n.ctr("plugins", "ls")
	plugins := map[string]string{}
	for i, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if i == 0 || len(f) < 3 {
			continue
		}
		plugins[f[0]+"."+f[1]] = f[len(f)-1]
	}
	return plugins
}

func (n *node) ctr(args ...string) string {
	n.t.Helper()
	out, err := n.ctrErr(2*time.Minute, args...)
	if err != nil {
		n.t.Fatalf("%s: ctr %s: %v\n%s", n.name, strings.Join(args, " "), err, out)
	}
	return out
}

// ctrErr runs ctr against this node; the timeout turns a hang into a
// failure instead of a stuck test.
func (n *node) ctrErr(timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "ctr"), append([]string{"-a", n.socket}, args...)...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return string(out), fmt.Errorf("ctr %v did not finish within %s (hang)", args, timeout)
	}
	return string(out), err
}

// pull pulls ref with `ctr image pull` through the transfer service.
func (n *node) pull(ref string) {
	n.t.Helper()
	n.ctr("image", "pull", "--plain-http", ref)
}

// peerID reads the peer ID the P2P plugin exports through introspection.
func (n *node) peerID() string {
	n.t.Helper()
	out := n.ctr("plugins", "ls", "-d", "id==p2p")
	m := regexp.MustCompile(`peer_id\s+(\S+)`).FindStringSubmatch(out)
	if m == nil {
		n.t.Fatalf("%s: no peer_id in plugin exports:\n%s", n.name, out)
	}
	return m[1]
}

// logContains reports whether any of the node's logs has s.
func (n *node) logContains(s string) bool {
	for _, l := range n.logs {
		data, _ := os.ReadFile(l)
		if bytes.Contains(data, []byte(s)) {
			return true
		}
	}
	return false
}

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

// waitAnnounced waits until n's log shows it announced content, so that a
// following pull on another node can find it. The pull itself is still
// judged only by the registry's log.
func (n *node) waitAnnounced(minCount int) {
	n.t.Helper()
	re := regexp.MustCompile(`p2p: announced.*announced=(\d+)`)
	waitFor(n.t, 30*time.Second, n.name+" to announce its content", func() bool {
		total := 0
		// Only the current run counts: a restarted node announces again.
		if data, err := os.ReadFile(n.logs[len(n.logs)-1]); err == nil {
			for _, m := range re.FindAllSubmatch(data, -1) {
				var c int
				fmt.Sscan(string(m[1]), &c)
				total += c
			}
		}
		return total >= minCount
	})
}
