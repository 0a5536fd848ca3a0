package fetcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/shoal-dev/shoal/plugin/oci"
)

// The second in line waits long enough for the first's announcement to be
// seen, however many nodes there are; the last waits the whole window.
func TestFollowersWaitPastAnnouncingTime(t *testing.T) {
	for _, of := range []int{2, 8, 16, 1000} {
		if w := followWait(500*time.Millisecond, 1, of); w < followFloor {
			t.Errorf("rank 1 of %d waits %s", of, w)
		}
		if w := followWait(500*time.Millisecond, of-1, of); w > 500*time.Millisecond || w < followWait(500*time.Millisecond, 1, of) {
			t.Errorf("rank %d of %d waits %s", of-1, of, w)
		}
	}
	if w := followWait(100*time.Millisecond, 3, 4); w != 100*time.Millisecond {
		t.Errorf("a window under the floor: %s, want the window", w)
	}
}

// scored gives the fetcher a rendezvous order: self is "self", scored "m".
func scored(scores map[peer.ID]string) (func(digest.Digest, peer.ID) string, peer.ID) {
	return func(_ digest.Digest, p peer.ID) string {
		if p == "self" {
			return "m"
		}
		return scores[p]
	}, "self"
}

// In a rollout a node takes a holder of all of the layer first, then the
// holders still receiving it that come before it in the layer's order,
// nearest first (each node follows the one before it: a chain), then those
// after it that have bytes; one after it with nothing yet is waiting for
// its own turn and is left out, so that no two nodes wait for each other.
func TestHoldersAreOrderedIntoAChain(t *testing.T) {
	data := randomBytes(t, 8<<20)
	var beyond atomic.Int32
	const peerD, peerE peer.ID = "peer-d", "peer-e"
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: holding(data, 3<<20, &beyond), // before, far
		peerB: holding(data, 1<<20, &beyond), // before, nearest
		peerC: holding(data, 0, &beyond),     // after, nothing yet
		peerD: holding(data, 2<<20, &beyond), // after, receiving
		peerE: serves(data),                  // all of it
	}}
	score, self := scored(map[peer.ID]string{peerA: "z", peerB: "n", peerC: "c", peerD: "d", peerE: "a"})
	providers := []peer.AddrInfo{{ID: peerA}, {ID: peerB}, {ID: peerC}, {ID: peerD}, {ID: peerE}}
	f := newFetcher(t, fakeFinder{}, client, Options{Score: score, Self: self, CoordinationMinSize: 1 << 20, MaxProviders: 8, HedgeDelay: time.Minute})
	src := newSources(f.WrapFetcher(&fakeUpstream{}, "registry.example/team/app:v1"), desc(data, ocispec.MediaTypeImageLayer), providers)
	src.rank(testNamespace(), 0)
	if got, want := fmt.Sprint(src.untried()), fmt.Sprint([]peer.ID{peerE, peerB, peerA, peerD}); got != want {
		t.Fatalf("order %s, want %s", got, want)
	}
}

// A node first in a layer's order asks the providers beyond the first
// max_providers too when none of those can be taken (all after it, with
// nothing yet): one of them may hold the layer whole, as a node that
// pulled it before does, and the upstream is not needed.
func TestAHolderOfAllOfItBeyondTheFirstProvidersIsFound(t *testing.T) {
	data := randomBytes(t, 8<<20)
	var beyond atomic.Int32
	gets := &getCounter{}
	const peerD peer.ID = "peer-d"
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerB: holding(data, 0, &beyond),
		peerC: holding(data, 0, &beyond),
		peerD: holding(data, 0, &beyond),
		peerA: gets.counting(peerA, serves(data)), // found last
	}}
	score, self := scored(map[peer.ID]string{peerA: "a", peerB: "b", peerC: "c", peerD: "d"}) // all after this node
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerB, peerC, peerD, peerA}}, client, Options{
		Store: newStore(t), Score: score, Self: self, CoordinationMinSize: 1 << 20, MaxProviders: 2,
		HedgeDelay: time.Minute, Shuffle: func(int, func(i, j int)) {},
	})
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	if up.calls != 0 || gets.of(peerA) == 0 {
		t.Fatalf("upstream %d, GETs to the holder of all of it %d; want 0, some (requests %v)", up.calls, gets.of(peerA), client.sent())
	}
}

