package pulling

import (
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestPullingLastsWhileAFetchIsOpenAndLingers(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	tr := newTracker(c.now)
	const repo = "registry.example/app"
	if tr.Pulling(repo) {
		t.Fatal("pulling before any fetch")
	}
	endA := tr.Begin(repo)
	endB := tr.Begin(repo)
	if !tr.Pulling(repo) || tr.Pulling("registry.example/other") {
		t.Fatal("want only the fetched repository pulled")
	}
	endA()
	endA() // a second call changes nothing
	c.t = c.t.Add(10 * Linger)
	if !tr.Pulling(repo) {
		t.Fatal("one fetch is still open")
	}
	endB()
	c.t = c.t.Add(Linger - time.Millisecond)
	if !tr.Pulling(repo) {
		t.Fatal("want the repository pulled within Linger of the last fetch's end")
	}
	c.t = c.t.Add(time.Millisecond)
	if tr.Pulling(repo) {
		t.Fatal("want the repository not pulled Linger after the last fetch's end")
	}
	tr.Begin("registry.example/other")()
	if len(tr.ended) != 1 {
		t.Fatalf("ended keeps %d repositories, want only the one that ended within Linger", len(tr.ended))
	}
}

func TestANilTrackerAndAnEmptyRepositoryTrackNothing(t *testing.T) {
	var tr *Tracker
	tr.Begin("r")()
	if tr.Pulling("r") {
		t.Fatal("a nil tracker pulls nothing")
	}
	tr = New()
	tr.Begin("")()
	if tr.Pulling("") {
		t.Fatal("an empty repository is not tracked")
	}
}
