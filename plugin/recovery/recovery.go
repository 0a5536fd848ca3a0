// Package recovery contains panics where Shoal's goroutines and handlers
// start: a bug in the plugin must never take containerd down with it.
package recovery

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/containerd/errdefs"
	"github.com/containerd/log"
)

// Log recovers a panic and logs it, with its stack, as what. It recovers
// only when deferred directly:
//
//	defer recovery.Log(ctx, "p2p: announcer stopped")
func Log(ctx context.Context, what string) {
	if p := recover(); p != nil {
		logPanic(ctx, what, p)
	}
}

// ErrPanicked is the error a recovered panic becomes (see Catch).
var ErrPanicked = fmt.Errorf("%w: recovered from a panic; see the log", errdefs.ErrInternal)

// Catch recovers a panic, logs it as what, and makes it the error *err, so
// that whoever waits for the goroutine's result gets one. Deferred
// directly, after (so before, when unwinding) whatever delivers *err:
//
//	defer func() { results <- result{v, err} }()
//	defer recovery.Catch(ctx, "p2p: request failed", &err)
func Catch(ctx context.Context, what string, err *error) {
	if p := recover(); p != nil {
		logPanic(ctx, what, p)
		*err = ErrPanicked
	}
}

// Go runs fn(ctx) in a goroutine; a panic in it ends fn, logged as what.
func Go(ctx context.Context, what string, fn func(context.Context)) {
	go func() {
		defer Log(ctx, what)
		fn(ctx)
	}()
}

// Handler serves with h; a panic in h is logged as what and answered by
// answer, if not nil. http.ErrAbortHandler is panicked again: it is how a
// handler asks net/http to drop the connection.
func Handler(what string, h http.Handler, answer func(http.ResponseWriter)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if p == http.ErrAbortHandler {
				panic(p)
			}
			logPanic(r.Context(), what, p)
			if answer != nil {
				answer(w)
			}
		}()
		h.ServeHTTP(w, r)
	})
}

func logPanic(ctx context.Context, what string, p any) {
	log.G(ctx).WithField("panic", p).WithField("stack", string(debug.Stack())).Error(what)
}
