package penalty

import (
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
)

func TestBoxIsBoundedAndExpires(t *testing.T) {
	b := newBox(time.Minute, 3)
	now := time.Unix(1000, 0)
	b.now = func() time.Time { return now }
	d := digest.FromString("x")
	for _, p := range []peer.ID{"a", "b", "c", "d"} {
		b.penalize(p, d)
		now = now.Add(time.Second)
	}
	if b.len() != 3 || b.penalized("a", d) || !b.penalized("d", d) {
		t.Fatalf("bound not kept: len=%d", b.len())
	}
	now = now.Add(2 * time.Minute)
	if b.penalized("d", d) {
		t.Fatal("penalty did not expire")
	}
}

func TestCorruptIsPerDigestUnresponsiveForAll(t *testing.T) {
	b := New(Options{})
	one, two := digest.FromString("one"), digest.FromString("two")
	b.Judge("a", one, Corrupt)
	if !b.Avoid("a", one) || b.Avoid("a", two) || !b.IsCorrupt("a", one) {
		t.Fatal("a corrupt delivery must be avoided for that digest only")
	}
	if b.IsBadTable("a", one) {
		t.Fatal("a peer that sent bad bytes has its tables refused")
	}
	b.Judge("c", one, BadTable)
	if !b.IsBadTable("c", one) || !b.IsCorrupt("c", one) || b.IsBadTable("c", two) {
		t.Fatal("the signer of a bad table must be avoided, its tables refused, for that digest only")
	}
	b.Judge("b", one, Unresponsive)
	if !b.Avoid("b", one) || !b.Avoid("b", two) || !b.IsUnresponsive("b") {
		t.Fatal("an unresponsive peer must be avoided for every digest")
	}
}

func TestEachKindCostsWhatItShould(t *testing.T) {
	one, two := digest.FromString("one"), digest.FromString("two")
	for _, tc := range []struct {
		kind            Kind
		oneAvoided      bool
		twoAvoided      bool
		comesBackWithin time.Duration // 0: stays longer than the test
	}{
		{None, false, false, 0},
		{Stale, true, false, 0},
		{Corrupt, true, false, 0},
		{Unresponsive, true, true, 0},
		{Busy, true, true, 50 * time.Millisecond},
	} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			b := New(Options{BusyTTL: 20 * time.Millisecond})
			b.Judge("p", one, tc.kind)
			if b.Avoid("p", one) != tc.oneAvoided || b.Avoid("p", two) != tc.twoAvoided {
				t.Fatalf("avoided for the digest: %v, for another: %v", b.Avoid("p", one), b.Avoid("p", two))
			}
			if tc.comesBackWithin > 0 {
				deadline := time.Now().Add(5 * time.Second)
				for b.Avoid("p", one) && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
				}
				if b.Avoid("p", one) {
					t.Fatal("a busy peer is still avoided long after its back-off")
				}
			}
		})
	}
}
