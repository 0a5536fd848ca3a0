package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/shoal-dev/shoal/plugin/fetcher"
)

func TestCountersReadTheirSources(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	var st fetcher.Stats
	m := New()
	err := m.Register(reg, Sources{
		Fetcher:          &st,
		ServedBytes:      func() int64 { return 42 },
		PassedOn:         func() (int64, int64) { return 9, 2 },
		DirectSentBytes:  func() int64 { return 40 },
		ConnectedPeers:   func() int { return 3 },
		RoutingTableSize: func() int { return 2 },
		AnnouncedKeys:    func() int { return 7 },
		PeerResolves:     func() int64 { return 1 },
	})
	if err != nil {
		t.Fatal(err)
	}
	st.PeerBytes.Add(1000)
	st.Stalls.Add(1)
	st.Failovers.Add(3)
	m.ObserveLookup(2*time.Millisecond, true)
	want := `
# HELP containerd_p2p_fetched_bytes_total Content bytes received, by source.
# TYPE containerd_p2p_fetched_bytes_total counter
containerd_p2p_fetched_bytes_total{source="peer"} 1000
containerd_p2p_fetched_bytes_total{source="upstream"} 0
# HELP containerd_p2p_failovers_total Times a peer failed and the fetch went elsewhere, by reason.
# TYPE containerd_p2p_failovers_total counter
containerd_p2p_failovers_total{reason="busy"} 0
containerd_p2p_failovers_total{reason="corrupt"} 0
containerd_p2p_failovers_total{reason="error"} 2
containerd_p2p_failovers_total{reason="not_found"} 0
containerd_p2p_failovers_total{reason="stall"} 1
# HELP containerd_p2p_served_bytes_total Content bytes sent to peers.
# TYPE containerd_p2p_served_bytes_total counter
containerd_p2p_served_bytes_total 42
# HELP containerd_p2p_pieces_passed_on_total Pieces sent to peers while they arrived here: all, and those cut short because they did not arrive verified.
# TYPE containerd_p2p_pieces_passed_on_total counter
containerd_p2p_pieces_passed_on_total{outcome="cut"} 2
containerd_p2p_pieces_passed_on_total{outcome="started"} 9
# HELP containerd_p2p_connected_peers Peers with an open connection.
# TYPE containerd_p2p_connected_peers gauge
containerd_p2p_connected_peers 3
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"containerd_p2p_fetched_bytes_total", "containerd_p2p_failovers_total", "containerd_p2p_served_bytes_total", "containerd_p2p_pieces_passed_on_total", "containerd_p2p_connected_peers"); err != nil {
		t.Fatal(err)
	}
	if n := testutil.CollectAndCount(m.lookups); n != 1 {
		t.Fatalf("lookup histogram series = %d", n)
	}
	// The names follow Prometheus conventions.
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Fatalf("lint: %v %v", problems, err)
	}
}
