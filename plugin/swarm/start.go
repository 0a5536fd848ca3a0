package swarm

import (
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Found is a node found for the layer before this node decides whether it
// takes the layer from the upstream: by a lookup, by asking this node for
// the layer, or by a probe of the nodes ranked first (Config.Probe).
type Found struct {
	ID peer.ID
	// Before: ranked before this node for the layer (nearer its key in the
	// DHT's key space), so it goes to the upstream before this one would.
	Before bool
	// State is what it said of itself when asked; nil: no answer.
	State *HolderState
}

// Start tells the session of the nodes found for the layer, and decides
// whether this node waits for their pieces or takes the layer from the
// upstream. It returns true when it cannot decide yet: no node found is
// ahead of this one, and the driver asks the nodes ranked first whether
// they fetch the layer (they start it soon, at their own pace through the
// image's layers), then calls Probed. In a rollout whose lookups all came
// back empty, one node then takes the layer from the upstream, not every
// one; if none of those ranked first ever starts it, the Stall rule does.
func (s *Session) Start(now time.Time, found []Found) (probe bool) {
	ahead, behind := s.waitsFor(found)
	if len(ahead) == 0 {
		s.pending = behind
		return true
	}
	s.join(now, ahead, behind)
	return false
}

// Probed tells the session what the nodes ranked first answered: held hold
// or receive the layer, pulls pull from its repository now. The session
// decides then.
func (s *Session) Probed(now time.Time, held []Found, pulls []peer.ID) {
	ahead, behind := s.waitsFor(held)
	for _, id := range pulls {
		ahead = append(ahead, Found{ID: id, Before: true})
	}
	s.join(now, ahead, append(s.pending, behind...))
	s.pending = nil
}

// waitsFor splits the nodes found into those this node waits for and the
// rest. Nodes ranked before it count, unless they cap their uplink and
// hold nothing yet: such a node takes the layer from the upstream last, and
// in a six-node rollout the nodes ranked after a capped node waited for it
// until they stalled, 2 s a layer. A node that spares its uplink (capped,
// or serving nothing) counts every node as ahead of it: in the six-node lab
// a node capped at a tenth of its link that took a layer from the registry
// held the others to 19× size ÷ link.
func (s *Session) waitsFor(found []Found) (ahead, behind []Found) {
	for _, f := range found {
		st := f.State
		sparesItself := st != nil && st.Cap > 0 && !st.Seed && st.Have.Count() == 0
		if (f.Before || s.spare) && !sparesItself {
			ahead = append(ahead, f)
		} else {
			behind = append(behind, f)
		}
	}
	return ahead, behind
}

// join adds the nodes found and decides. A node behind this one counts
// only once it holds pieces or takes them from the upstream: with nothing,
// it may be waiting for this one.
func (s *Session) join(now time.Time, ahead, behind []Found) {
	for _, f := range ahead {
		s.AddHolders(f.ID)
	}
	for _, f := range behind {
		if st := f.State; st != nil && (st.Seed || st.Have.Count() > 0) {
			s.AddHolders(f.ID)
		}
	}
	s.Decided(now)
	for _, f := range slices.Concat(ahead, behind) {
		s.AddHolders(f.ID)
		if f.State != nil {
			s.Update(now, f.ID, *f.State)
		}
	}
}
