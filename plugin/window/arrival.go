package window

import (
	"context"
	"errors"
	"io"
	"sync"
)

// ErrArrivalFailed: a piece being passed on as it arrived did not arrive
// whole and verified.
var ErrArrivalFailed = errors.New("piece did not arrive verified")

// Arrival is a piece arriving at this node, from a peer or the upstream.
// Its bytes are passed on to peers as they come (a piece waits for no
// hop to be whole before it moves on), its last byte only once the piece
// is held, verified: a peer never gets the whole of a piece this node
// found bad.
type Arrival struct {
	l   *Layer
	i   int
	buf []byte

	mu      sync.Mutex
	n       int           // bytes arrived
	ended   bool          // held, or failed
	changed chan struct{} // closed and replaced at every change
}

// Arrive registers buf as piece i's buffer while it arrives. It returns
// nil when the piece is held or arriving already: its bytes are then
// passed on from there.
func (l *Layer) Arrive(i int, buf []byte) *Arrival {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended || l.have.Has(i) || l.arriving[i] != nil || int64(len(buf)) != l.PieceLen(i) {
		return nil
	}
	a := &Arrival{l: l, i: i, buf: buf, changed: make(chan struct{})}
	l.arriving[i] = a
	return a
}

// Arrived records that the first n bytes of the buffer are in.
func (a *Arrival) Arrived(n int) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if n > a.n {
		a.n = n
		a.notify()
	}
}

// End ends the arrival, the piece held (Put before) or not.
func (a *Arrival) End() {
	if a == nil {
		return
	}
	a.l.mu.Lock()
	if a.l.arriving[a.i] == a {
		delete(a.l.arriving, a.i)
	}
	a.l.mu.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ended = true
	a.notify()
}

func (a *Arrival) notify() {
	close(a.changed)
	a.changed = make(chan struct{})
}

// Arriving is the arrival of piece i, if it arrives now.
func (l *Layer) Arriving(i int) (*Arrival, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a, ok := l.arriving[i]
	return a, ok
}

// receiving is the have-set of the pieces arriving now. Call with l.mu.
func (l *Layer) receiving() []int {
	out := make([]int, 0, len(l.arriving))
	for i := range l.arriving {
		out = append(out, i)
	}
	return out
}

// Reader passes the piece on as it arrives: every byte but the last as
// soon as it is in, the last once the piece is held. When the arrival
// fails and the piece is not held from elsewhere, Read fails with
// ErrArrivalFailed.
func (a *Arrival) Reader(ctx context.Context) io.Reader {
	return &arrivalReader{ctx: ctx, a: a}
}

type arrivalReader struct {
	ctx context.Context
	a   *Arrival
	off int
}

func (r *arrivalReader) Read(p []byte) (int, error) {
	a := r.a
	size := len(a.buf)
	if r.off >= size {
		return 0, io.EOF
	}
	for {
		a.mu.Lock()
		n, ended, changed := a.n, a.ended, a.changed
		a.mu.Unlock()
		if ended {
			// Held in memory (from this arrival or another source), or
			// not: failed, or written to the ingest already (the asker
			// then asks again, and is sent it from there).
			b, ok := a.l.Piece(a.i)
			if !ok {
				return 0, ErrArrivalFailed
			}
			m := copy(p, b[r.off:])
			r.off += m
			return m, nil
		}
		if limit := min(n, size-1); limit > r.off {
			m := copy(p, a.buf[r.off:limit])
			r.off += m
			return m, nil
		}
		select {
		case <-changed:
		case <-r.ctx.Done():
			return 0, r.ctx.Err()
		}
	}
}
