package integration

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// shoal runs the shoal command against n's containerd, as ctr is run:
// `shoal -a <socket> <command> ...`.
func (n *node) shoal(args ...string) (string, error) {
	cmd := exec.Command(filepath.Join(binDir, "shoal"), append([]string{"-a", n.Socket}, args...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func metricValue(t *testing.T, addr, series string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/v1/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(string(body))
	if m == nil {
		t.Fatalf("%s not on the metrics endpoint %s", series, addr)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

func metricsConfig(t *testing.T) (string, string) {
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	return addr, fmt.Sprintf("[plugins.\"io.containerd.server.v1.metrics\"]\n  address = %q", addr)
}

func TestMetricsAndTheShoalCommandShowWhatHappened(t *testing.T) {
	reg := startRegistry(t)
	aMetrics, aExtra := metricsConfig(t)
	bMetrics, bExtra := metricsConfig(t)
	a := startNode(t, "A", nodeOptions{extra: aExtra})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: bExtra})
	im := pushImage(t, reg.Addr, "ops/app", "v1", 6<<20, 1<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 2)
	b.pull(im.Ref)

	var total int64
	for _, d := range append(im.Blobs, im.Manifest) {
		total += d.Size
	}
	if got := metricValue(t, bMetrics, `containerd_p2p_fetched_bytes_total{source="peer"}`); int64(got) != total {
		t.Errorf("B's peer bytes metric = %v, want %d", got, total)
	}
	if got := metricValue(t, aMetrics, `containerd_p2p_served_bytes_total`); int64(got) < total {
		t.Errorf("A's served bytes metric = %v, want ≥ %d", got, total)
	}
	if got := metricValue(t, bMetrics, `containerd_p2p_connected_peers`); got < 1 {
		t.Errorf("B's connected peers metric = %v", got)
	}

	out, err := b.shoal("status", "--json")
	if err != nil {
		t.Fatalf("shoal status: %v\n%s", err, out)
	}
	var st struct {
		PeerID         string           `json:"peer_id"`
		ConnectedPeers int              `json:"connected_peers"`
		AnnouncedKeys  int              `json:"announced_keys"`
		Counters       map[string]int64 `json:"counters"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status JSON: %v\n%s", err, out)
	}
	if st.PeerID != b.peerID() || st.ConnectedPeers < 1 || st.Counters["peer_bytes"] != total || st.AnnouncedKeys < len(im.Blobs) {
		t.Fatalf("status does not describe B: %+v", st)
	}
	if out, err := b.shoal("status"); err != nil || !strings.Contains(out, "connected peers") {
		t.Fatalf("status table: %v\n%s", err, out)
	}

	aID := a.peerID()
	for _, q := range []string{im.largest().Digest.String(), im.Ref} {
		waitFor(t, 10*time.Second, "providers of "+q, func() bool {
			out, err := b.shoal("providers", q)
			return err == nil && strings.Contains(out, aID)
		})
	}
	if out, err := b.shoal("peers", "--json"); err != nil || !strings.Contains(out, aID) {
		t.Fatalf("peers: %v\n%s", err, out)
	}
}

func TestShoalCommandSaysWhatToDoWhenThePluginIsOff(t *testing.T) {
	off := startNode(t, "off", nodeOptions{networkKey: "none"})
	out, err := off.shoal("status")
	if err == nil || !strings.Contains(out, "network_key_file") {
		t.Fatalf("want an error naming network_key_file, got %v:\n%s", err, out)
	}
	if got := off.plugins()["io.containerd.server.v1.p2p"]; got != "skip" {
		t.Fatalf("p2p plugin status without a key = %q, want skip", got)
	}
	// containerd itself runs on and pulls as stock.
	reg := startRegistry(t)
	im := pushImage(t, reg.Addr, "ops/off", "v1", 1<<20)
	off.pull(im.Ref)
}
