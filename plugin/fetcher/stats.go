package fetcher

import "sync/atomic"

// Stats count what the fetcher did, for logs, metrics and `shoal status`.
type Stats struct {
	// PeerBytes were received from peers and kept.
	PeerBytes atomic.Int64
	// UpstreamBytes were read from the upstream through this fetcher: after
	// a miss, and to finish blobs that peers started.
	UpstreamBytes atomic.Int64
	// Hits and Misses count lookups that found usable providers, or not.
	Hits, Misses atomic.Int64
	// Corrupt counts peer deliveries that failed verification.
	Corrupt atomic.Int64
	// Failovers counts peers that failed a blob mid-way or were left for
	// a layer; Stalls are those that stopped sending.
	Failovers, Stalls atomic.Int64
	// NotFound counts providers that no longer held what they announced.
	NotFound atomic.Int64
	// Busy counts requests that peers shed (429, 503).
	Busy atomic.Int64
	// PieceBytesArrived counts the bytes of pieces that arrived from
	// peers, whole or not, kept or not; PieceBytesKept those of the pieces
	// kept. The difference is what the downlink carried in vain: pieces
	// abandoned on the way, brought twice, or not verifiable.
	PieceBytesArrived, PieceBytesKept atomic.Int64
	// Of the bytes in vain: PieceBytesCancelled arrived for a request this
	// node cancelled (another source brought the piece first, as to a
	// hedge's loser, or the holder was left); PieceBytesFailed for one that
	// failed (cut off, no answer in time, no table to verify it, bad bytes).
	PieceBytesCancelled, PieceBytesFailed atomic.Int64
	// PiecesWithoutTable counts pieces that arrived whole before a table
	// covering them, and were dropped.
	PiecesWithoutTable atomic.Int64
	// Hedges counts second requests sent because the first was slow.
	Hedges atomic.Int64
	// LoneMisses counts layers fetched by pieces that no other node held
	// or pulled: taken from the upstream at once.
	LoneMisses atomic.Int64
	// InFlight is the number of fetches from peers under way.
	InFlight atomic.Int64
}
