package swarm

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
)

var (
	epoch = time.Unix(1_000_000, 0)
	layer = Layer{Digest: digest.FromString("layer"), Size: 8<<20 + 5, PieceSize: 1 << 20} // 9 pieces, the last of 5 bytes
)

func testConfig() Config {
	cfg := DefaultConfig()
	cfg.Window = 4
	return cfg
}

func haveOf(n int, pieces ...int) Bitfield {
	b := NewBitfield(n)
	for _, i := range pieces {
		b.Set(i)
	}
	return b
}

func TestLayerPieces(t *testing.T) {
	if n := layer.Pieces(); n != 9 {
		t.Fatalf("pieces: %d, want 9", n)
	}
	if l := layer.PieceLen(8); l != 5 {
		t.Fatalf("last piece: %d bytes, want 5", l)
	}
}

func TestALoneMissTakesTheWindowFromTheUpstreamInOrderAtOnce(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	if got := s.Next(epoch); got != nil {
		t.Fatalf("before the lookup is in: %v, want nothing", got)
	}
	s.Decided(epoch)
	if !s.Seed() || s.SeedReason() != "no holder found; last progress 0s before" {
		t.Fatalf("a node that found no holder: seed %v, why %q", s.Seed(), s.SeedReason())
	}
	want := []Request{{Piece: 0, From: Upstream}, {Piece: 1, From: Upstream}}
	if got := s.Next(epoch); !slices.Equal(got, want) {
		t.Fatalf("requests: %v, want %v (PerHolder=2, in order)", got, want)
	}
}

func TestANodeWithHoldersWaitsForThemAndAsksTheRarestFirst(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("a", "b")
	s.Decided(epoch)
	if s.Seed() {
		t.Fatal("a node that found holders went to the upstream")
	}
	if got := s.Next(epoch); got != nil {
		t.Fatalf("holders hold nothing yet: %v, want no request", got)
	}
	s.Update(epoch, "a", HolderState{Have: haveOf(9, 0, 1, 2, 3)})
	s.Update(epoch, "b", HolderState{Have: haveOf(9, 0, 1)})
	got := s.Next(epoch)
	// Piece 0 is urgent; then the rarest: 2 and 3 (only a has them), but a
	// takes two requests at once, so one of them waits.
	if len(got) != 3 || got[0].Piece != 0 {
		t.Fatalf("requests: %v, want the urgent piece 0 first, then two more", got)
	}
	var fromA []int
	for _, r := range got {
		if r.From == Upstream {
			t.Fatalf("asked the upstream though holders are fetching: %v", got)
		}
		if r.From == "a" {
			fromA = append(fromA, r.Piece)
		}
	}
	if len(fromA) != 2 || (!slices.Contains(fromA, 2) && !slices.Contains(fromA, 3)) {
		t.Fatalf("asked a for %v, want two pieces including a rare one (2 or 3)", fromA)
	}
}

func TestAFastIdleHolderIsPreferred(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("slow", "fast")
	s.Decided(epoch)
	all := haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)
	s.Update(epoch, "slow", HolderState{Have: all})
	s.Update(epoch, "fast", HolderState{Have: all})
	// One piece each, to measure them: slow takes a second, fast 10 ms.
	s.Wrote(0)
	first := s.Next(epoch)
	for _, r := range first {
		took := 10 * time.Millisecond
		if r.From == "slow" {
			took = time.Second
		}
		s.Received(epoch.Add(took), r.Piece, r.From)
	}
	s.Wrote(4)
	s.Update(epoch.Add(time.Second), "slow", HolderState{Have: all})
	s.Update(epoch.Add(time.Second), "fast", HolderState{Have: all})
	got := s.Next(epoch.Add(time.Second))
	if len(got) == 0 || got[0].From != "fast" {
		t.Fatalf("requests: %v, want the urgent piece from the fast holder", got)
	}
}

func TestALateUrgentPieceIsAskedOfASecondSource(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("a", "b")
	s.Decided(epoch)
	s.Update(epoch, "a", HolderState{Have: haveOf(9, 0)})
	got := s.Next(epoch)
	if len(got) != 1 || got[0] != (Request{Piece: 0, From: "a", Only: true}) {
		t.Fatalf("requests: %v, want piece 0 from a", got)
	}
	s.Update(epoch, "b", HolderState{Have: haveOf(9, 0)})
	if got := s.Next(epoch.Add(time.Second)); len(got) != 0 {
		t.Fatalf("a second after: %v, want no hedge before Stall (a's rate is not known)", got)
	}
	late := epoch.Add(testConfig().Stall)
	if w := s.Wake(epoch); !w.Equal(late) {
		t.Fatalf("wake: %v, want %v", w, late)
	}
	// Nothing arrived for Stall either: the node also takes the pieces no
	// holder has from the upstream.
	got = s.Next(late)
	if len(got) == 0 || got[0] != (Request{Piece: 0, From: "b", Hedge: true}) {
		t.Fatalf("requests when late: %v, want piece 0 from b as a hedge first", got)
	}
	cancel := s.Received(late.Add(time.Millisecond), 0, "b")
	if len(cancel) != 1 || cancel[0].From != "a" {
		t.Fatalf("cancel: %v, want a's request", cancel)
	}
}

func TestACorruptingHolderIsNeverAskedAgainAndTheLastOneLeftMakesASeed(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("bad")
	s.Decided(epoch)
	s.Update(epoch, "bad", HolderState{Have: haveOf(9, 0, 1, 2, 3)})
	for _, r := range s.Next(epoch) {
		s.Failed(epoch, r.Piece, r.From, Corrupt)
	}
	s.Update(epoch, "bad", HolderState{Have: haveOf(9, 0, 1, 2, 3)})
	got := s.Next(epoch)
	for _, r := range got {
		if r.From == "bad" {
			t.Fatalf("asked the corrupting holder again: %v", got)
		}
	}
	if !s.Seed() || len(got) == 0 || got[0] != (Request{Piece: 0, From: Upstream}) {
		t.Fatalf("requests: %v (seed %v), want the upstream: nobody is left", got, s.Seed())
	}
}

// Nodes that stall together take the upstream one after the other, in
// rendezvous order: the first at Stall, the next a share of Stall later;
// the first's seed flag is progress for the next, which waits on.
func TestStalledNodesTakeTheUpstreamOneAfterTheOther(t *testing.T) {
	cfg := testConfig()
	ids := []peer.ID{"x", "y"}
	if string(pieceScore(layer.Digest, -1, "y")) > string(pieceScore(layer.Digest, -1, "x")) {
		ids[0], ids[1] = ids[1], ids[0]
	}
	first, second := NewSession(cfg, layer, ids[0], epoch), NewSession(cfg, layer, ids[1], epoch)
	first.AddHolders(ids[1])
	second.AddHolders(ids[0])
	first.Decided(epoch)
	second.Decided(epoch)
	if got := first.Next(epoch.Add(time.Second)); len(got) != 0 {
		t.Fatalf("after a second: %v, want to wait", got)
	}
	stall := epoch.Add(cfg.Stall)
	if w := first.Wake(epoch); !w.Equal(stall) {
		t.Fatalf("first wakes at %v, want Stall (%v)", w.Sub(epoch), cfg.Stall)
	}
	later := epoch.Add(cfg.Stall + cfg.Stall/2)
	if w := second.Wake(epoch); !w.Equal(later) {
		t.Fatalf("second wakes at %v, want Stall and half (one live holder before it, of two)", w.Sub(epoch))
	}
	got := first.Next(stall)
	if !first.Seed() || len(got) == 0 || got[0] != (Request{Piece: 0, From: Upstream}) {
		t.Fatalf("first after Stall: %v, want piece 0 from the upstream", got)
	}
	seen := stall.Add(100 * time.Millisecond)
	second.Update(seen, ids[0], HolderState{Have: NewBitfield(9), Seed: true})
	for _, r := range second.Next(later) {
		if r.From == Upstream {
			t.Fatalf("second went upstream at its turn though the first had: %v", r)
		}
	}
	// The first has read nothing yet: its claim counts for a stall time
	// more, then the second's own stall time runs.
	if w := second.Wake(later); !w.Equal(seen.Add(cfg.Stall + cfg.Stall + cfg.Stall/2)) {
		t.Fatalf("second wakes at %v, want its stall counted from a stall time after the first's seed flag", w.Sub(epoch))
	}
}

