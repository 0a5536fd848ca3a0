package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/defaults"
	"github.com/containerd/containerd/v2/version"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/control"
	"github.com/shoal-dev/shoal/plugin/pullhistory"
)

// node is a control socket answering like a node that pulled one image.
type node struct{}

var pulled = pullhistory.Pull{
	Image: "registry.example/ops/app:v1", Namespace: "default",
	Start: time.Date(2026, 5, 4, 3, 2, 1, 0, time.UTC), Duration: 278 * time.Millisecond,
	UpstreamBytes: 1 << 20, Failovers: 1,
	Peers: []pullhistory.PeerBytes{{Peer: "12D3KooWPeerA", Bytes: 48 << 20}, {Peer: "12D3KooWPeerB", Bytes: 16 << 20}},
}

func (node) Status() control.Status {
	return control.Status{PeerID: "12D3KooWMe", ConnectedPeers: 2, Counters: map[string]int64{"peer_bytes": 64 << 20}}
}
func (node) Peers() []control.Peer { return []control.Peer{{ID: "12D3KooWPeerA"}} }
func (node) Providers(ctx context.Context, key digest.Digest) ([]control.Peer, error) {
	return []control.Peer{{ID: "12D3KooWPeerA"}}, nil
}
func (node) ReferenceKey(ref string) digest.Digest { return digest.FromString(ref) }
func (node) Pulls() []pullhistory.Pull {
	failed := pulled
	failed.Image, failed.Error, failed.Peers, failed.UpstreamBytes = "registry.example/ops/gone:v1", "not found", nil, 0
	return []pullhistory.Pull{pulled, failed}
}

// run is what one shoal command did: its output, the containerd address
// it looked the plugin up at, and the error Run returned.
type run struct {
	stdout, stderr string
	address        string
	err            error
}

// shoal runs the command line with args. Unless find is given, any
// containerd address leads to the control socket of a node (above).
func shoal(t *testing.T, find socketFinder, args ...string) run {
	t.Helper()
	var r run
	if find == nil {
		path := filepath.Join(t.TempDir(), "shoal.sock")
		srv, err := control.Serve(path, node{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		find = func(ctx context.Context, address string, _ time.Duration) (string, error) {
			r.address = address
			return path, nil
		}
	}
	var stdout, stderr bytes.Buffer
	app := newApp(find)
	app.Writer, app.ErrWriter = &stdout, &stderr
	r.err = app.Run(context.Background(), append([]string{"shoal"}, args...))
	r.stdout, r.stderr = stdout.String(), stderr.String()
	return r
}

func TestHelpIsShownAndExitsZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {}, {"help"}} {
		r := shoal(t, nil, args...)
		if r.err != nil {
			t.Fatalf("shoal %v: %v", args, r.err)
		}
		for _, want := range []string{"status", "peers", "providers", "pulls", "network-key", "--address", "-a", "--timeout", "--version", "CONTAINERD_ADDRESS"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("shoal %v does not mention %s:\n%s", args, want, r.stdout)
			}
		}
	}
	for _, args := range [][]string{{"pulls", "--help"}, {"help", "pulls"}, {"-a", "SOCK", "pulls", "-h"}} {
		r := shoal(t, nil, args...)
		if r.err != nil || !strings.Contains(r.stdout, "shoal pulls") || !strings.Contains(r.stdout, "--json") || r.address != "" {
			t.Fatalf("shoal %v: %v (asked %q)\n%s", args, r.err, r.address, r.stdout)
		}
	}
}

func TestVersionIsTheStampedOne(t *testing.T) {
	r := shoal(t, nil, "--version")
	if r.err != nil || !strings.HasPrefix(r.stdout, "shoal "+version.Package+" "+version.Version) {
		t.Fatalf("--version: %v %q", r.err, r.stdout)
	}
}

func TestTheAddressIsTakenAsCtrTakesIt(t *testing.T) {
	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"-a", "/run/b.sock", "status"}, "/run/b.sock"},
		{"", []string{"--address", "/run/b.sock", "status"}, "/run/b.sock"},
		{"", []string{"--address=/run/b.sock", "status"}, "/run/b.sock"},
		// Where the old shoal took it, after the command.
		{"", []string{"status", "-a", "/run/b.sock", "--json"}, "/run/b.sock"},
		{"/run/env.sock", []string{"status"}, "/run/env.sock"},
		{"/run/env.sock", []string{"-a", "/run/b.sock", "status"}, "/run/b.sock"},
		{"", []string{"status"}, defaults.DefaultAddress},
	} {
		t.Setenv("CONTAINERD_ADDRESS", c.env)
		if c.env == "" {
			os.Unsetenv("CONTAINERD_ADDRESS")
		}
		r := shoal(t, nil, c.args...)
		if r.err != nil || r.address != c.want {
			t.Errorf("CONTAINERD_ADDRESS=%q shoal %v: looked at %q (%v), want %q", c.env, c.args, r.address, r.err, c.want)
		}
	}
}

