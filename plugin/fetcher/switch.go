package fetcher

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// switchMargin: a stream from a holder still receiving the layer is left
// for another holder when this one has at most this much more than was
// received from it (it is the bottleneck), and the other at least twice
// this much more.
const switchMargin = 8 << 20

// switchCheck is how often a stream from a holder still receiving the
// layer is compared with the other holders.
const switchCheck = time.Second

// copyFrom copies the layer from body, a stream from p, into w from
// offset. A stream from a holder that is still receiving the layer itself
// runs at that holder's own download rate: if another holder is far ahead,
// the stream is closed and that holder is returned, to continue from at the
// current offset (a slow node then slows only the nodes that have no better
// source). It returns the bytes written.
func (pf *PeerFirst) copyFrom(ctx context.Context, w io.Writer, body io.ReadCloser, src *sources, p peer.ID, offset int64) (n int64, better peer.ID, err error) {
	others := src.untried()
	if p == upstreamID || src.complete[p] || len(others) == 0 {
		n, err = pipelinedCopy(w, body, src.desc.Size-offset)
		return n, "", err
	}
	var (
		got  atomic.Int64
		mu   sync.Mutex
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(switchCheck)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			pos := offset + got.Load()
			current, err := pf.available(ctx, p, src)
			if err != nil || current > pos+switchMargin {
				continue // not the bottleneck (or says nothing): keep it
			}
			for _, o := range others {
				if h, err := pf.probe(ctx, o, src); err == nil && h.Available >= pos+2*switchMargin {
					mu.Lock()
					better = o
					mu.Unlock()
					body.Close() // the copy returns; the fetch continues from o
					return
				}
			}
		}
	}()
	n, err = pipelinedCopy(&countedWriter{w: w, n: &got}, body, src.desc.Size-offset)
	close(done)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return n, better, err
}

type countedWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c *countedWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(int64(n))
	return n, err
}
