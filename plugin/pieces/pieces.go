// Package pieces is the piece digests of a blob: for each of its
// fixed-size pieces, the sha256 of the blob from its start to the piece's
// end. A node holding a whole blob answers them; a node whose copy of a
// blob failed verification compares them with what it received, to tell
// whose copy the bad bytes came from and where they begin.
//
// Digests of prefixes rather than of pieces alone cost a receiver nothing
// more than the blob's own sha256, which it computes anyway (a digest is
// taken of the running hash at each piece's end), and they serve a blob
// written in order, as containerd's ingests are: the first digest that
// differs is the first bad piece.
package pieces

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/opencontainers/go-digest"
)

const (
	// minSize is the smallest piece: a MiB, the unit a re-fetch is worth.
	minSize = 1 << 20
	// MaxCount bounds the pieces of a blob: larger blobs get larger pieces.
	MaxCount = 4096
	// MaxEncoded bounds the JSON of a list: 4,096 digests of 71 characters
	// with their quotes and commas, the rest, and the white space a holder
	// sends while it hashes (an hour of it, at a byte a second).
	MaxEncoded = MaxCount*(len("sha256:")+64+3) + 256 + 3600
)

var (
	// ErrInvalid: a list that does not describe the blob it is said to.
	ErrInvalid = errors.New("invalid piece digests")
	// ErrBadCopy: the holder found, hashing it, that its copy of the blob
	// does not match the blob's digest.
	ErrBadCopy = errors.New("the holder's copy does not match its digest")
)

// Size is the piece size for a blob of blobSize bytes: a MiB, doubled
// until the blob has at most MaxCount pieces.
func Size(blobSize int64) int64 {
	size := int64(minSize)
	for ceilDiv(blobSize, size) > MaxCount {
		size *= 2
	}
	return size
}

// ceilDiv is a/b rounded up, for a ≥ 0, b > 0, without overflow.
func ceilDiv(a, b int64) int64 {
	n := a / b
	if a%b != 0 {
		n++
	}
	return n
}

// Count is how many pieces a blob of blobSize bytes has.
func Count(blobSize int64) int {
	return int(ceilDiv(blobSize, Size(blobSize)))
}

// List is a blob's piece digests. A holder that finds its copy bad while
// hashing it sends {"badCopy": true} instead.
type List struct {
	PieceSize int64           `json:"pieceSize"`
	Digests   []digest.Digest `json:"digests"`
	BadCopy   bool            `json:"badCopy,omitempty"`
}

// FirstDifference is the index of the first piece in which a and b
// differ, or -1 when they are the same. Lists of different shapes differ
// at 0.
func FirstDifference(a, b List) int {
	if a.PieceSize != b.PieceSize || len(a.Digests) != len(b.Digests) {
		return 0
	}
	for i := range a.Digests {
		if a.Digests[i] != b.Digests[i] {
			return i
		}
	}
	return -1
}

// Hasher takes a blob's bytes in order from its start and takes the
// digest of the prefix at each piece's end.
type Hasher struct {
	blobSize  int64
	pieceSize int64
	written   int64
	h         hash.Hash
	digests   []digest.Digest
}

// NewHasher hashes the pieces of a blob of blobSize bytes.
func NewHasher(blobSize int64) *Hasher {
	return &Hasher{blobSize: blobSize, pieceSize: Size(blobSize), h: sha256.New()}
}

// Write never fails; bytes past the blob's size are ignored.
func (p *Hasher) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 && p.written < p.blobSize {
		inPiece := p.pieceSize - p.written%p.pieceSize
		take := min(int64(len(b)), inPiece, p.blobSize-p.written)
		p.h.Write(b[:take])
		p.written += take
		b = b[take:]
		if p.written%p.pieceSize == 0 || p.written == p.blobSize {
			p.digests = append(p.digests, digest.NewDigest(digest.SHA256, p.h))
		}
	}
	return n, nil
}

// Sum is the sha256 of what was written so far: the blob's digest, once
// all of it was.
func (p *Hasher) Sum() digest.Digest { return digest.NewDigest(digest.SHA256, p.h) }

// List is the digests of the pieces written so far; complete reports
// whether the whole blob was.
func (p *Hasher) List() (l List, complete bool) {
	return List{PieceSize: p.pieceSize, Digests: append([]digest.Digest(nil), p.digests...)}, p.written == p.blobSize
}

// Compute takes the piece digests of the blobSize bytes r holds.
func Compute(r io.Reader, blobSize int64) (List, error) {
	p := NewHasher(blobSize)
	if n, err := io.Copy(p, io.LimitReader(r, blobSize)); err != nil {
		return List{}, err
	} else if n != blobSize {
		return List{}, fmt.Errorf("read %d of %d bytes: %w", n, blobSize, io.ErrUnexpectedEOF)
	}
	l, _ := p.List()
	return l, nil
}

// Decode reads the list of a blob of blobSize bytes, as a peer sent it,
// and checks that it is one: the piece size this package gives, one sha256
// digest per piece.
func Decode(r io.Reader, blobSize int64) (List, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(MaxEncoded)+1))
	if err != nil {
		return List{}, err
	}
	if len(data) > MaxEncoded {
		return List{}, fmt.Errorf("more than %d bytes: %w", MaxEncoded, ErrInvalid)
	}
	var l List
	if err := json.Unmarshal(data, &l); err != nil {
		return List{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if l.BadCopy {
		return List{}, ErrBadCopy
	}
	if want := Size(blobSize); l.PieceSize != want {
		return List{}, fmt.Errorf("piece size %d for a blob of %d bytes, want %d: %w", l.PieceSize, blobSize, want, ErrInvalid)
	}
	if want := Count(blobSize); len(l.Digests) != want {
		return List{}, fmt.Errorf("%d pieces for a blob of %d bytes, want %d: %w", len(l.Digests), blobSize, want, ErrInvalid)
	}
	for i, d := range l.Digests {
		if d.Validate() != nil || d.Algorithm() != digest.SHA256 {
			return List{}, fmt.Errorf("piece %d: digest %q: %w", i, d, ErrInvalid)
		}
	}
	return l, nil
}