// A seed still reading its first piece from a busy registry is not
// stuck: while its bytes from the upstream grow, the nodes waiting for it
// do not go upstream too; once they stop growing for Stall, they do.
func TestASeedWhoseUpstreamBytesGrowIsNotAStall(t *testing.T) {
	cfg := testConfig()
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("seed")
	s.Decided(epoch)
	s.Update(epoch, "seed", HolderState{Have: NewBitfield(9), Seed: true})
	step := cfg.Stall / 2
	at := epoch
	for read := int64(1); read <= 6; read++ { // three Stalls, no piece yet
		at = at.Add(step)
		s.Update(at, "seed", HolderState{Have: NewBitfield(9), Seed: true, Upstream: read << 16})
		for _, r := range s.Next(at) {
			if r.From == Upstream {
				t.Fatalf("after %v of a seed reading on: %v, want to wait for it", at.Sub(epoch), r)
			}
		}
	}
	if s.Seed() {
		t.Fatal("turned seed while the seed's bytes grew")
	}
	stuck := at.Add(2 * cfg.Stall) // Stall and its share for the holders ranked before
	s.Update(stuck, "seed", HolderState{Have: NewBitfield(9), Seed: true, Upstream: 6 << 16})
	got := s.Next(stuck)
	if len(got) != 1 || got[0] != (Request{Piece: 0, From: Upstream}) {
		t.Fatalf("after Stall with the seed's bytes still: %v, want piece 0 from the upstream, no more", got)
	}
	// A seed reads the layer: this node took the piece it waited for, and
	// does not read on, nor become a seed another would yield to.
	if s.Seed() || s.LeavesUpstream(stuck) {
		t.Fatalf("seed %v, leaves the upstream with piece 0 asked there %v: want neither", s.Seed(), s.LeavesUpstream(stuck))
	}
	s.Received(stuck, 0, Upstream)
	if !s.LeavesUpstream(stuck) {
		t.Fatal("holds its body open to the upstream after the piece it waited for")
	}
	for _, r := range s.Next(stuck) {
		if r.From == Upstream {
			t.Fatalf("after the piece it waited for: %v, want nothing more from the upstream", r)
		}
	}
}

// A node that follows no seed learns through the holders it follows that
// one reads the layer (HolderState.Reading): while what it read grows, the
// node waits for its pieces instead of reading the layer beside it; once
// it stops growing for a stall time, the node becomes the seed. It passes
// on the most it was told.
func TestASeedReadingFarAwayIsNoStall(t *testing.T) {
	cfg := testConfig()
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("follower", "other")
	s.Decided(epoch)
	s.Update(epoch, "follower", HolderState{Have: NewBitfield(9)})
	s.Update(epoch, "other", HolderState{Have: NewBitfield(9), Reading: []SeedRead{{"seed", 1 << 10}}})
	step := cfg.Stall / 2
	at := epoch
	for read := int64(1); read <= 6; read++ { // three Stalls, no piece yet
		at = at.Add(step)
		s.Update(at, "follower", HolderState{Have: NewBitfield(9), Reading: []SeedRead{{"seed", read << 16}}})
		for _, r := range s.Next(at) {
			if r.From == Upstream {
				t.Fatalf("after %v of a seed reading on, told by a holder: %v, want to wait for it", at.Sub(epoch), r)
			}
		}
		if got := s.Reading(); len(got) != 1 || got[0] != (SeedRead{"seed", read << 16}) {
			t.Fatalf("passes on %v, want the most told of the seed, %d bytes", got, read<<16)
		}
	}
	if s.Seed() {
		t.Fatal("turned seed while a seed's bytes grew")
	}
	stuck := at.Add(2 * cfg.Stall) // Stall and its share for the holders ranked before
	s.Update(stuck, "follower", HolderState{Have: NewBitfield(9), Reading: []SeedRead{{"seed", 6 << 16}}})
	s.Next(stuck)
	if !s.Seed() {
		t.Fatal("not a seed after a stall time with the seed's bytes still")
	}
}

// A seed this node caught sending bad pieces is no progress, however far
// it reads as others tell: the node stalls on it as on silence and reads
// the layer itself, and passes the bad seed's bytes on to nobody. Another
// seed's bytes still count.
func TestASeedCaughtSendingBadPiecesIsNoProgress(t *testing.T) {
	cfg := testConfig()
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("bad", "follower")
	s.Decided(epoch)
	s.Update(epoch, "bad", HolderState{Have: NewBitfield(9), Seed: true, Upstream: 1 << 10})
	s.Update(epoch, "follower", HolderState{Have: NewBitfield(9), Reading: []SeedRead{{"bad", 1 << 10}, {"self", 1}}})
	s.Failed(epoch, 0, "bad", Corrupt)
	if got := s.Reading(); len(got) != 0 {
		t.Fatalf("passes on %v, want no seed: the only one sent bad pieces", got)
	}
	at := epoch
	for read := int64(1); !s.Seed(); read++ {
		at = at.Add(cfg.Stall / 4)
		if at.Sub(epoch) > 4*cfg.Stall {
			t.Fatalf("no seed %v after the only one was caught, while others told of its bytes", at.Sub(epoch))
		}
		s.Update(at, "follower", HolderState{Have: NewBitfield(9), Reading: []SeedRead{{"bad", read << 16}}})
		s.Next(at)
	}
	if waited := at.Sub(epoch); waited < cfg.Stall {
		t.Fatalf("a seed after %v, before a stall time", waited)
	}

	s = NewSession(cfg, layer, "self", epoch)
	s.AddHolders("bad", "follower")
	s.Decided(epoch)
	s.Update(epoch, "follower", HolderState{Have: NewBitfield(9)})
	s.Failed(epoch, 0, "bad", Corrupt)
	for at := epoch; at.Sub(epoch) < 3*cfg.Stall; at = at.Add(cfg.Stall / 4) {
		read := int64(at.Sub(epoch)/(cfg.Stall/4)) + 1
		s.Update(at, "follower", HolderState{Have: NewBitfield(9), Reading: []SeedRead{{"bad", read << 16}, {"good", read << 10}}})
		for _, r := range s.Next(at) {
			if r.From == Upstream {
				t.Fatalf("after %v of another seed reading on: %v, want to wait for it", at.Sub(epoch), r)
			}
		}
	}
	if got := s.Reading(); len(got) != 1 || got[0].Seed != "good" {
		t.Fatalf("passes on %v, want the good seed alone", got)
	}
}

