package swarm

import "math/bits"

// Bitfield is a set of piece indexes: what a node holds of a layer.
type Bitfield []uint64

// NewBitfield holds room for n pieces.
func NewBitfield(n int) Bitfield { return make(Bitfield, (n+63)/64) }

// Has reports whether piece i is in the set; indexes out of range are not.
func (b Bitfield) Has(i int) bool {
	return i >= 0 && i/64 < len(b) && b[i/64]&(1<<(uint(i)%64)) != 0
}

// Set adds piece i; it reports whether i was new.
func (b Bitfield) Set(i int) bool {
	if i < 0 || i/64 >= len(b) || b.Has(i) {
		return false
	}
	b[i/64] |= 1 << (uint(i) % 64)
	return true
}

// Count is how many pieces the set holds.
func (b Bitfield) Count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// Clone is a copy of b.
func (b Bitfield) Clone() Bitfield { return append(Bitfield(nil), b...) }
