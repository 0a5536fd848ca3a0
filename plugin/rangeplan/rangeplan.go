// Package rangeplan schedules the pieces of one blob fetched as ranges from
// several peers at once: it hands each peer's worker the lowest chunk that
// peer holds (a peer may itself be receiving the blob), keeps the received
// chunks until they can be written in order, bounds how far ahead of the
// writer the workers may run (which bounds memory), and hands a chunk the
// writer has waited on too long to a second worker, first answer wins.
package rangeplan

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// ErrAllWorkersFailed: every worker gave up before the blob was complete.
var ErrAllWorkersFailed = errors.New("every peer sending ranges failed")

// Status says what Take handed out.
type Status int

const (
	// Got: a chunk to fetch.
	Got Status = iota
	// Wait: this worker's peer holds none of the chunks left to hand out
	// yet; ask again once it holds more.
	Wait
	// Done: nothing is left for this worker; it stops.
	Done
)

// Plan is the schedule of one blob's bytes from an offset to its end.
type Plan struct {
	offset, size, chunk int64
	// LateAfter: a chunk the writer waits on this long is handed to a
	// second worker too. 0: never.
	lateAfter time.Duration

	mu        sync.Mutex
	cond      *sync.Cond
	total     int
	window    int
	fresh     int   // next index never handed out
	retry     []int // handed back by failed workers
	late      []int // the writer waits on them: handed out again
	writtenTo int   // chunks written
	received  map[int]received
	taking    map[int]int // chunk -> workers receiving it
	workers   int         // workers still working
	closed    bool
	free      [][]byte // written chunks' buffers, for reuse
}

type received struct {
	data []byte
	from peer.ID
}

// New plans the bytes [offset, size) in chunks of chunk bytes, for workers
// that together may hold at most window chunks that are not yet written.
// A chunk the writer waits on for lateAfter is handed out once more (0:
// never).
func New(offset, size, chunk int64, window, workers int, lateAfter time.Duration) *Plan {
	p := &Plan{
		offset: offset, size: size, chunk: chunk, lateAfter: lateAfter,
		total:  int((size - offset + chunk - 1) / chunk),
		window: window, workers: workers,
		received: map[int]received{}, taking: map[int]int{},
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

// AddWorker counts in a worker that joined after the start.
func (p *Plan) AddWorker(window int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.workers++
	p.window += window
	p.cond.Broadcast()
}

// Take returns the lowest chunk that a worker whose peer holds the blob's
// first available bytes should fetch, with a buffer of its size. It waits
// while the workers are a full window ahead of the writer.
func (p *Plan) Take(available int64) (int, []byte, Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.closed {
		if i, ok := p.pick(&p.late, available); ok {
			return p.hand(i)
		}
		if i, ok := p.pick(&p.retry, available); ok {
			return p.hand(i)
		}
		if p.fresh < p.total && p.fresh < p.writtenTo+p.window {
			if _, end := p.Bounds(p.fresh); end > available {
				return 0, nil, Wait
			}
			p.fresh++
			return p.hand(p.fresh - 1)
		}
		if len(p.retry)+len(p.late) > 0 {
			return 0, nil, Wait // chunks left, none of them held by this peer
		}
		if p.fresh >= p.total && p.busy() == 0 {
			return 0, nil, Done
		}
		p.cond.Wait()
	}
	return 0, nil, Done
}

// pick removes from list the lowest chunk not yet received whose end is
// within available.
func (p *Plan) pick(list *[]int, available int64) (int, bool) {
	best, at := -1, -1
	kept := (*list)[:0]
	for _, i := range *list {
		if _, done := p.received[i]; done || i < p.writtenTo {
			continue // a duplicate already answered it
		}
		kept = append(kept, i)
	}
	*list = kept
	for k, i := range *list {
		if _, end := p.Bounds(i); end <= available && (best < 0 || i < best) {
			best, at = i, k
		}
	}
	if best < 0 {
		return 0, false
	}
	*list = append((*list)[:at], (*list)[at+1:]...)
	return best, true
}

func (p *Plan) hand(i int) (int, []byte, Status) {
	p.taking[i]++
	start, end := p.Bounds(i)
	return i, p.buffer()[:end-start], Got
}

func (p *Plan) busy() int {
	n := 0
	for _, c := range p.taking {
		n += c
	}
	return n
}

func (p *Plan) buffer() []byte {
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		return b[:cap(b)]
	}
	return make([]byte, p.chunk)
}

func (p *Plan) untake(i int) {
	if p.taking[i]--; p.taking[i] <= 0 {
		delete(p.taking, i)
	}
}

// Deliver hands in chunk i, received from peer from. A chunk a second
// worker already delivered is dropped.
func (p *Plan) Deliver(i int, from peer.ID, data []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.untake(i)
	if _, dup := p.received[i]; dup || i < p.writtenTo {
		p.free = append(p.free, data)
	} else {
		p.received[i] = received{data, from}
	}
	p.cond.Broadcast()
}

// GiveBack returns the chunk of a worker that failed; that worker stops.
func (p *Plan) GiveBack(i int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.untake(i)
	if _, done := p.received[i]; !done && i >= p.writtenTo && p.taking[i] == 0 {
		p.retry = append(p.retry, i)
	}
	p.workers--
	p.cond.Broadcast()
}

// Quit stops a worker that holds no chunk.
func (p *Plan) Quit() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.workers--
	p.cond.Broadcast()
}

// Next waits for chunk i, in writing order. A chunk that does not come
// within lateAfter is handed out to one more worker.
func (p *Plan) Next(ctx context.Context, i int) ([]byte, peer.ID, error) {
	if p.lateAfter > 0 {
		t := time.AfterFunc(p.lateAfter, func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if _, ok := p.received[i]; !ok && p.taking[i] > 0 {
				p.late = append(p.late, i)
				p.cond.Broadcast()
			}
		})
		defer t.Stop()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if c, ok := p.received[i]; ok {
			delete(p.received, i)
			return c.data, c.from, nil
		}
		if p.closed || ctx.Err() != nil {
			return nil, "", context.Canceled
		}
		if p.workers <= 0 {
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
