package contentserver

import "github.com/opencontainers/go-digest"

// Bounds on what the server remembers of bad copies, and on the stored
// layers it hashes at once for their piece tables: an answer of a few KiB
// costs a read of the whole layer.
const (
	maxCorrupt     = 1024
	maxPieceHashes = 2
)

// putBounded sets m[k] = v, first dropping an entry at random when m holds
// limit entries already.
func putBounded[V any](m map[digest.Digest]V, k digest.Digest, v V, limit int) {
	if _, ok := m[k]; !ok && len(m) >= limit {
		for d := range m {
			delete(m, d)
			break
		}
	}
	m[k] = v
}

// markCorrupt remembers whether this node's copy of dgst was found not to
// match it, to say so to peers that ask for it.
func (s *Server) markCorrupt(dgst digest.Digest, bad bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !bad {
		delete(s.corrupt, dgst)
		return
	}
	putBounded(s.corrupt, dgst, struct{}{}, maxCorrupt)
}

func (s *Server) foundCorrupt(dgst digest.Digest) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.corrupt[dgst]
	return ok
}
