package fetcher

import (
	"context"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"sync"
	"time"

	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/recovery"
)

// stream is the body Fetch returns for a layer that peers hold (unless the
// fetcher commits layers itself, CommitLayers). containerd writes it into
// its own ingest, where `ctr image pull` and CRI watch the bytes arrive,
// and its commit verifies the whole, as for a registry's body.
//
// Peers' bytes are hashed on their way too, and the last byte is held
// back unless the whole matches the digest: containerd's read fails
// instead of its commit, and the peers that sent the layer are known and
// penalized. The pull then fails; the transfer wrapper asks DiscardCorrupt
// and pulls again, without them.
type stream struct {
	pf     *PeerFirst
	ctx    context.Context
	cancel context.CancelFunc
	src    *sources
	ref    string      // containerd's ingest of the layer
	end    func(error) // ends the fetch (span, counters); called once
	// arrived ends the layer's offer to peers, once containerd closes the
	// body: it has written (and committed) every byte by then, and peers
	// reading its ingest get the last ones.
	arrived func()

	mu      sync.Mutex
	offset  int64 // where containerd's ingest stands, told by Seek
	started bool
	closed  bool
	pr      *io.PipeReader
	done    chan struct{}
}

// errStreamCorrupt: the bytes a stream carried do not hash to its digest.
var errStreamCorrupt = errors.New("bytes from peers do not match the digest")

func (pf *PeerFirst) newStream(ctx context.Context, src *sources, ref string, end func(error), arrived func()) *stream {
	ctx, cancel := context.WithCancel(ctx)
	if arrived == nil {
		arrived = func() {}
	}
	return &stream{pf: pf, ctx: ctx, cancel: cancel, src: src, ref: ref, end: end, arrived: arrived, done: make(chan struct{})}
}

// Seek sets where the stream starts: containerd resumes an ingest that an
// earlier pull left partly written. Only before the first Read.
func (s *stream) Seek(offset int64, whence int) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return 0, fmt.Errorf("seek after the first read of %s: %w", s.src.desc.Digest, errdefs.ErrNotImplemented)
	}
	if whence != io.SeekStart || offset < 0 || offset > s.src.desc.Size {
		return 0, fmt.Errorf("seek to %d (whence %d) in %s of %d bytes: %w", offset, whence, s.src.desc.Digest, s.src.desc.Size, errdefs.ErrInvalidArgument)
	}
	s.offset = offset
	return offset, nil
}

func (s *stream) Read(b []byte) (int, error) {
	pr, err := s.start()
	if err != nil {
		return 0, err
	}
	return pr.Read(b)
}

// Close stops the fetch, if it still runs, and waits for it to end.
func (s *stream) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	started := s.started
	s.mu.Unlock()
	s.cancel()
	defer s.arrived()
	if !started {
		s.end(errClosedUnread)
		return nil
	}
	s.pr.Close()
	<-s.done
	return nil
}

var errClosedUnread = errors.New("closed before it was read")

// start begins the fetch from the offset Seek set, once.
func (s *stream) start() (*io.PipeReader, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("read %s: %w", s.src.desc.Digest, os.ErrClosed)
	}
	if !s.started {
		s.started = true
		pr, pw := io.Pipe()
		s.pr = pr
		go s.run(pw, s.offset)
	}
	return s.pr, nil
}

func (s *stream) run(pw *io.PipeWriter, offset int64) {
	defer close(s.done)
	ctx, pf, desc := s.ctx, s.pf, s.src.desc
	var err error
	defer func() {
		pw.CloseWithError(err) // nil: io.EOF, the whole blob was read
		s.end(err)
	}()
	defer recovery.Catch(ctx, "p2p: fetching a layer from peers failed", &err)
	start := time.Now()
	wrote := map[peer.ID]int64{}
	w := &verifying{w: pw, left: desc.Size - offset, want: desc.Digest}
	if offset == 0 {
		// A resumed ingest's start is containerd's: only its commit can
		// tell.
		w.h = desc.Digest.Algorithm().Hash()
	}
	err = pf.fill(ctx, s.src, w, offset, wrote)
	switch {
	case err == nil:
		pf.logSources(ctx, wrote, time.Since(start))
		if offset > 0 {
			pf.remember(delivery{desc: desc, ref: s.ref, unverified: true})
		}
	case errors.Is(err, errStreamCorrupt):
		err = pf.corruptStream(ctx, desc, s.ref, wrote)
	default:
		err = fmt.Errorf("fetch %s of %s: %w", desc.Digest, pf.ref, err)
	}
}

