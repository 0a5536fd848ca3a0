package swarm

import (
	"testing"

	"github.com/opencontainers/go-digest"
)

// The registry has room for another reader once the pull's layers are
// read, in all, at less than half the most they were read at once; the
// fastest seed is the fastest average of any layer, done ones included.
func TestTheRegistryHasRoomOnceThePullReadsAtLessThanHalfItsPeak(t *testing.T) {
	p := NewPull()
	a, b := digest.FromString("a"), digest.FromString("b")
	if fastest, room := p.observe(a, 4, 4); fastest != 4 || room {
		t.Fatalf("one layer read at its peak: fastest %v, room %v", fastest, room)
	}
	if _, room := p.observe(b, 1, 1); room {
		t.Fatal("two layers read at 5, more than the peak: room")
	}
	if fastest, room := p.observe(a, 3, 0); fastest != 3 || !room {
		t.Fatalf("layer a done, b read at 1 of a peak of 5: fastest %v, room %v; want 3 (a's average), room", fastest, room)
	}
}
