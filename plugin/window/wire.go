package window

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/swarm"
)

// MaxTables bounds the piece tables a state carries.
const MaxTables = 4

// MaxEncodedState bounds the JSON of a state: its tables, and 64 KiB for
// the have-set (16,384 pieces in base64) and the holders' IDs.
const MaxEncodedState = MaxTables*pieces.MaxEncodedTable + 64<<10

// ErrInvalidState: a peer's state of a layer that is not one.
var ErrInvalidState = fmt.Errorf("invalid swarm state: %w", errdefs.ErrInvalidArgument)

// ErrSuffixMismatch: a table sent as a suffix (oci.SuffixQuery) does not
// verify once completed from the asker's digests. Either the asker's table
// and the publisher's differ before the suffix (one of them lied), or the
// signature is bad: asked again whole, the state tells which.
var ErrSuffixMismatch = fmt.Errorf("piece table suffix does not complete the asker's table: %w", errdefs.ErrInvalidArgument)

type wireState struct {
	Have     string         `json:"have"`
	Seed     bool           `json:"seed,omitempty"`
	Yields   bool           `json:"yields,omitempty"`
	Upstream int64          `json:"upstream,omitempty"`
	Cap      int64          `json:"cap,omitempty"`
	Intake   int64          `json:"intake,omitempty"`
	Spent    bool           `json:"spent,omitempty"`
	Crowded  bool           `json:"crowded,omitempty"`
	Holders  []peer.ID      `json:"holders,omitempty"`
	Tables   []pieces.Table `json:"tables,omitempty"`
	// Receiving: omitted when no piece arrives, and by nodes that pass
	// no piece on as it arrives.
	Receiving string `json:"receiving,omitempty"`
	// From: the tables' digests begin at this piece (State.TablesPast).
	From int `json:"from,omitempty"`
	// Readers: the seeds the holder knows of and what each read.
	Readers []wireReader `json:"readers,omitempty"`
}

// wireReader is a seed of the layer and the bytes of it it read from the
// upstream (State.Reading).
type wireReader struct {
	Seed  peer.ID `json:"seed"`
	Bytes int64   `json:"bytes"`
}

// Encode writes st as JSON.
func (st State) Encode(w io.Writer) error {
	return json.NewEncoder(w).Encode(wireState{
		Have: EncodeHave(st.Have), Receiving: encodeReceiving(st.Receiving), Seed: st.Seed, Yields: st.Yields, Upstream: st.Upstream, Readers: encodeReaders(st.Reading), Cap: st.Cap, Intake: st.Intake, Spent: st.Spent, Crowded: st.Crowded,
		Holders: st.Holders[:min(len(st.Holders), MaxHolders)], Tables: st.Tables[:min(len(st.Tables), MaxTables)],
		From: st.TablesFrom,
	})
}

// WithoutTablesWithin is st less the tables that cover no more than known
// pieces: those the asker holds already, or shorter ones.
func (st State) WithoutTablesWithin(known int) State {
	st.Tables = slices.DeleteFunc(slices.Clone(st.Tables), func(t pieces.Table) bool { return len(t.Digests) <= known })
	return st
}

// TablesPast is st with only the tables that cover more than known pieces,
// each cut to its digests from piece known on (oci.SuffixQuery).
func (st State) TablesPast(known int) State {
	st = st.WithoutTablesWithin(known)
	for i, t := range st.Tables {
		t.Digests = t.Digests[known:]
		st.Tables[i] = t
	}
	st.TablesFrom = known
	return st
}

