package swarm

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestDiagSweep(t *testing.T) {
	if os.Getenv("SWEEP") == "" {
		return
	}
	n := 100
	fmt.Sscan(os.Getenv("SWEEP"), &n)
	cases := []struct {
		name string
		f    func(*simParams)
	}{
		{"up2conc", func(p *simParams) { p.cfg.Uploads = 2 }},
		{"up3conc", func(p *simParams) { p.cfg.Uploads = 3 }},
		{"up4conc", func(p *simParams) { p.cfg.Uploads = 4 }},
		{"up6conc", func(p *simParams) { p.cfg.Uploads = 6 }},
	}
	for _, c := range cases {
		p := baseParams(n, time.Second, 5*time.Millisecond)
		c.f(&p)
		st := time.Now()
		r := runSim(p)
		fmt.Printf("%-14s %s  (%v)\n", c.name, r.row(time.Second), time.Since(st).Round(time.Second))
	}
}
