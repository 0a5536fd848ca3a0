package inventory

import (
	"context"
	"sync"
	"testing"
	"time"

	eventstypes "github.com/containerd/containerd/api/events"
	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/events"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/typeurl/v2"
	"github.com/opencontainers/go-digest"
)

// fakeStore is a namespaced content store holding digests only.
type fakeStore struct {
	content.Store // methods the inventory must not use panic
	mu            sync.Mutex
	held          map[string][]digest.Digest
}

func (s *fakeStore) Walk(ctx context.Context, fn content.WalkFunc, _ ...string) error {
	ns, _ := namespaces.Namespace(ctx)
	s.mu.Lock()
	dgsts := append([]digest.Digest(nil), s.held[ns]...)
	s.mu.Unlock()
	for _, d := range dgsts {
		if err := fn(content.Info{Digest: d}); err != nil {
			return err
		}
	}
	return nil
}

func (s *fakeStore) set(ns string, d ...digest.Digest) {
	s.mu.Lock()
	s.held[ns] = d
	s.mu.Unlock()
}

func (s *fakeStore) namespaces(context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for ns := range s.held {
		out = append(out, ns)
	}
	return out, nil
}

type fakeAnnouncer struct {
	mu        sync.Mutex
	announced map[digest.Digest]int
	failFirst int // fail this many calls, as when no peer is connected yet
}

func (a *fakeAnnouncer) Provide(ctx context.Context, d digest.Digest) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.failFirst > 0 {
		a.failFirst--
		return context.DeadlineExceeded
	}
	a.announced[d]++
	return nil
}

func (a *fakeAnnouncer) count(d digest.Digest) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.announced[d]
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func contentCreated(t *testing.T, ns string, d digest.Digest) *events.Envelope {
	t.Helper()
	any, err := typeurl.MarshalAny(&eventstypes.ContentCreate{Digest: d.String(), Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &events.Envelope{Namespace: ns, Topic: "/content/create", Event: any}
}

func run(t *testing.T, inv *Inventory) chan *events.Envelope {
	envs := make(chan *events.Envelope)
	errs := make(chan error)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { inv.Run(ctx, envs, errs); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return envs
}

func TestAnnouncesWhatEveryNamespaceHoldsThenNewContent(t *testing.T) {
	a, b, c := digest.FromString("a"), digest.FromString("b"), digest.FromString("c")
	store := &fakeStore{held: map[string][]digest.Digest{"default": {a}, "k8s.io": {a, b}}}
	ann := &fakeAnnouncer{announced: map[digest.Digest]int{}}
	inv := New(store, store.namespaces, ann, Options{})
	envs := run(t, inv)

	eventually(t, "initial announcements", func() bool { return ann.count(a) == 1 && ann.count(b) == 1 })
	if got := len(inv.Namespaces(a)); got != 2 {
		t.Fatalf("a is held in %d namespaces, want 2", got)
	}

	envs <- contentCreated(t, "k8s.io", c)
	eventually(t, "announcement of new content", func() bool { return ann.count(c) == 1 })
	if inv.Len() != 3 {
		t.Fatalf("inventory holds %d digests, want 3", inv.Len())
	}
}

func TestFailedAnnouncementsAreRetried(t *testing.T) {
	a := digest.FromString("a")
	store := &fakeStore{held: map[string][]digest.Digest{"default": {a}}}
	ann := &fakeAnnouncer{announced: map[digest.Digest]int{}, failFirst: 2}
	inv := New(store, store.namespaces, ann, Options{RetryInterval: 10 * time.Millisecond})
	run(t, inv)
	eventually(t, "announcement after failures", func() bool { return ann.count(a) == 1 })
}

func TestDeletedContentStopsBeingAnnouncedAfterRescan(t *testing.T) {
	a, b := digest.FromString("a"), digest.FromString("b")
	store := &fakeStore{held: map[string][]digest.Digest{"default": {a, b}}}
	ann := &fakeAnnouncer{announced: map[digest.Digest]int{}}
	inv := New(store, store.namespaces, ann, Options{RescanDelay: 10 * time.Millisecond, ReannounceInterval: 50 * time.Millisecond})
	envs := run(t, inv)
	eventually(t, "initial announcements", func() bool { return ann.count(a) >= 1 && ann.count(b) >= 1 })

	// Garbage collection removes b after an image delete, without an event for b.
	store.set("default", a)
	envs <- &events.Envelope{Namespace: "default", Topic: "/images/delete"}
	eventually(t, "b to leave the inventory", func() bool { return len(inv.Namespaces(b)) == 0 })

	before := ann.count(b)
	eventually(t, "a to be re-announced", func() bool { return ann.count(a) >= 3 })
	if ann.count(b) != before {
		t.Fatal("deleted content was announced again")
	}
}
