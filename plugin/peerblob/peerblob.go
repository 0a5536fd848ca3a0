// Package peerblob reads a blob this node does not hold from the peers that
// hold it, piece by piece, and stores none of it. Each piece is checked
// against the piece table its holders agree on before any of its bytes are
// returned, and a blob read from its start to its end is checked against its
// digest before its last piece is returned. The loopback mirror answers
// ranges, and blobs asked for by digest alone, this way.
package peerblob

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/penalty"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/window"
)

var (
	// ErrNoHolder: no peer answered for the blob with the table of all of
	// its pieces.
	ErrNoHolder = fmt.Errorf("no peer offers the blob whole: %w", errdefs.ErrNotFound)
	// ErrNoAgreement: the holders that answered describe the blob in
	// different ways, and no description has more holders behind it than
	// every other.
	ErrNoAgreement = fmt.Errorf("the blob's holders disagree on its size or pieces: %w", errdefs.ErrNotFound)
)

// pieceTimeout bounds the read of one piece from one holder; then the next
// holder is asked. The largest piece, 4 MiB, takes 34 s at 1 Mbit/s.
const pieceTimeout = 40 * time.Second

// Peers is how the holders are asked (peerclient.Client).
type Peers interface {
	DescribeBlob(ctx context.Context, p peer.ID, repo peerclient.Repository, dgst digest.Digest) (ocispec.Descriptor, error)
	SwarmState(ctx context.Context, p peer.ID, repo peerclient.Repository, desc ocispec.Descriptor, known []digest.Digest) (window.State, int, error)
	ReadRange(ctx context.Context, p peer.ID, repo peerclient.Repository, desc ocispec.Descriptor, start int64, buf []byte) (int64, error)
}

// Penalties say which peers to avoid and take what they did (penalty.Board).
type Penalties interface {
	Judge(p peer.ID, dgst digest.Digest, kind penalty.Kind)
	IsCorrupt(p peer.ID, dgst digest.Digest) bool
}

// Blob is one blob as its holders agree it is. It is an io.ReaderAt bound
// to the context it was opened with, for one reader at a time; it keeps one
// piece in memory.
type Blob struct {
	ctx     context.Context
	peers   Peers
	judge   Penalties
	repo    peerclient.Repository
	desc    ocispec.Descriptor
	table   pieces.Table
	holders []peer.ID // agreeing on table, in the order they answered
	others  []peer.ID // answered otherwise: judged once the whole verifies

	mu     sync.Mutex
	piece  []byte // the last piece read, index cached
	cached int
	whole  digest.Digester // over pieces 0..hashed-1, read in order
	hashed int
	bad    error // the whole did not match its digest
}

// Open asks candidates what blob dgst of repo is: each its size (size, if
// above 0, is the size a verified manifest gives) and its piece table. The
// description the most of them give is kept, if no other has as many
// behind it.
func Open(ctx context.Context, peers Peers, judge Penalties, repo peerclient.Repository, dgst digest.Digest, size int64, candidates []peer.ID) (*Blob, error) {
	type answer struct {
		p     peer.ID
		table pieces.Table
		err   error
	}
	answers := make(chan answer, len(candidates))
	asked := 0
	for _, p := range candidates {
		if judge.IsCorrupt(p, dgst) {
			continue
		}
		asked++
		go func() {
			t, err := describe(ctx, peers, p, repo, dgst, size)
			answers <- answer{p, t, err}
		}()
	}
	var (
		tables  = map[string]pieces.Table{}
		behind  = map[string][]peer.ID{}
		order   []string
		lastErr error = ErrNoHolder
	)
	for range asked {
		a := <-answers
		if a.err != nil {
			judge.Judge(a.p, dgst, peerclient.PenaltyKind(a.err))
			lastErr = a.err
			continue
		}
		key := describes(a.table)
		if _, ok := tables[key]; !ok {
			tables[key] = a.table
			order = append(order, key)
		}
		behind[key] = append(behind[key], a.p)
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("blob %s: %w", dgst, lastErr)
	}
	slices.SortStableFunc(order, func(a, b string) int { return len(behind[b]) - len(behind[a]) })
	if len(order) > 1 && len(behind[order[0]]) == len(behind[order[1]]) {
		return nil, fmt.Errorf("blob %s: %w", dgst, ErrNoAgreement)
	}
	b := &Blob{
		ctx: ctx, peers: peers, judge: judge, repo: repo,
		table:   tables[order[0]],
		holders: behind[order[0]],
		cached:  -1,
		whole:   dgst.Algorithm().Digester(),
	}
	b.desc = ocispec.Descriptor{MediaType: "application/octet-stream", Digest: dgst, Size: b.table.Size}
	for _, key := range order[1:] {
		b.others = append(b.others, behind[key]...)
	}
	return b, nil
}

