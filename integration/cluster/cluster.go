// Package cluster runs real bin/containerd nodes side by side on one machine,
// each with its own root, state, sockets and P2P port. The integration tests
// and the demo both use it.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/containerd/containerd/v2/client"

	"github.com/shoal-dev/shoal/plugin/netkey"
)

// handedOut is every port FreePort has returned: one handed out but not
// yet bound by its user is free again, and was once handed out twice (a
// node's P2P port and its mirror's, which then could not listen).
var handedOut = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago,
// that it has not returned before, and that is below the kernel's
// ephemeral range, where outgoing connections take their local ports: a
// port from that range, released until its user bound it, was once in
// use by then.
func FreePort() (int, error) {
	low := ephemeralLow()
	for range 1000 {
		port := low/2 + rand.IntN(low-low/2)
		handedOut.Lock()
		again := handedOut.ports[port]
		handedOut.ports[port] = true
		handedOut.Unlock()
		if again {
			continue
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue // in use
		}
		l.Close()
		return port, nil
	}
	return 0, errors.New("no free port found below the ephemeral range")
}

// ephemeralLow is the first port of the kernel's ephemeral range (Linux's
// default when it cannot be read).
func ephemeralLow() int {
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n >= 2048 {
				low = n
			}
		}
	}
	return low
}

// Process is a child process with its output in a log file.
type Process struct {
	cmd  *exec.Cmd
	Log  string
	done chan struct{}
	err  error
}

// StartProcess starts name with args, output to logPath. The child is
// killed if this process dies.
func StartProcess(logPath, name string, args ...string) (*Process, error) {
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(name, args...)
	cmd.Stdout = f
	cmd.Stderr = f
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, err
	}
	p := &Process{cmd: cmd, Log: logPath, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	return p, nil
}

// Exited reports whether the process has ended, and how.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// PID is the process ID.
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Stop sends SIGTERM, then SIGKILL after 10s, and waits for the exit.
func (p *Process) Stop() {
	if exited, _ := p.Exited(); exited {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.cmd.Process.Signal(syscall.SIGCONT) // a frozen process must see the SIGTERM too
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
	}
}

// NodeConfig describes one node.
type NodeConfig struct {
	Name string
	// Dir holds everything of the node; keep it short (socket paths).
	Dir string
	// Containerd and Ctr are the binaries to run.
	Containerd, Ctr string
	// P2PPort is the node's libp2p TCP port on 127.0.0.1.
	P2PPort int
	// Bootstrap entries for bootstrap_peers.
	Bootstrap []string
	// NetworkKey is the path of the private network's key; empty runs the
	// node with allow_open_network; "none" sets neither (the plugin stays off).
	NetworkKey string
	// Extra is TOML appended to the generated config.
	Extra string
	// LogLevel is containerd's log level (default "debug").
	LogLevel string
	// ListenIP is the address the P2P port binds to (default 127.0.0.1).
	ListenIP string
	// Exec prefixes the containerd command, e.g. ip netns exec NAME.
	Exec []string
	// DataAddress is the direct data path's data_address; empty: a free
	// port on ListenIP; "off": none (every byte over libp2p streams).
	DataAddress string
	// HostsDir is CRI's config_path, one hosts.toml directory (default
	// Dir/certs.d).
	HostsDir string
}

// Node is one containerd process.
type Node struct {
	cfg     NodeConfig
	Socket  string
	Config  string
	proc    *Process
	logs    []string
	started time.Time
}

// NewNode writes the node's config; Start runs it.
func NewNode(cfg NodeConfig) (*Node, error) {
	if cfg.LogLevel == "" {
		cfg.LogLevel = "debug"
	}
	n := &Node{cfg: cfg, Socket: filepath.Join(cfg.Dir, "c.sock"), Config: filepath.Join(cfg.Dir, "config.toml")}
	return n, n.WriteConfig()
}

// Name is the node's name.
func (n *Node) Name() string { return n.cfg.Name }

// Dir is the node's directory.
func (n *Node) Dir() string { return n.cfg.Dir }

// BootstrapAddr is how other nodes name this one in bootstrap_peers.
func (n *Node) BootstrapAddr() string { return fmt.Sprintf("%s:%d", n.listenIP(), n.cfg.P2PPort) }

func (n *Node) listenIP() string {
	if n.cfg.ListenIP == "" {
		return "127.0.0.1"
	}
	return n.cfg.ListenIP
}

// SetExtra appends TOML to the P2P section's extra settings (effective at
// the next Start).
func (n *Node) SetExtra(extra string) error {
	n.cfg.Extra = extra + n.cfg.Extra
	return n.WriteConfig()
}