// corruptStream penalizes the peers that sent a layer whose bytes did not
// match, and keeps its ingest to be discarded once the pull is over. When
// the upstream finished what peers began, the peers are blamed all the
// same: a registry serves content by digest over its own connection, and a
// peer wrongly avoided for one digest costs little.
func (pf *PeerFirst) corruptStream(ctx context.Context, desc ocispec.Descriptor, ref string, wrote map[peer.ID]int64) error {
	pf.remember(delivery{desc: desc, ref: ref})
	pf.f.markSuspect(desc.Digest)
	var peers []string
	for p, n := range wrote {
		if n > 0 && p != upstreamID {
			pf.judge(p, desc.Digest, peerclient.ErrCorrupt)
			failover(ctx, p, 0, peerclient.ErrCorrupt)
			peers = append(peers, p.String())
		}
	}
	if len(peers) == 0 {
		pf.f.stats.Corrupt.Add(1)
		return fmt.Errorf("%s from the upstream of %s: %w", desc.Digest, pf.ref, peerclient.ErrCorrupt)
	}
	log.G(ctx).WithFields(log.Fields{"digest": desc.Digest, "peers": peers}).
		Error("p2p: content from peers failed verification; the pull fails and is made again without them")
	return fmt.Errorf("%s of %s from peers %v: %w", desc.Digest, pf.ref, peers, peerclient.ErrCorrupt)
}

// verifying passes bytes on while it hashes them, and holds the last byte
// back unless the whole matches want (h nil: it passes everything).
type verifying struct {
	w    io.Writer
	h    hash.Hash
	left int64
	want digest.Digest
}

func (v *verifying) Write(b []byte) (int, error) {
	if int64(len(b)) > v.left {
		return 0, fmt.Errorf("%d bytes past the end of %s: %w", int64(len(b))-v.left, v.want, errdefs.ErrFailedPrecondition)
	}
	v.left -= int64(len(b))
	if v.h != nil {
		v.h.Write(b)
		if v.left == 0 && len(b) > 0 && digest.NewDigest(v.want.Algorithm(), v.h) != v.want {
			n, err := v.w.Write(b[:len(b)-1])
			if err != nil {
				return n, err
			}
			return n, errStreamCorrupt
		}
	}
	return v.w.Write(b)
}

// delivery is a layer whose stream ended in a way that may leave
// containerd's ingest of it unusable for the next attempt.
type delivery struct {
	desc ocispec.Descriptor
	ref  string
	// unverified: delivered whole, but after a start that containerd had;
	// only its commit could tell whether the whole is right.
	unverified bool
}

func (pf *PeerFirst) remember(d delivery) {
	pf.mu.Lock()
	defer pf.mu.Unlock()
	pf.deliveries = append(pf.deliveries, d)
}

// DiscardCorrupt is asked after a pull through this fetcher failed. It
// discards containerd's ingest of every layer whose bytes from peers did
// not match its digest (their senders are penalized already), and of every
// layer delivered after a start this fetcher could not check that the
// store did not then commit: another attempt would resume it and fail the
// same way. It reports whether it discarded any: a new attempt may then
// succeed.
func (pf *PeerFirst) DiscardCorrupt(ctx context.Context) bool {
	pf.mu.Lock()
	deliveries := pf.deliveries
	pf.deliveries = nil
	pf.mu.Unlock()
	store := pf.f.opts.Store
	if store == nil {
		return false
	}
	discarded := false
	for _, d := range deliveries {
		if d.unverified {
			if _, err := store.Info(ctx, d.desc.Digest); !errdefs.IsNotFound(err) {
				continue // committed (or the store cannot say)
			}
			if st, err := store.Status(ctx, d.ref); err != nil || st.Offset != d.desc.Size {
				continue
			}
		}
		if err := store.Abort(ctx, d.ref); err != nil && !errdefs.IsNotFound(err) {
			log.G(ctx).WithError(err).WithField("ref", d.ref).Warn("p2p: could not discard a corrupt ingest")
			continue
		}
		log.G(ctx).WithField("digest", d.desc.Digest).Info("p2p: discarded an ingest of bytes that failed verification")
		discarded = true
	}
	return discarded
}
