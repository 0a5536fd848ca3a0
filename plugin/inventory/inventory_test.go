package inventory

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	eventstypes "github.com/containerd/containerd/api/events"
	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/events"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/typeurl/v2"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/contenttest"
	"github.com/shoal-dev/shoal/plugin/policy"
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

// fakeEvents is an event exchange whose subscriptions the test can break.
type fakeEvents struct {
	envs          chan *events.Envelope
	errs          chan error
	mu            sync.Mutex
	subscriptions int
}

func (f *fakeEvents) subscribe(ctx context.Context) (<-chan *events.Envelope, <-chan error) {
	f.mu.Lock()
	f.subscriptions++
	f.mu.Unlock()
	return f.envs, f.errs
}

func (f *fakeEvents) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.subscriptions
}

func runWith(t *testing.T, inv *Inventory) *fakeEvents {
	ev := &fakeEvents{envs: make(chan *events.Envelope), errs: make(chan error)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { inv.Run(ctx, ev.subscribe); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ev
}

func run(t *testing.T, inv *Inventory) chan *events.Envelope { return runWith(t, inv).envs }

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

func TestImageNamesAreAnnouncedUnderTheirReferenceKey(t *testing.T) {
	store := &fakeStore{held: map[string][]digest.Digest{"k8s.io": {digest.FromString("m")}}}
	ann := &fakeAnnouncer{announced: map[digest.Digest]int{}}
	key := func(name string) digest.Digest { return digest.FromString("ref:" + name) }
	images := func(ctx context.Context) ([]string, error) {
		if ns, _ := namespaces.Namespace(ctx); ns == "k8s.io" {
			return []string{"registry.example/app:v1"}, nil
		}
		return nil, nil
	}
	inv := New(store, store.namespaces, ann, Options{Images: images, ReferenceKey: key})
	envs := run(t, inv)
	eventually(t, "reference announced", func() bool { return ann.count(key("registry.example/app:v1")) == 1 })

	created, err := typeurl.MarshalAny(&eventstypes.ImageCreate{Name: "registry.example/app:v2"})
	if err != nil {
		t.Fatal(err)
	}
	envs <- &events.Envelope{Namespace: "k8s.io", Topic: "/images/create", Event: created}
	eventually(t, "new reference announced", func() bool { return ann.count(key("registry.example/app:v2")) == 1 })
}

func TestLostEventStreamIsResubscribedAndTheStoreWalkedAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, missed := digest.FromString("a"), digest.FromString("created while events were lost")
		store := &fakeStore{held: map[string][]digest.Digest{"default": {a}}}
		ann := &fakeAnnouncer{announced: map[digest.Digest]int{}}
		inv := New(store, store.namespaces, ann, Options{})
		ev := runWith(t, inv)
		eventually(t, "initial announcement", func() bool { return ann.count(a) == 1 })

		store.set("default", a, missed)
		ev.errs <- errors.New("exchange closed")
		eventually(t, "resubscription", func() bool { return ev.count() == 2 })
		eventually(t, "content missed during the outage to be announced", func() bool { return ann.count(missed) == 1 })
	})
}

type denyNamespace string

func (d denyNamespace) ContentShared(ns string, _ map[string]string) bool { return ns != string(d) }
func (d denyNamespace) ImageShared(ns, _ string) bool                     { return ns != string(d) }
func (denyNamespace) DependsOnOrigin() bool                               { return false }

func TestContentOutsideTheSharingPolicyIsNeverAnnounced(t *testing.T) {
	shared, private := digest.FromString("shared"), digest.FromString("private")
	store := &fakeStore{held: map[string][]digest.Digest{"k8s.io": {shared}, "secret": {private}}}
	ann := &fakeAnnouncer{announced: map[digest.Digest]int{}}
	inv := New(store, store.namespaces, ann, Options{Policy: denyNamespace("secret")})
	run(t, inv)
	eventually(t, "shared content announced", func() bool { return ann.count(shared) == 1 })
	if ann.count(private) != 0 || len(inv.Namespaces(private)) != 0 {
		t.Fatal("content of a private namespace was announced or listed")
	}
}

