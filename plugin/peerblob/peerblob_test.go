package peerblob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/penalty"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/window"
)

// holder is a peer as the content service answers: a size, a table and
// the bytes of ranges.
type holder struct {
	size  int64  // claimed; the data's length unless set
	data  []byte // what it sends
	table pieces.Table
	gone  bool // answers nothing
}

type fakePeers struct {
	mu      sync.Mutex
	holders map[peer.ID]*holder
	sent    map[peer.ID]int64 // bytes of ranges sent
}

func (f *fakePeers) get(p peer.ID) (*holder, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.holders[p]
	if h == nil || h.gone {
		return nil, fmt.Errorf("peer %s: %w", p, peerclient.ErrStale)
	}
	return h, nil
}

func (f *fakePeers) DescribeBlob(_ context.Context, p peer.ID, _ peerclient.Repository, dgst digest.Digest) (ocispec.Descriptor, error) {
	h, err := f.get(p)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	return ocispec.Descriptor{Digest: dgst, Size: h.size}, nil
}

func (f *fakePeers) SwarmState(_ context.Context, p peer.ID, _ peerclient.Repository, desc ocispec.Descriptor, _ []digest.Digest) (window.State, int, error) {
	h, err := f.get(p)
	if err != nil {
		return window.State{}, 0, err
	}
	if h.table.Size != desc.Size { // as window.DecodeState refuses it
		return window.State{}, 0, fmt.Errorf("peer %s: a table of %d bytes: %w", p, h.table.Size, window.ErrInvalidState)
	}
	return window.State{Tables: []pieces.Table{h.table}}, 0, nil
}

func (f *fakePeers) ReadRange(_ context.Context, p peer.ID, _ peerclient.Repository, desc ocispec.Descriptor, start int64, buf []byte) (int64, error) {
	h, err := f.get(p)
	if err != nil {
		return 0, err
	}
	if start+int64(len(buf)) > int64(len(h.data)) {
		return 0, fmt.Errorf("range past %d bytes", len(h.data))
	}
	copy(buf, h.data[start:])
	f.mu.Lock()
	f.sent[p] += int64(len(buf))
	f.mu.Unlock()
	return desc.Size, nil
}

func blobOf(size int) ([]byte, digest.Digest) {
	b := make([]byte, size)
	r := rand.NewChaCha8([32]byte{byte(size)})
	r.Read(b)
	return b, digest.FromBytes(b)
}

func tableOf(dgst digest.Digest, data []byte) pieces.Table {
	tb := pieces.NewTableBuilder(dgst, int64(len(data)))
	tb.Write(data)
	return tb.Table()
}

func honest(dgst digest.Digest, data []byte) *holder {
	return &holder{size: int64(len(data)), data: data, table: tableOf(dgst, data)}
}

func newPeers(hs map[peer.ID]*holder) *fakePeers {
	return &fakePeers{holders: hs, sent: map[peer.ID]int64{}}
}

func ids(hs map[peer.ID]*holder) []peer.ID {
	var out []peer.ID
	for _, p := range []peer.ID{"a", "b", "c", "d"} {
		if hs[p] != nil {
			out = append(out, p)
		}
	}
	return out
}

const size = 5<<20 + 12345 // 21 pieces of 256 KiB, the last short

func TestABlobReadWholeComesFromEveryHolderVerified(t *testing.T) {
	data, dgst := blobOf(size)
	hs := map[peer.ID]*holder{"a": honest(dgst, data), "b": honest(dgst, data)}
	peers, board := newPeers(hs), penalty.New(penalty.Options{})
	b, err := Open(t.Context(), peers, board, peerclient.Repository{}, dgst, 0, ids(hs))
	if err != nil {
		t.Fatal(err)
	}
	if b.Size() != size {
		t.Fatalf("size %d, want %d", b.Size(), size)
	}
	got, err := io.ReadAll(io.NewSectionReader(b, 0, b.Size()))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes (%v), want the blob's %d", len(got), err, size)
	}
	if peers.sent["a"] == 0 || peers.sent["b"] == 0 || peers.sent["a"]+peers.sent["b"] != size {
		t.Fatalf("holders sent %d and %d bytes of %d: a whole read takes each piece once, from each holder in turn", peers.sent["a"], peers.sent["b"], size)
	}
}

func TestARangeTakesOnlyThePiecesItCovers(t *testing.T) {
	data, dgst := blobOf(size)
	hs := map[peer.ID]*holder{"a": honest(dgst, data)}
	peers := newPeers(hs)
	b, err := Open(t.Context(), peers, penalty.New(penalty.Options{}), peerclient.Repository{}, dgst, size, ids(hs))
	if err != nil {
		t.Fatal(err)
	}
	// 100 bytes across the boundary of pieces 3 and 4.
	off := int64(4<<18) - 50
	got := make([]byte, 100)
	if n, err := b.ReadAt(got, off); n != 100 || err != nil {
		t.Fatalf("ReadAt: %d, %v", n, err)
	}
	if !bytes.Equal(got, data[off:off+100]) {
		t.Fatal("the range's bytes differ from the blob's")
	}
	if peers.sent["a"] != 2<<18 {
		t.Fatalf("the holder sent %d bytes for a range of 100 over two pieces, want %d", peers.sent["a"], 2<<18)
	}
	// The blob's end, as a lazy puller reads a footer first.
	tail := make([]byte, 10)
	if n, err := b.ReadAt(tail, size-10); n != 10 || (err != nil && err != io.EOF) || !bytes.Equal(tail, data[size-10:]) {
		t.Fatalf("the last 10 bytes: %d, %v", n, err)
	}
	if n, err := b.ReadAt(tail, size); n != 0 || err != io.EOF {
		t.Fatalf("a read at the end: %d, %v; want 0, EOF", n, err)
	}
}

