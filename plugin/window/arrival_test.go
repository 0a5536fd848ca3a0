package window

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"
)

func arrivingLayer(t *testing.T) (*Layer, []byte) {
	t.Helper()
	data := layerBytes()
	l, err := New(1<<20).Begin(digest.FromBytes(data), size, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.End)
	return l, data
}

// readSome reads what r gives within a short while, without its end.
func readSome(t *testing.T, r io.Reader, n int) []byte {
	t.Helper()
	got := make([]byte, n)
	done := make(chan error, 1)
	go func() { _, err := io.ReadFull(r, got); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%d bytes did not come", n)
	}
	return got
}

// A piece arriving is passed on as it comes, all but its last byte; the
// last once it is held. Peers are told it arrives.
func TestAPieceIsPassedOnAsItArrivesItsEndOnceHeld(t *testing.T) {
	l, data := arrivingLayer(t)
	want := piece(data, 1)
	buf := make([]byte, len(want))
	a := l.Arrive(1, buf)
	if a == nil || l.Arrive(1, make([]byte, len(want))) != nil {
		t.Fatal("a piece arriving once is registered once")
	}
	if st := l.State(); !st.Receiving.Has(1) || st.Have.Has(1) {
		t.Fatalf("state while it arrives: receiving %v, have %v", st.Receiving, st.Have)
	}
	r := a.Reader(t.Context())
	copy(buf, want[:1000])
	a.Arrived(1000)
	if got := readSome(t, r, 1000); !bytes.Equal(got, want[:1000]) {
		t.Fatal("the first bytes passed on are not those that arrived")
	}
	copy(buf, want)
	a.Arrived(len(want))
	rest := make([]byte, len(want)-1000)
	if got := readSome(t, r, len(rest)-1); !bytes.Equal(got, want[1000:len(want)-1]) {
		t.Fatal("the bytes passed on are not those that arrived")
	}
	last := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(r); last <- b }()
	select {
	case <-last:
		t.Fatal("the last byte left before the piece was held")
	case <-time.After(50 * time.Millisecond):
	}
	if err := l.Put(1, buf); err != nil {
		t.Fatal(err)
	}
	a.End()
	if b := <-last; !bytes.Equal(b, want[len(want)-1:]) {
		t.Fatalf("the end: %d bytes", len(b))
	}
	if st := l.State(); st.Receiving.Has(1) || !st.Have.Has(1) {
		t.Fatal("a piece held is no longer said to arrive")
	}
	if l.Arrive(1, make([]byte, len(want))) != nil {
		t.Fatal("a piece held was registered as arriving")
	}
}

// An arrival that fails (bad bytes, a holder gone) ends what it passes
// on before its last byte; one that another source beat ends with that
// source's bytes.
func TestAnArrivalThatFailsEndsWhatItPassesOn(t *testing.T) {
	l, data := arrivingLayer(t)
	want := piece(data, 0)
	a := l.Arrive(0, make([]byte, len(want)))
	r := a.Reader(t.Context())
	a.Arrived(len(want))
	readSome(t, r, len(want)-1)
	a.End() // not held
	if _, err := io.ReadAll(r); !errors.Is(err, ErrArrivalFailed) {
		t.Fatalf("after a failed arrival: %v, want ErrArrivalFailed", err)
	}

	b := l.Arrive(0, make([]byte, len(want)))
	r = b.Reader(t.Context())
	if err := l.Put(0, want); err != nil { // another source brought it
		t.Fatal(err)
	}
	b.End()
	if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("after another source brought it: %v, %d bytes", err, len(got))
	}

	c := l.Arrive(2, make([]byte, len(piece(data, 2))))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.Reader(ctx).Read(make([]byte, 10)); !errors.Is(err, context.Canceled) {
		t.Fatalf("a reader whose asker left: %v", err)
	}
}

// What arrives goes over the wire with the state.
func TestTheArrivingPiecesGoOverTheWire(t *testing.T) {
	l, _ := arrivingLayer(t)
	l.Arrive(2, make([]byte, 100))
	var buf bytes.Buffer
	if err := l.State().Encode(&buf); err != nil {
		t.Fatal(err)
	}
	st, err := DecodeState(&buf, l.Digest, size)
	if err != nil || !st.Receiving.Has(2) || st.Receiving.Count() != 1 {
		t.Fatalf("decoded: %v, receiving %v", err, st.Receiving)
	}
}
