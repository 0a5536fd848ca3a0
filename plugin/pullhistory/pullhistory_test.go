package pullhistory

import (
	"fmt"
	"sync"
	"testing"
)

func TestRingKeepsTheLatestPullsOldestFirst(t *testing.T) {
	r := New(3)
	if got := r.Recent(); len(got) != 0 || got == nil {
		t.Fatalf("empty ring: %#v, want an empty list (JSON [])", got)
	}
	for i := range 2 {
		r.Add(Pull{Image: fmt.Sprint("app:", i)})
	}
	if got := r.Recent(); len(got) != 2 || got[0].Image != "app:0" || got[1].Image != "app:1" {
		t.Fatalf("before it is full: %+v", got)
	}
	for i := 2; i < 8; i++ {
		r.Add(Pull{Image: fmt.Sprint("app:", i)})
	}
	got := r.Recent()
	if len(got) != 3 || got[0].Image != "app:5" || got[1].Image != "app:6" || got[2].Image != "app:7" {
		t.Fatalf("after wrapping around twice: %+v", got)
	}
}

func TestRingHandsOutCopies(t *testing.T) {
	r := New(2)
	peers := []PeerBytes{{Peer: "A", Bytes: 10}}
	r.Add(Pull{Image: "app:1", Peers: peers})
	peers[0].Bytes = 99
	got := r.Recent()
	got[0].Peers[0].Bytes = 77
	got[0].Image = "changed"
	if again := r.Recent(); again[0].Image != "app:1" || again[0].Peers[0].Bytes != 10 {
		t.Fatalf("the ring shares memory with its callers: %+v", again)
	}
}

func TestRingDefaultSizeAndConcurrentUse(t *testing.T) {
	r := New(0)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				r.Add(Pull{Image: fmt.Sprint(g, ":", i), Peers: []PeerBytes{{Peer: "A", Bytes: int64(i)}}})
				r.Recent()
			}
		}()
	}
	wg.Wait()
	if n := len(r.Recent()); n != DefaultSize {
		t.Fatalf("kept %d pulls, want %d", n, DefaultSize)
	}
}

func TestPeerTotalAddsEveryPeer(t *testing.T) {
	p := Pull{Peers: []PeerBytes{{"A", 3}, {"B", 4}}}
	if p.PeerTotal() != 7 {
		t.Fatal(p.PeerTotal())
	}
}
