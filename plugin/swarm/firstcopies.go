package swarm

import (
	"math"
	"time"
)

// FirstCopies is what a seed has sent of a layer: its uplink is the only
// way into the swarm for the pieces it reads from the upstream, so while
// one of them leaves it for the first time, a piece that has left it
// already is not sent again (the asker takes it from the node that
// received it, or asks for another piece). BitTorrent's initial seeders
// do the same ("super-seeding"). Simulator, 100 nodes, one 64 MiB layer
// at 1 s size ÷ link: the seed sent every piece 2.6 times, the pieces
// left it for the first time at less than half the rate it read them, and
// the fetches ended at p50 2.66× (mean of five runs); with this rule
// 2.17×. Sixteen-node lab: median fetch end 1.91–2.11× before, 1.63–1.76×
// with it; but with a node at a tenth of the link the registry sent
// 2.07–4.46 copies in three runs, against 2.00–2.10 in two before (not
// settled).
//
// A first copy that takes longer than twice the time its share of an
// uplink as fast as the seed's reading would take no longer holds the
// piece back: its receiver is slow (a node at a tenth of the link held
// every node behind it with the piece: p50 2.85× without this, 2.27×
// with it, in one run each; once and twice gave the same).
//
// An asker that receives a first copy gets no second one while another
// asker was turned away since its first began: the first copies, and the
// work of passing each on, spread over the askers instead of going to
// whichever asks soonest after each piece is read (simulator, 100 nodes,
// 8 s size ÷ link: one node received nearly every first copy and carried
// them on alone). With no one turned away, an asker gets as many as it
// asks for: two followers keep the seed's uplink busy between them.
//
// No piece leaves a seed more than Config.Share times (rounded up), the
// copies in flight counted, those that failed not: with an uplink that
// outruns its read, no first copy is out most of the time, and every node
// at the edge of the layer asked the seed for each new piece. In the
// eight-node lab (five 12 MiB layers at 200 Mbit/s) a node that seeded
// three layers sent 2.12 copies of the image; the most any node sent in
// thirty runs was 1.06–2.12 copies (median 1.21), and with this rule
// 1.01–1.56 (median 1.14). Once a piece is out twice
// its receivers pass it on, and one of them corrupting still leaves the
// other. (Bounding every holder so, not only seeds, starved the
// simulator's last nodes: at 100 nodes and 1 s size ÷ link they waited
// for holders they did not follow, p99 1.89× → 12.3×.)
//
// Not safe for concurrent use; its owner locks.
type FirstCopies struct {
	uploads int
	most    int // copies of one piece in flight or delivered, 0: no limit
	copies  map[int]*pieceCopies
	firsts  int // first copies in flight
	// receiving are the first copies in flight to each asker.
	receiving map[string]*inFlight
	// turnedAway is when an asker was last refused a first copy, by whom.
	turnedAway   time.Time
	turnedAwayBy string
}

// inFlight is how many first copies an asker is receiving, and since when
// (the oldest).
type inFlight struct {
	since time.Time
	n     int
}

type pieceCopies struct {
	firstStart time.Time
	firstOut   bool // the first copy is in flight
	done       bool // a copy reached its receiver
	out        int  // copies in flight or delivered
}

// NewFirstCopies returns the record of a seed that sends up to uploads
// pieces at once (Config.Uploads) and each piece share times (Config.Share,
// rounded up; 0: no limit).
func NewFirstCopies(uploads int, share float64) *FirstCopies {
	return &FirstCopies{uploads: max(1, uploads), most: int(math.Ceil(share)), copies: map[int]*pieceCopies{}, receiving: map[string]*inFlight{}}
}

// Allow reports whether piece i, of pieceLen bytes, may be sent now to
// asker; readRate is how fast the seed reads the layer from the upstream,
// in bytes per second (0: not known yet).
func (f *FirstCopies) Allow(now time.Time, i int, pieceLen int64, readRate float64, asker string) bool {
	if f.allow(now, i, pieceLen, readRate, asker) {
		return true
	}
	f.turnedAway, f.turnedAwayBy = now, asker
	return false
}

func (f *FirstCopies) allow(now time.Time, i int, pieceLen int64, readRate float64, asker string) bool {
	c, sent := f.copies[i]
	if !sent {
		r := f.receiving[asker]
		return r == nil || f.turnedAwayBy == asker || f.turnedAway.Before(r.since)
	}
	if f.most > 0 && c.out >= f.most {
		return false
	}
	if f.firsts == 0 {
		return true
	}
	if c.firstOut && !c.done && readRate > 0 {
		late := time.Duration(2 * float64(f.uploads) * float64(pieceLen) / readRate * float64(time.Second))
		if now.Sub(c.firstStart) > late {
			return true
		}
	}
	return false
}

// Start records that a copy of piece i leaves now for asker; end is
// called with whether it reached its receiver whole.
func (f *FirstCopies) Start(now time.Time, i int, asker string) (end func(ok bool)) {
	c, sent := f.copies[i]
	if sent {
		c.out++
		return func(ok bool) {
			if ok {
				c.done = true
				return
			}
			if c.out--; c.out == 0 && !c.done && !c.firstOut {
				delete(f.copies, i) // no copy left: as if not sent
			}
		}
	}
	c = &pieceCopies{firstStart: now, firstOut: true, out: 1}
	f.copies[i] = c
	f.firsts++
	r := f.receiving[asker]
	if r == nil {
		r = &inFlight{since: now}
		f.receiving[asker] = r
	}
	r.n++
	return func(ok bool) {
		if !c.firstOut {
			return
		}
		c.firstOut = false
		f.firsts--
		if r.n--; r.n == 0 {
			delete(f.receiving, asker)
		}
		switch {
		case ok:
			c.done = true
		case !c.done && c.out == 1:
			delete(f.copies, i) // it never left: the piece is as if not sent
		default:
			c.out--
		}
	}
}