// A provider ordered after this node that is late to say what it holds is
// not followed: nodes of a rollout offer a layer as they start it, and it
// may be following this node; following it would close a circle in which
// nobody fetches the layer.
func TestAProviderAfterThisNodeLateToAnswerIsNotFollowed(t *testing.T) {
	data := randomBytes(t, 8<<20)
	var beyond atomic.Int32
	gets := &getCounter{}
	late := func(b peerBehaviour) peerBehaviour {
		return func(req *http.Request) (*http.Response, error) {
			if req.Method == http.MethodHead {
				time.Sleep(300 * time.Millisecond)
			}
			return b(req)
		}
	}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerB: gets.counting(peerB, late(holding(data, 0, &beyond))),
	}}
	score, self := scored(map[peer.ID]string{peerB: "b"}) // after this node
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerB}}, client, Options{
		Store: newStore(t), Score: score, Self: self, CoordinationMinSize: 1 << 20, HedgeDelay: 50 * time.Millisecond,
	})
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("committed bytes differ")
	}
	if up.calls != 1 || gets.of(peerB) != 0 {
		t.Fatalf("upstream %d, GETs to the provider after this node %d; want 1, 0", up.calls, gets.of(peerB))
	}
}

// A holder whose uplink this pull found slow in one layer comes last in
// the chain of another layer, and is not switched to for being ahead or
// nearer: in a rollout the slow node turns up in every layer's chain.
func TestAHolderFoundSlowInOneLayerIsNotFollowedInAnother(t *testing.T) {
	data := randomBytes(t, 8<<20)
	var beyond atomic.Int32
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: holding(data, 6<<20, &beyond), // before, nearest, far ahead: slow uplink
		peerB: holding(data, 4<<20, &beyond), // before
	}}
	score, self := scored(map[peer.ID]string{peerA: "n", peerB: "z"})
	providers := []peer.AddrInfo{{ID: peerA}, {ID: peerB}}
	f := newFetcher(t, fakeFinder{}, client, Options{Score: score, Self: self, CoordinationMinSize: 1 << 20, MaxProviders: 8, HedgeDelay: time.Minute})
	pf := f.WrapFetcher(&fakeUpstream{}, "registry.example/team/app:v1")
	d := desc(data, ocispec.MediaTypeImageLayer)
	src := newSources(pf, d, providers)
	src.rank(testNamespace(), 0)
	if got, want := fmt.Sprint(src.untried()), fmt.Sprint([]peer.ID{peerA, peerB}); got != want {
		t.Fatalf("order %s, want %s before any was found slow", got, want)
	}
	if got := pf.nearerHolder(testNamespace(), src, pf.order(d), []peer.ID{peerA, peerB}, peerB, 0); got != peerA {
		t.Fatalf("nearer holder %q, want %q before it was found slow", got, peerA)
	}

	pf.uplinkSlow(testNamespace(), peerA) // in another layer of the pull
	src = newSources(pf, d, providers)
	src.rank(testNamespace(), 0)
	if got, want := fmt.Sprint(src.untried()), fmt.Sprint([]peer.ID{peerB, peerA}); got != want {
		t.Fatalf("order %s, want %s: the slow holder first", got, want)
	}
	if got := pf.nearerHolder(testNamespace(), src, pf.order(d), []peer.ID{peerA, peerB}, peerB, 0); got != "" {
		t.Fatalf("switched to %q, the holder found slow", got)
	}
	if got := pf.fasterHolder(testNamespace(), src, pf.order(d), []peer.ID{peerA}, 0); got != "" {
		t.Fatalf("switched to %q, the holder found slow", got)
	}
}

