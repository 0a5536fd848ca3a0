package swarm

import (
	"sync"

	"github.com/opencontainers/go-digest"
)

// Pull is what the sessions of one pull's layers share: the seeds of one
// pull read the same registry, so a seed far slower than another is slow
// (Config.SlowSeed), and while the pull's layers are read, in all, at
// less than half the most they were read at once, the registry has room
// for another reader. Safe for concurrent use.
type Pull struct {
	mu sync.Mutex
	// avg is, for each layer, how fast its fastest seed read it on
	// average; now how fast it is read at present, and peak the most
	// the pull's layers were read at once.
	avg  map[digest.Digest]float64
	now  map[digest.Digest]float64
	peak float64
}

// NewPull returns the shared state of a pull that has read nothing yet.
func NewPull() *Pull {
	return &Pull{avg: map[digest.Digest]float64{}, now: map[digest.Digest]float64{}}
}

// observe records how fast layer d's seeds read it, on average since they
// began and now, and returns the fastest average of the pull's layers
// (those done included) and whether the registry has room for another
// reader.
func (p *Pull) observe(d digest.Digest, avg, now float64) (fastest float64, room bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if avg > 0 {
		p.avg[d] = avg
	}
	p.now[d] = now
	total := 0.0
	for _, r := range p.now {
		total += r
	}
	p.peak = max(p.peak, total)
	for _, r := range p.avg {
		fastest = max(fastest, r)
	}
	return fastest, 2*total < p.peak
}

// ComparePull tells the pull how fast this layer's seeds read it, and
// takes from it the pull's fastest seed and whether the registry has room
// for another reader: the measures of a slow seed.
func (s *Session) ComparePull(p *Pull) {
	reading := 0.0
	if !s.Complete() {
		reading = s.readingRate()
	}
	s.fastest, s.room = p.observe(s.layer.Digest, s.seedRate(), reading)
}
