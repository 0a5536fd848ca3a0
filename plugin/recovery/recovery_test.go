package recovery

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/containerd/log"
)

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// logged returns what the logger of a context without one writes, one entry
// at a time.
func logged(t *testing.T) <-chan string {
	entries := make(chan string, 16)
	out := log.L.Logger.Out
	log.L.Logger.SetOutput(writerFunc(func(b []byte) (int, error) {
		entries <- string(b)
		return len(b), nil
	}))
	t.Cleanup(func() { log.L.Logger.SetOutput(out) })
	return entries
}

func next(t *testing.T, entries <-chan string) string {
	t.Helper()
	select {
	case e := <-entries:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("nothing logged")
		return ""
	}
}

// The panic is logged as what, with its value and the stack it was raised in.
func wantPanicLogged(t *testing.T, entry, what string) {
	t.Helper()
	for _, want := range []string{"level=error", what, "panic=boom", "stack=", "recovery_test.go"} {
		if !strings.Contains(entry, want) {
			t.Errorf("log entry %q lacks %q", entry, want)
		}
	}
}

func TestAPanickingGoroutineIsLoggedAndTheProcessCarriesOn(t *testing.T) {
	entries := logged(t)
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "given")
	got := make(chan any, 1)
	Go(ctx, "test: worker stopped", func(ctx context.Context) {
		got <- ctx.Value(key{})
		panic("boom")
	})
	if v := <-got; v != "given" {
		t.Fatalf("fn got a context without the caller's values: %v", v)
	}
	wantPanicLogged(t, next(t, entries), "test: worker stopped")
}

func TestLogRecoversWhenDeferredDirectly(t *testing.T) {
	entries := logged(t)
	func() {
		defer Log(context.Background(), "test: loop stopped")
		panic("boom")
	}()
	wantPanicLogged(t, next(t, entries), "test: loop stopped")
}

func TestLogWithoutAPanicLogsNothing(t *testing.T) {
	entries := logged(t)
	func() {
		defer Log(context.Background(), "test: loop stopped")
	}()
	select {
	case e := <-entries:
		t.Fatalf("logged without a panic: %q", e)
	default:
	}
}

func internalError(w http.ResponseWriter) {
	http.Error(w, "internal error", http.StatusInternalServerError)
}

func TestAPanickingHandlerIsLoggedAndAnswered(t *testing.T) {
	entries := logged(t)
	h := Handler("test: handler recovered", http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom")
	}), internalError)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "internal error") {
		t.Fatalf("answered %d %q", rec.Code, rec.Body.String())
	}
	wantPanicLogged(t, next(t, entries), "test: handler recovered")
}

func TestAHandlerThatDoesNotPanicIsServedAsItIs(t *testing.T) {
	h := Handler("test: handler recovered", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}), internalError)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusTeapot {
		t.Fatalf("answered %d", rec.Code)
	}
}

// net/http drops the connection, quietly, for ErrAbortHandler: that must
// still reach it.
func TestErrAbortHandlerPassesThrough(t *testing.T) {
	entries := logged(t)
	answered := false
	h := Handler("test: handler recovered", http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic(http.ErrAbortHandler)
	}), func(http.ResponseWriter) { answered = true })

	p := func() (p any) {
		defer func() { p = recover() }()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
		return nil
	}()
	if p != http.ErrAbortHandler {
		t.Fatalf("panic %v, want http.ErrAbortHandler", p)
	}
	if answered {
		t.Fatal("an aborted request was answered")
	}

	srv := httptest.NewServer(h)
	defer srv.Close()
	if resp, err := srv.Client().Get(srv.URL); err == nil {
		resp.Body.Close()
		t.Fatalf("aborted request answered %s", resp.Status)
	}
	select {
	case e := <-entries:
		t.Fatalf("an aborted request was logged: %q", e)
	default:
	}
}

func TestCatchTurnsAPanicIntoTheGoroutinesError(t *testing.T) {
	results := make(chan error, 1)
	go func() {
		var err error
		defer func() { results <- err }()
		defer Catch(context.Background(), "test: worker", &err)
		var m map[string]int
		m["boom"]++ // a nil map write panics
	}()
	if err := <-results; !errors.Is(err, ErrPanicked) {
		t.Fatalf("got %v", err)
	}
}