// A node whose first lookup finds only nodes still receiving the layer
// waits for its turn, looks again, and follows the nearest node before it,
// which had not announced yet at its first lookup.
func TestARolloutFollowerWaitsItsTurnAndFollowsTheNearest(t *testing.T) {
	data := randomBytes(t, 8<<20)
	gets := &getCounter{}
	counting := gets.counting
	arriving := func(b peerBehaviour) peerBehaviour {
		return func(req *http.Request) (*http.Response, error) {
			resp, err := b(req)
			if err == nil {
				resp.Header.Set(oci.ArrivingHeader, "true")
				resp.Header.Set(oci.AvailableHeader, "1")
			}
			return resp, err
		}
	}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		peerA: counting(peerA, arriving(serves(data))), // first in order
		peerB: counting(peerB, arriving(serves(data))), // just before this node
	}}
	score, self := scored(map[peer.ID]string{peerA: "z", peerB: "n"})
	finder := &growingFinder{first: []peer.ID{peerA}, later: []peer.ID{peerA, peerB}}
	f := newFetcher(t, finder, client, Options{
		Store: newStore(t), Score: score, Self: self, HedgeDelay: time.Minute,
		Rank:                func(digest.Digest) (int, int) { return 2, 4 },
		CoordinationWindow:  400 * time.Millisecond,
		CoordinationMinSize: 1 << 20,
	})
	if got := fetchAll(t, f, &fakeUpstream{}, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("wrong bytes")
	}
	if gets.of(peerB) != 1 || gets.of(peerA) != 0 {
		t.Fatalf("GETs by peer %v: want one, from the nearest node before this one", gets.gets)
	}
	if finder.lookups() < 2 {
		t.Fatal("no second look at the turn")
	}
}

// growingFinder answers first to the first lookup, later afterwards.
type growingFinder struct {
	mu           sync.Mutex
	n            int
	first, later []peer.ID
}

func (g *growingFinder) FindProviders(ctx context.Context, d digest.Digest, limit int) ([]peer.AddrInfo, error) {
	g.mu.Lock()
	g.n++
	ids := g.later
	if g.n == 1 {
		ids = g.first
	}
	g.mu.Unlock()
	return fakeFinder{providers: ids}.FindProviders(ctx, d, limit)
}

func (g *growingFinder) lookups() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

// A node first in a layer's order that finds only a node after it, which
// has announced the layer but holds nothing yet, does not follow it (that
// node may be about to follow this one): it fetches the layer upstream.
func TestTheFirstInOrderNeverFollowsANodeWaitingForIt(t *testing.T) {
	data := randomBytes(t, 8<<20)
	var beyond atomic.Int32
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerC: holding(data, 0, &beyond)}}
	score, self := scored(map[peer.ID]string{peerC: "c"})
	up := &fakeUpstream{data: data}
	f := newFetcher(t, fakeFinder{providers: []peer.ID{peerC}}, client, Options{
		Store: newStore(t), Score: score, Self: self,
		Rank:                func(digest.Digest) (int, int) { return 0, 4 },
		CoordinationWindow:  400 * time.Millisecond,
		CoordinationMinSize: 1 << 20,
	})
	if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
		t.Fatal("wrong bytes")
	}
	if up.calls != 1 || beyond.Load() != 0 {
		t.Fatalf("upstream asked %d times, the waiting node %d times for bytes: want the upstream once and the node never", up.calls, beyond.Load())
	}
	for _, r := range client.sent() {
		if strings.HasSuffix(r, "-") || strings.Contains(r, "bytes=0") {
			t.Fatalf("the waiting node was asked for the layer: %v", client.sent())
		}
	}
}