func TestACorruptingHolderCostsItselfAPieceOnly(t *testing.T) {
	data, dgst := blobOf(size)
	bad := bytes.Clone(data)
	for i := 7; i < len(bad); i += 1 << 18 {
		bad[i] ^= 1 // in every piece
	}
	liar := honest(dgst, data)
	liar.data = bad // its table is the true one: its bytes are not
	hs := map[peer.ID]*holder{"a": honest(dgst, data), "b": liar}
	board := penalty.New(penalty.Options{})
	b, err := Open(t.Context(), newPeers(hs), board, peerclient.Repository{}, dgst, 0, ids(hs))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(io.NewSectionReader(b, 0, b.Size()))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes (%v), want the blob whole and right", len(got), err)
	}
	if !board.IsCorrupt("b", dgst) || board.IsCorrupt("a", dgst) {
		t.Fatalf("corrupt: a %v, b %v; want b alone", board.IsCorrupt("a", dgst), board.IsCorrupt("b", dgst))
	}
}

func TestASizeOrTableTheMostHoldersGiveIsKept(t *testing.T) {
	data, dgst := blobOf(size)
	long := append(bytes.Clone(data), make([]byte, 1<<20)...)
	liar := &holder{size: int64(len(long)), data: long, table: tableOf(dgst, long)}
	hs := map[peer.ID]*holder{"a": honest(dgst, data), "b": liar, "c": honest(dgst, data)}
	board := penalty.New(penalty.Options{})
	b, err := Open(t.Context(), newPeers(hs), board, peerclient.Repository{}, dgst, 0, ids(hs))
	if err != nil {
		t.Fatal(err)
	}
	if b.Size() != size {
		t.Fatalf("size %d, want the %d two of three holders give", b.Size(), size)
	}
	if _, err := io.ReadAll(io.NewSectionReader(b, 0, b.Size())); err != nil {
		t.Fatal(err)
	}
	if !board.IsCorrupt("b", dgst) {
		t.Fatal("the holder that gave a false size is not judged once the whole verified")
	}

	// One against one: nobody can tell.
	hs = map[peer.ID]*holder{"a": honest(dgst, data), "b": liar}
	if _, err := Open(t.Context(), newPeers(hs), penalty.New(penalty.Options{}), peerclient.Repository{}, dgst, 0, ids(hs)); !errors.Is(err, ErrNoAgreement) {
		t.Fatalf("one holder against one: %v, want ErrNoAgreement", err)
	}
	// A size a verified manifest gives leaves the liar's table out.
	if b, err := Open(t.Context(), newPeers(hs), penalty.New(penalty.Options{}), peerclient.Repository{}, dgst, size, ids(hs)); err != nil || b.Size() != size {
		t.Fatalf("with the size known: %v", err)
	}
}

func TestAFalseTableIsCaughtBeforeTheLastPieceLeaves(t *testing.T) {
	data, dgst := blobOf(size)
	bad := bytes.Clone(data)
	bad[100] ^= 1
	// The only holder's table matches its bad bytes.
	hs := map[peer.ID]*holder{"a": {size: size, data: bad, table: tableOf(dgst, bad)}}
	board := penalty.New(penalty.Options{})
	b, err := Open(t.Context(), newPeers(hs), board, peerclient.Repository{}, dgst, 0, ids(hs))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(io.NewSectionReader(b, 0, b.Size()))
	if !errors.Is(err, peerclient.ErrCorrupt) {
		t.Fatalf("a whole read of false bytes: %v, want ErrCorrupt", err)
	}
	if lastPiece := int64(20 << 18); int64(len(got)) > lastPiece {
		t.Fatalf("%d bytes returned: the last piece left before the whole was checked", len(got))
	}
	if !board.IsCorrupt("a", dgst) {
		t.Fatal("the holder of the false table is not judged")
	}
	if _, err := b.ReadAt(make([]byte, 1), size-1); !errors.Is(err, peerclient.ErrCorrupt) {
		t.Fatalf("a read after the whole failed: %v, want ErrCorrupt", err)
	}
}

func TestNoHolderNoBlob(t *testing.T) {
	data, dgst := blobOf(size)
	hs := map[peer.ID]*holder{"a": honest(dgst, data)}
	hs["a"].gone = true
	if _, err := Open(t.Context(), newPeers(hs), penalty.New(penalty.Options{}), peerclient.Repository{}, dgst, 0, ids(hs)); !errors.Is(err, peerclient.ErrStale) {
		t.Fatalf("a holder that no longer holds it: %v", err)
	}
	if _, err := Open(t.Context(), newPeers(hs), penalty.New(penalty.Options{}), peerclient.Repository{}, dgst, 0, nil); !errors.Is(err, ErrNoHolder) {
		t.Fatalf("no holder: %v, want ErrNoHolder", err)
	}
	// A holder still receiving the blob has no table of all of it yet.
	partial := honest(dgst, data)
	partial.table.Digests = partial.table.Digests[:3]
	hs = map[peer.ID]*holder{"a": partial}
	if _, err := Open(t.Context(), newPeers(hs), penalty.New(penalty.Options{}), peerclient.Repository{}, dgst, 0, ids(hs)); !errors.Is(err, peerclient.ErrArriving) {
		t.Fatalf("a holder with part of the table: %v, want ErrArriving", err)
	}
}
