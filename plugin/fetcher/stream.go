package fetcher

import (
	"context"
	"errors"
	"fmt"
	"hash"
	"io"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/pieces"
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
	arrived = sync.OnceFunc(arrived)
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
	wrote := newSent()
	w := newVerifying(pw, desc, offset)
	err = pf.fill(ctx, s.src, w, offset, wrote)
	switch {
	case err == nil:
		pf.logSources(ctx, wrote.bytes, time.Since(start))
		if offset > 0 {
			pf.remember(delivery{desc: desc, ref: s.ref, unverified: true})
		}
	case errors.Is(err, errStreamCorrupt):
		// The bad bytes are offered to peers no longer.
		s.arrived()
		err = pf.corruptStream(ctx, s.src, s.ref, wrote, w.pieces)
	default:
		err = fmt.Errorf("fetch %s of %s: %w", desc.Digest, pf.ref, err)
	}
}

// corruptStream penalizes the peers whose copy of a layer the bad bytes
// came from, and keeps its ingest to be discarded once the pull is over.
// Those are the holders that own up to a bad copy, or whose piece digests
// are those of the bytes received, or else the peers that sent the first
// piece in which the bytes received differ from the holders' (see
// badCopies); failing that, every peer that sent bytes. When the upstream
// finished what peers began, the peers are blamed all the same: a registry
// serves content by digest over its own connection, and a peer wrongly
// avoided for one digest costs little.
func (pf *PeerFirst) corruptStream(ctx context.Context, src *sources, ref string, wrote *sent, received *pieces.Hasher) error {
	desc := src.desc
	pf.remember(delivery{desc: desc, ref: ref})
	pf.f.markSuspect(desc.Digest)
	var senders []peer.ID
	for p, n := range wrote.bytes {
		if n > 0 && p != upstreamID {
			senders = append(senders, p)
		}
	}
	if len(senders) == 0 {
		pf.f.stats.Corrupt.Add(1)
		return fmt.Errorf("%s from the upstream of %s: %w", desc.Digest, pf.ref, peerclient.ErrCorrupt)
	}
	blamed := pf.badCopies(ctx, src, senders, wrote, received)
	if len(blamed) == 0 {
		blamed = senders
	}
	for _, p := range blamed {
		pf.judge(p, desc.Digest, peerclient.ErrCorrupt)
		failover(ctx, p, 0, peerclient.ErrCorrupt)
	}
	log.G(ctx).WithFields(log.Fields{"digest": desc.Digest, "peers": blamed, "senders": senders}).
		Error("p2p: content from peers failed verification; the pull fails and is made again without them")
	return fmt.Errorf("%s of %s, a bad copy from peers %v: %w", desc.Digest, pf.ref, blamed, peerclient.ErrCorrupt)
}

// maxPieceAsks bounds the holders asked for piece digests after bad bytes.
const maxPieceAsks = 4

// piecesWait bounds the wait for holders' piece digests: they hash the
// whole layer first.
func piecesWait(size int64) time.Duration {
	return 10*time.Second + time.Duration(size/(100<<20))*time.Second
}

