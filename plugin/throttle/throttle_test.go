package throttle

import (
	"bytes"
	"context"
	"io"
	"testing"
	"testing/synctest"
	"time"
)

func TestNoRateMeansNoLimiter(t *testing.T) {
	if New(0) != nil {
		t.Fatal("a zero rate must not limit")
	}
	var l *Limiter
	var buf bytes.Buffer
	if l.Writer(context.Background(), &buf) != &buf {
		t.Fatal("a nil limiter must hand the writer back")
	}
}

// Pacing is shared: two streams together move no more than the rate.
func TestStreamsShareTheRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const rate = 4 << 20 // bytes per second
		l := New(rate)
		data := bytes.Repeat([]byte("x"), 1<<20)
		start := time.Now()
		done := make(chan struct{})
		for i := 0; i < 2; i++ {
			go func() {
				io.Copy(l.Writer(context.Background(), io.Discard), bytes.NewReader(data))
				done <- struct{}{}
			}()
		}
		got, _ := io.ReadAll(l.ReadCloser(context.Background(), io.NopCloser(bytes.NewReader(data))))
		<-done
		<-done
		if len(got) != len(data) {
			t.Fatal("reader lost bytes")
		}
		// 3 MiB at 4 MiB/s with a burst of 0.4 MiB: 0.65 s of virtual time.
		if took := time.Since(start); took < 500*time.Millisecond || took > time.Second {
			t.Fatalf("3 MiB moved in %s at 4 MiB/s", took)
		}
	})
}

func TestAWaitEndsWithItsContext(t *testing.T) {
	l := New(64 << 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Writer(ctx, io.Discard).Write(make([]byte, 1<<20)); err == nil {
		t.Fatal("a write went on after its context ended")
	}
}
