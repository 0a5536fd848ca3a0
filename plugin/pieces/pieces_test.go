package pieces

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/opencontainers/go-digest"
)

func TestPieceSizeKeepsTheCountBounded(t *testing.T) {
	for _, c := range []struct {
		blob  int64
		size  int64
		count int
	}{
		{0, 1 << 20, 0},
		{1, 1 << 20, 1},
		{1 << 20, 1 << 20, 1},
		{1<<20 + 1, 1 << 20, 2},
		{4 << 30, 1 << 20, 4096},
		{4<<30 + 1, 2 << 20, 2049},
		{64 << 30, 16 << 20, 4096},
	} {
		if got := Size(c.blob); got != c.size {
			t.Errorf("Size(%d) = %d, want %d", c.blob, got, c.size)
		}
		if got := Count(c.blob); got != c.count {
			t.Errorf("Count(%d) = %d, want %d", c.blob, got, c.count)
		}
	}
}

func TestHasherGivesTheDigestAtEachPiecesEndHoweverTheBytesAreWritten(t *testing.T) {
	blob := make([]byte, 3<<20+12345)
	rand.Read(blob)
	var want []digest.Digest
	for off := 0; off < len(blob); off += 1 << 20 {
		want = append(want, digest.FromBytes(blob[:min(off+1<<20, len(blob))]))
	}
	for _, chunk := range []int{1, 4096, 1 << 20, 1<<20 + 7, len(blob)} {
		h := NewHasher(int64(len(blob)))
		for off := 0; off < len(blob); off += chunk {
			if off == 2<<20 {
				if _, complete := h.List(); complete {
					t.Fatal("complete before the last byte")
				}
			}
			h.Write(blob[off:min(off+chunk, len(blob))])
		}
		l, complete := h.List()
		if h.Sum() != digest.FromBytes(blob) {
			t.Fatalf("writes of %d: the sum is not the blob's digest", chunk)
		}
		if !complete || l.PieceSize != 1<<20 || FirstDifference(l, List{PieceSize: 1 << 20, Digests: want}) != -1 {
			t.Fatalf("writes of %d: %v %+v", chunk, complete, l)
		}
	}
	l, err := Compute(bytes.NewReader(blob), int64(len(blob)))
	if err != nil || FirstDifference(l, List{PieceSize: 1 << 20, Digests: want}) != -1 {
		t.Fatalf("Compute: %v %+v", err, l)
	}
	if _, err := Compute(bytes.NewReader(blob[:100]), int64(len(blob))); err == nil {
		t.Fatal("Compute of a short reader succeeded")
	}
}

func TestFirstDifferenceFindsTheChangedPiece(t *testing.T) {
	blob := make([]byte, 5<<20)
	rand.Read(blob)
	good, _ := Compute(bytes.NewReader(blob), int64(len(blob)))
	copy(blob[3<<20+17:], "rotten")
	bad, _ := Compute(bytes.NewReader(blob), int64(len(blob)))
	if i := FirstDifference(good, bad); i != 3 {
		t.Fatalf("first difference at %d, want 3", i)
	}
	if i := FirstDifference(good, List{PieceSize: good.PieceSize}); i != 0 {
		t.Fatalf("a list of another shape differs at %d, want 0", i)
	}
}

func TestDecodeAcceptsOnlyAListOfTheBlob(t *testing.T) {
	blob := make([]byte, 2<<20+1)
	good, _ := Compute(bytes.NewReader(blob), int64(len(blob)))
	enc := func(l List) string { b, _ := json.Marshal(l); return string(b) }
	if l, err := Decode(strings.NewReader(enc(good)), int64(len(blob))); err != nil || FirstDifference(l, good) != -1 {
		t.Fatalf("a good list: %v", err)
	}
	for name, body := range map[string]string{
		"another piece size": enc(List{PieceSize: 2 << 20, Digests: good.Digests}),
		"a piece short":      enc(List{PieceSize: good.PieceSize, Digests: good.Digests[1:]}),
		"not sha256":         enc(List{PieceSize: good.PieceSize, Digests: append(good.Digests[1:], "sha512:"+digest.Digest(strings.Repeat("0", 128)))}),
		"a bad digest":       enc(List{PieceSize: good.PieceSize, Digests: append(good.Digests[1:], "sha256:xyz")}),
		"not JSON":           "pieces",
		"too long":           `{"digests":["` + strings.Repeat("a", MaxEncoded) + `"]}`,
	} {
		if _, err := Decode(strings.NewReader(body), int64(len(blob))); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	good, _ := Compute(bytes.NewReader(make([]byte, 3<<20)), 3<<20)
	b, _ := json.Marshal(good)
	f.Add(b, int64(3<<20))
	f.Add([]byte(`{"pieceSize":1048576,"digests":[null]}`), int64(1))
	f.Fuzz(func(t *testing.T, body []byte, size int64) {
		if size < 0 {
			return
		}
		l, err := Decode(bytes.NewReader(body), size)
		if err == nil && (len(l.Digests) != Count(size) || l.PieceSize != Size(size)) {
			t.Fatalf("accepted %+v for %d bytes", l, size)
		}
	})
}
