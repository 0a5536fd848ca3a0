// Package penalty decides which peers to avoid, and for how long, by the
// kind of failure, in one place:
//
//   - Stale: the peer no longer holds what it announced; not asked for that
//     digest again for a while (its provider record outlives the content).
//   - Busy: the peer shed load (429, 503); the request went to the next
//     holder, and this one is left alone for a moment, not longer: the
//     busiest holder is often the most useful one.
//   - Unresponsive: no connection or no answer in time; skipped for every
//     digest for a while, so its records stop costing a timeout each.
//   - Corrupt: its bytes did not verify; not asked for that digest again.
//   - BadTable: a piece table it signed covered bytes that failed the
//     layer's digest: as Corrupt, and its tables of that digest are
//     refused. A peer that sends bad pieces is not one: its table may be
//     true (the other holders' pieces match it), and refusing it would
//     refuse every holder that learned the layer's table from it.
//
// Anything else (a short or long body, an odd status) fails that request
// over to another source and costs the peer nothing.
package penalty

import (
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
)

// Kind is the kind of a failure, as far as penalties go.
type Kind int

const (
	// None: the request fails over; the peer is not penalized.
	None Kind = iota
	Stale
	Busy
	Unresponsive
	Corrupt
	BadTable
)

func (k Kind) String() string {
	return [...]string{"none", "stale", "busy", "unresponsive", "corrupt", "bad table"}[k]
}

// Options tune a Board.
type Options struct {
	// CorruptTTL is how long a peer that delivered bad bytes for a digest
	// (or signed a table of them) is not asked for it again. Default 10m.
	CorruptTTL time.Duration
	// StaleTTL is how long a peer that no longer holds a digest is not
	// asked for it again. Default 5m.
	StaleTTL time.Duration
	// UnresponsiveTTL is how long a peer that did not answer in time is
	// skipped for every digest. Default 30s.
	UnresponsiveTTL time.Duration
	// BusyTTL is how long a peer that shed load is left alone. Default 1s.
	BusyTTL time.Duration
}

// Board is shared by everything that asks peers for content.
type Board struct {
	corrupt      *box // (peer, digest)
	badTable     *box // (peer, digest)
	stale        *box // (peer, digest)
	unresponsive *box // (peer, "")
	busy         *box // (peer, "")
}

// New returns an empty board.
func New(opts Options) *Board {
	if opts.CorruptTTL <= 0 {
		opts.CorruptTTL = 10 * time.Minute
	}
	if opts.StaleTTL <= 0 {
		opts.StaleTTL = 5 * time.Minute
	}
	if opts.UnresponsiveTTL <= 0 {
		opts.UnresponsiveTTL = 30 * time.Second
	}
	if opts.BusyTTL <= 0 {
		opts.BusyTTL = time.Second
	}
	return &Board{
		corrupt: newBox(opts.CorruptTTL, 4096), badTable: newBox(opts.CorruptTTL, 4096), stale: newBox(opts.StaleTTL, 4096),
		unresponsive: newBox(opts.UnresponsiveTTL, 1024), busy: newBox(opts.BusyTTL, 1024),
	}
}

// Judge records a failure of p with dgst by its kind.
func (b *Board) Judge(p peer.ID, dgst digest.Digest, kind Kind) {
	switch kind {
	case Stale:
		b.stale.penalize(p, dgst)
	case Busy:
		b.busy.penalize(p, "")
	case Unresponsive:
		b.unresponsive.penalize(p, "")
	case Corrupt:
		b.corrupt.penalize(p, dgst)
	case BadTable:
		b.corrupt.penalize(p, dgst)
		b.badTable.penalize(p, dgst)
	}
}

// Avoid reports whether p should not be asked for dgst now.
func (b *Board) Avoid(p peer.ID, dgst digest.Digest) bool {
	return b.corrupt.penalized(p, dgst) || b.stale.penalized(p, dgst) ||
		b.unresponsive.penalized(p, "") || b.busy.penalized(p, "")
}

// IsBusy reports whether p is being left alone after it shed load.
func (b *Board) IsBusy(p peer.ID) bool { return b.busy.penalized(p, "") }

// IsStale reports whether p is avoided for dgst because it did not have it.
func (b *Board) IsStale(p peer.ID, dgst digest.Digest) bool { return b.stale.penalized(p, dgst) }

// IsCorrupt reports whether p is avoided for dgst because of bad bytes.
func (b *Board) IsCorrupt(p peer.ID, dgst digest.Digest) bool { return b.corrupt.penalized(p, dgst) }

// IsBadTable reports whether p's piece tables of dgst are refused: one it
// signed covered bytes that failed the digest.
func (b *Board) IsBadTable(p peer.ID, dgst digest.Digest) bool { return b.badTable.penalized(p, dgst) }

// IsUnresponsive reports whether p is avoided for every digest.
func (b *Board) IsUnresponsive(p peer.ID) bool { return b.unresponsive.penalized(p, "") }
