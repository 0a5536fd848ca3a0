// Package pieces is the piece table of a layer: the sha256 of each piece
// of a layer alone, so that a node can verify a piece it received out of
// order, which the layer's digest cannot. The node that took the layer from
// the upstream hashes its pieces as they arrive and signs the table with
// its libp2p identity; a publisher that lies is caught at containerd's
// commit against the layer digest, and its signature is the evidence.
package pieces

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"slices"

	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
)

const (
	// The last node of a swarm ends near size/link plus the time a piece
	// takes to cross it (log2(N) hops of a few piece times each, a holder
	// sending several at once): the more pieces, the sooner. Simulator,
	// 100 nodes, 64 MiB at 8 s size÷link, 5 ms hop, window 32, p50/p99: 64
	// pieces 1.68×/1.73×, 128 1.60×/1.61×, 256 1.46×/1.51×; at 1 s, where
	// a 256 KiB piece takes less than a round trip, 64 2.05×/2.11×
	// (window 16), 256 2.09×/2.15×. 256 KiB keeps a request's round trip
	// small next to its transfer at the rates a lab moves; 4 MiB is
	// Kraken's and Dragonfly's piece size for large layers.
	swarmPiecesPerLayer = 256
	minSwarmPieceSize   = 256 << 10
	maxSwarmPieceSize   = 4 << 20

	// MaxTablePieces bounds the pieces of a table, and so what a peer may
	// make us read and hash: 1.2 MB of JSON.
	MaxTablePieces = 16384
	// MaxSwarmLayerSize is the largest layer a swarm shares: 64 GiB, in
	// MaxTablePieces pieces of 4 MiB. Larger layers come whole from the
	// upstream.
	MaxSwarmLayerSize = MaxTablePieces * maxSwarmPieceSize
	// MaxEncodedTable bounds the JSON of a table: its digests with their
	// quotes and commas, and a KiB for the layer, sizes, publisher and
	// signature.
	MaxEncodedTable = MaxTablePieces*(len("sha256:")+64+3) + 1024

	// tableDomain starts the signed bytes, so that a signature over a
	// table is never one over anything else this identity signs.
	tableDomain = "shoal piece table v1\x00"
)

var (
	// ErrInvalidTable: a table that does not describe the layer it is said
	// to, or is not one at all.
	ErrInvalidTable = fmt.Errorf("invalid piece table: %w", errdefs.ErrInvalidArgument)
	// ErrTableTooLarge: an encoding longer than MaxEncodedTable.
	ErrTableTooLarge = fmt.Errorf("piece table of more than %d bytes: %w", MaxEncodedTable, ErrInvalidTable)
	// ErrBadSignature: a table its publisher did not sign.
	ErrBadSignature = fmt.Errorf("piece table signature does not verify: %w", errdefs.ErrInvalidArgument)
	// ErrPieceMismatch: a piece whose bytes are not those of the table.
	ErrPieceMismatch = fmt.Errorf("piece does not match its digest: %w", errdefs.ErrDataLoss)
	// ErrPieceUnknown: a piece the table does not cover (yet).
	ErrPieceUnknown = fmt.Errorf("piece not in the table: %w", errdefs.ErrOutOfRange)
)

// SwarmPieceSize is the piece size of a swarm sharing a layer of layerSize
// bytes: the smallest power of two that cuts it into at most 256 pieces,
// within [256 KiB, 4 MiB].
func SwarmPieceSize(layerSize int64) int64 {
	size := int64(minSwarmPieceSize)
	for size < maxSwarmPieceSize && size*swarmPiecesPerLayer < layerSize {
		size *= 2
	}
	return size
}

// SwarmPieceCount is how many pieces a layer of layerSize bytes has in a
// swarm; the last may be short.
func SwarmPieceCount(layerSize int64) int {
	if layerSize <= 0 {
		return 0
	}
	return int(ceilDiv(layerSize, SwarmPieceSize(layerSize)))
}

// Table is the digests of a layer's pieces, as its publisher signed them.
// It may cover only the first pieces: the publisher publishes while the
// layer arrives, and each table it publishes later extends the earlier.
type Table struct {
	Layer     digest.Digest `json:"layer"`
	Size      int64         `json:"size"`
	PieceSize int64         `json:"pieceSize"`
	// Digests[i] is the sha256 of piece i's bytes alone, not of a prefix.
	Digests   []digest.Digest `json:"digests"`
	Publisher peer.ID         `json:"publisher"`
	Signature []byte          `json:"signature"`
}

