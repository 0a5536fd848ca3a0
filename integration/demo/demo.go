package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/shoal-dev/shoal/integration/cluster"
)

func runDemo(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	bin := fs.String("bin", "./bin", "directory holding Shoal's containerd and ctr")
	nodes := fs.Int("nodes", 3, "number of nodes")
	layers := fs.Int("layers", 4, "number of layers in the generated image")
	layerMiB := fs.Int("layer-mib", 16, "size of each layer in MiB")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if os.Geteuid() != 0 {
		return errors.New("the demo runs containerd and must run as root (try: sudo make demo)")
	}
	if *nodes < 2 || *nodes > 16 || *layers < 1 || *layerMiB < 1 {
		return errors.New("want 2..16 nodes, at least one layer of at least 1 MiB")
	}
	containerd, err := filepath.Abs(filepath.Join(*bin, "containerd"))
	if err != nil {
		return err
	}
	ctr, _ := filepath.Abs(filepath.Join(*bin, "ctr"))
	for _, b := range []string{containerd, ctr} {
		if _, err := os.Stat(b); err != nil {
			return fmt.Errorf("%s not found: run `make build` first", b)
		}
	}

	work, err := os.MkdirTemp("", "shoal-demo-")
	if err != nil {
		return err
	}
	fmt.Printf("Shoal demo: %d nodes on 127.0.0.1, working directory %s\n", *nodes, work)

	keyPath := filepath.Join(work, "network.key")
	if err := cluster.WriteNetworkKey(keyPath); err != nil {
		return err
	}

	sizes := make([]int, *layers)
	for i := range sizes {
		sizes[i] = *layerMiB << 20
	}
	im, err := cluster.RandomImage(sizes...)
	if err != nil {
		return err
	}
	reg, err := startDemoRegistry(im, "demo/app", "v1", *nodes)
	if err != nil {
		return err
	}
	defer reg.Close()
	fmt.Printf("upstream registry: in-process, image demo/app:v1 = %d layers, %s in all\n\n", *layers, mib(im.Size()))

	var cluster_ []*cluster.Node
	defer func() {
		for _, n := range cluster_ {
			n.Stop()
			os.RemoveAll(filepath.Join(n.Dir(), "root"))
			os.RemoveAll(filepath.Join(n.Dir(), "state"))
		}
		fmt.Printf("\nall processes stopped; node logs are in %s/node*/containerd-0.log\n", work)
	}()
	for i := 0; i < *nodes; i++ {
		port, err := cluster.FreePort()
		if err != nil {
			return err
		}
		dir := filepath.Join(work, fmt.Sprintf("node%d", i+1))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		var boot []string
		if i > 0 {
			boot = []string{cluster_[0].BootstrapAddr()}
		}
		n, err := cluster.NewNode(cluster.NodeConfig{
			Name: fmt.Sprintf("node%d", i+1), Dir: dir, Containerd: containerd, Ctr: ctr,
			P2PPort: port, Bootstrap: boot, NetworkKey: keyPath,
		})
		if err != nil {
			return err
		}
		if err := n.Start(); err != nil {
			return err
		}
		cluster_ = append(cluster_, n)
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err = n.WaitReady(wctx)
		cancel()
		if err != nil {
			return err
		}
		fmt.Printf("started %s (p2p on %s, bootstrap %v) in %s\n", n.Name(), n.BootstrapAddr(), boot,
			time.Since(n.Started()).Round(time.Millisecond))
	}

	peerNames := map[string]string{}
	for _, n := range cluster_ {
		out, err := n.Ctr(30*time.Second, "plugins", "ls", "-d", "id==p2p")
		if err != nil {
			return err
		}
		if m := regexp.MustCompile(`peer_id\s+(\S+)`).FindStringSubmatch(out); m != nil {
			peerNames[m[1]] = n.Name()
		}
	}

	type result struct {
		took               time.Duration
		upstream, blobGets int64
		fromPeers          int64
		servedBy           map[string]int64
	}
	results := make([]result, len(cluster_))
	for i, n := range cluster_ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		fmt.Printf("\n%s: ctr image pull %s\n", n.Name(), reg.Ref(i))
		start := time.Now()
		if _, err := n.Ctr(5*time.Minute, "image", "pull", "--plain-http", reg.Ref(i)); err != nil {
			return err
		}
		r := result{took: time.Since(start), servedBy: map[string]int64{}}
		r.upstream, r.blobGets = reg.Served(i)
		r.fromPeers, r.servedBy = peerBytes(n.Logs()[0], peerNames)
		results[i] = r
		fmt.Printf("  done in %s\n", r.took.Round(time.Millisecond))
		if i == 0 {
			// Give the first node a moment to announce what it now holds.
			if err := waitAnnounced(ctx, n.Logs()[0], len(im.Blobs())+1); err != nil {
				return err
			}
		}
	}

	fmt.Printf("\nWhere every byte came from (upstream bytes counted by the registry, peer bytes by the pulling node):\n\n")
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "node\tpull time\tfrom upstream\tupstream blob requests\tfrom peers\tserved by")
	for i, n := range cluster_ {
		r := results[i]
		var by []string
		for name, b := range r.servedBy {
			by = append(by, fmt.Sprintf("%s %s", name, mib(b)))
		}
		if len(by) == 0 {
			by = []string{"-"}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", n.Name(), r.took.Round(time.Millisecond), mib(r.upstream), r.blobGets,
			mib(r.fromPeers), strings.Join(by, ", "))
	}
	tw.Flush()
	return nil
}

var fetchedLine = regexp.MustCompile(`msg="p2p: fetched from peer".*`)
var field = regexp.MustCompile(`(\w+)=("[^"]*"|\S+)`)

// peerBytes sums what the node's log says it received from peers, by peer.
func peerBytes(logPath string, names map[string]string) (int64, map[string]int64) {
	data, err := os.ReadFile(logPath)
	if err != nil {
		return 0, nil
	}
	total := int64(0)
	by := map[string]int64{}
	for _, line := range fetchedLine.FindAllString(string(data), -1) {
		fields := map[string]string{}
		for _, m := range field.FindAllStringSubmatch(line, -1) {
			fields[m[1]] = strings.Trim(m[2], `"`)
		}
		n, _ := strconv.ParseInt(fields["peer_bytes"], 10, 64)
		total += n
		name := names[fields["peer"]]
		if name == "" {
			name = fields["peer"]
		}
		by[name] += n
	}
	return total, by
}

var announcedLine = regexp.MustCompile(`p2p: announced.*announced=(\d+)`)

func waitAnnounced(ctx context.Context, logPath string, want int) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(logPath)
		total := 0
		for _, m := range announcedLine.FindAllSubmatch(data, -1) {
			c, _ := strconv.Atoi(string(m[1]))
			total += c
		}
		if total >= want {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("node did not announce its content within 30s (see %s)", logPath)
}

// mib writes a byte count for people: MiB, or KiB for small amounts.
func mib(n int64) string {
	if n > 0 && n < 100<<10 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
