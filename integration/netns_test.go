package integration

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// netLab is a set of hosts: one network namespace each, joined by veth
// pairs to a bridge in the test's own namespace, which holds 10.77.N.1.
type netLab struct {
	t      *testing.T
	id     string
	bridge string
	subnet string // "10.77.N"
	hosts  []string
}

var labCount atomic.Int32

func run(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// skipNetns is the one way to skip the multi-host tests, for a machine that
// cannot make network namespaces (a container without CAP_NET_ADMIN):
// anywhere else a lab that cannot be built fails its test.
var skipNetns = os.Getenv("SHOAL_SKIP_NETNS") == "1"

func newNetLab(t *testing.T, hosts int) *netLab {
	t.Helper()
	requireEnv(t)
	if skipNetns {
		t.Skip("SHOAL_SKIP_NETNS=1: multi-host (network namespace) tests skipped")
	}
	n := labCount.Add(1)
	// A lab left behind by a test binary that was killed (a timeout)
	// still holds its subnet: take the next free one.
	for n < 250 && subnetInUse(t, fmt.Sprintf("10.77.%d.", n)) {
		n = labCount.Add(1)
	}
	lab := &netLab{t: t, id: fmt.Sprintf("%d%d", os.Getpid()%1000, n), subnet: fmt.Sprintf("10.77.%d", n)}
	lab.bridge = "shb" + lab.id
	if out, err := exec.Command("ip", "link", "add", lab.bridge, "type", "bridge").CombinedOutput(); err != nil {
		t.Fatalf("network namespaces cannot be made here (%v: %s): the multi-host tests need root with CAP_NET_ADMIN, ip, tc and iptables; SHOAL_SKIP_NETNS=1 skips them", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { exec.Command("ip", "link", "del", lab.bridge).Run() })
	run(t, "ip", "addr", "add", lab.subnet+".1/24", "dev", lab.bridge)
	run(t, "ip", "link", "set", lab.bridge, "up")
	for i := 1; i <= hosts; i++ {
		ns := fmt.Sprintf("shoal-%s-%d", lab.id, i)
		veth := lab.veth(i)
		run(t, "ip", "netns", "add", ns)
		t.Cleanup(func() {
			exec.Command("ip", "netns", "del", ns).Run()
			os.RemoveAll(filepath.Join("/etc/netns", ns))
		})
		run(t, "ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns)
		run(t, "ip", "link", "set", veth, "master", lab.bridge, "up")
		run(t, "ip", "netns", "exec", ns, "ip", "addr", "add", lab.ip(i)+"/24", "dev", "eth0")
		run(t, "ip", "netns", "exec", ns, "ip", "link", "set", "eth0", "up")
		run(t, "ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
		// ip netns exec binds /etc/netns/<ns>/* over /etc: the host's DNS
		// server is the lab's.
		os.MkdirAll(filepath.Join("/etc/netns", ns), 0o755)
		os.WriteFile(filepath.Join("/etc/netns", ns, "resolv.conf"), []byte("nameserver "+lab.subnet+".1\n"), 0o644)
		lab.hosts = append(lab.hosts, ns)
	}
	return lab
}

// subnetInUse reports whether an address of the host begins with prefix.
func subnetInUse(t *testing.T, prefix string) bool {
	out, err := exec.Command("ip", "-o", "-4", "addr", "show").Output()
	if err != nil {
		t.Fatalf("ip addr show: %v", err)
	}
	return strings.Contains(string(out), " "+prefix)
}

func (l *netLab) ip(host int) string { return fmt.Sprintf("%s.%d", l.subnet, 10+host) }

// veth is the bridge's end of host's link (the host's end is its eth0).
func (l *netLab) veth(host int) string { return fmt.Sprintf("shv%s-%d", l.id, host) }

// exec is the command prefix that runs a program on host.
func (l *netLab) exec(host int) []string { return []string{"ip", "netns", "exec", l.hosts[host-1]} }

// node starts a node on lab host i, listening on that host's address.
func (l *netLab) node(i int, name string, opts nodeOptions) *node {
	n := newNodeIn(l.t, name, l.ip(i), l.exec(i), opts)
	n.start()
	n.waitReady()
	return n
}

// dnsZone serves the lab's zone on the bridge address, port 53.
func (l *netLab) dnsZone(records ...string) {
	l.t.Helper()
	pc, err := net.ListenPacket("udp", l.subnet+".1:53")
	if err != nil {
		l.t.Fatal(err)
	}
	zone := map[string][]dns.RR{}
	for _, r := range records {
		rr, err := dns.NewRR(r)
		if err != nil {
			l.t.Fatal(err)
		}
		zone[rr.Header().Name] = append(zone[rr.Header().Name], rr)
	}
	mux := dns.NewServeMux()
	mux.HandleFunc(".", func(w dns.ResponseWriter, req *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(req)
		for _, q := range req.Question {
			for _, rr := range zone[q.Name] {
				if rr.Header().Rrtype == q.Qtype {
					m.Answer = append(m.Answer, rr)
				}
			}
		}
		w.WriteMsg(m)
	})
	srv := &dns.Server{PacketConn: pc, Handler: mux}
	go srv.ActivateAndServe()
	l.t.Cleanup(func() { srv.Shutdown() })
}

// partition drops all traffic between the hosts of a and those of b.
func (l *netLab) partition(a, b []int) (heal func()) {
	l.t.Helper()
	if _, err := exec.LookPath("iptables"); err != nil {
		l.t.Fatal("iptables is needed for the partition test (apt-get install iptables; .ci/run installs it)")
	}
	for _, i := range b {
		for _, j := range a {
			run(l.t, "ip", "netns", "exec", l.hosts[i-1], "iptables", "-A", "INPUT", "-s", l.ip(j), "-j", "DROP")
			run(l.t, "ip", "netns", "exec", l.hosts[i-1], "iptables", "-A", "OUTPUT", "-d", l.ip(j), "-j", "DROP")
		}
	}
	return func() {
		for _, i := range b {
			run(l.t, "ip", "netns", "exec", l.hosts[i-1], "iptables", "-F")
		}
	}
}

// labRegistry runs the upstream registry on the bridge address.
func (l *netLab) registry() *upstream {
	return startRegistryAt(l.t, fmt.Sprintf("%s.1:%d", l.subnet, freePort(l.t)))
}

// registryIn runs the upstream registry on the lab's host, port 5000: behind
// that host's link, as a registry on another network is.
func (l *netLab) registryIn(host int) *upstream {
	l.t.Helper()
	requireEnv(l.t)
	u := &upstream{dir: shortTempDir(l.t, "reg-"), t: l.t, bin: registryBin, exec: l.exec(host)}
	u.Addr = net.JoinHostPort(l.ip(host), "5000")
	u.start()
	return u
}

const p2pPort = 5050

func TestBootstrapByDNSNameAndSRVRecordAcrossHosts(t *testing.T) {
	lab := newNetLab(t, 3)
	lab.dnsZone(
		"boot.shoal.test. 5 IN A "+lab.ip(1),
		"n1.shoal.test. 5 IN A "+lab.ip(1),
		fmt.Sprintf("_shoal._tcp.shoal.test. 5 IN SRV 0 0 %d n1.shoal.test.", p2pPort),
	)
	reg := lab.registry()
	a := lab.node(1, "A", nodeOptions{})
	b := lab.node(2, "B", nodeOptions{extra: `  bootstrap_dns = ["boot.shoal.test"]`})
	c := lab.node(3, "C", nodeOptions{extra: `  bootstrap_dns = ["_shoal._tcp.shoal.test"]`})
	im := pushImage(t, reg.Addr, "lab/dns", "v1", 3<<20, 1<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 2)
	for _, n := range []*node{b, c} {
		before := reg.blobRequests(im.Repo)
		n.pull(im.Ref)
		if got := reg.blobRequests(im.Repo) - before; got != 0 {
			t.Fatalf("%s (bootstrap by DNS) made %d upstream blob requests, want 0", n.name, got)
		}
	}
}

func TestBootstrapByAFileWrittenAfterStart(t *testing.T) {
	lab := newNetLab(t, 2)
	reg := lab.registry()
	a := lab.node(1, "A", nodeOptions{})
	peersFile := filepath.Join(shortTempDir(t, "boot-"), "peers")
	b := lab.node(2, "B", nodeOptions{extra: fmt.Sprintf("  bootstrap_file = %q\n  bootstrap_interval = \"1s\"", peersFile)})
	// cloud-init writes the file later.
	if err := os.WriteFile(peersFile, []byte("# bootstrap nodes\n"+a.bootstrapAddr()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	im := pushImage(t, reg.Addr, "lab/file", "v1", 3<<20)
	a.pull(im.Ref)
	waitFor(t, 20*time.Second, "B to join through the file", func() bool { return b.logContains("connected to bootstrap peer") })
	a.waitAnnounced(len(im.Blobs) + 2)
	before := reg.blobRequests(im.Repo)
	b.pull(im.Ref)
	if got := reg.blobRequests(im.Repo) - before; got != 0 {
		t.Fatalf("B (bootstrap by file) made %d upstream blob requests, want 0", got)
	}
}

func TestPeersOnTheLinkFindEachOtherByMDNS(t *testing.T) {
	lab := newNetLab(t, 2)
	reg := lab.registry()
	a := lab.node(1, "A", nodeOptions{extra: `  mdns = true`})
	b := lab.node(2, "B", nodeOptions{extra: `  mdns = true`})
	im := pushImage(t, reg.Addr, "lab/mdns", "v1", 2<<20)
	a.pull(im.Ref)
	waitFor(t, 30*time.Second, "A and B to find each other by mDNS", func() bool {
		return a.logContains("peer found by mDNS") || b.logContains("connected to peer found by mDNS")
	})
	a.waitAnnounced(len(im.Blobs) + 2)
	before := reg.blobRequests(im.Repo)
	b.pull(im.Ref)
	if got := reg.blobRequests(im.Repo) - before; got != 0 {
		t.Fatalf("B (mDNS) made %d upstream blob requests, want 0", got)
	}
}

func TestPartitionFailsFastAndHeals(t *testing.T) {
	lab := newNetLab(t, 4)
	reg := lab.registry()
	fast := "  bootstrap_interval = \"1s\"\n  lookup_timeout = \"500ms\"\n  dial_timeout = \"1s\""
	a := lab.node(1, "A", nodeOptions{extra: fast})
	b := lab.node(2, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: fast})
	c := lab.node(3, "C", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: fast})
	d := lab.node(4, "D", nodeOptions{bootstrap: []string{a.bootstrapAddr(), c.bootstrapAddr()}, extra: fast})
	during := pushImage(t, reg.Addr, "lab/during", "v1", 2<<20, 2<<20)
	after := pushImage(t, reg.Addr, "lab/after", "v1", 2<<20, 2<<20)
	a.pull(during.Ref)
	a.pull(after.Ref)
	b.pull(after.Ref)
	a.waitAnnounced(2*len(during.Blobs) + 4)

	heal := lab.partition([]int{1, 2}, []int{3, 4})
	before := reg.blobRequests(during.Repo)
	start := time.Now()
	if out, err := d.ctrErr(2*time.Minute, "image", "pull", "--plain-http", during.Ref); err != nil {
		t.Fatalf("D's pull during the partition: %v\n%s", err, out)
	}
	t.Logf("D pulled during the partition in %s (from upstream)", time.Since(start).Round(time.Millisecond))
	if got := reg.blobRequests(during.Repo) - before; got != len(during.Blobs) {
		t.Fatalf("D made %d upstream blob requests during the partition, want %d", got, len(during.Blobs))
	}

	heal()
	healed := time.Now()
	before = reg.blobRequests(after.Repo)
	// Once the halves see each other again, C's pull is served by A or B.
	waitFor(t, 60*time.Second, "C to see the other half again", func() bool {
		out, err := c.shoal("providers", after.Ref)
		return err == nil && (strings.Contains(out, a.peerID()) || strings.Contains(out, b.peerID()))
	})
	t.Logf("C found the other half's providers %s after the partition healed", time.Since(healed).Round(time.Millisecond))
	c.pull(after.Ref)
	if got := reg.blobRequests(after.Repo) - before; got != 0 {
		t.Fatalf("C made %d upstream blob requests after the partition healed, want 0", got)
	}
}

func TestOthersKeepSharingWhileTheBootstrapNodeReboots(t *testing.T) {
	lab := newNetLab(t, 4)
	reg := lab.registry()
	fast := "  bootstrap_interval = \"1s\""
	boot := lab.node(1, "boot", nodeOptions{extra: fast})
	b := lab.node(2, "B", nodeOptions{bootstrap: []string{boot.bootstrapAddr()}, extra: fast})
	c := lab.node(3, "C", nodeOptions{bootstrap: []string{boot.bootstrapAddr()}, extra: fast})
	im := pushImage(t, reg.Addr, "lab/reboot", "v1", 3<<20, 1<<20)
	b.pull(im.Ref)
	b.waitAnnounced(len(im.Blobs) + 2)

	boot.stop()
	before := reg.blobRequests(im.Repo)
	c.pull(im.Ref)
	if got := reg.blobRequests(im.Repo) - before; got != 0 {
		t.Fatalf("C made %d upstream blob requests while the bootstrap node was down, want 0", got)
	}

	boot.start()
	boot.waitReady()
	// A node that knows only the bootstrap node finds the image on B or C.
	d := lab.node(4, "D", nodeOptions{bootstrap: []string{boot.bootstrapAddr()}, extra: fast})
	waitFor(t, 30*time.Second, "D to find providers through the rebooted bootstrap node", func() bool {
		out, err := d.shoal("providers", im.Ref)
		return err == nil && (strings.Contains(out, b.peerID()) || strings.Contains(out, c.peerID()))
	})
	before = reg.blobRequests(im.Repo)
	d.pull(im.Ref)
	if got := reg.blobRequests(im.Repo) - before; got != 0 {
		t.Fatalf("D made %d upstream blob requests, want 0", got)
	}
}

func TestAFirewalledDataPortFallsBackToLibp2pStreams(t *testing.T) {
	lab := newNetLab(t, 2)
	reg := lab.registry()
	a := lab.node(1, "A", nodeOptions{dataAddress: lab.ip(1) + ":5051"})
	b := lab.node(2, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: `  dial_timeout = "1s"`})
	im := pushImage(t, reg.Addr, "lab/firewalled", "v1", 8<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 2)
	// The data port silently dropped, libp2p's port open.
	run(t, "ip", "netns", "exec", lab.hosts[0], "iptables", "-A", "INPUT", "-p", "tcp", "--dport", "5051", "-j", "DROP")
	before := reg.blobRequests(im.Repo)
	b.pull(im.Ref)
	if got := reg.blobRequests(im.Repo) - before; got != 0 {
		t.Fatalf("B made %d upstream blob requests, want 0: A is reachable over libp2p", got)
	}
	if !b.logContains("direct data path unreachable") {
		t.Fatal("B did not say that the data path is unreachable")
	}
}