// Complete reports whether the table covers every piece of the layer.
func (t Table) Complete() bool {
	return len(t.Digests) == SwarmPieceCount(t.Size)
}

// pieceLength is the length of piece i: the piece size, but for the last.
func (t Table) pieceLength(i int) int64 {
	return min(t.PieceSize, t.Size-int64(i)*t.PieceSize)
}

// Check verifies piece i's bytes against the table; the last piece is short
// when the piece size does not divide the layer's.
func (t Table) Check(i int, piece []byte) error {
	if i < 0 || i >= len(t.Digests) {
		return fmt.Errorf("piece %d of %s, the table has %d: %w", i, t.Layer, len(t.Digests), ErrPieceUnknown)
	}
	if want := t.pieceLength(i); int64(len(piece)) != want {
		return fmt.Errorf("piece %d of %s: %d bytes, want %d: %w", i, t.Layer, len(piece), want, ErrPieceMismatch)
	}
	if got := digest.FromBytes(piece); got != t.Digests[i] {
		return fmt.Errorf("piece %d of %s: digest %s, want %s: %w", i, t.Layer, got, t.Digests[i], ErrPieceMismatch)
	}
	return nil
}

// Extends reports whether t is, or extends, a table the same publisher
// published earlier for the same layer. It does not check signatures.
func (t Table) Extends(earlier Table) bool {
	return t.Layer == earlier.Layer &&
		t.Size == earlier.Size &&
		t.PieceSize == earlier.PieceSize &&
		t.Publisher == earlier.Publisher &&
		len(earlier.Digests) <= len(t.Digests) &&
		slices.Equal(t.Digests[:len(earlier.Digests)], earlier.Digests)
}

// checkShape checks what a table must be whoever published it: the swarm's
// piece size, no more pieces than the layer has, sha256 digests.
func (t Table) checkShape() error {
	if t.Size < 0 || t.Size > MaxSwarmLayerSize {
		return fmt.Errorf("layer %s of %d bytes, a swarm shares 0 to %d: %w", t.Layer, t.Size, int64(MaxSwarmLayerSize), ErrInvalidTable)
	}
	if want := SwarmPieceSize(t.Size); t.PieceSize != want {
		return fmt.Errorf("piece size %d for a layer of %d bytes, want %d: %w", t.PieceSize, t.Size, want, ErrInvalidTable)
	}
	if limit := SwarmPieceCount(t.Size); len(t.Digests) > limit {
		return fmt.Errorf("%d pieces for a layer of %d bytes, which has %d: %w", len(t.Digests), t.Size, limit, ErrInvalidTable)
	}
	for i, d := range t.Digests {
		if d.Validate() != nil || d.Algorithm() != digest.SHA256 {
			return fmt.Errorf("piece %d: digest %q is not a sha256: %w", i, d, ErrInvalidTable)
		}
	}
	return nil
}

// signedBytes is the canonical encoding a publisher signs: the domain, then
// every field but the signature, each string with its length before it.
func (t Table) signedBytes() []byte {
	b := make([]byte, 0, len(tableDomain)+128+len(t.Digests)*(4+71))
	putString := func(s string) []byte {
		b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
		return append(b, s...)
	}
	b = append(b, tableDomain...)
	b = putString(string(t.Layer))
	b = binary.BigEndian.AppendUint64(b, uint64(t.Size))
	b = binary.BigEndian.AppendUint64(b, uint64(t.PieceSize))
	b = putString(string(t.Publisher))
	b = binary.BigEndian.AppendUint32(b, uint32(len(t.Digests)))
	for _, d := range t.Digests {
		b = putString(string(d))
	}
	return b
}

// publisherKey is the public key the publisher's ID embeds; IDs hashed
// from a larger key (RSA, ECDSA) embed none and cannot publish.
func publisherKey(id peer.ID) (crypto.PubKey, error) {
	if err := id.Validate(); err != nil {
		return nil, fmt.Errorf("publisher: %v: %w", err, ErrInvalidTable)
	}
	key, err := id.ExtractPublicKey()
	if err != nil {
		return nil, fmt.Errorf("publisher %s: no public key in its ID: %v: %w", id, err, ErrInvalidTable)
	}
	return key, nil
}

