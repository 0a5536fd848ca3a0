package rangeplan

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

func TestChunksCoverTheBlobFromTheOffset(t *testing.T) {
	p := New(10, 100, 40, 8, 1)
	if p.Chunks() != 3 {
		t.Fatalf("%d chunks, want 3", p.Chunks())
	}
	for i, want := range [][2]int64{{10, 50}, {50, 90}, {90, 100}} {
		if s, e := p.Bounds(i); s != want[0] || e != want[1] {
			t.Fatalf("chunk %d is [%d,%d), want %v", i, s, e, want)
		}
	}
	_, _, _ = p.Take()
	_, _, _ = p.Take()
	if _, buf, ok := p.Take(); !ok || len(buf) != 10 {
		t.Fatalf("the last chunk's buffer has %d bytes, want 10", len(buf))
	}
}

func TestNeverRunsMoreThanItsWindowAhead(t *testing.T) {
	plan := New(0, 100<<10, 1<<10, 4, 1)
	for i := 0; i < 4; i++ {
		if _, _, ok := plan.Take(); !ok {
			t.Fatal("plan ended early")
		}
	}
	got := make(chan int, 1)
	go func() {
		n, _, _ := plan.Take()
		got <- n
	}()
	select {
	case n := <-got:
		t.Fatalf("chunk %d handed out with the window full", n)
	case <-time.After(50 * time.Millisecond):
	}
	plan.Deliver(0, "a", []byte("x"))
	if _, _, err := plan.Next(0); err != nil {
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
	plan := New(0, size, chunk, 6, 3)
	var wg sync.WaitGroup
	for _, p := range []peer.ID{"good-1", "fails", "good-2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				i, buf, ok := plan.Take()
				if !ok {
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
		buf, _, err := plan.Next(i)
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
	plan := New(0, 100, 10, 4, 2)
	for i := 0; i < 2; i++ {
		n, _, _ := plan.Take()
		plan.GiveBack(n)
	}
	if _, _, err := plan.Next(0); !errors.Is(err, ErrAllWorkersFailed) {
		t.Fatalf("got %v", err)
	}
}
