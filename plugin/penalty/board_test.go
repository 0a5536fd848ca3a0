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
	b.Corrupt("a", one)
	if !b.Avoid("a", one) || b.Avoid("a", two) || !b.IsCorrupt("a", one) {
		t.Fatal("a corrupt delivery must be avoided for that digest only")
	}
	b.Unresponsive("b")
	if !b.Avoid("b", one) || !b.Avoid("b", two) || !b.IsUnresponsive("b") {
		t.Fatal("an unresponsive peer must be avoided for every digest")
	}
}
