package swarm

import (
	"testing"
	"time"
)

// Faults inside the swarm, simulated: every surviving node completes its
// fetch. (Times and copies are measured by make bench-swarm, not bounded
// here.)
func TestEverySurvivingNodeCompletesDespiteFaults(t *testing.T) {
	cases := map[string]func(*simParams){
		"no fault":            func(*simParams) {},
		"a corrupting member": func(p *simParams) { p.corrupt = 1 },
		"a corrupting seed":   func(p *simParams) { p.corruptSeed = true },
		"a tenth-speed node":  func(p *simParams) { p.slow = 1 },
		"a node of 30 killed mid-rollout": func(p *simParams) {
			p.kill, p.killAt = 1.0/30, 500*time.Millisecond
		},
	}
	for name, tweak := range cases {
		t.Run(name, func(t *testing.T) {
			p := baseParams(30, time.Second, 5*time.Millisecond)
			tweak(&p)
			r := runSim(p)
			if r.failed != 0 {
				t.Fatalf("%d pulls failed", r.failed)
			}
			want := p.nodes - p.slow - int(float64(p.nodes)*p.kill)
			if len(r.fetchEnd) != want {
				t.Fatalf("%d nodes completed, want %d", len(r.fetchEnd), want)
			}
		})
	}
}