// DecodeState reads a peer's state of the layer of the given digest and
// size: bounded, its have-set within the layer's pieces, every table
// signed by its publisher and for this layer. Tables sent as suffixes
// (oci.SuffixQuery) are completed from known, the digests of the asker's
// longest table.
func DecodeState(r io.Reader, layer digest.Digest, size int64, known []digest.Digest) (State, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(MaxEncodedState)+1))
	if err != nil {
		return State{}, fmt.Errorf("read swarm state of %s: %w", layer, err)
	}
	if len(data) > MaxEncodedState {
		return State{}, fmt.Errorf("swarm state of %s over %d bytes: %w", layer, MaxEncodedState, ErrInvalidState)
	}
	var ws wireState
	// Fields it does not know are left alone: a newer node may send more.
	if err := json.Unmarshal(data, &ws); err != nil {
		return State{}, fmt.Errorf("swarm state of %s: %v: %w", layer, err, ErrInvalidState)
	}
	n := pieces.SwarmPieceCount(size)
	have, err := DecodeHave(ws.Have, n)
	if err != nil {
		return State{}, fmt.Errorf("swarm state of %s: %w", layer, err)
	}
	receiving := swarm.NewBitfield(n)
	if ws.Receiving != "" {
		if receiving, err = DecodeHave(ws.Receiving, n); err != nil {
			return State{}, fmt.Errorf("swarm state of %s: pieces receiving: %w", layer, err)
		}
	}
	if ws.Upstream < 0 || ws.Cap < 0 || ws.Intake < 0 {
		return State{}, fmt.Errorf("swarm state of %s: %d bytes from the upstream, a cap of %d, an intake of %d: %w", layer, ws.Upstream, ws.Cap, ws.Intake, ErrInvalidState)
	}
	if len(ws.Holders) > MaxHolders || len(ws.Tables) > MaxTables || len(ws.Readers) > swarm.MaxReaders {
		return State{}, fmt.Errorf("swarm state of %s: %d holders, %d tables, %d seeds reading: %w", layer, len(ws.Holders), len(ws.Tables), len(ws.Readers), ErrInvalidState)
	}
	if ws.From < 0 || ws.From > len(known) {
		return State{}, fmt.Errorf("swarm state of %s: tables from piece %d, the asker knows %d: %w", layer, ws.From, len(known), ErrInvalidState)
	}
	var reading []swarm.SeedRead
	for _, r := range ws.Readers {
		if r.Bytes < 0 || r.Seed == "" || slices.ContainsFunc(reading, func(sr swarm.SeedRead) bool { return sr.Seed == r.Seed }) {
			return State{}, fmt.Errorf("swarm state of %s: a seed %q read %d bytes, or is told of twice: %w", layer, r.Seed, r.Bytes, ErrInvalidState)
		}
		reading = append(reading, swarm.SeedRead{Seed: r.Seed, Bytes: r.Bytes})
	}
	for i, t := range ws.Tables {
		if t.Layer != layer || t.Size != size {
			return State{}, fmt.Errorf("swarm state of %s: a table of %s (%d bytes): %w", layer, t.Layer, t.Size, ErrInvalidState)
		}
		if ws.From > 0 {
			t.Digests = slices.Concat(known[:ws.From], t.Digests)
			ws.Tables[i] = t
		}
		if err := t.Verify(); err != nil {
			if ws.From > 0 && errors.Is(err, pieces.ErrBadSignature) {
				err = fmt.Errorf("%w: %w", ErrSuffixMismatch, err)
			}
			return State{}, fmt.Errorf("swarm state of %s: %w", layer, err)
		}
	}
	return State{Have: have, Receiving: receiving, Seed: ws.Seed, Yields: ws.Yields, Upstream: ws.Upstream, Reading: reading, Cap: ws.Cap, Intake: ws.Intake, Spent: ws.Spent, Crowded: ws.Crowded, Holders: ws.Holders, Tables: ws.Tables}, nil
}

// encodeReaders is what the seeds read, as Session.Reading orders them.
func encodeReaders(reading []swarm.SeedRead) []wireReader {
	out := make([]wireReader, 0, min(len(reading), swarm.MaxReaders))
	for _, sr := range reading[:cap(out)] {
		out = append(out, wireReader{Seed: sr.Seed, Bytes: sr.Bytes})
	}
	return out
}

// EncodeHave is a have-set as text, for a JSON field or a header.
func EncodeHave(b swarm.Bitfield) string {
	raw := make([]byte, 0, 8*len(b))
	for _, w := range b {
		raw = binary.LittleEndian.AppendUint64(raw, w)
	}
	return base64.RawURLEncoding.EncodeToString(raw)
}

// encodeReceiving is EncodeHave, or nothing when no piece is set.
func encodeReceiving(b swarm.Bitfield) string {
	if b.Count() == 0 {
		return ""
	}
	return EncodeHave(b)
}

// DecodeHave reads a have-set of a layer of n pieces: no bit past n.
func DecodeHave(s string, n int) (swarm.Bitfield, error) {
	b := swarm.NewBitfield(n)
	if base64.RawURLEncoding.DecodedLen(len(s)) > 8*len(b) {
		return nil, fmt.Errorf("have-set of %d characters for %d pieces: %w", len(s), n, ErrInvalidState)
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) != 8*len(b) {
		return nil, fmt.Errorf("have-set %q for %d pieces: %w", s, n, ErrInvalidState)
	}
	for i := range b {
		b[i] = binary.LittleEndian.Uint64(raw[8*i:])
	}
	if n%64 != 0 && len(b) > 0 && b[len(b)-1]>>(uint(n)%64) != 0 {
		return nil, fmt.Errorf("have-set names pieces past the layer's %d: %w", n, ErrInvalidState)
	}
	return b, nil
}
