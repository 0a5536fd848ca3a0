package fetcher

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// stallCheck is how often a stream from a peer is checked for bytes.
const stallCheck = time.Second

// copyFrom copies the layer from body, a stream from p, into w from
// offset, and returns the bytes written. A peer's stream that brings no
// byte for Options.HolderStall is closed, whatever its connection says: a
// connection's idle timer sees only its own bytes, and a source that keeps
// it busy without sending this blob would hold the pull forever.
func (pf *PeerFirst) copyFrom(ctx context.Context, w io.Writer, body io.ReadCloser, src *sources, p peer.ID, offset int64) (int64, error) {
	if p == upstreamID {
		return pipelinedCopy(w, body, src.desc.Size-offset)
	}
	var (
		got     atomic.Int64
		mu      sync.Mutex
		stalled bool
		done    = make(chan struct{})
		wg      sync.WaitGroup
	)
	wg.Go(func() {
		defer recovery.Log(ctx, "p2p: watching a peer's stream failed")
		tick := time.NewTicker(stallCheck)
		defer tick.Stop()
		lastGot, progress := int64(0), time.Now()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if g := got.Load(); g != lastGot {
				lastGot, progress = g, time.Now()
			} else if time.Since(progress) >= pf.f.opts.HolderStall {
				mu.Lock()
				stalled = true
				mu.Unlock()
				body.Close()
				return
			}
		}
	})
	n, err := pipelinedCopy(&countedWriter{w: w, n: &got}, body, src.desc.Size-offset)
	close(done)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if stalled {
		err = fmt.Errorf("%w: no byte of %s from %s for %s", errHolderStalled, src.desc.Digest, p, pf.f.opts.HolderStall)
	}
	return n, err
}

// errHolderStalled: a peer's stream brought no byte for the holder-stall
// bound (Options.HolderStall). It is a stall (isStall).
var errHolderStalled = fmt.Errorf("peer stopped sending: %w", os.ErrDeadlineExceeded)

// countedWriter counts the bytes written through it.
type countedWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c *countedWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(int64(n))
	return n, err
}
