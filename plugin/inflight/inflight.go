// Package inflight lets a node serve a blob while it is still arriving: the
// bytes already in its content-store ingest, then the rest as they land.
// Nodes that start the same pull a little later stream from it instead of
// going upstream. What they receive is verified against the digest by their
// own commit, as everything from a peer is.
//
// The bytes are read from the ingest's data file in containerd's local
// content store (ingestfile.go holds all the package knows of its layout).
// An open file keeps working when the commit renames it into the blob store
// or an abort removes it. The ingest is read rather than each arriving chunk
// teed into a spool of our own because the tee writes every byte twice:
// writing a 256 MiB layer through the content store took about 1.4 times as
// long with it (BenchmarkIngest: median ~500 MB/s without, ~360 with).
package inflight

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/containerd/errdefs"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// ErrIncomplete is returned for bytes the transfer ended without.
var ErrIncomplete = fmt.Errorf("transfer ended before these bytes arrived: %w", errdefs.ErrUnavailable)

// ErrStalled is returned when no byte arrived for the stall limit.
var ErrStalled = fmt.Errorf("transfer stalled: %w", errdefs.ErrUnavailable)

// Registry knows the transfers under way on this node.
type Registry struct {
	open       opener
	stallLimit time.Duration

	mu     sync.Mutex
	active map[digest.Digest]*Transfer
}

// New returns a registry over the local content store at contentRoot.
// stallLimit bounds how long a reader waits for a byte (default 30s).
func New(contentRoot string, stallLimit time.Duration) *Registry {
	if stallLimit <= 0 {
		stallLimit = 30 * time.Second
	}
	return &Registry{open: ingestOpener(contentRoot), stallLimit: stallLimit, active: map[digest.Digest]*Transfer{}}
}

// Transfer is one blob arriving into an ingest.
type Transfer struct {
	Desc      ocispec.Descriptor
	Namespace string
	// Labels describe the content for the sharing policy (its source).
	Labels map[string]string

	data  *os.File // closed when ended and no reader is left
	ended chan struct{}
	once  sync.Once
	r     *Registry
	refs  int // readers, under r.mu
}

// Begin registers the ingest ref of namespace ns that is receiving desc. It
// fails, with a not-found error, if the ingest is not in the local content
// store.
func (r *Registry) Begin(ns, ref string, desc ocispec.Descriptor, labels map[string]string) (*Transfer, error) {
	f, err := r.open(ns, ref)
	if err != nil {
		return nil, err
	}
	t := &Transfer{Desc: desc, Namespace: ns, Labels: labels, data: f, ended: make(chan struct{}), r: r, refs: 1}
	r.mu.Lock()
	r.active[desc.Digest] = t
	r.mu.Unlock()
	return t, nil
}

// End says no more bytes will arrive (the blob was committed, or the
// transfer failed). Readers finish with what is there.
func (t *Transfer) End() {
	t.once.Do(func() {
		close(t.ended)
		t.r.mu.Lock()
		if t.r.active[t.Desc.Digest] == t {
			delete(t.r.active, t.Desc.Digest)
		}
		t.r.mu.Unlock()
		t.release()
	})
}

func (t *Transfer) release() {
	t.r.mu.Lock()
	t.refs--
	last := t.refs == 0
	t.r.mu.Unlock()
	if last {
		t.data.Close()
	}
}

// Open returns a reader of the transfer of dgst, if one is under way. Its
// ReadAt waits for bytes not yet written, until ctx ends, the transfer
// ends, or nothing arrives for the stall limit. Close it when done.
func (r *Registry) Open(ctx context.Context, dgst digest.Digest) (*Reader, *Transfer, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.active[dgst] // active: End has not released its reference
	if !ok {
		return nil, nil, false
	}
	t.refs++
	return &Reader{ctx: ctx, t: t, f: t.data, stall: r.stallLimit}, t, true
}

// Reader reads a transfer as it arrives.
type Reader struct {
	ctx   context.Context
	t     *Transfer
	f     *os.File
	stall time.Duration
	once  sync.Once
}

// Size is the blob's full size.
func (rd *Reader) Size() int64 { return rd.t.Desc.Size }

// Available is how many bytes, from the start, have arrived so far.
func (rd *Reader) Available() int64 {
	st, err := rd.f.Stat()
	if err != nil {
		return 0
	}
	return min(st.Size(), rd.t.Desc.Size)
}

// ReadAt reads len(p) bytes at off, waiting for them to arrive.
func (rd *Reader) ReadAt(p []byte, off int64) (int, error) {
	if off >= rd.t.Desc.Size {
		return 0, io.EOF
	}
	want := min(off+int64(len(p)), rd.t.Desc.Size)
	if _, err := rd.await(want); err != nil {
		return 0, err
	}
	n, err := rd.f.ReadAt(p[:want-off], off)
	if err == nil && want < off+int64(len(p)) {
		err = io.EOF
	}
	return n, err
}

// streamChunk is how many bytes ReadSome waits for, when p has room for
// them: a stream of a layer that arrives passes it on in pieces this
// small, so that each node of a chain adds this much delay, not a buffer.
const streamChunk = 64 << 10

// ReadSome reads into p what has arrived at off, waiting until there is
// at least min(len(p), 64 KiB) of it or the blob's end: the read of a
// stream, which passes bytes on as they land.
func (rd *Reader) ReadSome(p []byte, off int64) (int, error) {
	if off >= rd.t.Desc.Size {
		return 0, io.EOF
	}
	size, err := rd.await(min(off+int64(min(len(p), streamChunk)), rd.t.Desc.Size))
	if err != nil {
		return 0, err
	}
	n, err := rd.f.ReadAt(p[:min(int64(len(p)), size-off)], off)
	if err == io.EOF && n > 0 {
		err = nil // the file ends where this read does: more may come
	}
	return n, err
}

// await waits until the ingest holds want bytes and returns how many it
// holds (capped at the blob's size), or fails when ctx ends, the
// transfer ends without them, or nothing arrives for the stall limit.
func (rd *Reader) await(want int64) (int64, error) {
	wait := time.Millisecond
	lastGrowth, lastSize := time.Now(), int64(-1)
	for {
		st, err := rd.f.Stat()
		if err != nil {
			return 0, err
		}
		size := st.Size()
		if size >= want {
			return min(size, rd.t.Desc.Size), nil
		}
		select {
		case <-rd.t.ended:
			// One more look: the last bytes may have landed with the end.
			if st, err := rd.f.Stat(); err == nil && st.Size() >= want {
				continue
			}
			return 0, ErrIncomplete
		default:
		}
		if size != lastSize {
			lastGrowth, lastSize = time.Now(), size
			wait = time.Millisecond
		} else if time.Since(lastGrowth) > rd.stall {
			return 0, ErrStalled
		}
		timer := time.NewTimer(wait)
		select {
		case <-rd.ctx.Done():
			timer.Stop()
			return 0, rd.ctx.Err()
		case <-rd.t.ended:
			timer.Stop()
		case <-timer.C:
		}
		wait = min(2*wait, 20*time.Millisecond)
	}
}

// Close releases the reader.
func (rd *Reader) Close() error {
	rd.once.Do(rd.t.release)
	return nil
}
