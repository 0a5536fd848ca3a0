package fetcher

import "sync/atomic"

// Stats count what the fetcher did, for logs and metrics.
type Stats struct {
	// PeerBytes were received from peers and kept.
	PeerBytes atomic.Int64
	// UpstreamResumedBytes were fetched upstream to finish a blob that peers
	// started.
	UpstreamResumedBytes atomic.Int64
	// Corrupt counts peer deliveries that failed verification.
	Corrupt atomic.Int64
	// Failovers counts switches to another source in the middle of a blob.
	Failovers atomic.Int64
	// Stalls counts sources abandoned because they stopped sending.
	Stalls atomic.Int64
	// Hedges counts second requests sent because the first was slow.
	Hedges atomic.Int64
	// Misses counts lookups that found no usable provider.
	Misses atomic.Int64
	// PeerResolves counts references resolved by peers while the upstream
	// was unreachable.
	PeerResolves atomic.Int64
}
