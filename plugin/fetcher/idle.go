package fetcher

import (
	"fmt"
	"io"
	"os"
	"time"
)

// ErrUpstreamStalled: the upstream registry sent nothing for the idle
// bound in the middle of a body. It wraps os.ErrDeadlineExceeded.
var ErrUpstreamStalled = fmt.Errorf("upstream registry stopped sending: %w", os.ErrDeadlineExceeded)

// idleBody fails a Read that sees no byte for idle by closing the body
// under it: a registry that keeps its connection open and stops sending
// would otherwise hang the pull (nothing above sets a deadline: kubelet
// sets none on PullImage, ctr none at all).
type idleBody struct {
	io.ReadCloser
	idle  time.Duration
	timer *time.Timer
}

func withIdleTimeout(rc io.ReadCloser, idle time.Duration) io.ReadCloser {
	if idle <= 0 {
		return rc
	}
	b := &idleBody{ReadCloser: rc, idle: idle}
	b.timer = time.AfterFunc(time.Hour, func() { rc.Close() })
	b.timer.Stop()
	return keepSeek(rc, b)
}

func (b *idleBody) Read(p []byte) (int, error) {
	b.timer.Reset(b.idle)
	n, err := b.ReadCloser.Read(p)
	if !b.timer.Stop() {
		// The bound passed while this Read waited: the body is closed.
		return n, fmt.Errorf("%w for %s", ErrUpstreamStalled, b.idle)
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	return b.ReadCloser.Close()
}
