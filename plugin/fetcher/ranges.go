package fetcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/shoal-dev/shoal/plugin/contentserver"
)

// rangeChunk is how much one range request asks for.
const rangeChunk = 4 << 20

// chunksAheadPerPeer bounds the memory a parallel fetch holds: chunks
// received but not yet written, or being received, per peer.
const chunksAheadPerPeer = 2

// parallelFetch writes the blob from offset into w from several peers at
// once, each sending ranges of it, and the chunks go into w in order (the
// store's commit verifies the whole). It returns once the blob is written,
// or when every peer has failed (w then holds what arrived in order, and
// the caller continues from there).
func (pf *PeerFirst) parallelFetch(ctx context.Context, src *sources, w content.Writer, offset int64, peers []peer.ID, wrote map[peer.ID]int64) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	size := src.desc.Size
	plan := newRangePlan(int((size-offset+rangeChunk-1)/rangeChunk), chunksAheadPerPeer*len(peers), len(peers))
	chunkBounds := func(i int) (int64, int64) {
		start := offset + int64(i)*rangeChunk
		return start, min(start+rangeChunk, size)
	}

	var streamOnly peerSet
	defer func() { src.giveBack(streamOnly.list()) }()
	var workers sync.WaitGroup
	for _, p := range peers {
		log.G(ctx).WithFields(log.Fields{"peer": p, "digest": src.desc.Digest, "offset": offset, "ranges": true}).Debug("p2p: receiving blob")
		workers.Add(1)
		go func() {
			defer workers.Done()
			for {
				i, buf, ok := plan.take()
				if !ok {
					return
				}
				start, end := chunkBounds(i)
				err := src.readRange(ctx, p, start, buf[:end-start])
				if err != nil {
					plan.giveBack(i)
					if errors.Is(err, errArriving) {
						// It is downloading this blob itself: stream from it.
						streamOnly.add(p)
						return
					}
					if ctx.Err() == nil {
						pf.f.stats.Failovers.Add(1)
						pf.f.recordFailure(src.desc.Digest, p, err)
						entry := log.G(ctx).WithError(err).WithFields(log.Fields{"peer": p, "digest": src.desc.Digest, "offset": start})
						if isStall(err) {
							pf.f.stats.Stalls.Add(1)
							entry.Warn("p2p: peer stopped sending a range, continuing elsewhere with the others")
						} else {
							entry.Warn("p2p: peer failed a range, continuing elsewhere with the others")
						}
					}
					return
				}
				plan.deliver(i, p, buf[:end-start])
			}
		}()
	}
	defer func() {
		cancel()
		plan.close()
		workers.Wait()
	}()

	for i := 0; i < plan.total; i++ {
		buf, from, err := plan.next(i)
		if err != nil {
			return err
		}
		if _, err := w.Write(buf); err != nil {
			return fmt.Errorf("write %s: %w", src.desc.Digest, err)
		}
		wrote[from] += int64(len(buf))
		plan.written(i, buf)
	}
	return nil
}

// readRange fills buf with the blob's bytes from start, from p.
func (s *sources) readRange(ctx context.Context, p peer.ID, start int64, buf []byte) error {
	end := start + int64(len(buf)) - 1
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.path(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Range", "bytes="+strconv.FormatInt(start, 10)+"-"+strconv.FormatInt(end, 10))
	resp, err := s.pf.f.do(p, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get(contentserver.ArrivingHeader) == "true" {
		return errArriving
	}
	if resp.StatusCode != http.StatusPartialContent {
		return fmt.Errorf("range %d-%d: peer answered %s", start, end, resp.Status)
	}
	if resp.ContentLength != int64(len(buf)) {
		return fmt.Errorf("range %d-%d: peer offers %d bytes", start, end, resp.ContentLength)
	}
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		return fmt.Errorf("range %d-%d: %w", start, end, err)
	}
	return nil
}

var errAllRangePeersFailed = errors.New("every peer sending ranges failed")

// errArriving: the peer is still receiving the blob and serves it only as
// a stream.
var errArriving = errors.New("peer is still receiving it")

type peerSet struct {
	mu    sync.Mutex
	peers []peer.ID
}

func (s *peerSet) add(p peer.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.peers = append(s.peers, p)
}

func (s *peerSet) list() []peer.ID {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peers
}

// rangePlan hands out chunk indexes to peers, keeps the received ones
// until they are written in order, and bounds how far ahead of the writer
// the peers may run.
type rangePlan struct {
	mu        sync.Mutex
	cond      *sync.Cond
	total     int
	window    int
	fresh     int   // next index never handed out
	retry     []int // handed back by failed peers
	writtenTo int   // chunks written
	received  map[int]receivedChunk
	busy      int // chunks being received
	peers     int // peers still working
	closed    bool
	free      [][]byte // written chunks' buffers, for reuse
}

type receivedChunk struct {
	data []byte
	from peer.ID
}

func newRangePlan(total, window, peers int) *rangePlan {
	p := &rangePlan{total: total, window: window, peers: peers, received: map[int]receivedChunk{}}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// take returns the next chunk a peer should fetch and a buffer for it,
// waiting while the peers are a full window ahead of the writer.
func (p *rangePlan) take() (int, []byte, bool) {
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
			return i, p.buffer(), true
		}
		if p.fresh >= p.total && p.busy == 0 {
			return 0, nil, false // all handed out and received
		}
		p.cond.Wait()
	}
	return 0, nil, false
}

func (p *rangePlan) buffer() []byte {
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		return b[:cap(b)]
	}
	return make([]byte, rangeChunk)
}

func (p *rangePlan) deliver(i int, from peer.ID, data []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.received[i] = receivedChunk{data, from}
	p.busy--
	p.cond.Broadcast()
}

// giveBack returns the chunk of a peer that failed; that peer stops.
func (p *rangePlan) giveBack(i int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.retry = append(p.retry, i)
	p.busy--
	p.peers--
	p.cond.Broadcast()
}

// next waits for chunk i, in writing order.
func (p *rangePlan) next(i int) ([]byte, peer.ID, error) {
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
		if p.peers == 0 {
			return nil, "", errAllRangePeersFailed
		}
		p.cond.Wait()
	}
}

func (p *rangePlan) written(i int, buf []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.writtenTo = i + 1
	p.free = append(p.free, buf)
	p.cond.Broadcast()
}

func (p *rangePlan) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.cond.Broadcast()
}