// A stream is slow when, over three checks, it brought less than a sixth
// of what the fastest stream of the pull brought a check; never before
// three checks, and never when every stream is as slow. A fast stream
// over in two checks counts.
func TestAStreamThatCrawlsBehindThePullIsSlow(t *testing.T) {
	var peak atomic.Int64
	fast, slow, alike := &slowWatch{peak: &peak, factor: slowFactor}, &slowWatch{peak: &peak, factor: slowFactor}, &slowWatch{peak: &atomic.Int64{}, factor: slowFactor}
	for i := int64(0); i < 2; i++ {
		fast.tick(100 * i)
		if slow.tick(10 * i) {
			t.Fatal("slow before three checks")
		}
		alike.tick(10 * i)
	}
	fast.tick(200)
	if !slow.tick(20) {
		t.Error("a stream at a tenth of the fastest is not slow")
	}
	if alike.tick(20) {
		t.Error("a stream as fast as the others is slow")
	}
	if fast.tick(300) {
		t.Error("the fastest stream is slow")
	}
	var peak2 atomic.Int64
	short, long := &slowWatch{peak: &peak2, factor: slowFactor}, &slowWatch{peak: &peak2, factor: slowFactor}
	short.tick(0)
	short.tick(100) // done
	long.tick(0)
	long.tick(5)
	if !long.tick(10) {
		t.Error("a stream at a twentieth of a short one is not slow")
	}
}

// A miss that no node ranked before this one shares, by holding the layer
// or pulling from its repository, goes upstream without waiting its turn;
// one that a node before it may share (it says it pulls from the
// repository, or does not answer) waits its turn and looks again; one
// that a node before it holds, unannounced, is taken from that node at
// the turn.
func TestALoneMissGoesUpstreamAtOnce(t *testing.T) {
	data := randomBytes(t, 8<<20)
	pulls := func(req *http.Request) (*http.Response, error) {
		resp, err := notFound(req)
		resp.Header = http.Header{oci.PullingHeader: {"true"}}
		return resp, err
	}
	unreachable := func(*http.Request) (*http.Response, error) { return nil, errors.New("connection refused") }
	for _, tc := range []struct {
		name     string
		a, b     peerBehaviour
		lone     bool
		upstream int
	}{
		{"both idle", notFound, notFound, true, 1},
		{"one pulls from the repository", notFound, pulls, false, 1},
		{"one does not answer", unreachable, notFound, false, 1},
		{"one holds it", notFound, serves(data), false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: tc.a, peerB: tc.b}}
			score, self := scored(map[peer.ID]string{peerA: "z", peerB: "n", peerC: "c"}) // A, B before this node; C after
			finder := &growingFinder{}
			up := &fakeUpstream{data: data}
			f := newFetcher(t, finder, client, Options{
				Store: newStore(t), Score: score, Self: self,
				Peers:               func() []peer.AddrInfo { return []peer.AddrInfo{{ID: peerA}, {ID: peerB}, {ID: peerC}} },
				Rank:                func(digest.Digest) (int, int) { return 2, 4 },
				CoordinationWindow:  300 * time.Millisecond,
				CoordinationMinSize: 1 << 20,
			})
			if got := fetchAll(t, f, up, desc(data, ocispec.MediaTypeImageLayer)); !bytes.Equal(got, data) {
				t.Fatal("wrong bytes")
			}
			waited := f.Stats().CoordinationWaits.Load() == 1 && finder.lookups() == 2
			lone := f.Stats().LoneMisses.Load() == 1 && finder.lookups() == 1
			if up.calls != tc.upstream || lone != tc.lone || waited == tc.lone {
				t.Fatalf("upstream %d, lone misses %d, turns waited %d, lookups %d; want upstream %d, lone %v",
					up.calls, f.Stats().LoneMisses.Load(), f.Stats().CoordinationWaits.Load(), finder.lookups(), tc.upstream, tc.lone)
			}
			for _, r := range client.sent() {
				if strings.Contains(r, string(peerC)) {
					t.Fatalf("a node after this one was asked: %v", client.sent())
				}
			}
		})
	}
}