// A state tells of MaxReaders seeds at most, those furthest along.
func TestReadingTellsOfTheSeedsFurthestAlong(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("follower")
	var told []SeedRead
	for i := range MaxReaders + 3 {
		told = append(told, SeedRead{peer.ID(fmt.Sprint("seed", i)), int64(i + 1)})
	}
	s.Update(epoch, "follower", HolderState{Have: NewBitfield(9), Reading: told})
	got := s.Reading()
	if len(got) != MaxReaders {
		t.Fatalf("tells of %d seeds, want %d", len(got), MaxReaders)
	}
	for k, sr := range got {
		if sr.Bytes != int64(MaxReaders+3-k) {
			t.Fatalf("tells of %v, want the %d furthest along, furthest first", got, MaxReaders)
		}
	}
}

// A node that stalls while its seed has read nothing (the seed may wait
// for a request to the registry) becomes the seed and reads the layer.
func TestANodeStalledOnASeedThatReadsNothingBecomesTheSeed(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 3, 3
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("seed")
	s.Decided(epoch)
	s.Update(epoch, "seed", HolderState{Have: NewBitfield(9), Seed: true})
	if got := s.Next(epoch.Add(2 * cfg.Stall)); len(got) != 0 || s.Seed() {
		t.Fatalf("a stall time after a seed's claim, before its first bytes could show: %v, want to wait", got)
	}
	stuck := epoch.Add(3 * cfg.Stall) // the claim's stall time, then this node's (Stall and its share)
	got := s.Next(stuck)
	if !s.Seed() || len(got) != 3 {
		t.Fatalf("seed %v, requests %v: want a seed asking the upstream for 3 pieces", s.Seed(), got)
	}
	for k, r := range got {
		if r != (Request{Piece: k, From: Upstream}) {
			t.Fatalf("requests %v: want pieces 0-2 from the upstream", got)
		}
	}
}

// rankedPair is two node IDs, the first ranked before the second for layer.
func rankedPair() (first, second peer.ID) {
	first, second = "seed-a", "seed-b"
	if string(pieceScore(layer.Digest, -1, second)) > string(pieceScore(layer.Digest, -1, first)) {
		first, second = second, first
	}
	return first, second
}

// Of two seeds that have read as much of the layer from the upstream, the
// one ranked after the other yields: one seed reads the layer over one
// body.
func TestOfSeedsThatReadAsMuchTheOneRankedFirstReadsOn(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 9, 9
	first, second := rankedPair()
	a := NewSession(cfg, layer, first, epoch)
	b := NewSession(cfg, layer, second, epoch)
	for _, s := range []*Session{a, b} {
		s.Decided(epoch)
		s.Received(epoch, 0, Upstream)
		s.ReadFromUpstream(layer.PieceLen(0))
	}
	a.Update(epoch, second, HolderState{Have: haveOf(9, 0), Seed: true, Upstream: layer.PieceLen(0)})
	b.Update(epoch, first, HolderState{Have: haveOf(9, 0), Seed: true, Upstream: layer.PieceLen(0)})
	if a.Yields() || !b.Yields() {
		t.Fatalf("yields: first %v, second %v; want only the second", a.Yields(), b.Yields())
	}
	got := a.Next(epoch)
	if len(got) != 8 {
		t.Fatalf("the first seed asks %v, want pieces 1-8 from the upstream", got)
	}
	for k, r := range got {
		if r != (Request{Piece: k + 1, From: Upstream}) {
			t.Fatalf("the first seed asks %v, want pieces 1-8 from the upstream", got)
		}
	}
	for _, r := range b.Next(epoch) {
		if r.From == Upstream {
			t.Fatalf("the second seed asks %v of the upstream", r)
		}
	}
	// The second takes from the first what the first read.
	b.Update(epoch, first, HolderState{Have: haveOf(9, 0, 1), Seed: true, Upstream: 2 * layer.PieceLen(0)})
	if got := b.Next(epoch); len(got) != 1 || got[0] != (Request{Piece: 1, From: first, Only: true}) {
		t.Fatalf("the second seed asks %v, want piece 1 from the first", got)
	}
}

// Of two seeds that read, the one that has read less yields, whatever
// their ranks, and each stays on its side as the other's states come in
// late: the first-ranked seed's registry body was slow to start, a
// follower stalled, became a seed and read on.
func TestOfSeedsThatReadTheOneThatReadLessYields(t *testing.T) {
	first, second := rankedPair()
	a := NewSession(testConfig(), layer, first, epoch)
	b := NewSession(testConfig(), layer, second, epoch)
	for _, s := range []*Session{a, b} {
		s.Decided(epoch)
	}
	a.ReadFromUpstream(41 << 10) // part of its first piece
	b.Received(epoch, 0, Upstream)
	b.ReadFromUpstream(1 << 20)
	a.Update(epoch, second, HolderState{Have: haveOf(9, 0), Seed: true, Upstream: 1 << 20})
	b.Update(epoch, first, HolderState{Have: NewBitfield(9), Seed: true, Upstream: 41 << 10})
	if !a.Yields() || !a.LeavesUpstream(epoch) {
		t.Fatalf("yields %v, leaves the upstream %v: the seed ranked first, 41 KiB in, should leave the layer to the one that read 1 MiB", a.Yields(), a.LeavesUpstream(epoch))
	}
	if b.Yields() {
		t.Fatal("the seed that read 1 MiB yields to one that read 41 KiB")
	}
	// Each reads on (or not) from the other's late states: the one behind
	// still says less than the one ahead has read by now.
	a.ReadFromUpstream(64 << 10)
	b.ReadFromUpstream(3 << 20)
	b.Update(epoch.Add(time.Second), first, HolderState{Have: NewBitfield(9), Seed: true, Upstream: 64 << 10})
	a.Update(epoch.Add(time.Second), second, HolderState{Have: haveOf(9, 0, 1), Seed: true, Upstream: 2 << 20})
	if !a.Yields() || b.Yields() {
		t.Fatalf("yields: first %v, second %v; want only the first", a.Yields(), b.Yields())
	}
}

// A seed that says it yields is not yielded to, whatever it has read:
// of two seeds, one reads by what each says of itself.
func TestASeedThatSaysItYieldsIsNotYieldedTo(t *testing.T) {
	first, second := rankedPair()
	b := NewSession(testConfig(), layer, second, epoch)
	b.Decided(epoch)
	b.ReadFromUpstream(41 << 10)
	b.Update(epoch, first, HolderState{Have: haveOf(9, 0), Seed: true, Upstream: 1 << 20})
	if !b.Yields() {
		t.Fatal("a seed that read 41 KiB does not yield to one that read 1 MiB")
	}
	b.Update(epoch, first, HolderState{Have: haveOf(9, 0), Seed: true, Yields: true, Upstream: 1 << 20})
	if b.Yields() || b.LeavesUpstream(epoch) {
		t.Fatalf("yields %v, leaves the upstream %v to a seed that says it yields", b.Yields(), b.LeavesUpstream(epoch))
	}
}

// loneSeedReading is a lone seed of a layer of nine pieces that has asked
// the upstream for the first three.
func loneSeedReading(t *testing.T) (*Session, Config) {
	t.Helper()
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 3, 3
	s := NewSession(cfg, layer, "self", epoch)
	s.Decided(epoch)
	if got := s.Next(epoch); len(got) != 3 || got[0].From != Upstream {
		t.Fatalf("a lone seed asks %v, want 3 pieces of the upstream", got)
	}
	return s, cfg
}

