package integration

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	runtime "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/shoal-dev/shoal/integration/cluster"
)

type nodeOptions struct {
	bootstrap []string
	extra     string // appended to the config
	binary    string // default: bin/containerd
	// networkKey is the key file; default: one key shared by the test's nodes.
	networkKey string
	// dataAddress: see cluster.NodeConfig.DataAddress.
	dataAddress string
	// hostsDir: see cluster.NodeConfig.HostsDir.
	hostsDir string
	// corruptPieces runs bin/containerd-fault, which flips a byte of
	// every piece it sends to peers.
	corruptPieces bool
}

var (
	testKeysMu sync.Mutex
	testKeys   = map[*testing.T]string{}
)

// networkKey is the private-network key shared by the nodes of one test.
func networkKey(t *testing.T) string {
	testKeysMu.Lock()
	defer testKeysMu.Unlock()
	if k, ok := testKeys[t]; ok {
		return k
	}
	k := newNetworkKey(t)
	testKeys[t] = k
	t.Cleanup(func() {
		testKeysMu.Lock()
		delete(testKeys, t)
		testKeysMu.Unlock()
	})
	return k
}

// newNetworkKey writes a fresh key, for a node that must not join the others.
func newNetworkKey(t *testing.T) string {
	path := filepath.Join(shortTempDir(t, "key-"), "swarm.key")
	if err := cluster.WriteNetworkKey(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// node is a cluster.Node bound to a test: failures end the test, and the
// node is stopped (and its log shown on failure) at cleanup.
type node struct {
	*cluster.Node
	t    *testing.T
	name string
	dir  string
}

func newNode(t *testing.T, name string, opts nodeOptions) *node {
	t.Helper()
	return newNodeAt(t, name, fmt.Sprintf("127.0.0.1:%d", freePort(t)), opts)
}

// newNodeAt is newNode with the P2P address chosen by the caller, so that
// other nodes can name it before it runs.
func newNodeAt(t *testing.T, name, p2pAddr string, opts nodeOptions) *node {
	t.Helper()
	host, _, _ := net.SplitHostPort(p2pAddr)
	return newNodeWith(t, name, p2pAddr, host, nil, opts)
}

// newNodeIn is a node on another (network-namespace) host at ip, port 5050,
// its command prefixed by exec.
func newNodeIn(t *testing.T, name, ip string, exec []string, opts nodeOptions) *node {
	t.Helper()
	return newNodeWith(t, name, net.JoinHostPort(ip, "5050"), ip, exec, opts)
}

func newNodeWith(t *testing.T, name, p2pAddr, listenIP string, exec []string, opts nodeOptions) *node {
	t.Helper()
	requireEnv(t)
	_, portStr, err := net.SplitHostPort(p2pAddr)
	if err != nil {
		t.Fatal(err)
	}
	var port int
	fmt.Sscan(portStr, &port)
	bin := opts.binary
	switch {
	case opts.corruptPieces:
		bin = filepath.Join(binDir, "containerd-fault")
	case bin == "":
		bin = filepath.Join(binDir, "containerd")
	}
	dir := shortTempDir(t, "node-")
	key := opts.networkKey
	if key == "" {
		key = networkKey(t)
	}
	cn, err := cluster.NewNode(cluster.NodeConfig{
		Name: name, Dir: dir, Containerd: bin, Ctr: filepath.Join(binDir, "ctr"),
		P2PPort: port, Bootstrap: opts.bootstrap, Extra: opts.extra, NetworkKey: key,
		ListenIP: listenIP, Exec: exec, DataAddress: opts.dataAddress,
		HostsDir: opts.hostsDir,
	})
	if err != nil {
		t.Fatal(err)
	}
	n := &node{Node: cn, t: t, name: name, dir: dir}
	t.Cleanup(func() {
		n.Stop()
		if t.Failed() {
			n.dumpLog()
		}
		n.keepLogs()
	})
	return n
}

// keepLogs copies the node's logs whole to $SHOAL_KEEP_LOGS/<test>/<node>-<i>.log
// when that variable names a directory: the lab's logs, for reading after
// a run that passed as well as one that failed. A test that starts a node
// of the same name again (a lab's next case) gets the next free <i>.
func (n *node) keepLogs() {
	dir := os.Getenv("SHOAL_KEEP_LOGS")
	if dir == "" {
		return
	}
	dir = filepath.Join(dir, strings.NewReplacer("/", "_").Replace(n.t.Name()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		n.t.Logf("keeping logs: %v", err)
		return
	}
	i := 0
	for _, l := range n.Logs() {
		data, err := os.ReadFile(l)
		if err != nil {
			continue
		}
		for {
			f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("%s-%d.log", n.name, i)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			i++
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err == nil {
				_, err = f.Write(data)
				err = errors.Join(err, f.Close())
			}
			if err != nil {
				n.t.Logf("keeping logs: %v", err)
			}
			break
		}
	}
}

// startNode starts a node and waits until it serves.
func startNode(t *testing.T, name string, opts nodeOptions) *node {
	n := newNode(t, name, opts)
	n.start()
	n.waitReady()
	return n
}

func (n *node) bootstrapAddr() string { return n.BootstrapAddr() }
func (n *node) stop()                 { n.Stop() }

func (n *node) start() {
	n.t.Helper()
	if err := n.Start(); err != nil {
		n.t.Fatal(err)
	}
}

func (n *node) waitReady() {
	n.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := n.WaitReady(ctx); err != nil {
		n.t.Fatal(err)
	}
}

func (n *node) restart() {
	n.t.Helper()
	n.Stop()
	n.start()
	n.waitReady()
}

func (n *node) dumpLog() {
	for _, l := range n.Logs() {
		data, _ := os.ReadFile(l)
		var keep []string
		for _, line := range strings.Split(string(data), "\n") {
			// Each line named by its node: make bench filters out the
			// lines a lab prints that begin with the log's "time=".
			if strings.Contains(line, "p2p") || strings.Contains(line, "level=error") || strings.Contains(line, "level=warn") {
				keep = append(keep, n.name+" "+line)
			}
		}
		if len(keep) > 200 {
			keep = keep[len(keep)-200:]
		}
		n.t.Logf("---- %s log %s (p2p, warnings, errors) ----\n%s", n.name, l, strings.Join(keep, "\n"))
	}
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
	out, err := n.Ctr(2*time.Minute, args...)
	if err != nil {
		n.t.Fatalf("%s: %v", n.name, err)
	}
	return out
}

func (n *node) ctrErr(timeout time.Duration, args ...string) (string, error) {
	return n.Ctr(timeout, args...)
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

// waitAnnounced waits until n's log shows it announced content, so that a
// following pull on another node can find it. The pull itself is still
// judged only by the registry's log.
func (n *node) waitAnnounced(minCount int) {
	n.t.Helper()
	re := regexp.MustCompile(`p2p: announced.*announced=(\d+)`)
	waitFor(n.t, 30*time.Second, n.name+" to announce its content", func() bool {
		total := 0
		// Only the current run counts: a restarted node announces again.
		logs := n.Logs()
		if data, err := os.ReadFile(logs[len(logs)-1]); err == nil {
			for _, m := range re.FindAllSubmatch(data, -1) {
				var c int
				fmt.Sscan(string(m[1]), &c)
				total += c
			}
		}
		return total >= minCount
	})
}

// logLines is the lines of n's logs that contain s.
func (n *node) logLines(s string) []string {
	var out []string
	for _, l := range n.Logs() {
		data, _ := os.ReadFile(l)
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, s) {
				out = append(out, line)
			}
		}
	}
	return out
}

// logContains reports whether any of the node's logs has s.
func (n *node) logContains(s string) bool {
	for _, l := range n.Logs() {
		data, _ := os.ReadFile(l)
		if strings.Contains(string(data), s) {
			return true
		}
	}
	return false
}

// criImages is a CRI image-service client of the node, as kubelet has.
func (n *node) criImages() runtime.ImageServiceClient {
	n.t.Helper()
	conn, err := grpc.NewClient("unix://"+n.Socket, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", strings.TrimPrefix(addr, "unix://"))
		}))
	if err != nil {
		n.t.Fatal(err)
	}
	n.t.Cleanup(func() { conn.Close() })
	return runtime.NewImageServiceClient(conn)
}
