package window

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/swarm"
)

// A layer of 3 pieces of 256 KiB, the last short.
const size = 2*256<<10 + 100

func layerBytes() []byte {
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}

func piece(data []byte, i int) []byte {
	return data[i*256<<10 : min(len(data), (i+1)*256<<10)]
}

func signedTable(t *testing.T, data []byte, pieceCount int) (pieces.Table, crypto.PrivKey) {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	b := pieces.NewTableBuilder(digest.FromBytes(data), int64(len(data)))
	b.Write(data[:min(len(data), pieceCount*256<<10)])
	tbl, err := b.Table().Sign(key)
	if err != nil {
		t.Fatal(err)
	}
	return tbl, key
}

func TestPiecesAreHeldWithinTheBudgetAndReleasedWhenWritten(t *testing.T) {
	data := layerBytes()
	r := New(300 << 10) // one full piece, not two
	l, err := r.Begin(digest.FromBytes(data), size, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Begin(digest.FromBytes(data), size, "default", nil); err == nil {
		t.Fatal("a second fetch of the same layer was registered")
	}
	if err := l.Put(0, piece(data, 0)); err != nil {
		t.Fatal(err)
	}
	if err := l.Put(1, piece(data, 1)); !errors.Is(err, ErrOverBudget) {
		t.Fatalf("a second piece over the budget: %v, want ErrOverBudget", err)
	}
	if err := l.Put(2, piece(data, 1)); !errors.Is(err, pieces.ErrPieceMismatch) {
		t.Fatalf("a piece of the wrong length: %v", err)
	}
	if b, ok := l.Piece(0); !ok || !bytes.Equal(b, piece(data, 0)) {
		t.Fatal("piece 0 not held")
	}
	l.Written(0)
	if _, ok := l.Piece(0); ok || r.Held() != 0 || !l.State().Have.Has(0) {
		t.Fatalf("written piece: in memory %v, held %d, in the have-set %v", ok, r.Held(), l.State().Have.Has(0))
	}
	if err := l.Put(1, piece(data, 1)); err != nil {
		t.Fatalf("after the first was written: %v", err)
	}
	l.End()
	if r.Held() != 0 {
		t.Fatalf("after End, %d bytes held", r.Held())
	}
	if _, ok := r.Lookup(l.Digest); ok {
		t.Fatal("an ended layer is still found")
	}
}

func TestPiecesAreCheckedAgainstTheTablesKnown(t *testing.T) {
	data := layerBytes()
	l, err := New(1<<20).Begin(digest.FromBytes(data), size, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Check(0, piece(data, 0)); !errors.Is(err, pieces.ErrPieceUnknown) {
		t.Fatalf("with no table: %v, want ErrPieceUnknown", err)
	}
	partial, _ := signedTable(t, data, 2)
	l.AddTable(partial)
	if err := l.Check(1, piece(data, 1)); err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(piece(data, 1))
	bad[9] ^= 1
	if err := l.Check(1, bad); !errors.Is(err, pieces.ErrPieceMismatch) {
		t.Fatalf("a flipped byte: %v, want ErrPieceMismatch", err)
	}
	if err := l.Check(2, piece(data, 2)); !errors.Is(err, pieces.ErrPieceUnknown) {
		t.Fatalf("past the table: %v, want ErrPieceUnknown", err)
	}
}

func TestAStateGoesOverTheWireAndBadOnesAreRefused(t *testing.T) {
	data := layerBytes()
	dgst := digest.FromBytes(data)
	tbl, _ := signedTable(t, data, 3)
	have := swarm.NewBitfield(3)
	have.Set(0)
	have.Set(2)
	receiving := swarm.NewBitfield(3)
	receiving.Set(1)
	st := State{Have: have, Receiving: receiving, Seed: true, Yields: true, Upstream: 12345, Reading: []swarm.SeedRead{{Seed: tbl.Publisher, Bytes: 23456}}, Cap: 99, Intake: 4321, Spent: true, Crowded: true, Holders: []peer.ID{tbl.Publisher}, Tables: []pieces.Table{tbl}}
	var buf bytes.Buffer
	if err := st.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := DecodeState(bytes.NewReader(buf.Bytes()), dgst, size, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Have.Has(0) || got.Have.Has(1) || !got.Have.Has(2) || got.Receiving.Count() != 1 || !got.Holder(0).Receiving.Has(1) || !got.Seed || !got.Yields || got.Upstream != 12345 || len(got.Reading) != 1 || got.Reading[0] != (swarm.SeedRead{Seed: tbl.Publisher, Bytes: 23456}) || len(got.Holder(0).Reading) != 1 || got.Cap != 99 || got.Intake != 4321 || !got.Spent || !got.Crowded || !got.Holder(0).Crowded || len(got.Tables) != 1 || got.Holders[0] != tbl.Publisher {
		t.Fatalf("decoded %+v", got)
	}
	if _, err := DecodeState(bytes.NewReader(buf.Bytes()), digest.FromString("other"), size, nil); !errors.Is(err, ErrInvalidState) {
		t.Fatalf("a state with another layer's table: %v", err)
	}
	forged := tbl
	forged.Digests = append([]digest.Digest(nil), tbl.Digests...)
	forged.Digests[0] = digest.FromString("forged")
	buf.Reset()
	State{Have: have, Tables: []pieces.Table{forged}}.Encode(&buf)
	if _, err := DecodeState(&buf, dgst, size, nil); !errors.Is(err, pieces.ErrBadSignature) {
		t.Fatalf("a forged table: %v, want ErrBadSignature", err)
	}
	// A field a newer node adds is left alone.
	if _, err := DecodeState(strings.NewReader(`{"have":"AAAAAAAAAAA","later":1}`), dgst, size, nil); err != nil {
		t.Errorf("a state with a field this node does not know: %v", err)
	}
	seed := `{"seed":"` + tbl.Publisher.String() + `","bytes":1}`
	for _, body := range []string{
		`{"have":"` + EncodeHave(swarm.Bitfield{1 << 3}) + `"}`, // piece 3 of 3
		`{"have":"AAAAAAAAAAAAAAAA"}`,                           // two words for one
		`{"have":"!!"}`,
		`{"have":"AAAAAAAAAAA","receiving":"` + EncodeHave(swarm.Bitfield{1 << 3}) + `"}`,
		`{"have":"AAAAAAAAAAA","upstream":-1}`,
		`{"have":"AAAAAAAAAAA","readers":[{"seed":"` + tbl.Publisher.String() + `","bytes":-1}]}`,
		`{"have":"AAAAAAAAAAA","readers":[{"bytes":1}]}`,
		`{"have":"AAAAAAAAAAA","readers":[{"seed":"not a peer","bytes":1}]}`,
		`{"have":"AAAAAAAAAAA","readers":[` + tooManyReaders(t) + `]}`,
		`{"have":"AAAAAAAAAAA","readers":[` + seed + "," + seed + `]}`,
		`{"have":"AAAAAAAAAAA","intake":-1}`,
		strings.Repeat(" ", MaxEncodedState+1),
	} {
		if _, err := DecodeState(strings.NewReader(body), dgst, size, nil); !errors.Is(err, ErrInvalidState) {
			t.Errorf("%.40q: %v, want ErrInvalidState", body, err)
		}
	}
}

// A table sent as what it adds to the asker's is whole again once decoded,
// and one that does not continue the asker's table is told apart from a
// state that is not one.
func TestATableSentAsASuffixIsCompletedFromTheAskersDigests(t *testing.T) {
	data := layerBytes()
	dgst := digest.FromBytes(data)
	tbl, _ := signedTable(t, data, 3)
	st := State{Have: swarm.NewBitfield(3), Tables: []pieces.Table{tbl}}.TablesPast(2)
	if len(st.Tables) != 1 || len(st.Tables[0].Digests) != 1 || st.TablesFrom != 2 {
		t.Fatalf("cut past 2: %d tables, from %d", len(st.Tables), st.TablesFrom)
	}
	var whole, cut bytes.Buffer
	State{Have: swarm.NewBitfield(3), Tables: []pieces.Table{tbl}}.Encode(&whole)
	st.Encode(&cut)
	if cut.Len() >= whole.Len() {
		t.Errorf("a suffix of %d bytes, the whole state %d", cut.Len(), whole.Len())
	}
	got, err := DecodeState(bytes.NewReader(cut.Bytes()), dgst, size, tbl.Digests[:2])
	if err != nil || len(got.Tables) != 1 || !slices.Equal(got.Tables[0].Digests, tbl.Digests) {
		t.Fatalf("decoded with the asker's two digests: %v, %+v", err, got.Tables)
	}
	other := slices.Clone(tbl.Digests[:2])
	other[1] = digest.FromString("another table's")
	if _, err := DecodeState(bytes.NewReader(cut.Bytes()), dgst, size, other); !errors.Is(err, ErrSuffixMismatch) || errors.Is(err, ErrInvalidState) {
		t.Fatalf("completed from digests the publisher did not sign: %v, want ErrSuffixMismatch", err)
	}
	if _, err := DecodeState(bytes.NewReader(cut.Bytes()), dgst, size, tbl.Digests[:1]); !errors.Is(err, ErrInvalidState) {
		t.Fatalf("a suffix past what the asker knows: %v, want ErrInvalidState", err)
	}
	if len(tbl.Digests) != 3 {
		t.Fatal("cutting the state changed the table")
	}
}

// The peers that ask are kept once each, at most MaxHolders between two
// takes, and taken once.
func TestAskersAreTakenOnceAndBounded(t *testing.T) {
	data := layerBytes()
	l, err := New(1<<20).Begin(digest.FromBytes(data), size, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 * MaxHolders {
		l.Asked(peer.ID("asker-" + strconv.Itoa(i%(MaxHolders+2))))
	}
	got := l.TakeAskers()
	if len(got) != MaxHolders || got[0] != "asker-0" || got[1] != "asker-1" {
		t.Fatalf("askers %q: want the first %d, once each", got, MaxHolders)
	}
	if again := l.TakeAskers(); len(again) != 0 {
		t.Fatalf("taken twice: %q", again)
	}
	l.Asked("asker-0")
	if got := l.TakeAskers(); len(got) != 1 {
		t.Fatalf("an asker that asks again after a take: %q", got)
	}
}

// Peers that asked for a layer before this node began it are its first
// askers once it does; what is kept is bounded in layers and peers.
func TestPeersThatAskedEarlyAreTheLayersFirstAskers(t *testing.T) {
	var none *Registry
	none.AskedEarly(digest.FromString("x"), "a") // a node without windows records nothing

	r := New(1 << 20)
	data := layerBytes()
	dgst := digest.FromBytes(data)
	for i := range 2 * MaxHolders {
		r.AskedEarly(dgst, peer.ID("asker-"+strconv.Itoa(i%(MaxHolders+2))))
	}
	// Layers asked for later push the oldest out, not this one's askers
	// unless maxEarly others came after it.
	for i := range maxEarly - 1 {
		r.AskedEarly(digest.FromString(strconv.Itoa(i)), "other")
	}
	l, err := r.Begin(dgst, size, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := l.TakeAskers()
	if len(got) != MaxHolders || got[0] != "asker-0" || !l.Followed() {
		t.Fatalf("askers %q, followed %v: want the first %d, and the layer followed", got, l.Followed(), MaxHolders)
	}
	r.AskedEarly(dgst, "late") // the layer is fetched: its askers are the layer's
	l.End()
	if l2, err := r.Begin(dgst, size, "default", nil); err != nil || len(l2.TakeAskers()) != 0 {
		t.Fatalf("begun again: %v, askers kept from while it was fetched", err)
	}

	r = New(1 << 20)
	r.AskedEarly(dgst, "a")
	for i := range maxEarly {
		r.AskedEarly(digest.FromString(strconv.Itoa(i)), "other")
	}
	if l, err := r.Begin(dgst, size, "default", nil); err != nil || len(l.TakeAskers()) != 0 {
		t.Fatalf("%d layers asked for after it: %v, its askers still kept", maxEarly, err)
	}
}

// Grown wakes a peer's held state request once the have-set holds more
// than it knew of, or the fetch ends.
func TestGrownIsClosedWhenTheHaveSetGrowsOrTheFetchEnds(t *testing.T) {
	data := layerBytes()
	l, err := New(1<<20).Begin(digest.FromBytes(data), size, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	closedNow := func(c <-chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
	if !closedNow(l.Grown(-1)) {
		t.Fatal("an asker that knew of no piece waits on an empty layer")
	}
	zero := l.Grown(0)
	if closedNow(zero) {
		t.Fatal("Grown(0) closed before any piece")
	}
	if err := l.Put(1, piece(data, 1)); err != nil {
		t.Fatal(err)
	}
	if !closedNow(zero) || !closedNow(l.Grown(0)) {
		t.Fatal("Grown(0) open with a piece held")
	}
	one := l.Grown(1)
	l.Written(1) // held already: no growth
	if closedNow(one) {
		t.Fatal("Grown(1) closed by a piece held already")
	}
	l.Written(0)
	if !closedNow(one) {
		t.Fatal("Grown(1) open after a piece was written")
	}
	two := l.Grown(2)
	l.End()
	if !closedNow(two) || !closedNow(l.Grown(2)) {
		t.Fatal("Grown open after the fetch ended")
	}
}

// A seed's state tells how fast its node receives, over the last second
// or more, for every layer it fetches.
func TestASeedsStateTellsItsNodesIntake(t *testing.T) {
	r := New(1 << 30)
	l, err := r.Begin(digest.FromBytes(layerBytes()), size, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	if st := l.State(); st.Intake != 0 {
		t.Fatalf("a follower's state tells an intake of %d", st.Intake)
	}
	l.SetSeed(true)
	now := time.Now()
	r.Intake(now) // the meter starts
	r.Received().Add(3 << 20)
	if got := r.Intake(now.Add(500 * time.Millisecond)); got != 0 {
		t.Errorf("intake after half a second: %d, want none measured yet", got)
	}
	if got := r.Intake(now.Add(2 * time.Second)); got != 3<<20/2 {
		t.Errorf("intake: %d B/s, want %d", got, 3<<20/2)
	}
	if st := l.State(); st.Intake != 3<<20/2 {
		t.Errorf("the seed's state tells %d B/s", st.Intake)
	}
}

// The answer to a piece asked now waits behind the bytes awaited already,
// at the most the node has received in a second: a quiet second after a
// busy one does not make the wait look longer.
func TestAPieceAskedWaitsBehindTheBytesAwaited(t *testing.T) {
	r := New(1 << 30)
	now := time.Now()
	r.Awaited().Add(4 << 20)
	if got := r.Behind(now); got != 0 {
		t.Fatalf("behind %v before any intake is measured, want 0", got)
	}
	r.Received().Add(1 << 20)
	if got := r.Behind(now.Add(time.Second)); got != 4*time.Second {
		t.Fatalf("4 MiB awaited at 1 MiB/s: behind %v, want 4s", got)
	}
	r.Received().Add(64 << 10)
	r.Awaited().Add(-2 << 20)
	if got := r.Behind(now.Add(2 * time.Second)); got != 2*time.Second {
		t.Fatalf("2 MiB awaited after a slow second: behind %v, want 2s", got)
	}
}

// A layer's state passes on what the fetcher last knew the seeds to have
// read, and the policy takes it from there.
func TestAStatePassesOnWhatASeedRead(t *testing.T) {
	l, err := New(1<<30).Begin(digest.FromBytes(layerBytes()), size, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	seeds := []swarm.SeedRead{{Seed: "seed", Bytes: 5 << 20}}
	l.SetReading(seeds)
	if st := l.State(); !slices.Equal(st.Reading, seeds) || !slices.Equal(st.Holder(0).Reading, seeds) {
		t.Fatalf("state tells %v read, the policy %v; want 5 MiB by the seed", st.Reading, st.Holder(0).Reading)
	}
}

// tooManyReaders is the JSON of one seed more than a state may tell of,
// each a peer of its own.
func tooManyReaders(t *testing.T) string {
	var seeds []string
	for range swarm.MaxReaders + 1 {
		key, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, `{"seed":"`+id.String()+`","bytes":1}`)
	}
	return strings.Join(seeds, ",")
}
