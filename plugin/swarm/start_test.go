package swarm

import (
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Whom a node waits for before it takes a layer from the upstream, from
// the nodes its lookup found and, when none of them is ahead of it, from
// the nodes ranked first that it probes.
func TestANodeWaitsForTheNodesAheadOfItOrTakesTheLayer(t *testing.T) {
	empty := NewBitfield(layer.Pieces())
	idle := &HolderState{Have: empty}
	some := &HolderState{Have: haveOf(layer.Pieces(), 0)}
	seed := &HolderState{Have: empty, Seed: true}
	capped := &HolderState{Have: empty, Cap: 2_000_000}
	cappedWithPieces := &HolderState{Have: haveOf(layer.Pieces(), 0), Cap: 2_000_000}
	cappedSeed := &HolderState{Have: empty, Seed: true, Cap: 2_000_000}
	for _, c := range []struct {
		name   string
		spare  bool // this node spares its uplink
		found  []Found
		probe  bool // Start asks for a probe
		held   []Found
		pulls  []peer.ID
		seed   bool
		follow []peer.ID // the holders it knows then
	}{
		{name: "a lone miss", probe: true, seed: true},
		{name: "a node ranked before", found: []Found{{ID: "a", Before: true}}, follow: []peer.ID{"a"}},
		{name: "one before that said nothing", found: []Found{{ID: "a", Before: true, State: nil}}, follow: []peer.ID{"a"}},
		{name: "only nodes after it, idle or silent: it may be theirs to wait for",
			found: []Found{{ID: "b", State: idle}, {ID: "c"}}, probe: true, seed: true, follow: []peer.ID{"b", "c"}},
		{name: "a node after it with pieces", found: []Found{{ID: "b", State: some}}, probe: true, follow: []peer.ID{"b"}},
		{name: "a seed after it", found: []Found{{ID: "b", State: seed}}, probe: true, follow: []peer.ID{"b"}},
		{name: "a capped node before it with nothing takes the layer last",
			found: []Found{{ID: "a", Before: true, State: capped}}, probe: true, seed: true, follow: []peer.ID{"a"}},
		{name: "a capped node before it with pieces", found: []Found{{ID: "a", Before: true, State: cappedWithPieces}}, follow: []peer.ID{"a"}},
		{name: "a capped seed before it", found: []Found{{ID: "a", Before: true, State: cappedSeed}}, follow: []peer.ID{"a"}},
		{name: "a probed node that holds it", probe: true, held: []Found{{ID: "a", Before: true}}, follow: []peer.ID{"a"}},
		{name: "a probed node that pulls from the repository", probe: true, pulls: []peer.ID{"a"}, follow: []peer.ID{"a"}},
		{name: "a probed capped node with nothing", probe: true, held: []Found{{ID: "a", Before: true, State: capped}}, seed: true, follow: []peer.ID{"a"}},
		{name: "sparing its uplink, it waits for nodes after it", spare: true, found: []Found{{ID: "b", State: idle}}, follow: []peer.ID{"b"}},
		{name: "sparing its uplink, not for a capped one with nothing", spare: true,
			found: []Found{{ID: "b", State: capped}}, probe: true, seed: true, follow: []peer.ID{"b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewSession(testConfig(), layer, "self", epoch)
			if c.spare {
				s.SpareUplink()
			}
			probe := s.Start(epoch, c.found)
			if probe != c.probe {
				t.Fatalf("probe %v, want %v", probe, c.probe)
			}
			if probe {
				if got := s.Next(epoch); got != nil {
					t.Fatalf("asks %v before it has decided", got)
				}
				s.Probed(epoch, c.held, c.pulls)
			}
			if s.Seed() != c.seed {
				t.Errorf("seed %v, want %v", s.Seed(), c.seed)
			}
			got := s.Known()
			slices.Sort(got)
			if !slices.Equal(got, c.follow) {
				t.Errorf("knows %v, want %v", got, c.follow)
			}
		})
	}
}