func TestPullsAreATableThatNamesTheImageOrJSON(t *testing.T) {
	r := shoal(t, nil, "-a", "SOCK", "pulls")
	if r.err != nil {
		t.Fatal(r.err)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "IMAGE") {
		t.Fatalf("table:\n%s", r.stdout)
	}
	row := strings.Fields(lines[1])
	want := []string{"registry.example/ops/app:v1", "2026-05-04T03:02:01Z", "278ms", "1.0", "MiB", "64.0", "MiB", "1", "ok", "12D3KooWPeerA", "48.0", "MiB,", "12D3KooWPeerB", "16.0", "MiB"}
	if strings.Join(row, " ") != strings.Join(want, " ") {
		t.Fatalf("row %q, want %q", row, want)
	}
	if !strings.Contains(lines[2], "registry.example/ops/gone:v1") || !strings.Contains(lines[2], "failed") ||
		!strings.Contains(r.stdout, "registry.example/ops/gone:v1 (2026-05-04T03:02:01Z) failed: not found") {
		t.Fatalf("the failed pull and its error:\n%s", r.stdout)
	}

	r = shoal(t, nil, "-a", "SOCK", "pulls", "--json")
	var pulls []pullhistory.Pull
	if err := json.Unmarshal([]byte(r.stdout), &pulls); err != nil || r.err != nil {
		t.Fatalf("JSON: %v %v\n%s", err, r.err, r.stdout)
	}
	if len(pulls) != 2 || pulls[0].Image != pulled.Image || pulls[0].PeerTotal() != 64<<20 || pulls[0].Peers[0] != pulled.Peers[0] {
		t.Fatalf("JSON %+v", pulls)
	}
}

func TestTheOtherQueriesPrintTablesOrJSON(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"status"}, "connected peers  2"},
		{[]string{"status", "--json"}, `"peer_id": "12D3KooWMe"`},
		{[]string{"peers"}, "12D3KooWPeerA"},
		{[]string{"providers", "registry.example/ops/app:v1"}, "12D3KooWPeerA"},
		{[]string{"providers", "--json", digest.FromString("x").String()}, `"id": "12D3KooWPeerA"`},
	} {
		r := shoal(t, nil, append([]string{"-a", "SOCK"}, c.args...)...)
		if r.err != nil || !strings.Contains(r.stdout, c.want) {
			t.Errorf("shoal %v: %v\n%s", c.args, r.err, r.stdout)
		}
	}
	if r := shoal(t, nil, "providers"); r.err == nil {
		t.Error("providers without an argument succeeded")
	}
	if r := shoal(t, nil, "pulls", "extra"); r.err == nil {
		t.Error("pulls with an extra argument succeeded")
	}
	if r := shoal(t, nil, "pulls", "--no-such-flag"); r.err == nil || !strings.Contains(r.stderr, "Incorrect Usage") {
		t.Errorf("an unknown flag: %v\n%s", r.err, r.stderr)
	}
}

func TestTimeoutBoundsTheWholeCommand(t *testing.T) {
	hang := func(ctx context.Context, address string, _ time.Duration) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}
	start := time.Now()
	r := shoal(t, hang, "--timeout", "50ms", "pulls")
	if !errors.Is(r.err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("after %v: %v", time.Since(start), r.err)
	}
}

func TestNetworkKeyIsWrittenOnceWithMode0600(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shoal.key")
	if r := shoal(t, nil, "network-key", "-o", path); r.err != nil {
		t.Fatal(r.err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", st, err)
	}
	key, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(key), "/key/swarm/psk/1.0.0/") {
		t.Fatalf("key %q", key)
	}
	if r := shoal(t, nil, "network-key", "--output", path); r.err == nil || !strings.Contains(r.err.Error(), "exists") {
		t.Fatalf("an existing key was replaced: %v", r.err)
	}
	if r := shoal(t, nil, "network-key"); r.err != nil || !strings.HasPrefix(r.stdout, "/key/swarm/psk/1.0.0/") {
		t.Fatalf("to stdout: %v %q", r.err, r.stdout)
	}
}