// A seed that stops reading the upstream has its requests there ended:
// the pieces are asked again, of the upstream when it reads on.
func TestStopUpstreamEndsTheRequestsToTheUpstream(t *testing.T) {
	s, _ := loneSeedReading(t)
	s.StopUpstream(epoch)
	if got := s.Next(epoch); len(got) != 3 || got[0] != (Request{Piece: 0, From: Upstream}) {
		t.Fatalf("after StopUpstream: %v, want pieces 0-2 of the upstream again", got)
	}
}

// A seed whose upstream failed asks holders for the pieces they offer at
// once, and the upstream again only a stall time later; a second failure
// with nothing arrived since fails the fetch, one after a piece does not.
func TestAnUpstreamFailureLeavesThePiecesToHoldersForAStall(t *testing.T) {
	s, cfg := loneSeedReading(t)
	s.Update(epoch, "peer", HolderState{Have: haveOf(9, 1)})
	at := epoch.Add(time.Millisecond)
	if s.UpstreamFailed(at) {
		t.Fatal("a first failure fails the fetch")
	}
	if got := s.Next(at); len(got) != 1 || got[0].Piece != 1 || got[0].From != "peer" {
		t.Fatalf("after the failure: %v, want piece 1 of the peer and nothing of the upstream", got)
	}
	if w := s.Wake(at); w.After(at.Add(cfg.Stall)) {
		t.Fatalf("wakes at %v, want by the end of the stall time", w.Sub(at))
	}
	again := at.Add(cfg.Stall)
	if got := s.Next(again); len(got) == 0 || got[0] != (Request{Piece: 0, From: Upstream}) {
		t.Fatalf("a stall time later: %v, want piece 0 of the upstream", got)
	}
	if !s.UpstreamFailed(again) {
		t.Fatal("a second failure with nothing arrived since does not fail the fetch")
	}
	s.Received(again.Add(time.Millisecond), 1, "peer")
	if s.UpstreamFailed(again.Add(2 * time.Millisecond)) {
		t.Fatal("a failure after a piece arrived fails the fetch")
	}
}

// A node that turned seed but has read nothing yet (it waits for one of
// containerd's requests to the registry) follows a seed that reads the
// layer, instead of splitting it with it.
func TestASeedThatHasReadNothingFollowsOneThatReads(t *testing.T) {
	cfg := testConfig()
	s := NewSession(cfg, layer, "self", epoch)
	s.Decided(epoch) // nobody found: a seed
	if !s.Seed() {
		t.Fatal("a lone miss is not a seed")
	}
	s.Update(epoch, "reader", HolderState{Have: NewBitfield(9), Seed: true, Upstream: 4096})
	for _, r := range s.Next(epoch) {
		if r.From == Upstream {
			t.Fatalf("%v: want to follow the seed that reads", r)
		}
	}
	s.Update(epoch, "reader", HolderState{Have: haveOf(9, 0, 1), Seed: true, Upstream: 2 << 20})
	got := s.Next(epoch)
	if len(got) == 0 || got[0] != (Request{Piece: 0, From: "reader", Only: true}) {
		t.Fatalf("requests: %v, want piece 0 from the seed that reads", got)
	}
	// It gave up being a seed: stalled later, it takes the piece it waits
	// for from the upstream, and no other.
	if s.Seed() {
		t.Fatal("still a seed after leaving the layer to one that reads")
	}
	s.Received(epoch, 0, "reader")
	s.Received(epoch, 1, "reader")
	stuck := epoch.Add(3 * cfg.Stall)
	if got := s.Next(stuck); len(got) != 1 || got[0] != (Request{Piece: 2, From: Upstream}) {
		t.Fatalf("stalled: %v, want piece 2 from the upstream, no more", got)
	}
}

func TestASeedIsAskedOnlyForPiecesNoOtherHolderHas(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("seed", "relay")
	s.Decided(epoch)
	s.Update(epoch, "seed", HolderState{Have: haveOf(9, 0, 1, 2, 3), Seed: true})
	s.Update(epoch, "relay", HolderState{Have: haveOf(9, 0, 1)})
	for _, r := range s.Next(epoch) {
		if r.From == "seed" && r.Piece < 2 {
			t.Fatalf("asked the seed for piece %d, which the relay has", r.Piece)
		}
	}
}

func TestAHolderThatSentItsShareIsAskedOnlyForPiecesNoOtherHolderOffers(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("spent", "other")
	s.Decided(epoch)
	s.Update(epoch, "spent", HolderState{Have: haveOf(9, 0, 1, 2, 3), Spent: true})
	s.Update(epoch, "other", HolderState{Have: haveOf(9, 0, 1)})
	got := s.Next(epoch)
	fromSpent := 0
	for _, r := range got {
		if r.From == "spent" {
			fromSpent++
			if r.Piece < 2 {
				t.Fatalf("asked the spent holder for piece %d, which another holder offers", r.Piece)
			}
			if !r.Only {
				t.Fatalf("asked the spent holder for piece %d without saying it is the only holder", r.Piece)
			}
		}
		if r.From == "other" && r.Only {
			t.Fatalf("piece %d asked as of its only holder, which the spent holder has too", r.Piece)
		}
	}
	if fromSpent == 0 {
		t.Fatalf("requests %v: pieces 2 and 3, held by the spent holder alone, not asked of it", got)
	}
}

func TestAHolderReceivingAPieceIsAskedForIt(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("relay")
	s.Decided(epoch)
	s.Update(epoch, "relay", HolderState{Have: NewBitfield(9), Receiving: haveOf(9, 0)})
	got := s.Next(epoch)
	if len(got) != 1 || got[0] != (Request{Piece: 0, From: "relay", Only: true}) {
		t.Fatalf("requests: %v, want piece 0 from the holder receiving it", got)
	}
}

// A piece passed on to this node that was cut short is asked next only of
// a holder that has it, not of another passing it on: the bytes of a bad
// piece that nobody holds do not go round the nodes passing it on.
func TestAPieceCutShortIsAskedOnlyOfAHolderThatHasIt(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("relay", "other")
	s.Decided(epoch)
	s.Update(epoch, "relay", HolderState{Have: NewBitfield(9), Receiving: haveOf(9, 0)})
	s.Update(epoch, "other", HolderState{Have: NewBitfield(9), Receiving: haveOf(9, 0)})
	got := s.Next(epoch)
	if len(got) != 1 || got[0].Piece != 0 {
		t.Fatalf("requests: %v, want piece 0 of a holder passing it on", got)
	}
	s.Failed(epoch, 0, got[0].From, Cut)
	at := epoch.Add(time.Millisecond)
	for _, id := range []peer.ID{"relay", "other"} {
		s.Update(at, id, HolderState{Have: NewBitfield(9), Receiving: haveOf(9, 0)})
	}
	if got := s.Next(at); len(got) != 0 {
		t.Fatalf("after piece 0 was cut short: %v, want nothing asked of the holders passing it on", got)
	}
	s.Update(at, "other", HolderState{Have: haveOf(9, 0)})
	if got := s.Next(at); len(got) != 1 || got[0].Piece != 0 || got[0].From != "other" {
		t.Fatalf("requests: %v, want piece 0 of the holder that has it", got)
	}
}

func TestRequestsBoundWhatIsInFlight(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 9, 3
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("a")
	s.Decided(epoch)
	s.Update(epoch, "a", HolderState{Have: haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)})
	if got := s.Next(epoch); len(got) != 3 {
		t.Fatalf("requests: %v, want 3", got)
	}
}

