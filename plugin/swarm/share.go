package swarm

import "time"

// shareRenew is how long a layer's pieces go unsent before the copies a
// node sent of it are forgotten: its rollout is over. Within one, the
// nodes fetching the layer ask a holder's state every 400 ms and ask for
// its pieces as soon as it has them, so no pause comes near it; between
// rollouts of the same image, hours pass. Not tuned.
const shareRenew = 10 * time.Second

// Share is what a node has sent of one layer to peers in its current
// rollout. Past Config.Share copies it sends only a piece its asker finds
// at no other holder (Request.Only): so the uploads of a rollout spread
// over the nodes that follow each other, and a piece this node alone
// holds still leaves it. Refusing too a piece that had left it once (its
// receiver would pass it on) took the most a node uploaded at 1,000
// simulated nodes from 2.39 to 2.05 copies, but a receiver that corrupts
// or cancels passes nothing on: in the six-node lab the registry sent
// 1.31–1.72 copies instead of 1.05–1.09, its askers having stalled.
//
// Not safe for concurrent use; its owner locks.
type Share struct {
	limit int64 // bytes
	piece int64 // the layer's piece size
	sent  int64
	last  time.Time
}

// NewShare returns the record of layer, of which a node sends copies
// copies (Config.Share) before it sends only what no other holder
// offers; copies 0: no limit.
func NewShare(layer Layer, copies float64) *Share {
	return &Share{limit: int64(copies * float64(layer.Size)), piece: layer.PieceSize}
}

// Spent reports whether the node has sent its share at now: a piece more
// would take it past.
func (s *Share) Spent(now time.Time) bool {
	s.renew(now)
	return s.limit > 0 && s.sent+s.piece > s.limit
}

// Take reports whether a piece of length bytes may be sent at now to an
// asker that finds it at no other holder (only) or not, and counts it if
// so.
func (s *Share) Take(now time.Time, length int64, only bool) bool {
	s.renew(now)
	if s.limit > 0 && s.sent+length > s.limit && !only {
		return false
	}
	s.sent += length
	s.last = now
	return true
}

// Idle reports whether the record has nothing to remember at now.
func (s *Share) Idle(now time.Time) bool {
	s.renew(now)
	return s.sent == 0
}

func (s *Share) renew(now time.Time) {
	if now.Sub(s.last) >= shareRenew {
		s.sent = 0
	}
}
