package penalty

import (
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
)

// box remembers penalties of (peer, digest) pairs until they expire. It is
// bounded: when full, the entry closest to expiry makes room.
type box struct {
	mu      sync.Mutex
	ttl     time.Duration
	max     int
	entries map[penaltyKey]time.Time // expiry
	now     func() time.Time
}

type penaltyKey struct {
	peer   peer.ID
	digest digest.Digest
}

func newBox(ttl time.Duration, max int) *box {
	return &box{ttl: ttl, max: max, entries: map[penaltyKey]time.Time{}, now: time.Now}
}

func (b *box) penalize(p peer.ID, d digest.Digest) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if len(b.entries) >= b.max {
		var (
			oldest    penaltyKey
			oldestExp time.Time
		)
		for k, exp := range b.entries {
			if exp.Before(now) {
				delete(b.entries, k)
				continue
			}
			if oldestExp.IsZero() || exp.Before(oldestExp) {
				oldest, oldestExp = k, exp
			}
		}
		if len(b.entries) >= b.max {
			delete(b.entries, oldest)
		}
	}
	b.entries[penaltyKey{p, d}] = now.Add(b.ttl)
}

func (b *box) penalized(p peer.ID, d digest.Digest) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := penaltyKey{p, d}
	exp, ok := b.entries[k]
	if !ok {
		return false
	}
	if exp.Before(b.now()) {
		delete(b.entries, k)
		return false
	}
	return true
}

func (b *box) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.entries)
}
