// Package throttle caps how fast this node moves bytes: all serving to
// peers together, or all fetching from peers together, at one rate shared
// by every stream it wraps.
package throttle

import (
	"context"
	"io"

	"golang.org/x/time/rate"
)

// Limiter is a shared byte rate. A nil *Limiter does not limit.
type Limiter struct {
	l     *rate.Limiter
	burst int
}

// New returns a limiter of bytesPerSecond, or nil (no limit) if it is 0.
func New(bytesPerSecond int64) *Limiter {
	if bytesPerSecond <= 0 {
		return nil
	}
	// A tenth of a second's worth at once, at least 64 KiB, at most
	// 1 MiB: smooth enough at any rate, and few wake-ups at high ones.
	burst := int(min(max(bytesPerSecond/10, 64<<10), 1<<20))
	return &Limiter{l: rate.NewLimiter(rate.Limit(bytesPerSecond), burst), burst: burst}
}

// Rate is the limit in bytes per second; 0: none.
func (t *Limiter) Rate() int64 {
	if t == nil {
		return 0
	}
	return int64(t.l.Limit())
}

// wait takes n bytes from the budget, waiting as long as it takes or until
// ctx ends.
func (t *Limiter) wait(ctx context.Context, n int) error {
	for n > 0 {
		take := min(n, t.burst)
		if err := t.l.WaitN(ctx, take); err != nil {
			return err
		}
		n -= take
	}
	return nil
}

// Writer paces writes to w.
func (t *Limiter) Writer(ctx context.Context, w io.Writer) io.Writer {
	if t == nil {
		return w
	}
	return &writer{w: w, t: t, ctx: ctx}
}

type writer struct {
	w   io.Writer
	t   *Limiter
	ctx context.Context
}

func (w *writer) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), w.t.burst)]
		if err := w.t.wait(w.ctx, len(chunk)); err != nil {
			return written, err
		}
		n, err := w.w.Write(chunk)
		written += n
		if err != nil {
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

// ReadCloser paces reads of rc; it keeps rc's Close.
func (t *Limiter) ReadCloser(ctx context.Context, rc io.ReadCloser) io.ReadCloser {
	if t == nil {
		return rc
	}
	return &reader{ReadCloser: rc, t: t, ctx: ctx}
}

type reader struct {
	io.ReadCloser
	t   *Limiter
	ctx context.Context
}

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p[:min(len(p), r.t.burst)])
	if n > 0 {
		if werr := r.t.wait(r.ctx, n); werr != nil && err == nil {
			err = werr
		}
	}
	return n, err
}