func TestLayersFetchedAtOnceShareRequests(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 9, 8
	all := haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)
	for _, c := range []struct{ layers, want int }{{1, 8}, {2, 4}, {3, 3}, {8, 1}, {20, 1}} {
		s := NewSession(cfg, layer, "self", epoch)
		s.AddHolders("a")
		s.Decided(epoch)
		s.Update(epoch, "a", HolderState{Have: all})
		s.SetLayers(c.layers)
		if got := s.Next(epoch); len(got) != c.want {
			t.Errorf("%d layers at once: %d requests, want %d", c.layers, len(got), c.want)
		}
		// When the others are done, this one asks for the rest.
		s.SetLayers(1)
		if got := s.Next(epoch); len(got) != 8-c.want {
			t.Errorf("%d layers, then one: %d requests more, want %d", c.layers, len(got), 8-c.want)
		}
	}
}

func TestAPieceThatCameTooSlowlyHalvesWhatIsAskedAtOnce(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 9, 4
	// One holder of every piece, asked for four at once.
	asking := func() (*Session, []Request) {
		s := NewSession(cfg, layer, "self", epoch)
		s.AddHolders("a")
		s.Decided(epoch)
		s.Update(epoch, "a", HolderState{Have: haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)})
		asked := s.Next(epoch)
		if len(asked) != 4 {
			t.Fatalf("requests: %v, want 4", asked)
		}
		return s, asked
	}
	// Three answers broke: half as many at once, then half again, down to
	// the one in flight.
	s, asked := asking()
	now := epoch.Add(time.Second)
	for _, r := range asked[1:] {
		s.Failed(now, r.Piece, "a", Slow)
	}
	if got := s.Next(now.Add(time.Second)); len(got) != 0 {
		t.Fatalf("after three slow answers, with one piece in flight: %v, want nothing more", got)
	}
	// Pieces that arrive ask for one more each, up to Requests.
	s.Received(now.Add(2*time.Second), asked[0].Piece, "a")
	s.Wrote(asked[0].Piece + 1)
	if got := s.Next(now.Add(3 * time.Second)); len(got) != 2 {
		t.Fatalf("after a piece came: %v, want 2 in flight", got)
	}
	// A busy answer is no sign of a slow link.
	b, asked := asking()
	for _, r := range asked[1:] {
		b.Failed(now, r.Piece, "a", Busy)
	}
	if got := b.Next(now.Add(time.Second)); len(got) != 3 {
		t.Fatalf("after busy answers: %v, want 3 asked again", got)
	}
}

func TestTheWindowBoundsWhatIsHeldAhead(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("a")
	s.Decided(epoch)
	s.Update(epoch, "a", HolderState{Have: haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)})
	for _, r := range s.Next(epoch) {
		if r.Piece >= 4 {
			t.Fatalf("asked for piece %d beyond the window of 4", r.Piece)
		}
	}
}

func TestBitfield(t *testing.T) {
	b := NewBitfield(70)
	if !b.Set(69) || b.Set(69) || b.Set(128) || b.Set(-1) {
		t.Fatal("Set: want true once for 69, false for a repeat and out of range")
	}
	if !b.Has(69) || b.Has(68) || b.Has(1000) || b.Count() != 1 {
		t.Fatalf("Has/Count wrong: %v", b)
	}
	var empty Bitfield
	if empty.Has(0) || empty.Count() != 0 {
		t.Fatal("a nil bitfield holds nothing")
	}
}

// A holder asked for the first time is expected at the best rate measured
// of any holder: when it is Hedge times later than that, the urgent piece
// is asked of another, long before Stall.
func TestANewHolderSlowerThanTheBestIsHedgedInAFewPieceTimes(t *testing.T) {
	all := haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)
	s := NewSession(testConfig(), layer, "self", epoch)
	s.AddHolders("fast")
	s.Decided(epoch)
	s.Update(epoch, "fast", HolderState{Have: all})
	// fast brings two pieces in 10 ms: 100 MiB/s each.
	got := s.Next(epoch)
	if len(got) != 2 || got[0].From != "fast" || got[1].From != "fast" {
		t.Fatalf("requests %v, want two of fast", got)
	}
	at := epoch.Add(10 * time.Millisecond)
	for _, r := range got {
		s.Received(at, r.Piece, "fast")
	}
	s.Wrote(1)
	next := s.firstMissing()
	// fast is loaded now; new, never measured, is expected as fast as fast.
	s.Update(at, "fast", HolderState{Have: all, Load: 10})
	s.Update(at, "new", HolderState{Have: all})
	urgent := -1
	for _, r := range s.Next(at) {
		if r.From == "new" && urgent < 0 {
			urgent = r.Piece
		}
	}
	if urgent != next {
		t.Fatalf("the next needed piece (%d) was not asked of new first (%d)", next, urgent)
	}
	// At 100 MiB/s a 1 MiB piece takes 10 ms: Hedge times that.
	want := at.Add(time.Duration(testConfig().Hedge * float64(10*time.Millisecond)))
	if w := s.Wake(at); !w.Equal(want) {
		t.Fatalf("wake at %v, want %v (Hedge × a piece at the best rate)", w.Sub(epoch), want.Sub(epoch))
	}
	hedged := false
	for _, r := range s.Next(want) {
		hedged = hedged || (r.Piece == urgent && r.From == "fast" && r.Hedge)
	}
	if !hedged {
		t.Fatalf("piece %d not hedged to fast at %v", urgent, want.Sub(epoch))
	}
}

// A holder measured slow because the node's downlink is shared is hedged
// after Hedge times its own piece time, not after Stall, while its bytes
// keep arriving.
func TestAPieceMovingAtItsHoldersRateIsNotHedgedAtStall(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.Requests = 1, 1
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("a", "b")
	s.Decided(epoch)
	all := haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)
	s.Update(epoch, "a", HolderState{Have: all})
	s.Update(epoch, "b", HolderState{Have: all, Load: 5})
	if got := s.Next(epoch); len(got) != 1 || got[0].From != "a" {
		t.Fatalf("requests: %v, want one from a", got)
	}
	// Piece 0 took 4 s: a's rate is a piece per 4 s.
	at := epoch.Add(4 * time.Second)
	s.Received(at, 0, "a")
	s.Wrote(1)
	got := s.Next(at)
	if len(got) != 1 || got[0].Piece != 1 {
		t.Fatalf("requests after piece 0: %v, want piece 1", got)
	}
	from := got[0].From
	hedgeAt := time.Duration(cfg.Hedge * float64(4*time.Second)) // past Stall
	for d := time.Second; d < hedgeAt; d += time.Second {
		s.Moving(at.Add(d)) // its bytes arrive
		for _, r := range s.Next(at.Add(d)) {
			t.Fatalf("%v after piece 1 was asked, moving at %s's rate: %v, want no hedge before %v", d, from, r, hedgeAt)
		}
	}
	s.Moving(at.Add(hedgeAt))
	hedged := false
	for _, r := range s.Next(at.Add(hedgeAt)) {
		hedged = hedged || (r.Piece == 1 && r.Hedge)
	}
	if !hedged {
		t.Fatalf("piece 1 not hedged at %v, Hedge (%v) times %s's piece time", hedgeAt, cfg.Hedge, from)
	}
}

