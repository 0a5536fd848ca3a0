package fetcher

import (
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
)

// sent is who sent which bytes of a blob, in the order they were written:
// the bytes of each source, and the spans, so that bad bytes found in one
// piece are laid on the sources of that piece only.
type sent struct {
	bytes map[peer.ID]int64
	spans []span
}

type span struct {
	from       peer.ID
	start, end int64
}

func newSent() *sent { return &sent{bytes: map[peer.ID]int64{}} }

// add records n bytes from at, sent by from.
func (s *sent) add(from peer.ID, at, n int64) {
	if n <= 0 {
		return
	}
	s.bytes[from] += n
	if last := len(s.spans) - 1; last >= 0 && s.spans[last].from == from && s.spans[last].end == at {
		s.spans[last].end += n
		return
	}
	s.spans = append(s.spans, span{from: from, start: at, end: at + n})
}

// peersBetween is the peers (not the upstream) that sent bytes of
// [start, end).
func (s *sent) peersBetween(start, end int64) []peer.ID {
	var out []peer.ID
	for _, sp := range s.spans {
		if sp.start < end && start < sp.end && sp.from != upstreamID && !slices.Contains(out, sp.from) {
			out = append(out, sp.from)
		}
	}
	return out
}