func TestArrivingContentIsAnnouncedUntilWithdrawnUnlessShareless(t *testing.T) {
	arriving, private := digest.FromString("arriving"), digest.FromString("private-arriving")
	store := &fakeStore{held: map[string][]digest.Digest{}}
	ann := &fakeAnnouncer{announced: map[digest.Digest]int{}}
	inv := New(store, store.namespaces, ann, Options{Policy: denyNamespace("secret"), ReannounceInterval: 50 * time.Millisecond})
	run(t, inv)

	withdraw, ok := inv.Offer(context.Background(), "k8s.io", arriving, nil)
	if !ok {
		t.Fatal("shared arriving content refused")
	}
	eventually(t, "arriving layer announced", func() bool { return ann.count(arriving) == 1 })
	eventually(t, "arriving layer announced again while it arrives", func() bool { return ann.count(arriving) >= 2 })
	if _, ok := inv.Offer(context.Background(), "secret", private, nil); ok {
		t.Fatal("arriving content of a private namespace was accepted")
	}

	// The fetch failed: no more announcements. (Positive control above:
	// re-announcement happens while it is offered.)
	withdraw()
	withdraw() // idempotent
	settled := ann.count(arriving)
	time.Sleep(200 * time.Millisecond) // four re-announcement intervals
	if got := ann.count(arriving); got > settled+1 {
		t.Fatalf("a withdrawn layer was announced %d more times", got-settled)
	}
	if ann.count(private) != 0 {
		t.Fatal("private arriving content was announced")
	}
}

// containerd labels where content came from a moment after it commits it:
// a blob committed without the label is announced once the label is there,
// and one that never gets a label (built or imported here) never is, under
// the default sharing policy.
func TestABlobIsAnnouncedOnceItsOriginIsLabelled(t *testing.T) {
	env := contenttest.New(t)
	ctx := namespaces.WithNamespace(context.Background(), "k8s.io")
	write := func(data string) digest.Digest {
		d := digest.FromString(data)
		if err := content.WriteBlob(ctx, env.Store, data, strings.NewReader(data), ocispec.Descriptor{Digest: d, Size: int64(len(data))}); err != nil {
			t.Fatal(err)
		}
		return d
	}
	sharing, err := policy.New(nil, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ann := &fakeAnnouncer{announced: map[digest.Digest]int{}}
	inv := New(env.Store, func(context.Context) ([]string, error) { return []string{"k8s.io"}, nil }, ann, Options{Policy: sharing})
	envs := run(t, inv)

	pulled, imported := write("pulled"), write("imported")
	envs <- contentCreated(t, "k8s.io", pulled)
	envs <- contentCreated(t, "k8s.io", imported)
	label := "containerd.io/distribution.source.registry.example"
	if _, err := env.Store.Update(ctx, content.Info{Digest: pulled, Labels: map[string]string{label: "team/app"}}, "labels."+label); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the labelled blob announced", func() bool { return ann.count(pulled) == 1 })
	time.Sleep(2500 * time.Millisecond) // past the last recheck; the positive control is above
	if ann.count(imported) != 0 || len(inv.Namespaces(imported)) != 0 {
		t.Fatal("content of unknown origin was announced")
	}
}

// A layer announced while it arrived is not announced again when it is
// committed: its provider record stands. Content committed without an
// offer is announced at its commit.
func TestALayerAnnouncedWhileItArrivedIsNotAnnouncedAgainAtItsCommit(t *testing.T) {
	layer, blob := digest.FromString("layer"), digest.FromString("blob")
	store := &fakeStore{held: map[string][]digest.Digest{}}
	ann := &fakeAnnouncer{announced: map[digest.Digest]int{}}
	inv := New(store, store.namespaces, ann, Options{})
	envs := run(t, inv)

	withdraw, ok := inv.Offer(context.Background(), "k8s.io", layer, nil)
	if !ok {
		t.Fatal("shared arriving content refused")
	}
	eventually(t, "the arriving layer announced", func() bool { return ann.count(layer) == 1 })
	envs <- contentCreated(t, "k8s.io", layer)
	withdraw()
	envs <- contentCreated(t, "k8s.io", blob)
	eventually(t, "the blob committed without an offer announced", func() bool { return ann.count(blob) == 1 })
	time.Sleep(50 * time.Millisecond) // the announcer's batch after the blob's
	if n := ann.count(layer); n != 1 {
		t.Fatalf("the layer was announced %d times, want once: while it arrived", n)
	}
	if got := len(inv.Namespaces(layer)); got != 1 {
		t.Fatalf("the committed layer is held in %d namespaces, want 1", got)
	}
}
