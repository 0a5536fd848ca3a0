// Package metrics exposes the mirror's counters on containerd's own metrics
// endpoint ([plugins."io.containerd.server.v1.metrics"] address), all named
// containerd_p2p_*.
package metrics

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/shoal-dev/shoal/plugin/fetcher"
)

// Sources are where the values come from.
type Sources struct {
	Fetcher      *fetcher.Stats
	PeerResolves func() int64
	ServedBytes  func() int64
	// PassedOn is how many pieces were sent while they arrived, and how
	// many of those were cut short (contentserver.Server.PassedOn).
	PassedOn         func() (started, cut int64)
	DirectSentBytes  func() int64
	ConnectedPeers   func() int
	RoutingTableSize func() int
	AnnouncedKeys    func() int
}

// Metrics holds what cannot be read on demand: the lookup latencies. It
// observes from New on; Register exports it with the rest.
type Metrics struct {
	lookups *prometheus.HistogramVec
}

// New returns the metrics, observing and not yet registered.
func New() *Metrics {
	return &Metrics{lookups: prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "containerd_p2p_lookup_duration_seconds",
		Help:    "Time to look up the providers of a digest in the DHT.",
		Buckets: prometheus.ExponentialBuckets(0.0001, 4, 9), // 100µs .. 6.5s
	}, []string{"result"})}
}

// Register registers m and the collectors reading s with reg.
func (m *Metrics) Register(reg prometheus.Registerer, s Sources) error {
	st := s.Fetcher
	counter := func(name, help string, labels prometheus.Labels, v func() int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help, ConstLabels: labels},
			func() float64 { return float64(v()) })
	}
	gauge := func(name, help string, v func() int64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return float64(v()) })
	}
	const (
		fetched    = "containerd_p2p_fetched_bytes_total"
		fetchHelp  = "Content bytes received, by source."
		lookups    = "containerd_p2p_lookups_total"
		lookHelp   = "Provider lookups, by whether a usable provider was found."
		failovers  = "containerd_p2p_failovers_total"
		failHelp   = "Times a peer failed and the fetch went elsewhere, by reason."
		pieceBytes = "containerd_p2p_piece_bytes_total"
		pieceHelp  = "Bytes of pieces from peers: all that arrived, whole or not; those kept; those of requests cancelled or failed."
		passedOn   = "containerd_p2p_pieces_passed_on_total"
		passedHelp = "Pieces sent to peers while they arrived here: all, and those cut short because they did not arrive verified."
	)
	collectors := []prometheus.Collector{
		m.lookups,
		counter(fetched, fetchHelp, prometheus.Labels{"source": "peer"}, st.PeerBytes.Load),
		counter(fetched, fetchHelp, prometheus.Labels{"source": "upstream"}, st.UpstreamBytes.Load),
		counter("containerd_p2p_served_bytes_total", "Content bytes sent to peers.", nil, s.ServedBytes),
		counter("containerd_p2p_direct_path_sent_bytes_total", "Bytes sent on the direct data path (TLS records included).", nil, s.DirectSentBytes),
		counter(lookups, lookHelp, prometheus.Labels{"result": "hit"}, st.Hits.Load),
		counter(lookups, lookHelp, prometheus.Labels{"result": "miss"}, st.Misses.Load),
		counter(failovers, failHelp, prometheus.Labels{"reason": "stall"}, st.Stalls.Load),
		counter(failovers, failHelp, prometheus.Labels{"reason": "error"}, func() int64 { return st.Failovers.Load() - st.Stalls.Load() }),
		counter(failovers, failHelp, prometheus.Labels{"reason": "corrupt"}, st.Corrupt.Load),
		counter(failovers, failHelp, prometheus.Labels{"reason": "not_found"}, st.NotFound.Load),
		counter(failovers, failHelp, prometheus.Labels{"reason": "busy"}, st.Busy.Load),
		counter("containerd_p2p_lone_misses_total", "Layers fetched by pieces that no other node held or pulled: taken from the upstream at once.", nil, st.LoneMisses.Load),
		counter(pieceBytes, pieceHelp, prometheus.Labels{"outcome": "arrived"}, st.PieceBytesArrived.Load),
		counter(pieceBytes, pieceHelp, prometheus.Labels{"outcome": "kept"}, st.PieceBytesKept.Load),
		counter(pieceBytes, pieceHelp, prometheus.Labels{"outcome": "cancelled"}, st.PieceBytesCancelled.Load),
		counter(pieceBytes, pieceHelp, prometheus.Labels{"outcome": "failed"}, st.PieceBytesFailed.Load),
		counter("containerd_p2p_pieces_without_table_total", "Pieces that arrived whole and were dropped: no table covering them came in time.", nil, st.PiecesWithoutTable.Load),
		counter(passedOn, passedHelp, prometheus.Labels{"outcome": "started"}, func() int64 { n, _ := s.PassedOn(); return n }),
		counter(passedOn, passedHelp, prometheus.Labels{"outcome": "cut"}, func() int64 { _, n := s.PassedOn(); return n }),
		counter("containerd_p2p_hedged_requests_total", "Second requests sent because the first provider was slow.", nil, st.Hedges.Load),
		counter("containerd_p2p_peer_resolves_total", "References resolved by peers while the upstream was unreachable.", nil, s.PeerResolves),
		gauge("containerd_p2p_inflight_transfers", "Fetches from peers under way.", st.InFlight.Load),
		gauge("containerd_p2p_connected_peers", "Peers with an open connection.", asInt64(s.ConnectedPeers)),
		gauge("containerd_p2p_routing_table_peers", "Peers in the DHT routing table.", asInt64(s.RoutingTableSize)),
		gauge("containerd_p2p_announced_keys", "Digests and references this node announces.", asInt64(s.AnnouncedKeys)),
	}
	var errs []error
	for _, c := range collectors {
		errs = append(errs, reg.Register(c))
	}
	return errors.Join(errs...)
}

func asInt64(f func() int) func() int64 { return func() int64 { return int64(f()) } }

// ObserveLookup records one provider lookup.
func (m *Metrics) ObserveLookup(d time.Duration, hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	m.lookups.WithLabelValues(result).Observe(d.Seconds())
}
