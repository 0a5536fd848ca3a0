package swarm

import "time"

// Followers are the nodes that follow one holder's layer, each keeping a
// state request in flight to it. Every node of a rollout finds the seed
// (names give readers first; it ranks first among the nodes probed) and
// asks it for each new piece no other holder it follows offers; the seed
// sends two copies and refuses the rest. Simulator, one 64 MiB layer, 5 ms
// hop, 8 s size ÷ link: the seed answered 3,850 states and refusals a
// second at 100 nodes, 11,500 at 300 and 12,900 at 1,000 (26,300 at 1 s),
// each an HTTP exchange with a have-set. Past Config.MaxFollowers a holder
// turns new followers away (HolderState.Crowded): 3,177, 3,335 and 3,779
// (5,308), p99 1.29× → 1.28×, 1.41× → 1.37×, 1.58× → 1.49× (1 s: 2.15× →
// 2.22×).
//
// Not safe for concurrent use; its owner locks.
type Followers struct {
	limit int
	last  map[string]time.Time
}

// followerSilence is how long a follower may go unheard before it no longer
// counts: one that follows asks a state at least every StateHold (held)
// plus StatePoll (its spacing), and one that is done stops.
const followerSilence = 2 * (StateHold + StatePoll)

// NewFollowers returns the followers of a layer that lets limit nodes
// follow it (Config.MaxFollowers; 0: any number).
func NewFollowers(limit int) *Followers {
	return &Followers{limit: limit, last: map[string]time.Time{}}
}

// Admit records that who asked the layer's state at now, and reports
// whether it follows: it did already, or there is room for it.
func (f *Followers) Admit(now time.Time, who string) bool {
	if _, ok := f.last[who]; ok || f.limit <= 0 {
		f.last[who] = now
		return true
	}
	if len(f.last) >= f.limit {
		for id, at := range f.last {
			if now.Sub(at) > followerSilence {
				delete(f.last, id)
			}
		}
		if len(f.last) >= f.limit {
			return false
		}
	}
	f.last[who] = now
	return true
}

// Idle reports whether no follower has been heard from for as long as a
// follower may be silent: the record has nothing to remember at now.
func (f *Followers) Idle(now time.Time) bool {
	for _, at := range f.last {
		if now.Sub(at) <= followerSilence {
			return false
		}
	}
	return true
}

// MaxFollowers is how many nodes may follow one holder's layer: twice
// the holders a node follows. As many as Holders cost time (simulator,
// 100 nodes, 8 s: p99 1.31× against 1.28×).
func (c Config) MaxFollowers() int { return 2 * c.Holders }