// describe asks p for blob dgst's size (unless known) and its complete
// piece table.
func describe(ctx context.Context, peers Peers, p peer.ID, repo peerclient.Repository, dgst digest.Digest, size int64) (pieces.Table, error) {
	if size <= 0 {
		d, err := peers.DescribeBlob(ctx, p, repo, dgst)
		if err != nil {
			return pieces.Table{}, err
		}
		size = d.Size
	}
	if size > pieces.MaxSwarmLayerSize {
		return pieces.Table{}, fmt.Errorf("peer %s: blob %s of %d bytes is more than the %d read by pieces", p, dgst, size, int64(pieces.MaxSwarmLayerSize))
	}
	st, _, err := peers.SwarmState(ctx, p, repo, ocispec.Descriptor{Digest: dgst, Size: size}, nil)
	if err != nil {
		return pieces.Table{}, err
	}
	for _, t := range st.Tables {
		if t.Complete() {
			return t, nil
		}
	}
	return pieces.Table{}, fmt.Errorf("peer %s: no table of all of %s: %w", p, dgst, peerclient.ErrArriving)
}

// describes is what a table says of its blob, whoever signed it.
func describes(t pieces.Table) string {
	return fmt.Sprintf("%d/%d/%v", t.Size, t.PieceSize, t.Digests)
}

// Size is the blob's size, as its holders agree.
func (b *Blob) Size() int64 { return b.desc.Size }

// ReadAt reads len(p) bytes from off, each of them from a piece that
// matched the table.
func (b *Blob) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read of %s at %d: %w", b.desc.Digest, off, errdefs.ErrInvalidArgument)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bad != nil {
		return 0, b.bad
	}
	n := 0
	for n < len(p) {
		if off >= b.desc.Size {
			return n, io.EOF
		}
		i := int(off / b.table.PieceSize)
		piece, err := b.pieceAt(i)
		if err != nil {
			return n, err
		}
		c := copy(p[n:], piece[off-int64(i)*b.table.PieceSize:])
		n += c
		off += int64(c)
	}
	return n, nil
}

// pieceAt is piece i, checked, from the first holder that sends it right.
// Holders take turns by piece, so that a whole read spreads over them.
func (b *Blob) pieceAt(i int) ([]byte, error) {
	if b.cached == i {
		return b.piece, nil
	}
	b.cached = -1
	start := int64(i) * b.table.PieceSize
	length := min(b.table.PieceSize, b.desc.Size-start)
	if cap(b.piece) < int(length) {
		b.piece = make([]byte, b.table.PieceSize)
	}
	buf := b.piece[:length]
	var lastErr error = ErrNoHolder
	for k := range b.holders {
		h := b.holders[(i+k)%len(b.holders)]
		if b.judge.IsCorrupt(h, b.desc.Digest) {
			continue
		}
		err := b.read(h, start, buf)
		if err == nil {
			if err = b.table.Check(i, buf); err != nil {
				err = fmt.Errorf("peer %s: %w: %w", h, err, peerclient.ErrCorrupt)
			}
		}
		if err != nil {
			if ctxErr := b.ctx.Err(); ctxErr != nil {
				return nil, ctxErr
			}
			b.judge.Judge(h, b.desc.Digest, peerclient.PenaltyKind(err))
			lastErr = err
			continue
		}
		if err := b.hash(i, buf); err != nil {
			return nil, err
		}
		b.cached = i
		return buf, nil
	}
	return nil, fmt.Errorf("piece %d of %s: %w", i, b.desc.Digest, lastErr)
}

func (b *Blob) read(h peer.ID, start int64, buf []byte) error {
	ctx, cancel := context.WithTimeout(b.ctx, pieceTimeout)
	defer cancel()
	_, err := b.peers.ReadRange(ctx, h, b.repo, b.desc, start, buf)
	return err
}

// hash adds piece i to the digest of the whole if the pieces before it
// were; the last piece of a blob read whole is returned only if the whole
// matches the digest. Then the holders that described it otherwise lied.
func (b *Blob) hash(i int, piece []byte) error {
	if i != b.hashed {
		return nil
	}
	b.whole.Hash().Write(piece)
	b.hashed++
	if b.hashed < len(b.table.Digests) {
		return nil
	}
	if b.whole.Digest() != b.desc.Digest {
		// Every piece matched the table, and the whole does not match its
		// digest: the table is false, and so is each holder that gave it.
		for _, h := range b.holders {
			b.judge.Judge(h, b.desc.Digest, penalty.Corrupt)
		}
		b.bad = fmt.Errorf("blob %s read whole from its holders does not match its digest: %w", b.desc.Digest, peerclient.ErrCorrupt)
		return b.bad
	}
	for _, h := range b.others {
		b.judge.Judge(h, b.desc.Digest, penalty.Corrupt)
	}
	return nil
}
