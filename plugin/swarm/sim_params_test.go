package swarm

import (
	"fmt"
	"slices"
	"time"
)

func (r simResult) quantile(q float64, unit time.Duration) float64 {
	if len(r.fetchEnd) == 0 {
		return 0
	}
	i := min(len(r.fetchEnd)-1, int(q*float64(len(r.fetchEnd))))
	return r.fetchEnd[i].Seconds() / unit.Seconds()
}

func (r simResult) row(unit time.Duration) string {
	copies := func(b int64) float64 { return float64(b) / float64(r.imageSize) }
	slow := ""
	if len(r.slowEnd) > 0 {
		slow = fmt.Sprintf(" (slow node %.2f×)", slices.Max(r.slowEnd).Seconds()/unit.Seconds())
	}
	return fmt.Sprintf("%.2f× | %.2f× | %.2f×%s | %.2f | %.2f | %.0f | %d MiB | %.3f | %d",
		r.quantile(0.5, unit), r.quantile(0.99, unit), r.quantile(1, unit), slow,
		copies(r.upstreamBytes), copies(r.maxUploaded), r.mostAnswers, r.peakHeldBytes>>20,
		float64(r.vainBytes)/float64(r.imageSize*int64(len(r.fetchEnd)+len(r.slowEnd))), r.failed)
}

// baseParams is a rollout of one 64 MiB layer whose size ÷ link is
// layerTime, with calibrated discovery delays. As in the product, a
// holder passes a piece on while it arrives (relay).
func baseParams(nodes int, layerTime, hop time.Duration) simParams {
	const size = 64 << 20
	rate := float64(size) / layerTime.Seconds()
	return simParams{
		nodes: nodes, layers: []int64{size}, link: rate, registry: rate, hop: hop,
		announceMin: 50 * time.Millisecond, announceMax: 2 * time.Second, lookupDelay: 20 * time.Millisecond,
		cfg: DefaultConfig(), seed: 1, timeLimit: 100 * layerTime, relay: true,
	}
}

// threeLayers makes p's image three layers (64, 24, 8 MiB) whose whole
// takes as long to cross a link as its one layer did, from a registry
// whose link is registry times a node's.
func threeLayers(p *simParams, registry float64) {
	p.layers = []int64{64 << 20, 24 << 20, 8 << 20}
	p.link = float64(96<<20) / (float64(64<<20) / p.link)
	p.registry = registry * p.link
}

func sum(s []int64) int64 {
	var t int64
	for _, v := range s {
		t += v
	}
	return t
}