// A late urgent piece is not asked of a second source while the node has
// other pieces of its window to fetch and no room to ask more: its
// downlink is busy with them, and a hedge's loser is bytes in vain. Once
// the window offers nothing else, it is.
func TestALateUrgentPieceIsHedgedOnlyWhenNothingElseIsLeftToAsk(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.Requests = 4, 2
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("a", "b")
	s.Decided(epoch)
	all := haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)
	s.Update(epoch, "a", HolderState{Have: all})
	s.Update(epoch, "b", HolderState{Have: all})
	// A piece a second from each: both measured.
	for _, r := range s.Next(epoch) {
		s.Received(epoch.Add(time.Second), r.Piece, r.From)
	}
	at := epoch.Add(time.Second)
	urgent := s.firstMissing()
	s.Wrote(urgent)
	got := s.Next(at)
	if len(got) != 2 || got[0].Piece != urgent {
		t.Fatalf("requests: %v, want piece %d (urgent) and another", got, urgent)
	}
	late := at.Add(time.Duration(cfg.Hedge * float64(time.Second)))
	s.Moving(late)
	// The window holds four pieces, one held at most, two asked: one is
	// left to ask, and there is no room.
	if got := s.Next(late); len(got) != 0 {
		t.Fatalf("late, with a piece left to ask and no room: %v, want nothing", got)
	}
	other := got[1]
	for range cfg.Window {
		s.Received(late, other.Piece, other.From)
		next := s.Next(late)
		if len(next) > 0 && next[0].Hedge {
			if next[0].Piece != urgent {
				t.Fatalf("hedged %v, want piece %d", next[0], urgent)
			}
			for i := urgent + 1; i < urgent+cfg.Window; i++ {
				if !s.have.Has(i) && len(s.inflight[i]) == 0 {
					t.Fatalf("piece %d hedged while piece %d was left to ask", urgent, i)
				}
			}
			return
		}
		if len(next) != 1 {
			t.Fatalf("requests after piece %d: %v, want one more piece", other.Piece, next)
		}
		other = next[0]
	}
	t.Fatalf("piece %d not hedged once the window offered nothing else", urgent)
}

// A node names first the holders that read the layer from the upstream,
// then others at random (not the first it found, every time), at most k.
func TestNamesPutReadersFirstAndTheRestAtRandom(t *testing.T) {
	s := NewSession(testConfig(), layer, "self", epoch)
	var ids []peer.ID
	for i := range 20 {
		ids = append(ids, peer.ID(fmt.Sprintf("h%02d", i)))
	}
	s.AddHolders(ids...)
	s.Decided(epoch)
	s.Update(epoch, "h17", HolderState{Seed: true, Upstream: 1})
	s.Update(epoch, "h18", HolderState{Seed: true}) // has read nothing yet
	seen := map[peer.ID]bool{}
	for range 20 {
		names := s.Names(8)
		if len(names) != 8 || names[0] != "h17" {
			t.Fatalf("names %v: want 8, the reader h17 first", names)
		}
		for _, id := range names {
			seen[id] = true
		}
	}
	if len(seen) < 15 {
		t.Fatalf("20 draws named %d of the 20 holders: want most of them, not the first found", len(seen))
	}
}

// Silence is known only once states asked after it come back: the stall
// waits as long again as the slowest of the last states took.
func TestTheStallWaitsForTheStatesOfHolders(t *testing.T) {
	cfg := testConfig()
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("a")
	s.Decided(epoch)
	plain := s.Wake(epoch)
	took := 1500 * time.Millisecond
	s.StateTook(200 * time.Millisecond)
	s.StateTook(took)
	s.StateTook(300 * time.Millisecond)
	if w := s.Wake(epoch); !w.Equal(plain.Add(took)) {
		t.Fatalf("wakes %v after the decision, want %v: the stall and the slowest state's round trip", w.Sub(epoch), plain.Add(took).Sub(epoch))
	}
	for _, r := range s.Next(plain.Add(took - time.Millisecond)) {
		if r.From == Upstream {
			t.Fatalf("went upstream before a state asked after the silence could come back: %v", r)
		}
	}
	if got := s.Next(plain.Add(took)); len(got) == 0 || got[0].From != Upstream {
		t.Fatalf("after the stall and the round trip: %v, want the upstream", got)
	}
	for range 8 { // the slow round trip is forgotten after eight faster ones
		s.StateTook(100 * time.Millisecond)
	}
	if got := s.stateLatency(); got != 100*time.Millisecond {
		t.Fatalf("latency %v after eight states of 100ms", got)
	}
}

// A node that stalls while a holder has all of the layer (a seed that
// finished it says so, no longer that it reads it) takes the piece it
// waits for from the upstream, and does not become a seed.
func TestANodeStalledOnACompleteHolderTakesOnlyThePieceItWaitsFor(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 3, 3
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("done")
	s.Decided(epoch)
	s.Update(epoch, "done", HolderState{Have: haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)})
	stuck := epoch.Add(3 * cfg.Stall)
	s.Failed(stuck.Add(-time.Millisecond), 0, "done", Busy) // its uplink is full
	got := s.Next(stuck)
	var up []Request
	for _, r := range got {
		if r.From == Upstream {
			up = append(up, r)
		}
	}
	if s.Seed() || len(up) != 1 || up[0].Piece != 0 {
		t.Fatalf("seed %v, requests %v: want piece 0 from the upstream, no more, and no seed", s.Seed(), got)
	}
}

// A seed whose reading crawls at a tenth of the pull's fastest seed is
// slow: pieces trickling from it are no reason to wait, so after the
// stall time a follower reads the layer too, and the slow seed, seeing a
// faster seed read, yields to it.
func TestAFollowerOfASlowSeedReadsTheLayerAndTheSlowSeedYields(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 3, 3
	// Another layer's seed read at 10 MiB/s and is done: the registry has
	// room. This one reads 1 MiB/s; for four seconds the follower waits.
	// The follower receives 10 MiB/s; the slow seed tells 1 MiB/s.
	s := newFollower(cfg, "slow", 10<<20, true)
	s.SetIntake(10 << 20)
	now := feedFollower(t, s, "slow", 4, 1<<20)
	later := now.Add(s.stallAfter())
	s.Update(later, "slow", HolderState{Have: haveOf(9, seq(5)...), Seed: true, Upstream: 5 << 20, Intake: 1 << 20})
	s.Received(later, 4, "slow")
	s.Wrote(5)
	got := s.Next(later)
	if !s.Seed() || len(got) == 0 || got[0].From != Upstream {
		t.Fatalf("seed %v, requests %v: want the follower reading the layer from the upstream", s.Seed(), got)
	}

	// The slow seed's view: it reads at 1 MiB/s, and the follower now
	// reads far faster.
	slow := NewSession(cfg, layer, "slow", epoch)
	slow.Decided(epoch)
	if !slow.Seed() {
		t.Fatal("the slow node is not the seed")
	}
	slow.SetFastestSeed(10 << 20)
	slow.SetRegistryRoom(true)
	for k := 1; k <= 3; k++ {
		slow.Received(epoch.Add(time.Duration(k)*time.Second), k-1, Upstream)
	}
	if slow.Yields() {
		t.Fatal("the slow seed yields before any other seed reads")
	}
	slow.Update(later, "follower", HolderState{Have: haveOf(9, 0, 1, 2), Seed: true, Upstream: 1 << 20})
	if !slow.Yields() || !slow.LeavesUpstream(later) {
		t.Fatalf("yields %v, leaves the upstream %v: the slow seed should yield to the one that reads", slow.Yields(), slow.LeavesUpstream(later))
	}
}

