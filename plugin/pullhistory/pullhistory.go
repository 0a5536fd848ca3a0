// Package pullhistory keeps the node's latest pulls, for `shoal pulls`:
// which image, when, how long it took and where its bytes came from, in a
// ring of fixed size, oldest first.
package pullhistory

import (
	"slices"
	"sync"
	"time"
)

// Pull is one pull through the wrapped transfer service.
type Pull struct {
	// Image is the reference that was pulled.
	Image string `json:"image"`
	// Namespace is the containerd namespace it was pulled into.
	Namespace string `json:"namespace,omitempty"`
	// Start is when the pull began; Duration how long it took, until the
	// image was stored (or the pull failed).
	Start    time.Time     `json:"start"`
	Duration time.Duration `json:"duration_ns"`
	// UpstreamBytes were received from the registry through Shoal's
	// fetcher: content that no peer held, and the ends of blobs that peers
	// started. Tag resolution is not counted.
	UpstreamBytes int64 `json:"upstream_bytes"`
	// Peers are the peers that sent content that was kept, most bytes
	// first.
	Peers []PeerBytes `json:"peers"`
	// Failovers counts peers that failed this pull (an error, a stall, bad
	// bytes, a stale announcement, a busy answer) after which the fetch
	// went on elsewhere.
	Failovers int64 `json:"failovers"`
	// Error is why the pull failed; empty if it succeeded.
	Error string `json:"error,omitempty"`
}

// PeerBytes is what one peer sent.
type PeerBytes struct {
	Peer  string `json:"peer"`
	Bytes int64  `json:"bytes"`
}

// PeerTotal is the bytes received from all peers.
func (p Pull) PeerTotal() int64 {
	var n int64
	for _, b := range p.Peers {
		n += b.Bytes
	}
	return n
}

// DefaultSize is how many pulls a Ring keeps unless told otherwise.
const DefaultSize = 64

// Ring holds the latest pulls; when full, the oldest makes room. It is safe
// for concurrent use.
type Ring struct {
	mu    sync.Mutex
	pulls []Pull // len ≤ cap; once full, next is the oldest
	next  int
}

// New returns a ring of at most size pulls (DefaultSize if size <= 0).
func New(size int) *Ring {
	if size <= 0 {
		size = DefaultSize
	}
	return &Ring{pulls: make([]Pull, 0, size)}
}

// Add records p.
func (r *Ring) Add(p Pull) {
	p.Peers = slices.Clone(p.Peers)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pulls) < cap(r.pulls) {
		r.pulls = append(r.pulls, p)
		return
	}
	r.pulls[r.next] = p
	r.next = (r.next + 1) % len(r.pulls)
}

// Recent returns the pulls kept, oldest first.
func (r *Ring) Recent() []Pull {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Pull, 0, len(r.pulls))
	out = append(out, r.pulls[r.next:]...)
	out = append(out, r.pulls[:r.next]...)
	for i := range out {
		out[i].Peers = slices.Clone(out[i].Peers)
	}
	return out
}
