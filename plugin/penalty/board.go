// Package penalty decides which peers to avoid, and for how long: a peer
// that delivered bytes that did not verify is not asked for that digest
// again for a while; a peer that did not answer in time is skipped for every
// digest for a shorter while, so its stale provider records stop costing a
// timeout each.
package penalty

import (
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
)

// Options tune a Board.
type Options struct {
	// CorruptTTL is how long a peer that delivered bad bytes for a digest
	// is not asked for it again. Default 10m.
	CorruptTTL time.Duration
	// UnresponsiveTTL is how long a peer that did not answer in time is
	// skipped for every digest. Default 30s.
	UnresponsiveTTL time.Duration
}

// Board is shared by everything that asks peers for content.
type Board struct {
	corrupt      *box // (peer, digest)
	unresponsive *box // (peer, "")
}

// New returns an empty board.
func New(opts Options) *Board {
	if opts.CorruptTTL <= 0 {
		opts.CorruptTTL = 10 * time.Minute
	}
	if opts.UnresponsiveTTL <= 0 {
		opts.UnresponsiveTTL = 30 * time.Second
	}
	return &Board{corrupt: newBox(opts.CorruptTTL, 4096), unresponsive: newBox(opts.UnresponsiveTTL, 1024)}
}

// Corrupt records that p sent bytes for dgst that did not verify.
func (b *Board) Corrupt(p peer.ID, dgst digest.Digest) { b.corrupt.penalize(p, dgst) }

// Unresponsive records that p did not answer in time.
func (b *Board) Unresponsive(p peer.ID) { b.unresponsive.penalize(p, "") }

// Avoid reports whether p should not be asked for dgst now.
func (b *Board) Avoid(p peer.ID, dgst digest.Digest) bool {
	return b.corrupt.penalized(p, dgst) || b.unresponsive.penalized(p, "")
}

// IsCorrupt reports whether p is avoided for dgst because of bad bytes.
func (b *Board) IsCorrupt(p peer.ID, dgst digest.Digest) bool { return b.corrupt.penalized(p, dgst) }

// IsUnresponsive reports whether p is avoided for every digest.
func (b *Board) IsUnresponsive(p peer.ID) bool { return b.unresponsive.penalized(p, "") }
