// Package rangeplan schedules the pieces of one blob fetched as ranges from
// several peers at once: it hands out chunk indexes to the peers' workers,
// keeps the received chunks until they can be written in order, and bounds
// how far ahead of the writer the workers may run, which bounds memory.
package rangeplan

import (
	"context"
	"errors"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"
)

// ErrAllWorkersFailed: every worker gave up before the blob was complete.
var ErrAllWorkersFailed = errors.New("every peer sending ranges failed")

// Plan is the schedule of one blob's bytes from an offset to its end.
type Plan struct {
	offset, size, chunk int64

	mu        sync.Mutex
	cond      *sync.Cond
	total     int
	window    int
	fresh     int   // next index never handed out
	retry     []int // handed back by failed workers
	writtenTo int   // chunks written
	received  map[int]received
	busy      int // chunks being received
	workers   int // workers still working
	closed    bool
	free      [][]byte // written chunks' buffers, for reuse
}

type received struct {
	data []byte
	from peer.ID
}

// New plans the bytes [offset, size) in chunks of chunk bytes, for workers
// that together may hold at most window chunks that are not yet written.
func New(offset, size, chunk int64, window, workers int) *Plan {
	p := &Plan{
		offset: offset, size: size, chunk: chunk,
		total:  int((size - offset + chunk - 1) / chunk),
		window: window, workers: workers,
		received: map[int]received{},
	}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// Chunks is the number of chunks in the plan.
func (p *Plan) Chunks() int { return p.total }

// Bounds is the byte range [start, end) of chunk i.
func (p *Plan) Bounds(i int) (start, end int64) {
	start = p.offset + int64(i)*p.chunk
	return start, min(start+p.chunk, p.size)
}

// Take returns the next chunk a worker should fetch and a buffer of its
// size, waiting while the workers are a full window ahead of the writer.
// It returns false once every chunk is handed out and received, or the plan
// is closed.
func (p *Plan) Take() (int, []byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.closed {
		i := -1
		if n := len(p.retry); n > 0 {
			i = p.retry[n-1]
			p.retry = p.retry[:n-1]
		} else if p.fresh < p.total && p.fresh < p.writtenTo+p.window {
			i = p.fresh
			p.fresh++
		}
		if i >= 0 {
			p.busy++
			start, end := p.Bounds(i)
			return i, p.buffer()[:end-start], true
		}
		if p.fresh >= p.total && p.busy == 0 {
			return 0, nil, false
		}
		p.cond.Wait()
	}
	return 0, nil, false
}

func (p *Plan) buffer() []byte {
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		return b[:cap(b)]
	}
	return make([]byte, p.chunk)
}

// Deliver hands in chunk i, received from peer from.
func (p *Plan) Deliver(i int, from peer.ID, data []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.received[i] = received{data, from}
	p.busy--
	p.cond.Broadcast()
}

// GiveBack returns the chunk of a worker that failed; that worker stops.
func (p *Plan) GiveBack(i int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.retry = append(p.retry, i)
	p.busy--
	p.workers--
	p.cond.Broadcast()
}

// Next waits for chunk i, in writing order.
func (p *Plan) Next(i int) ([]byte, peer.ID, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if c, ok := p.received[i]; ok {
			delete(p.received, i)
			return c.data, c.from, nil
		}
		if p.closed {
			return nil, "", context.Canceled
		}
		if p.workers == 0 {
			return nil, "", ErrAllWorkersFailed
		}
		p.cond.Wait()
	}
}

// Written says chunk i is written; its buffer may be reused.
func (p *Plan) Written(i int, buf []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.writtenTo = i + 1
	p.free = append(p.free, buf)
	p.cond.Broadcast()
}

// Close ends the plan: waiting workers and the writer return.
func (p *Plan) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.cond.Broadcast()
}
