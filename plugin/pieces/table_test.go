package pieces

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
)

// testLayer is a layer of four 256 KiB pieces and a short fifth.
const testLayerSize = 4<<18 + 12345

func testLayer(t testing.TB) ([]byte, digest.Digest) {
	t.Helper()
	b := make([]byte, testLayerSize)
	rand.NewChaCha8([32]byte{1}).Read(b)
	return b, digest.FromBytes(b)
}

// testKey is an ed25519 identity, as plugin/identity makes, from a seed.
func testKey(t testing.TB, seed byte) crypto.PrivKey {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(bytes.NewReader(bytes.Repeat([]byte{seed}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// pieceOf is piece i of a layer as the swarm cuts it.
func pieceOf(layer []byte, i int) []byte {
	size := int(SwarmPieceSize(int64(len(layer))))
	return layer[i*size : min((i+1)*size, len(layer))]
}

func buildTable(t testing.TB, layer []byte, d digest.Digest, upTo int) Table {
	t.Helper()
	b := NewTableBuilder(d, int64(len(layer)))
	if _, err := b.Write(layer[:upTo]); err != nil {
		t.Fatal(err)
	}
	return b.Table()
}

func signedTable(t testing.TB, key crypto.PrivKey, table Table) Table {
	t.Helper()
	signed, err := table.Sign(key)
	if err != nil {
		t.Fatal(err)
	}
	return signed
}

// signWithoutChecks signs what Sign would refuse to, to prove that a
// receiver checks a table's shape and not only its signature.
func signWithoutChecks(t testing.TB, key crypto.PrivKey, table Table) Table {
	t.Helper()
	table.Publisher, _ = peer.IDFromPrivateKey(key)
	sig, err := key.Sign(table.signedBytes())
	if err != nil {
		t.Fatal(err)
	}
	table.Signature = sig
	return table
}

func encoded(t testing.TB, table Table) string {
	t.Helper()
	var b strings.Builder
	if err := table.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSwarmPieceSizeAimsAt256PiecesWithin256KiBAnd4MiB(t *testing.T) {
	for _, c := range []struct {
		layer int64
		size  int64
		count int
	}{
		{0, 256 << 10, 0},
		{1, 256 << 10, 1},
		{1 << 20, 256 << 10, 4},
		{64 << 20, 256 << 10, 256},
		{64<<20 + 1, 512 << 10, 129},
		{100 << 20, 512 << 10, 200},
		{400 << 20, 2 << 20, 200},
		{1 << 30, 4 << 20, 256},
		{1<<30 + 1, 4 << 20, 257},
		{10 << 30, 4 << 20, 2560},
		{MaxSwarmLayerSize, 4 << 20, MaxTablePieces},
	} {
		if got := SwarmPieceSize(c.layer); got != c.size {
			t.Errorf("SwarmPieceSize(%d) = %d, want %d", c.layer, got, c.size)
		}
		if got := SwarmPieceCount(c.layer); got != c.count {
			t.Errorf("SwarmPieceCount(%d) = %d, want %d", c.layer, got, c.count)
		}
	}
}

func TestTableBuilderHashesEachPieceAloneHoweverTheBytesAreWritten(t *testing.T) {
	layer, d := testLayer(t)
	var want []digest.Digest
	for i := range SwarmPieceCount(testLayerSize) {
		want = append(want, digest.FromBytes(pieceOf(layer, i)))
	}
	for _, chunk := range []int{1000, 256 << 10, 256<<10 + 7, len(layer)} {
		b := NewTableBuilder(d, testLayerSize)
		for off := 0; off < len(layer); off += chunk {
			end := min(off+chunk, len(layer))
			if n, err := b.Write(layer[off:end]); err != nil || n != end-off {
				t.Fatalf("writes of %d: wrote %d: %v", chunk, n, err)
			}
			// While the layer arrives, the table has its complete pieces.
			if got := b.Table(); end < len(layer) && (!slices.Equal(got.Digests, want[:end/(256<<10)]) || got.Complete()) {
				t.Fatalf("writes of %d, at %d: %d digests", chunk, end, len(got.Digests))
			}
		}
		table := b.Table()
		if table.Layer != d || table.Size != testLayerSize || table.PieceSize != 256<<10 || !slices.Equal(table.Digests, want) || !table.Complete() {
			t.Fatalf("writes of %d: %+v", chunk, table)
		}
	}
}

func TestTableBuilderRefusesBytesPastTheLayer(t *testing.T) {
	layer, d := testLayer(t)
	b := NewTableBuilder(d, testLayerSize)
	if n, err := b.Write(append(slices.Clone(layer), "more"...)); err == nil || n != len(layer) {
		t.Fatalf("wrote %d of %d bytes past the layer: %v", n, len(layer)+4, err)
	}
	if !b.Table().Complete() {
		t.Fatal("the layer's own bytes were not taken")
	}
}

func TestCheckAcceptsOnlyThePiecesOwnBytes(t *testing.T) {
	layer, d := testLayer(t)
	whole := buildTable(t, layer, d, len(layer))
	partial := buildTable(t, layer, d, 2<<18+100)
	flipped := slices.Clone(pieceOf(layer, 1))
	flipped[17] ^= 1
	for _, c := range []struct {
		name  string
		table Table
		i     int
		piece []byte
		want  error
	}{
		{"a full piece", whole, 1, pieceOf(layer, 1), nil},
		{"the short last piece", whole, 4, pieceOf(layer, 4), nil},
		{"a piece of a partial table", partial, 1, pieceOf(layer, 1), nil},
		{"a flipped bit", whole, 1, flipped, ErrPieceMismatch},
		{"another piece's bytes", whole, 2, pieceOf(layer, 1), ErrPieceMismatch},
		{"the last piece padded to full length", whole, 4, append(slices.Clone(pieceOf(layer, 4)), make([]byte, 256<<10-12345)...), ErrPieceMismatch},
		{"a piece cut short", whole, 0, pieceOf(layer, 0)[:1000], ErrPieceMismatch},
		{"a piece past a partial table", partial, 2, pieceOf(layer, 2), ErrPieceUnknown},
		{"a piece past the layer", whole, 5, nil, ErrPieceUnknown},
		{"a negative index", whole, -1, nil, ErrPieceUnknown},
	} {
		if err := c.table.Check(c.i, c.piece); !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

func TestVerifyCatchesAnyChangeToASignedTable(t *testing.T) {
	layer, d := testLayer(t)
	key := testKey(t, 1)
	other, _ := peer.IDFromPrivateKey(testKey(t, 2))
	ecdsa, _, _ := crypto.GenerateECDSAKeyPair(rand.NewChaCha8([32]byte{3}))
	hashedID, _ := peer.IDFromPrivateKey(ecdsa)
	signed := signedTable(t, key, buildTable(t, layer, d, len(layer)))
	partial := signedTable(t, key, buildTable(t, layer, d, 2<<18+1))
	for _, c := range []struct {
		name   string
		change func(*Table)
		want   error
	}{
		{"nothing", func(*Table) {}, nil},
		{"a partial table", func(t *Table) { *t = partial }, nil},
		{"a tampered digest", func(t *Table) { t.Digests = slices.Clone(t.Digests); t.Digests[3] = digest.FromString("x") }, ErrBadSignature},
		{"a dropped piece", func(t *Table) { t.Digests = t.Digests[:4] }, ErrBadSignature},
		{"the signature replayed onto another layer", func(t *Table) { t.Layer = digest.FromString("another layer") }, ErrBadSignature},
		{"another size, same piece size", func(t *Table) { t.Size += 1000 }, ErrBadSignature},
		{"another publisher", func(t *Table) { t.Publisher = other }, ErrBadSignature},
		{"no signature", func(t *Table) { t.Signature = nil }, ErrBadSignature},
		{"a truncated signature", func(t *Table) { t.Signature = t.Signature[:10] }, ErrBadSignature},
		{"no publisher", func(t *Table) { t.Publisher = "" }, ErrInvalidTable},
		{"a publisher without its key in its ID", func(t *Table) { t.Publisher = hashedID }, ErrInvalidTable},
		{"a wrong piece size", func(t *Table) { t.PieceSize *= 2 }, ErrInvalidTable},
	} {
		table := signed
		c.change(&table)
		if err := table.Verify(); !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := buildTable(t, layer, d, len(layer)).Sign(ecdsa); !errors.Is(err, ErrInvalidTable) {
		t.Errorf("signed by an identity whose ID hides its key: %v", err)
	}
}

func TestTheSignatureCoversOnlyAPieceTable(t *testing.T) {
	layer, d := testLayer(t)
	key := testKey(t, 1)
	signed := signedTable(t, key, buildTable(t, layer, d, len(layer)))
	if !bytes.HasPrefix(signed.signedBytes(), []byte("shoal piece table v1\x00")) {
		t.Fatal("the signed bytes do not start with the domain")
	}
	// The same fields signed for another purpose do not make a table.
	forged := signed
	forged.Signature, _ = key.Sign(signed.signedBytes()[len(tableDomain):])
	if err := forged.Verify(); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("a signature without the domain: %v", err)
	}
}

func TestDecodeTableAcceptsOnlyASignedTableOfTheExpectedLayer(t *testing.T) {
	layer, d := testLayer(t)
	key := testKey(t, 1)
	whole := buildTable(t, layer, d, len(layer))
	withDigest := func(i int, bad digest.Digest) Table {
		tampered := whole
		tampered.Digests = slices.Clone(whole.Digests)
		tampered.Digests[i] = bad
		return tampered
	}
	withPieceSize := whole
	withPieceSize.PieceSize = 512 << 10
	withPieceSize.Digests = whole.Digests[:3]
	tooMany := whole
	tooMany.Digests = append(slices.Clone(whole.Digests), whole.Digests[0])
	signed := signedTable(t, key, whole)
	good := encoded(t, signed)
	tampered := signed
	tampered.Digests = withDigest(2, digest.FromString("x")).Digests
	replayed := signed
	replayed.Layer = digest.FromString("another layer")

	for _, c := range []struct {
		name  string
		body  string
		layer digest.Digest
		size  int64
		want  error
	}{
		{"a complete table", good, d, testLayerSize, nil},
		{"a partial table", encoded(t, signedTable(t, key, buildTable(t, layer, d, 3<<18))), d, testLayerSize, nil},
		{"a table of no pieces yet", encoded(t, signedTable(t, key, buildTable(t, layer, d, 0))), d, testLayerSize, nil},
		{"a table of an empty layer", encoded(t, signedTable(t, key, NewTableBuilder(digest.FromString(""), 0).Table())), digest.FromString(""), 0, nil},
		{"another layer", good, digest.FromString("another layer"), testLayerSize, ErrInvalidTable},
		{"another size", good, d, testLayerSize + 1, ErrInvalidTable},
		{"a wrong piece size", encoded(t, signWithoutChecks(t, key, withPieceSize)), d, testLayerSize, ErrInvalidTable},
		{"more pieces than the layer", encoded(t, signWithoutChecks(t, key, tooMany)), d, testLayerSize, ErrInvalidTable},
		{"a sha512 digest", encoded(t, signWithoutChecks(t, key, withDigest(2, digest.SHA512.FromString("x")))), d, testLayerSize, ErrInvalidTable},
		{"a malformed digest", encoded(t, signWithoutChecks(t, key, withDigest(2, "sha256:XYZ"))), d, testLayerSize, ErrInvalidTable},
		{"a tampered digest", encoded(t, tampered), d, testLayerSize, ErrBadSignature},
		{"a signature replayed onto another layer", encoded(t, replayed), replayed.Layer, testLayerSize, ErrBadSignature},
		{"an unsigned table", encoded(t, whole), d, testLayerSize, ErrInvalidTable},
		{"a negative size", encoded(t, Table{Layer: d, Size: -1}), d, -1, ErrInvalidTable},
		{"a layer too large to swarm", encoded(t, Table{Layer: d, Size: MaxSwarmLayerSize + 1, PieceSize: 4 << 20}), d, MaxSwarmLayerSize + 1, ErrInvalidTable},
		{"a publisher that is no peer ID", strings.Replace(good, `"publisher":"`, `"publisher":"x`, 1), d, testLayerSize, ErrInvalidTable},
		{"an unknown field", strings.Replace(good, `{`, `{"trust":true,`, 1), d, testLayerSize, ErrInvalidTable},
		{"data after the table", good + "{}", d, testLayerSize, ErrInvalidTable},
		{"not JSON", "pieces", d, testLayerSize, ErrInvalidTable},
		{"nothing", "", d, testLayerSize, ErrInvalidTable},
		{"too long", good + strings.Repeat(" ", MaxEncodedTable), d, testLayerSize, ErrTableTooLarge},
	} {
		table, err := DecodeTable(strings.NewReader(c.body), c.layer, c.size)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if err == nil && (table.Layer != c.layer || table.Size != c.size || table.Verify() != nil) {
			t.Errorf("%s: decoded %+v", c.name, table)
		}
	}
	if !errors.Is(ErrTableTooLarge, ErrInvalidTable) {
		t.Error("ErrTableTooLarge is not an ErrInvalidTable")
	}
}

func TestTheLargestTableFitsTheBound(t *testing.T) {
	d := digest.FromString("a layer of 64 GiB")
	table := Table{Layer: d, Size: MaxSwarmLayerSize, PieceSize: SwarmPieceSize(MaxSwarmLayerSize)}
	for i := range MaxTablePieces {
		table.Digests = append(table.Digests, digest.FromString(string(rune(i))))
	}
	body := encoded(t, signedTable(t, testKey(t, 1), table))
	if len(body) > MaxEncodedTable {
		t.Fatalf("%d bytes, the bound is %d", len(body), MaxEncodedTable)
	}
	if _, err := DecodeTable(strings.NewReader(body), d, MaxSwarmLayerSize); err != nil {
		t.Fatal(err)
	}
}

func TestALaterTableExtendsAnEarlierOfTheSamePublisher(t *testing.T) {
	layer, d := testLayer(t)
	key := testKey(t, 1)
	earlier := signedTable(t, key, buildTable(t, layer, d, 2<<18))
	later := signedTable(t, key, buildTable(t, layer, d, len(layer)))
	diverging := later
	diverging.Digests = slices.Clone(later.Digests)
	diverging.Digests[1] = digest.FromString("x")
	otherLayer := later
	otherLayer.Layer = digest.FromString("another layer")
	for _, c := range []struct {
		name           string
		later, earlier Table
		want           bool
	}{
		{"a later table", later, earlier, true},
		{"the same table", later, later, true},
		{"an empty table", earlier, signedTable(t, key, buildTable(t, layer, d, 0)), true},
		{"an earlier table", earlier, later, false},
		{"another publisher's", signedTable(t, testKey(t, 2), later), earlier, false},
		{"another layer's", otherLayer, earlier, false},
		{"a table that rewrites a piece", diverging, earlier, false},
	} {
		if got := c.later.Extends(c.earlier); got != c.want {
			t.Errorf("%s: Extends = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestATableSurvivesItsEncoding(t *testing.T) {
	layer, d := testLayer(t)
	sent := signedTable(t, testKey(t, 1), buildTable(t, layer, d, 3<<18+5))
	got, err := DecodeTable(strings.NewReader(encoded(t, sent)), d, testLayerSize)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Extends(sent) || !sent.Extends(got) || !bytes.Equal(got.Signature, sent.Signature) || got.Complete() {
		t.Fatalf("sent %+v, got %+v", sent, got)
	}
}

func FuzzDecodeTable(f *testing.F) {
	layer, d := testLayer(f)
	key := testKey(f, 1)
	for _, upTo := range []int{0, 2 << 18, len(layer)} {
		f.Add([]byte(encoded(f, signedTable(f, key, buildTable(f, layer, d, upTo)))), int64(testLayerSize))
	}
	f.Add([]byte(encoded(f, signedTable(f, key, NewTableBuilder(d, 0).Table()))), int64(0))
	f.Add([]byte(`{"layer":"`+d+`","size":1,"pieceSize":262144,"digests":[null],"publisher":"","signature":""}`), int64(1))
	f.Fuzz(func(t *testing.T, body []byte, size int64) {
		table, err := DecodeTable(bytes.NewReader(body), d, size)
		if err != nil {
			if !errors.Is(err, ErrInvalidTable) && !errors.Is(err, ErrBadSignature) {
				t.Fatalf("an error of no kind: %v", err)
			}
			return
		}
		if table.Layer != d || table.Size != size || table.PieceSize != SwarmPieceSize(size) || len(table.Digests) > SwarmPieceCount(size) {
			t.Fatalf("accepted %+v for %d bytes", table, size)
		}
		again, err := DecodeTable(strings.NewReader(encoded(t, table)), d, size)
		if err != nil || !again.Extends(table) || !table.Extends(again) {
			t.Fatalf("an accepted table does not survive its encoding: %v", err)
		}
	})
}