// Sign returns the table signed by key, with the key's peer ID as its
// publisher.
func (t Table) Sign(key crypto.PrivKey) (Table, error) {
	if err := t.checkShape(); err != nil {
		return Table{}, err
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return Table{}, fmt.Errorf("piece table publisher: %w", err)
	}
	if _, err := publisherKey(id); err != nil {
		return Table{}, err
	}
	t.Publisher = id
	if t.Signature, err = key.Sign(t.signedBytes()); err != nil {
		return Table{}, fmt.Errorf("sign piece table of %s: %w", t.Layer, err)
	}
	return t, nil
}

// Verify checks that the table has the swarm's shape and that its publisher
// signed it.
func (t Table) Verify() error {
	if err := t.checkShape(); err != nil {
		return err
	}
	key, err := publisherKey(t.Publisher)
	if err != nil {
		return err
	}
	if ok, err := key.Verify(t.signedBytes(), t.Signature); !ok || err != nil {
		return fmt.Errorf("piece table of %s by %s: %w", t.Layer, t.Publisher, ErrBadSignature)
	}
	return nil
}

// Encode writes the table as JSON.
func (t Table) Encode(w io.Writer) error {
	return json.NewEncoder(w).Encode(t)
}

// DecodeTable reads a table a peer sent for the layer of the given digest
// and size, and checks that it is one, signed by its publisher.
func DecodeTable(r io.Reader, layer digest.Digest, size int64) (Table, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(MaxEncodedTable)+1))
	if err != nil {
		return Table{}, fmt.Errorf("read piece table of %s: %w", layer, err)
	}
	if len(data) > MaxEncodedTable {
		return Table{}, fmt.Errorf("piece table of %s: %w", layer, ErrTableTooLarge)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var t Table
	if err := dec.Decode(&t); err != nil {
		return Table{}, fmt.Errorf("piece table of %s: %v: %w", layer, err, ErrInvalidTable)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Table{}, fmt.Errorf("piece table of %s: data after the table: %w", layer, ErrInvalidTable)
	}
	if t.Layer != layer || t.Size != size {
		return Table{}, fmt.Errorf("piece table of %s (%d bytes), want %s (%d bytes): %w", t.Layer, t.Size, layer, size, ErrInvalidTable)
	}
	if err := t.Verify(); err != nil {
		return Table{}, err
	}
	return t, nil
}

// TableBuilder takes a layer's bytes in order and hashes each piece as it
// completes. It takes no digest of the whole layer: the ingest does.
type TableBuilder struct {
	table   Table
	written int64
	piece   hash.Hash
}

// NewTableBuilder builds the table of the layer of the given digest and
// size.
func NewTableBuilder(layer digest.Digest, size int64) *TableBuilder {
	return &TableBuilder{
		table: Table{Layer: layer, Size: size, PieceSize: SwarmPieceSize(size)},
		piece: sha256.New(),
	}
}

// Write fails on bytes past the layer's size.
func (b *TableBuilder) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) && b.written < b.table.Size {
		inPiece := b.table.PieceSize - b.written%b.table.PieceSize
		take := int(min(int64(len(p)-n), inPiece, b.table.Size-b.written))
		b.piece.Write(p[n : n+take])
		b.written += int64(take)
		n += take
		if b.written%b.table.PieceSize == 0 || b.written == b.table.Size {
			b.table.Digests = append(b.table.Digests, digest.NewDigest(digest.SHA256, b.piece))
			b.piece.Reset()
		}
	}
	if n < len(p) {
		return n, fmt.Errorf("piece table of %s: %d bytes past the layer's %d", b.table.Layer, len(p)-n, b.table.Size)
	}
	return n, nil
}

// Table is the unsigned table of the pieces written so far.
func (b *TableBuilder) Table() Table {
	t := b.table
	t.Digests = slices.Clone(b.table.Digests)
	return t
}

// ceilDiv is a/b rounded up, for a ≥ 0, b > 0, without overflow.
func ceilDiv(a, b int64) int64 {
	n := a / b
	if a%b != 0 {
		n++
	}
	return n
}