// A seed as fast as the pull's others is not slow, and its followers wait
// for it; so is a slow one while the registry has no room for another
// reader (the pull's seeds read, in all, near the most they did).
// A seed that reads slowly but receives as fast as the others (its share
// of the registry is small; its link carries other layers' pieces) is
// not slow either.
func TestAFollowerOfASeedAsFastAsTheOthersWaitsForIt(t *testing.T) {
	t.Run("as fast", func(t *testing.T) { followsTheSeed(t, 3<<20, true, 0) })
	t.Run("slow, the registry full", func(t *testing.T) { followsTheSeed(t, 10<<20, false, 0) })
	t.Run("slow, its link busy", func(t *testing.T) { followsTheSeed(t, 10<<20, true, 9<<20) })
}

// followsTheSeed runs a follower of a seed that reads 1 MiB/s and
// receives intake (0: does not tell), the pull's fastest seed reading at
// fastest, for eight seconds; the follower receives 10 MiB/s.
func followsTheSeed(t *testing.T, fastest float64, room bool, intake int64) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 3, 3
	s := newFollower(cfg, "seed", fastest, room)
	s.SetIntake(10 << 20)
	feedFollower(t, s, "seed", 8, intake)
}

// newFollower is a session that follows seed, the pull's fastest seed
// reading at fastest.
func newFollower(cfg Config, seed peer.ID, fastest float64, room bool) *Session {
	s := NewSession(cfg, layer, "follower", epoch)
	s.AddHolders(seed)
	s.Decided(epoch)
	s.SetFastestSeed(fastest)
	s.SetRegistryRoom(room)
	return s
}

// feedFollower has seed read 1 MiB a second for the given seconds and
// send each piece as it comes, telling intake; the follower must never
// ask the upstream. It returns the time of the last second.
func feedFollower(t *testing.T, s *Session, seed peer.ID, seconds int, intake int64) time.Time {
	t.Helper()
	now := epoch
	for k := 1; k <= seconds; k++ {
		now = epoch.Add(time.Duration(k) * time.Second)
		s.Update(now, seed, HolderState{Have: haveOf(9, seq(k)...), Seed: true, Upstream: int64(k) << 20, Intake: intake})
		s.Received(now, k-1, seed)
		s.Wrote(k)
		for _, r := range s.Next(now) {
			if r.From == Upstream {
				t.Fatalf("at %s the follower asks %v of the upstream", now.Sub(epoch), r)
			}
		}
	}
	return now
}

// A seed capped below the rate the pull's seeds read at is slow whatever
// it reads: its cap says how fast its pieces leave it. One capped above it
// is not.
func TestACappedSeedIsSlow(t *testing.T) {
	s := NewSession(testConfig(), layer, "follower", epoch)
	s.AddHolders("capped")
	s.Decided(epoch)
	s.SetFastestSeed(3 << 20)
	s.Update(epoch, "capped", HolderState{Have: haveOf(9, 0), Seed: true, Upstream: 1 << 20, Cap: 2 << 20})
	if h := s.holders["capped"]; !s.slow(h) || s.reads(h) {
		t.Fatal("a seed capped at two thirds of the fastest seed's read rate counts as one that reads")
	}
	s.Update(epoch, "capped", HolderState{Have: haveOf(9, 0), Seed: true, Upstream: 1 << 20, Cap: 4 << 20})
	if h := s.holders["capped"]; s.slow(h) || !s.reads(h) {
		t.Fatal("a seed capped above the fastest seed's read rate counts as slow")
	}
}

// A node that spares its uplink (capped, or serving nothing) waits for
// every other node it knows before it takes the layer from the upstream.
func TestANodeThatSparesItsUplinkStallsLast(t *testing.T) {
	a := NewSession(testConfig(), layer, "a", epoch)
	b := NewSession(testConfig(), layer, "b", epoch)
	b.SpareUplink()
	for _, s := range []*Session{a, b} {
		s.AddHolders("c", "d", "e")
	}
	last := a.cfg.Stall + a.cfg.Stall*3/4 // all three known ranked before it
	if b.stallAfter() != last || a.stallAfter() > last {
		t.Fatalf("stall after: sparing %s, not sparing %s; want the sparing node last, at %s", b.stallAfter(), a.stallAfter(), last)
	}
}

// A holder that answered busy is asked again after one piece time at its
// capped rate, or after its next state; another piece's answer, which
// carries its have-set, does not end the wait.
func TestABusyHolderIsAskedAgainAfterAPieceTimeNotAtItsNextHaveSet(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 2, 2, 2
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("capped")
	s.Decided(epoch)
	full := HolderState{Have: haveOf(9, seq(9)...), Cap: 1 << 20}
	s.Update(epoch, "capped", full)
	got := s.Next(epoch)
	if len(got) != 2 {
		t.Fatalf("requests %v, want 2 of the holder", got)
	}
	for _, r := range got {
		s.Failed(epoch, r.Piece, "capped", Busy)
	}
	soon := epoch.Add(10 * time.Millisecond)
	s.Update(soon, "capped", full) // a busy answer's have-set
	for _, r := range s.Next(soon) {
		if r.Piece == got[0].Piece || r.Piece == got[1].Piece {
			t.Fatalf("asked %v again %s after a busy answer, before a piece time at its 1 MiB/s cap", r, soon.Sub(epoch))
		}
	}
	s.StateAnswered("capped")
	if again := s.Next(soon); len(again) != 2 {
		t.Fatalf("after the holder's state: %v, want both pieces asked again", again)
	}
}

// seq is 0..n-1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// A seed reading the layer stops when it finds a holder of all of it, and
// takes the rest from that holder.
func TestASeedYieldsToAHolderOfAllOfIt(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 3, 3
	s := NewSession(cfg, layer, "self", epoch)
	s.Decided(epoch)
	s.Received(epoch, 0, Upstream)
	if s.Yields() {
		t.Fatal("a lone seed yields")
	}
	s.Update(epoch, "whole", HolderState{Have: haveOf(9, seq(9)...)})
	if !s.Yields() || !s.LeavesUpstream(epoch) {
		t.Fatal("a seed does not leave the upstream to a holder of all of the layer")
	}
	s.StopUpstream(epoch)
	for _, r := range s.Next(epoch) {
		if r.From != "whole" {
			t.Fatalf("asked %v, want every piece of the holder of all of it", r)
		}
	}
}

// On a slow link a piece takes longer than the stall time; its bytes
// arriving are progress, and only silence sends the node upstream.
func TestBytesOfAPieceArrivingAreNoStall(t *testing.T) {
	cfg := testConfig()
	s := NewSession(cfg, layer, "self", epoch)
	s.AddHolders("done")
	s.Decided(epoch)
	s.Update(epoch, "done", HolderState{Have: haveOf(9, 0, 1, 2, 3, 4, 5, 6, 7, 8)})
	if got := s.Next(epoch); len(got) == 0 {
		t.Fatal("nothing asked of the holder")
	}
	upstream := func(now time.Time) bool {
		for _, r := range s.Next(now) {
			if r.From == Upstream {
				return true
			}
		}
		return false
	}
	late := epoch.Add(3 * cfg.Stall)
	s.Failed(late.Add(-2*time.Millisecond), 0, "done", Busy)
	s.Moving(late.Add(-time.Millisecond)) // the other pieces' bytes
	if upstream(late) {
		t.Fatal("went upstream while the bytes of its pieces arrive")
	}
	later := late.Add(2 * cfg.Stall) // past stallAfter, which staggers nodes by rank
	s.Failed(later.Add(-time.Millisecond), 0, "done", Busy)
	if !upstream(later) {
		t.Fatal("no piece's bytes for the stall time, and not upstream")
	}
}

