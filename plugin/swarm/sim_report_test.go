package swarm

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
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
// holder serves a piece once it holds it (relay is off).
func baseParams(nodes int, layerTime, hop time.Duration) simParams {
	const size = 64 << 20
	rate := float64(size) / layerTime.Seconds()
	return simParams{
		nodes: nodes, layers: []int64{size}, link: rate, registry: rate, hop: hop,
		announceMin: 50 * time.Millisecond, announceMax: 2 * time.Second, lookupDelay: 20 * time.Millisecond,
		cfg: DefaultConfig(), seed: 1, timeLimit: 100 * layerTime,
	}
}

// TestSwarmReport prints the simulator's table (make bench-swarm).
func TestSwarmReport(t *testing.T) {
	spec := os.Getenv("SHOAL_SWARM")
	if spec == "" {
		t.Log("a measurement: run it with make bench-swarm (SHOAL_SWARM=1000,10000)")
		return
	}
	var sizes []int
	for _, f := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			t.Fatalf("SHOAL_SWARM=%q: %v", spec, err)
		}
		sizes = append(sizes, n)
	}
	layerTimes := []time.Duration{time.Second, 8 * time.Second}
	if v := os.Getenv("SHOAL_SWARM_TIMES"); v != "" {
		layerTimes = nil
		for _, f := range strings.Split(v, ",") {
			d, err := time.ParseDuration(strings.TrimSpace(f))
			if err != nil {
				t.Fatalf("SHOAL_SWARM_TIMES=%q: %v", v, err)
			}
			layerTimes = append(layerTimes, d)
		}
	}
	only := regexp.MustCompile("")
	if v := os.Getenv("SHOAL_SWARM_CASES"); v != "" {
		var err error
		if only, err = regexp.Compile(v); err != nil {
			t.Fatalf("SHOAL_SWARM_CASES=%q: %v", v, err)
		}
	}
	var out strings.Builder
	fmt.Fprintln(&out, "| nodes | case | hop | size÷link | p50 | p99 | last | upstream copies | most uploaded (copies) | most states and refusals answered a second by one node | peak window | bytes in vain (copies per node) | failed pulls |")
	fmt.Fprintln(&out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	type kase struct {
		name  string
		tweak func(*simParams)
	}
	cases := []kase{
		{"one layer", func(*simParams) {}},
		{"three layers (64, 24, 8 MiB)", func(p *simParams) { threeLayers(p, 1) }},
		{"three layers, registry 10× the link", func(p *simParams) { threeLayers(p, 10) }},
		{"a tenth-speed node", func(p *simParams) { p.slow = 1 }},
		{"a corrupting member", func(p *simParams) { p.corrupt = 1 }},
		// Not built: a holder serves only the pieces it holds, verified.
		{"pieces passed on while they arrive (not built)", func(p *simParams) { p.relay = true }},
		{"1% killed mid-rollout", func(p *simParams) {
			p.kill = 0.01
			p.killAt = time.Duration(float64(64<<20) / p.link * float64(time.Second) / 2)
		}},
	}
	for _, n := range sizes {
		for _, layerTime := range layerTimes {
			for _, hop := range []time.Duration{time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond} {
				for _, c := range cases {
					if c.name != "one layer" && (hop != 5*time.Millisecond || layerTime != time.Second && !strings.HasPrefix(c.name, "three layers")) {
						continue
					}
					if !only.MatchString(fmt.Sprintf("%s %s", c.name, hop)) {
						continue
					}
					p := baseParams(n, layerTime, hop)
					c.tweak(&p)
					unit := time.Duration(float64(sum(p.layers)) / p.link * float64(time.Second))
					start := time.Now()
					r := runSim(p)
					line := fmt.Sprintf("| %d | %s | %s | %s | %s |", n, c.name, hop, unit.Round(time.Millisecond), r.row(unit))
					fmt.Fprintln(&out, line)
					t.Logf("%s  (%d events, %s)", line, r.events, time.Since(start).Round(time.Millisecond))
				}
			}
		}
	}
	fmt.Print(out.String())
	if path := os.Getenv("SHOAL_BENCH_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
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
