package window

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/pieces"
)

// drain reads r in the background; each call of the function it returns
// waits until the reader blocks or ends, and returns what was read since
// the last call, and the reader's error once it ended.
func drain(r io.Reader) func() ([]byte, error) {
	var (
		mu   sync.Mutex
		got  []byte
		done error
	)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := r.Read(buf)
			mu.Lock()
			got = append(got, buf[:n]...)
			if err != nil {
				done = err
				mu.Unlock()
				return
			}
			mu.Unlock()
		}
	}()
	return func() ([]byte, error) {
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		b := got
		got = nil
		return b, done
	}
}

// fetchingLayer begins the fetch of a layer of the test's size, ended
// with the test.
func fetchingLayer(t *testing.T) (*Layer, []byte) {
	t.Helper()
	data := layerBytes()
	l, err := New(1<<20).Begin(digest.FromBytes(data), size, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.End)
	return l, data
}

// A piece arriving is passed on as its bytes come, all but the last; the
// last leaves once the piece is verified.
func TestAnArrivingPieceIsPassedOnAndItsLastByteWaitsForItsCheck(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, data := fetchingLayer(t)
		buf := make([]byte, l.PieceLen(1))
		grown := l.Grown(0)
		a := l.Arriving(1, buf)
		if a == nil || l.Arriving(1, make([]byte, len(buf))) != nil {
			t.Fatal("want one arrival of piece 1, not a second")
		}
		if st := l.State(); !st.Receiving.Has(1) || st.Have.Has(1) {
			t.Fatalf("state while piece 1 arrives: receiving %v, have %v", st.Receiving, st.Have)
		}
		read := drain(a.Reader(t.Context()))
		want := piece(data, 1)
		copy(buf, want[:1000])
		a.Arrived(1000)
		if got, err := read(); err != nil || !bytes.Equal(got, want[:1000]) {
			t.Fatalf("after 1000 bytes arrived: read %d bytes, %v", len(got), err)
		}
		copy(buf[1000:], want[1000:])
		a.Arrived(len(want) - 1000)
		if got, err := read(); err != nil || !bytes.Equal(got, want[1000:len(want)-1]) {
			t.Fatalf("after the whole piece arrived, unverified: read %d bytes, %v; want all but the last", len(got), err)
		}
		a.End(true)
		if got, err := read(); err != io.EOF || !bytes.Equal(got, want[len(want)-1:]) {
			t.Fatalf("once verified: read %d bytes, %v; want the last byte and EOF", len(got), err)
		}
		if _, ok := l.Arrival(1); ok || l.State().Receiving.Has(1) {
			t.Fatal("an arrival ended is still offered")
		}
		select {
		case <-grown:
		default:
			t.Fatal("a state held was not answered when the piece began arriving")
		}
		if l.Put(1, buf) != nil || l.Arriving(1, make([]byte, len(buf))) != nil {
			t.Fatal("a piece held is registered as arriving")
		}
	})
}

// A piece that arrives bad, or not whole, ends what passes it on: the
// peer sees its body cut, never a whole bad piece.
func TestAPieceThatFailsItsCheckEndsWhatPassesItOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, end := range []func(l *Layer, a *Arrival){
			func(_ *Layer, a *Arrival) { a.End(false) }, // bad bytes
			func(_ *Layer, a *Arrival) { a.End(true) },  // said good, short of the piece
			func(l *Layer, _ *Arrival) { l.End() },      // the fetch ended
		} {
			l, _ := fetchingLayer(t)
			buf := make([]byte, l.PieceLen(0))
			a := l.Arriving(0, buf)
			a.Arrived(len(buf) - 10)
			read := drain(a.Reader(t.Context()))
			got, err := read()
			if err != nil || len(got) != len(buf)-10 {
				t.Fatalf("read %d bytes, %v", len(got), err)
			}
			end(l, a)
			if got, err := read(); !errors.Is(err, ErrArrivalFailed) || len(got) != 0 {
				t.Fatalf("after a failed arrival: read %d bytes, %v; want ErrArrivalFailed", len(got), err)
			}
			l.End()
		}
	})
}

// A reader waiting for bytes that do not come returns when its asker
// leaves.
func TestAReaderOfAStalledArrivalEndsWithItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, _ := fetchingLayer(t)
		a := l.Arriving(2, make([]byte, l.PieceLen(2)))
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if _, err := a.Reader(ctx).Read(make([]byte, 10)); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("read of a stalled arrival: %v", err)
		}
	})
}

// A piece that no table covers waits for one: AwaitTable returns once a
// table covering it is added, and not for one that does not.
func TestAwaitTableReturnsOnceATableCoversThePiece(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, data := fetchingLayer(t)
		short, key := signedTable(t, data, 1)
		covered := make(chan bool, 1)
		go func() { covered <- l.AwaitTable(t.Context(), 1) }()
		synctest.Wait()
		l.AddTable(short)
		synctest.Wait()
		if len(covered) != 0 {
			t.Fatal("returned for a table that does not cover the piece")
		}
		b := pieces.NewTableBuilder(l.Digest, size)
		b.Write(data[:2*256<<10])
		longer, err := b.Table().Sign(key)
		if err != nil {
			t.Fatal(err)
		}
		l.AddTable(longer)
		if !<-covered {
			t.Fatal("a table covers piece 1, AwaitTable says not")
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if l.AwaitTable(ctx, 2) {
			t.Fatal("piece 2 is covered by no table")
		}
	})
}
