package fetcher

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
)

// Received says where the content that one PeerFirst fetched came from:
// what one pull received, for `shoal pulls`.
type Received struct {
	// Upstream is the bytes read from the upstream through this fetcher:
	// after a miss, to finish blobs that peers started, and content that
	// is not for peers (foreign layers).
	Upstream int64
	// Peers maps each peer that sent content that was kept to its bytes.
	Peers map[peer.ID]int64
	// Failovers counts the peers that failed this fetcher (an error, a
	// stall, bad bytes, a stale announcement, a busy answer), after which
	// it went on with another peer or the upstream.
	Failovers int64
}

// tally adds up a PeerFirst's Received as it happens; safe for concurrent
// use, as containerd fetches an image's blobs concurrently.
type tally struct {
	upstream  atomic.Int64
	failovers atomic.Int64

	mu    sync.Mutex
	peers map[peer.ID]int64
}

func (t *tally) fromPeer(p peer.ID, n int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.peers == nil {
		t.peers = map[peer.ID]int64{}
	}
	t.peers[p] += n
}

// Received returns what this fetcher has received so far.
func (pf *PeerFirst) Received() Received {
	pf.tally.mu.Lock()
	peers := maps.Clone(pf.tally.peers)
	pf.tally.mu.Unlock()
	if peers == nil {
		peers = map[peer.ID]int64{}
	}
	return Received{Upstream: pf.tally.upstream.Load(), Peers: peers, Failovers: pf.tally.failovers.Load()}
}

// judge is Fetcher.judge for a request of this fetcher: p failed it, and
// the fetch goes on elsewhere.
func (pf *PeerFirst) judge(p peer.ID, d digest.Digest, err error) {
	pf.tally.failovers.Add(1)
	pf.f.judge(p, d, err)
}