// badCopies finds whose copy of a layer the bad bytes received here came
// from. It asks the holders of all of it known here and the peers that
// sent it for their piece digests: a copy is bad when its holder owns up
// (hashing it for the answer, it found it does not match) or when its
// pieces are those received here. Peers that passed the bytes on as they
// arrived have no copy yet, and are not blamed for them. When no copy is
// found bad (its holder may have found it bad and taken the layer again
// before it was asked) and the holders that answered agree, the bad bytes
// begin in the first piece in which theirs and those received differ, and
// the peers that sent that piece are blamed.
func (pf *PeerFirst) badCopies(ctx context.Context, src *sources, senders []peer.ID, wrote *sent, received *pieces.Hasher) []peer.ID {
	if received == nil {
		return nil
	}
	ours, complete := received.List()
	if !complete {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, piecesWait(src.desc.Size))
	defer cancel()
	// Holders of all of it first (known here, else found now), then the
	// senders still receiving it.
	var asked []peer.ID
	known := map[peer.ID]bool{}
	for _, p := range slices.Sorted(maps.Keys(src.complete)) {
		if src.complete[p] {
			asked = append(asked, p)
			known[p] = true
		}
	}
	for _, p := range senders {
		known[p] = true
	}
	if len(asked) < maxPieceAsks {
		asked = append(asked, pf.completeHolders(ctx, src, known, maxPieceAsks-len(asked))...)
	}
	for _, p := range senders {
		if !src.complete[p] {
			asked = append(asked, p)
		}
	}
	asked = asked[:min(len(asked), maxPieceAsks)]
	type answer struct {
		p    peer.ID
		bad  bool
		good *pieces.List // the digests of a copy that differs from ours
	}
	answers := make(chan answer, len(asked))
	for _, p := range asked {
		go func() {
			a := answer{p: p}
			defer func() { answers <- a }()
			defer recovery.Log(ctx, "p2p: asking a peer for piece digests failed")
			l, err := pf.f.client.Pieces(ctx, p, pf.repo, src.desc)
			a.bad = errors.Is(err, peerclient.ErrCorrupt) || (err == nil && pieces.FirstDifference(l, ours) == -1)
			if err == nil && !a.bad {
				a.good = &l
			}
			log.G(ctx).WithError(err).WithFields(log.Fields{"peer": p, "digest": src.desc.Digest, "bad_copy": a.bad}).
				Debug("p2p: asked a holder for its piece digests")
		}()
	}
	var (
		bad  []peer.ID
		good []pieces.List
	)
	for range asked {
		a := <-answers
		if a.bad {
			bad = append(bad, a.p)
		}
		if a.good != nil {
			good = append(good, *a.good)
		}
	}
	if len(bad) > 0 || len(good) == 0 {
		return bad
	}
	for _, l := range good[1:] {
		if pieces.FirstDifference(l, good[0]) != -1 {
			return nil // holders that disagree tell nothing
		}
	}
	i := int64(pieces.FirstDifference(good[0], ours))
	return wrote.peersBetween(i*ours.PieceSize, (i+1)*ours.PieceSize)
}

// completeHolders looks the layer up again and returns up to limit of the
// providers found, but those in known, that hold all of it: a node that
// streamed from a holder still receiving the layer never asked the holder
// that one took it from, whose copy the bad bytes may come from.
func (pf *PeerFirst) completeHolders(ctx context.Context, src *sources, known map[peer.ID]bool, limit int) []peer.ID {
	found, _, err := pf.lookup(ctx, src.desc.Digest)
	if err != nil {
		return nil
	}
	var probed []peer.ID
	for _, info := range found {
		if !known[info.ID] {
			probed = append(probed, info.ID)
		}
	}
	complete := make(chan peer.ID, len(probed))
	for _, p := range probed {
		go func() {
			h, err := pf.probe(ctx, p, src)
			if err != nil || h.Available < src.desc.Size {
				p = ""
			}
			complete <- p
		}()
	}
	var out []peer.ID
	for range probed {
		if p := <-complete; p != "" && len(out) < limit {
			out = append(out, p)
		}
	}
	return out
}

// verifying passes bytes on while it hashes them, and holds the last byte
// back unless the whole matches want. A sha256 layer's piece digests are
// taken on the way, from the same hash; a stream that resumes an ingest
// containerd began is not hashed (only its commit can tell).
type verifying struct {
	w      io.Writer
	pieces *pieces.Hasher // a sha256 layer's, which hashes the whole too
	h      hash.Hash      // the whole, for other algorithms
	left   int64
	want   digest.Digest
}

func newVerifying(w io.Writer, desc ocispec.Descriptor, offset int64) *verifying {
	v := &verifying{w: w, left: desc.Size - offset, want: desc.Digest}
	switch {
	case offset > 0:
	case desc.Digest.Algorithm() == digest.SHA256:
		v.pieces = pieces.NewHasher(desc.Size)
	default:
		v.h = desc.Digest.Algorithm().Hash()
	}
	return v
}

func (v *verifying) Write(b []byte) (int, error) {
	if int64(len(b)) > v.left {
		return 0, fmt.Errorf("%d bytes past the end of %s: %w", int64(len(b))-v.left, v.want, errdefs.ErrFailedPrecondition)
	}
	v.left -= int64(len(b))
	switch {
	case v.pieces != nil:
		v.pieces.Write(b)
	case v.h != nil:
		v.h.Write(b)
	default:
		return v.w.Write(b)
	}
	if v.left == 0 && len(b) > 0 && v.sum() != v.want {
		n, err := v.w.Write(b[:len(b)-1])
		if err != nil {
			return n, err
		}
		return n, errStreamCorrupt
	}
	return v.w.Write(b)
}

func (v *verifying) sum() digest.Digest {
	if v.pieces != nil {
		return v.pieces.Sum()
	}
	return digest.NewDigest(v.want.Algorithm(), v.h)
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