// A holder whose upload slots are all taken is asked for no piece until
// one should be free (a piece time at its rate); a busy one is asked for
// other pieces at once.
func TestAFullHolderIsLeftAloneForAPieceTime(t *testing.T) {
	for _, why := range []Failure{Full, Busy} {
		cfg := testConfig()
		cfg.Window, cfg.PerHolder, cfg.Requests = 4, 1, 1
		s := NewSession(cfg, layer, "self", epoch)
		s.AddHolders("h")
		s.Decided(epoch)
		s.Update(epoch, "h", HolderState{Have: haveOf(9, seq(9)...)})
		first := s.Next(epoch)
		if len(first) != 1 {
			t.Fatalf("requests %v, want 1", first)
		}
		t0 := epoch.Add(250 * time.Millisecond) // 1 MiB in 250 ms: its piece time
		s.Received(t0, first[0].Piece, "h")
		got := s.Next(t0)
		if len(got) != 1 {
			t.Fatalf("requests %v, want 1", got)
		}
		s.Failed(t0, got[0].Piece, "h", why)
		soon := t0.Add(10 * time.Millisecond)
		again := s.Next(soon)
		switch {
		case why == Full && len(again) != 0:
			t.Fatalf("a full holder asked %v %s later, before a piece time", again, soon.Sub(t0))
		case why == Busy && (len(again) != 1 || again[0].Piece == got[0].Piece):
			t.Fatalf("a busy holder asked %v, want another piece at once", again)
		case why == Full:
			if w := s.Wake(soon); w != t0.Add(250*time.Millisecond) {
				t.Fatalf("wake %s after the full answer, want a piece time", w.Sub(t0))
			}
			if later := s.Next(t0.Add(250 * time.Millisecond)); len(later) != 1 {
				t.Fatalf("a piece time after a full answer: %v, want the holder asked again", later)
			}
		}
	}
}

// The piece a stalled node asked of the upstream is read to its end though
// something moves meanwhile; a node that stops reading the upstream takes a
// piece there again only after a whole stall time without progress.
func TestAPieceTakenFromTheUpstreamOnAStallIsReadToItsEnd(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 3, 3
	stalledNode := func() (*Session, time.Time) {
		s := NewSession(cfg, layer, "self", epoch)
		s.AddHolders("done")
		s.Decided(epoch)
		s.Update(epoch, "done", HolderState{Have: haveOf(9, seq(9)...)})
		stuck := epoch.Add(3 * cfg.Stall)
		s.Failed(stuck.Add(-time.Millisecond), 0, "done", Busy) // its uplink is full
		if !slices.Contains(s.Next(stuck), Request{Piece: 0, From: Upstream}) {
			t.Fatal("a stalled node did not take the piece it waits for from the upstream")
		}
		return s, stuck
	}
	fromUpstream := func(s *Session, at time.Time) bool {
		return slices.ContainsFunc(s.Next(at), func(r Request) bool { return r.From == Upstream })
	}

	s, stuck := stalledNode()
	moved := stuck.Add(100 * time.Millisecond)
	s.Moving(moved) // another piece's bytes
	if s.LeavesUpstream(moved) {
		t.Fatal("left the upstream with the piece it stalled on half read")
	}
	s.Received(moved.Add(time.Millisecond), 0, Upstream)
	if !s.LeavesUpstream(moved.Add(time.Millisecond)) {
		t.Fatal("holds its body to the upstream open after the piece it stalled on")
	}

	s, stuck = stalledNode()
	left := stuck.Add(10 * time.Millisecond)
	s.StopUpstream(left) // the body ended
	for at := left; at.Before(left.Add(cfg.Stall)); at = at.Add(100 * time.Millisecond) {
		s.Failed(at, 0, "done", Busy)
		if fromUpstream(s, at) {
			t.Fatalf("%v after it stopped reading the upstream, asked it again: want a whole stall time first", at.Sub(left))
		}
	}
	later := left.Add(3 * cfg.Stall)
	s.Failed(later.Add(-time.Millisecond), 0, "done", Busy)
	if !fromUpstream(s, later) {
		t.Fatal("still stalled a whole stall time later, and not upstream")
	}
}

// A seed that stopped reading the upstream because it yielded to another
// seed does not read there again the moment it no longer yields (the
// rates that decide it move with its own reading): only a stall time
// later.
func TestASeedThatYieldedReadsAgainOnlyAStallTimeLater(t *testing.T) {
	cfg := testConfig()
	cfg.Window, cfg.PerHolder, cfg.Requests = 9, 3, 3
	first, second := rankedPair()
	s := NewSession(cfg, layer, second, epoch)
	s.Decided(epoch)
	s.Received(epoch, 0, Upstream)
	s.Update(epoch, first, HolderState{Have: haveOf(9, 0), Seed: true, Upstream: 1})
	if !s.Yields() || !s.LeavesUpstream(epoch) {
		t.Fatalf("yields %v, leaves the upstream %v: want both, a seed ranked first reads", s.Yields(), s.LeavesUpstream(epoch))
	}
	s.StopUpstream(epoch)
	s.Lost(first, Gone) // and now it yields to nobody
	fromUpstream := func(at time.Time) bool {
		return slices.ContainsFunc(s.Next(at), func(r Request) bool { return r.From == Upstream })
	}
	if fromUpstream(epoch.Add(100 * time.Millisecond)) {
		t.Fatal("read the upstream again at once after yielding")
	}
	if !fromUpstream(epoch.Add(cfg.Stall)) {
		t.Fatal("a seed left alone does not read the upstream a stall time after it yielded")
	}
}

// A node that wants pieces no holder it follows can send it follows,
// RotateEvery at most, the next holder found instead of the one that
// brought it the fewest pieces; one with a request in flight is kept, and
// a node with as many requests in flight as it may have changes nothing.
func TestANodeStarvedByItsHoldersFollowsAnotherEverySecond(t *testing.T) {
	for _, bound := range []int{8, 1} {
		cfg := testConfig()
		cfg.Holders, cfg.Window, cfg.Requests = 2, 9, bound
		s := NewSession(cfg, layer, "self", epoch)
		s.AddHolders("a", "b", "c")
		s.Decided(epoch)
		all := haveOf(9, seq(9)...)
		s.Update(epoch, "a", HolderState{Have: all})
		s.Update(epoch, "b", HolderState{Have: haveOf(9)})
		first := s.Next(epoch)
		if len(first) != min(bound, cfg.PerHolder) || first[0].From != "a" {
			t.Fatalf("bound %d: requests %v, want a asked for %d", bound, first, min(bound, cfg.PerHolder))
		}
		s.Next(epoch.Add(RotateEvery - time.Millisecond))
		if got := s.Active(); !slices.Equal(got, []peer.ID{"a", "b"}) {
			t.Fatalf("bound %d: before a second, following %v, want a and b", bound, got)
		}
		s.Received(epoch.Add(500*time.Millisecond), first[0].Piece, "a")
		s.Next(epoch.Add(RotateEvery))
		want := []peer.ID{"a", "c"} // b brought nothing; a brought a piece, and has one in flight
		if bound == 1 {
			want = []peer.ID{"a", "b"} // asks what it may: not starved
		}
		if got := s.Active(); !slices.Equal(got, want) {
			t.Fatalf("bound %d: after a second, following %v, want %v", bound, got, want)
		}
		if got := s.Known(); len(got) != 3 {
			t.Fatalf("bound %d: known %v, want every holder still known", bound, got)
		}
	}
}
