package window

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/containerd/errdefs"
)

// ErrArrivalFailed: a piece passed on while it arrived did not arrive
// whole and verified, so the rest of it is not sent.
var ErrArrivalFailed = fmt.Errorf("piece passed on did not arrive verified: %w", errdefs.ErrUnavailable)

// Arrival is a piece arriving at this node, which the content service
// passes on to peers as its bytes come (cut-through): a piece then
// reaches the nodes behind this one in about one piece time, not one
// piece time per hop. The last byte leaves only once the piece is
// verified, so a peer never receives a whole piece that this node found
// bad: an arrival that fails cuts the bodies that pass it on, and their
// askers ask elsewhere without blaming this node.
type Arrival struct {
	buf   []byte
	onEnd func() // the layer forgets it

	mu      sync.Mutex
	got     int
	ended   bool
	ok      bool
	changed chan struct{} // closed on every change, then replaced
}

func newArrival(buf []byte) *Arrival {
	return &Arrival{buf: buf, changed: make(chan struct{})}
}

// Arrived records that n more bytes are in the piece's buffer, in order.
// The writer must not change bytes it has recorded.
func (a *Arrival) Arrived(n int) {
	if a == nil || n <= 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ended {
		return
	}
	a.got = min(a.got+n, len(a.buf))
	a.signal()
}

// End says how the arrival ended: verified (ok) or not. Only the first
// call counts.
func (a *Arrival) End(ok bool) {
	if a == nil {
		return
	}
	a.mu.Lock()
	if a.ended {
		a.mu.Unlock()
		return
	}
	a.ended, a.ok = true, ok && a.got == len(a.buf)
	a.signal()
	a.mu.Unlock()
	if a.onEnd != nil {
		a.onEnd()
	}
}

func (a *Arrival) signal() {
	close(a.changed)
	a.changed = make(chan struct{})
}

// Reader reads the piece as it arrives, waiting for its bytes until ctx
// ends: all but its last byte as they come, the last once the piece is
// verified, and ErrArrivalFailed if it is not.
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
	for {
		a.mu.Lock()
		ready, ended, ok, changed := a.got, a.ended, a.ok, a.changed
		a.mu.Unlock()
		if ended && !ok {
			return 0, ErrArrivalFailed
		}
		if !ended {
			ready = min(ready, len(a.buf)-1) // the last byte waits for the piece's verification
		}
		if r.off < ready {
			n := copy(p, a.buf[r.off:ready])
			r.off += n
			return n, nil
		}
		if ended && r.off == len(a.buf) {
			return 0, io.EOF
		}
		select {
		case <-changed:
		case <-r.ctx.Done():
			return 0, r.ctx.Err()
		}
	}
}