// SetBootstrap changes the bootstrap peers (effective at the next Start).
func (n *Node) SetBootstrap(peers []string) error {
	n.cfg.Bootstrap = peers
	return n.WriteConfig()
}

// WriteConfig writes a version 4 config: own root, state, gRPC and ttrpc
// sockets, NRI off, no CNI, CRI hosts directory a single path.
func (n *Node) WriteConfig() error {
	var boots []string
	for _, b := range n.cfg.Bootstrap {
		boots = append(boots, fmt.Sprintf("%q", b))
	}
	keyLine := "allow_open_network = true"
	switch n.cfg.NetworkKey {
	case "":
	case "none":
		keyLine = ""
	default:
		keyLine = fmt.Sprintf("network_key_file = %q", n.cfg.NetworkKey)
	}
	dataAddress := net.JoinHostPort(n.listenIP(), "0")
	switch n.cfg.DataAddress {
	case "":
	case "off":
		dataAddress = ""
	default:
		dataAddress = n.cfg.DataAddress
	}
	hostsDir := n.cfg.HostsDir
	if hostsDir == "" {
		hostsDir = filepath.Join(n.cfg.Dir, "certs.d")
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
  config_path = %[8]q
[plugins."io.containerd.cri.v1.runtime".cni]
  conf_dir = "%[1]s/cni/conf"
  bin_dirs = ["%[1]s/cni/bin"]
[plugins."io.containerd.server.v1.p2p"]
  listen_addresses = ["/ip4/%[6]s/tcp/%[2]d"]
  data_address = %[7]q
  bootstrap_peers = [%[3]s]
  %[5]s
%[4]s
`, n.cfg.Dir, n.cfg.P2PPort, strings.Join(boots, ", "), n.cfg.Extra, keyLine, n.listenIP(), dataAddress, hostsDir)
	return os.WriteFile(n.Config, []byte(cfg), 0o644)
}

// Start execs containerd; it does not wait for it to serve.
func (n *Node) Start() error {
	logPath := filepath.Join(n.cfg.Dir, fmt.Sprintf("containerd-%d.log", len(n.logs)))
	argv := append(append([]string(nil), n.cfg.Exec...), n.cfg.Containerd, "--config", n.Config, "--log-level", n.cfg.LogLevel)
	p, err := StartProcess(logPath, argv[0], argv[1:]...)
	if err != nil {
		return fmt.Errorf("start %s: %w", n.cfg.Name, err)
	}
	n.proc = p
	n.logs = append(n.logs, logPath)
	n.started = time.Now()
	return nil
}

// Started is when the current process was started.
func (n *Node) Started() time.Time { return n.started }

// WaitReady waits, as containerd's own integration tests do, until the
// daemon answers on its socket.
func (n *Node) WaitReady(ctx context.Context) error {
	for {
		if exited, err := n.proc.Exited(); exited {
			return fmt.Errorf("%s exited: %v (log: %s)", n.cfg.Name, err, n.proc.Log)
		}
		if c, err := client.New(n.Socket, client.WithTimeout(200*time.Millisecond)); err == nil {
			ok, err := c.IsServing(ctx)
			c.Close()
			if err == nil && ok {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s did not serve: %w (log: %s)", n.cfg.Name, ctx.Err(), n.proc.Log)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Signal sends sig to the running process.
func (n *Node) Signal(sig os.Signal) error {
	if n.proc == nil {
		return errors.New("not started")
	}
	return n.proc.cmd.Process.Signal(sig)
}

// PID is the process ID of the running process.
func (n *Node) PID() int { return n.proc.cmd.Process.Pid }

// Stop stops the process.
func (n *Node) Stop() {
	if n.proc != nil {
		n.proc.Stop()
	}
}

// Running reports whether the process is alive.
func (n *Node) Running() bool {
	if n.proc == nil {
		return false
	}
	exited, _ := n.proc.Exited()
	return !exited
}

// Logs are the log files of every start, oldest first.
func (n *Node) Logs() []string { return n.logs }

// Ctr runs ctr against the node. The timeout turns a hang into an error.
func (n *Node) Ctr(timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, n.cfg.Ctr, append([]string{"-a", n.Socket}, args...)...)
	out, err := cmd.CombinedOutput()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return string(out), fmt.Errorf("ctr %s did not finish within %s (hang)", strings.Join(args, " "), timeout)
	}
	if err != nil {
		return string(out), fmt.Errorf("ctr %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// Cleanup removes a node's directory once its process has stopped.
func Cleanup(dir string) { os.RemoveAll(dir) }

// WriteNetworkKey writes a new private-network key to path (mode 0600).
func WriteNetworkKey(path string) error {
	key, err := netkey.Generate()
	if err != nil {
		return err
	}
	return os.WriteFile(path, key, 0o600)
}
