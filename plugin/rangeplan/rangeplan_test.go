package rangeplan

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

func TestChunksCoverTheBlobFromTheOffset(t *testing.T) {
	p := New(10, 100, 40, 8, 1, 0)
	if p.Chunks() != 3 {
		t.Fatalf("%d chunks, want 3", p.Chunks())
	}
	for i, want := range [][2]int64{{10, 50}, {50, 90}, {90, 100}} {
		if s, e := p.Bounds(i); s != want[0] || e != want[1] {
			t.Fatalf("chunk %d is [%d,%d), want %v", i, s, e, want)
		}
	}
	_, _, _ = p.Take(100)
	_, _, _ = p.Take(100)
	if _, buf, st := p.Take(100); st != Got || len(buf) != 10 {
		t.Fatalf("the last chunk's buffer has %d bytes, want 10", len(buf))
	}
}

func TestNeverRunsMoreThanItsWindowAhead(t *testing.T) {
	plan := New(0, 100<<10, 1<<10, 4, 1, 0)
	for i := 0; i < 4; i++ {
		if _, _, st := plan.Take(100 << 10); st != Got {
			t.Fatal("plan ended early")
		}
	}
	got := make(chan int, 1)
	go func() {
		n, _, _ := plan.Take(100 << 10)
		got <- n
	}()
	select {
	case n := <-got:
		t.Fatalf("chunk %d handed out with the window full", n)
	case <-time.After(50 * time.Millisecond):
	}
	plan.Deliver(0, "a", []byte("x"))
	if _, _, err := plan.Next(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	plan.Written(0, make([]byte, 1<<10))
	if n := <-got; n != 4 {
		t.Fatalf("after one chunk was written, chunk %d was handed out, want 4", n)
	}
	plan.Close()
}

// Workers that fail hand their chunk back; the others finish it, and the
// writer sees every chunk once, in order.
func TestFailedWorkersChunksAreDoneByTheOthers(t *testing.T) {
	const chunk, size = 16, 16 * 50
	blob := make([]byte, size)
	for i := range blob {
		blob[i] = byte(i)
	}
	plan := New(0, size, chunk, 6, 3, 0)
	var wg sync.WaitGroup
	for _, p := range []peer.ID{"good-1", "fails", "good-2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				i, buf, st := plan.Take(size)
				if st != Got {
					return
				}
				if p == "fails" && n == 2 {
					plan.GiveBack(i)
					return
				}
				s, _ := plan.Bounds(i)
				copy(buf, blob[s:])
				plan.Deliver(i, p, buf)
			}
		}()
	}
	var out bytes.Buffer
	for i := 0; i < plan.Chunks(); i++ {
		buf, _, err := plan.Next(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(buf)
		plan.Written(i, buf)
	}
	plan.Close()
	wg.Wait()
	if !bytes.Equal(out.Bytes(), blob) {
		t.Fatal("written bytes differ from the blob")
	}
}

func TestWriterLearnsWhenEveryWorkerFailed(t *testing.T) {
	plan := New(0, 100, 10, 4, 2, 0)
	for i := 0; i < 2; i++ {
		n, _, _ := plan.Take(100)
		plan.GiveBack(n)
	}
	if _, _, err := plan.Next(context.Background(), 0); !errors.Is(err, ErrAllWorkersFailed) {
		t.Fatalf("got %v", err)
	}
}

// A peer still receiving the blob is handed only chunks it holds; told to
// wait otherwise, it asks again once it holds more.
func TestAWorkerIsHandedOnlyWhatItsPeerHolds(t *testing.T) {
	plan := New(0, 100, 10, 10, 2, 0)
	if i, _, st := plan.Take(25); st != Got || i != 0 {
		t.Fatalf("got %d %v, want chunk 0", i, st)
	}
	if i, _, st := plan.Take(25); st != Got || i != 1 {
		t.Fatalf("got %d %v, want chunk 1", i, st)
	}
	if _, _, st := plan.Take(25); st != Wait {
		t.Fatalf("a peer holding 25 bytes was handed chunk 2 (%v)", st)
	}
	if i, _, st := plan.Take(100); st != Got || i != 2 {
		t.Fatalf("a peer holding everything: %d %v, want chunk 2", i, st)
	}
}

// A chunk the writer waits on too long goes to a second worker; the first
// answer is written, the other dropped.
func TestALateChunkIsAskedOfAnotherWorker(t *testing.T) {
	plan := New(0, 20, 10, 4, 2, 20*time.Millisecond)
	slow, _, _ := plan.Take(20) // chunk 0, never answered
	fast, buf, _ := plan.Take(20)
	plan.Deliver(fast, "fast", buf)
	got := make(chan peer.ID, 1)
	go func() {
		_, from, _ := plan.Next(context.Background(), 0)
		got <- from
	}()
	i, buf, st := plan.Take(20) // waits until chunk 0 is late
	if st != Got || i != slow {
		t.Fatalf("got %d %v, want the late chunk %d", i, st, slow)
	}
	plan.Deliver(i, "second", buf)
	if from := <-got; from != "second" {
		t.Fatalf("chunk 0 written from %q", from)
	}
	plan.Deliver(slow, "slow", make([]byte, 10)) // the first answer, too late: dropped
	plan.Close()
}
