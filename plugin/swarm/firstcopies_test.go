package swarm

import (
	"testing"
	"time"
)

func TestFirstCopies(t *testing.T) {
	const piece = 1 << 20
	const rate = 64 << 20 // a piece read every 1/64 s: late after 2 × 4 of them
	t0 := time.Unix(0, 0)
	late := 2 * 4 * time.Second / 64

	t.Run("a piece not sent yet always leaves", func(t *testing.T) {
		f := NewFirstCopies(4, 0)
		f.Start(t0, 0, "a")
		if !f.Allow(t0, 1, piece, rate, "b") {
			t.Fatal("piece 1 refused while piece 0 leaves for the first time")
		}
	})
	t.Run("a piece sent already waits while another leaves for the first time", func(t *testing.T) {
		f := NewFirstCopies(4, 0)
		end0 := f.Start(t0, 0, "a")
		end0(true)
		f.Start(t0, 1, "a")
		if f.Allow(t0, 0, piece, rate, "b") {
			t.Fatal("piece 0 sent again while piece 1 leaves for the first time")
		}
		if f.Allow(t0, 1, piece, rate, "b") {
			t.Fatal("piece 1 sent twice at once")
		}
	})
	t.Run("with no first copy in flight anything leaves", func(t *testing.T) {
		f := NewFirstCopies(4, 0)
		f.Start(t0, 0, "a")(true)
		f.Start(t0, 1, "a")(true)
		if !f.Allow(t0, 0, piece, rate, "b") {
			t.Fatal("piece 0 refused with the uplink free of first copies")
		}
	})
	t.Run("a slow first copy no longer holds its piece back", func(t *testing.T) {
		f := NewFirstCopies(4, 0)
		f.Start(t0, 0, "a")
		if f.Allow(t0.Add(late), 0, piece, rate, "b") {
			t.Fatal("piece 0 sent again before its first copy was late")
		}
		if !f.Allow(t0.Add(late+time.Millisecond), 0, piece, rate, "b") {
			t.Fatal("piece 0 held back by a first copy late by twice its share")
		}
		if f.Allow(t0.Add(time.Hour), 0, piece, 0, "b") {
			t.Fatal("with no read rate known a first copy counted as late")
		}
	})
	t.Run("a first copy that failed leaves the piece as not sent", func(t *testing.T) {
		f := NewFirstCopies(4, 0)
		end := f.Start(t0, 0, "a")
		f.Start(t0, 1, "a")
		end(false)
		if !f.Allow(t0, 0, piece, rate, "b") {
			t.Fatal("piece 0 refused after its only copy failed")
		}
		end(false) // a second call changes nothing
		if f.firsts != 1 {
			t.Fatalf("%d first copies in flight, want 1", f.firsts)
		}
	})
	t.Run("a piece whose copy arrived stays sent when a later copy fails", func(t *testing.T) {
		f := NewFirstCopies(4, 0)
		f.Start(t0, 0, "a")(true)
		f.Start(t0, 0, "a")(false)
		f.Start(t0, 1, "a")
		if f.Allow(t0, 0, piece, rate, "b") {
			t.Fatal("piece 0 sent again though a copy of it arrived")
		}
	})
	t.Run("an asker receiving a first copy waits while others are turned away", func(t *testing.T) {
		f := NewFirstCopies(4, 0)
		f.Start(t0, 0, "a")
		if !f.Allow(t0, 1, piece, rate, "a") {
			t.Fatal("a second first copy refused to the only asker")
		}
		f.Start(t0, 1, "a")
		f.Start(t0, 2, "b")
		if f.Allow(t0, 0, piece, rate, "c") {
			t.Fatal("piece 0 sent again while it leaves for the first time")
		}
		if f.Allow(t0.Add(time.Millisecond), 3, piece, rate, "a") {
			t.Fatal("a third first copy to a while c was turned away")
		}
		if !f.Allow(t0.Add(time.Millisecond), 3, piece, rate, "c") {
			t.Fatal("a first copy refused to c, which receives none")
		}
	})
	t.Run("an asker whose first copies ended is as new", func(t *testing.T) {
		f := NewFirstCopies(4, 0)
		end := f.Start(t0, 0, "a")
		f.Allow(t0, 0, piece, rate, "b") // turned away: piece 0 is out
		end(true)
		if !f.Allow(t0.Add(time.Millisecond), 1, piece, rate, "a") {
			t.Fatal("a refused a first copy with none in flight")
		}
	})
	t.Run("no piece leaves more than its share of times", func(t *testing.T) {
		f := NewFirstCopies(4, 2)
		f.Start(t0, 0, "a")(true)
		if !f.Allow(t0, 0, piece, rate, "b") {
			t.Fatal("a second copy refused with no first copy out")
		}
		second := f.Start(t0, 0, "b")
		if f.Allow(t0, 0, piece, rate, "c") {
			t.Fatal("a third copy allowed while two are out or delivered")
		}
		second(false)
		if !f.Allow(t0, 0, piece, rate, "c") {
			t.Fatal("a copy refused after the second one failed")
		}
		f.Start(t0, 0, "c")(true)
		if f.Allow(t0.Add(time.Hour), 0, piece, rate, "d") {
			t.Fatal("a third copy allowed once two were delivered")
		}
	})
	t.Run("a late first copy makes way for one more copy only", func(t *testing.T) {
		f := NewFirstCopies(4, 2)
		f.Start(t0, 0, "a")
		f.Start(t0.Add(late+time.Millisecond), 0, "b")
		if f.Allow(t0.Add(2*late), 0, piece, rate, "c") {
			t.Fatal("a third copy of a piece whose first is late")
		}
	})
	t.Run("a piece whose every copy failed is as if not sent", func(t *testing.T) {
		f := NewFirstCopies(4, 2)
		first := f.Start(t0, 0, "a")
		second := f.Start(t0.Add(late+time.Millisecond), 0, "b")
		first(false)
		second(false)
		if _, ok := f.copies[0]; ok || f.firsts != 0 {
			t.Fatalf("piece 0 still recorded (%d first copies out) after its copies failed", f.firsts)
		}
	})
}
