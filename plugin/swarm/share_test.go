package swarm

import (
	"testing"
	"time"
)

func TestShare(t *testing.T) {
	layer := Layer{Size: 10 << 20, PieceSize: 1 << 20} // 10 pieces
	size := layer.Size
	t0 := time.Unix(0, 0)

	t.Run("up to its share a node sends anything", func(t *testing.T) {
		s := NewShare(layer, 2)
		for i := range 20 {
			if !s.Take(t0, 1<<20, false) {
				t.Fatalf("MiB %d refused within two copies", i)
			}
		}
		if !s.Spent(t0) {
			t.Fatal("not spent after two copies")
		}
	})
	t.Run("past its share a node sends only what no other holder offers", func(t *testing.T) {
		s := NewShare(layer, 2)
		s.Take(t0, 2*size, false)
		if s.Take(t0, 1<<20, false) {
			t.Fatal("a piece other holders offer sent past the share")
		}
		if !s.Take(t0, 1<<20, true) {
			t.Fatal("a piece no other holder offers refused")
		}
	})
	t.Run("a rollout's copies are forgotten once it is over", func(t *testing.T) {
		s := NewShare(layer, 2)
		s.Take(t0, 2*size, false)
		if s.Spent(t0.Add(shareRenew)) || !s.Idle(t0.Add(shareRenew)) {
			t.Fatal("still spent after the layer went unsent for shareRenew")
		}
		if !s.Take(t0.Add(shareRenew), 1<<20, false) {
			t.Fatal("a piece refused in a new rollout")
		}
	})
	t.Run("a pause shorter than shareRenew keeps the count", func(t *testing.T) {
		s := NewShare(layer, 2)
		s.Take(t0, 2*size, false)
		if !s.Spent(t0.Add(shareRenew - time.Millisecond)) {
			t.Fatal("forgot the copies within a rollout")
		}
	})
	t.Run("no limit", func(t *testing.T) {
		s := NewShare(layer, 0)
		s.Take(t0, 100*size, false)
		if s.Spent(t0) {
			t.Fatal("spent with no limit")
		}
	})
}
