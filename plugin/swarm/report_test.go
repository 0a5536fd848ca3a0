//go:build bench

package swarm

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSwarmReport prints the simulator's table (make bench-swarm).
func TestSwarmReport(t *testing.T) {
	spec := os.Getenv("SHOAL_SWARM")
	if spec == "" {
		t.Fatal("SHOAL_SWARM is unset: run it with make bench-swarm (SWARM=1000,10000)")
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
		{"the first seed corrupting every piece it sends", func(p *simParams) { p.corruptSeed = true }},
		// As before pieces were passed on while they arrived.
		{"pieces passed on only once held", func(p *simParams) { p.relay = false }},
		{"1% killed mid-rollout", func(p *simParams) {
			p.kill = 0.01
			p.killAt = time.Duration(float64(64<<20) / p.link * float64(time.Second) / 2)
		}},
	}
	for _, n := range sizes {
		for _, layerTime := range layerTimes {
			for _, hop := range []time.Duration{time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond} {
				for _, c := range cases {
					if c.name != "one layer" && hop != 5*time.Millisecond {
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
