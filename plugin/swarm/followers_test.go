package swarm

import (
	"fmt"
	"testing"
	"time"
)

func TestAHolderLetsSoManyFollowItAndMakesRoomForNewOnesAsOldOnesGoQuiet(t *testing.T) {
	f := NewFollowers(3)
	for i := range 3 {
		if !f.Admit(epoch, fmt.Sprint("node-", i)) {
			t.Fatalf("node-%d turned away with room left", i)
		}
	}
	if f.Admit(epoch, "node-3") {
		t.Fatal("a fourth follower admitted past the limit of three")
	}
	later := epoch.Add(followerSilence)
	for i := range 2 {
		if !f.Admit(later, fmt.Sprint("node-", i)) {
			t.Fatalf("node-%d, a follower, turned away", i)
		}
	}
	if f.Admit(later, "node-3") {
		t.Fatal("admitted while node-2, silent for no longer than a follower may be, still counts")
	}
	if !f.Admit(later.Add(time.Millisecond), "node-3") {
		t.Fatal("turned away though node-2 has been silent for longer than a follower may be")
	}
	if f.Admit(later.Add(time.Millisecond), "node-2") {
		t.Fatal("node-2 came back to a full set and was admitted")
	}
	if f.Idle(later.Add(followerSilence)) || !f.Idle(later.Add(followerSilence+2*time.Millisecond)) {
		t.Fatal("idle while a follower may still be heard from, or not idle once none may")
	}
	if !NewFollowers(0).Admit(epoch, "any") {
		t.Fatal("no limit turned a node away")
	}
	if got := DefaultConfig().MaxFollowers(); got != 2*DefaultConfig().Holders {
		t.Fatalf("MaxFollowers %d, want twice Holders", got)
	}
}

// A holder that is crowded is followed no longer while another found can
// take its place; it still counts as the seed that reads.
func TestACrowdedHolderIsLeftForOneInReserve(t *testing.T) {
	cfg := testConfig()
	cfg.Holders = 2
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("seed", "a", "b")
	s.Decided(epoch)
	s.Update(epoch, "seed", HolderState{Have: haveOf(9, 0, 1), Seed: true, Upstream: 2 << 20, Crowded: true})
	if got := s.Active(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("active %v, want the two holders in reserve in its place", got)
	}
	if seeds, reading := s.Seeds(); seeds != 1 || reading != 1 || !s.readerKnown() {
		t.Fatalf("seeds %d, reading %d, reader known %v: the crowded seed should still count", seeds, reading, s.readerKnown())
	}
	s.Update(epoch, "a", HolderState{Have: haveOf(9), Crowded: true})
	if got := s.Active(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("active %v: with nobody left in reserve a crowded holder stays followed", got)
	}
}
