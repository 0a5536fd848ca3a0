package swarm

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"
)

func TestDiag(t *testing.T) {
	if os.Getenv("DIAG") == "" {
		return
	}
	n := 100
	fmt.Sscan(os.Getenv("DIAG"), &n)
	p := baseParams(n, time.Second, 5*time.Millisecond)
	p.onStart = func(s *sim) {
		var tick func()
		tick = func() {
			upBusy, downBusy, upRate, downRate := 0, 0, 0.0, 0.0
			var have []int
			seedHave := 0
			queued := 0
			for _, nd := range s.nodes {
				if len(nd.up.transfers) > 0 {
					upBusy++
				}
				if len(nd.down.transfers) > 0 {
					downBusy++
				}
				_ = nd
				for tr := range nd.up.transfers {
					upRate += tr.rate
				}
				for tr := range nd.down.transfers {
					downRate += tr.rate
				}
				if len(nd.sessions) > 0 {
					h := nd.sessions[0].Have().Count()
					if nd.sessions[0].Seed() {
						seedHave = h
					}
					have = append(have, h)
				}
			}
			slices.Sort(have)
			fmt.Printf("t=%v upBusy=%d downBusy=%d upUtil=%.2f downUtil=%.2f queued=%d seed=%d have p10=%d p50=%d p90=%d\n",
				s.now, upBusy, downBusy, upRate/(float64(n)*p.link), downRate/(float64(n)*p.link), queued, seedHave,
				have[len(have)/10], have[len(have)/2], have[len(have)*9/10])
			if s.now == 1000*time.Millisecond {
				inActive := map[string]int{}
				for _, nd := range s.nodes {
					for _, id := range nd.sessions[0].Active() {
						inActive[string(id)]++
					}
				}
				none, idleNone := 0, 0
				var counts []int
				for _, nd := range s.nodes {
					c := inActive[string(nd.id)]
					counts = append(counts, c)
					if c == 0 {
						none++
						if len(nd.up.transfers) == 0 {
							idleNone++
						}
					}
				}
				slices.Sort(counts)
				fmt.Printf("  nodes in nobody's active set: %d (idle uplink: %d); in-active counts p10=%d p50=%d p90=%d max=%d\n", none, idleNone, counts[len(counts)/10], counts[len(counts)/2], counts[len(counts)*9/10], counts[len(counts)-1])
			}
			if s.now == 1500*time.Millisecond {
				for _, nd := range s.nodes[:100] {
					if len(nd.down.transfers) > 0 || nd.sessions[0].Complete() {
						continue
					}
					ss := nd.sessions[0]
					lo, hi := ss.written, min(ss.n, ss.written+ss.cfg.Window)
					missing, offered, offeredFree, refused, trulyHeldFree := 0, 0, 0, 0, 0
					for i := lo; i < hi; i++ {
						if ss.have.Has(i) {
							continue
						}
						missing++
						o, of, rf := false, false, false
						for _, h := range ss.holders {
							if h.active && !h.excluded && h.offers(i) {
								o = true
								if s.byID[h.id].uploading < 2 {
									of = true
								}
								if _, ok := h.refused[i]; ok {
									rf = true
								}
							}
						}
						for _, o2 := range s.nodes {
							if o2 != nd && o2.sessions[0].Have().Has(i) && o2.uploading < 2 {
								trulyHeldFree++
								break
							}
						}
						if o {
							offered++
						}
						if of {
							offeredFree++
						}
						if rf {
							refused++
						}
					}
					act := 0
					for _, h := range ss.holders {
						if h.active {
							act++
						}
					}
					fmt.Printf("  idle node %d written=%d have=%d inflight=%d missingInWindow=%d offered=%d offeredByFree=%d refused=%d anyoneFreeHas=%d active=%d known=%d\n",
						nd.index, ss.written, ss.have.Count(), ss.requests(), missing, offered, offeredFree, refused, trulyHeldFree, act, len(ss.holders))
				}
			}
			if s.now < 3*time.Second {
				s.at(100*time.Millisecond, tick)
			}
		}
		s.at(0, tick)
	}
	r := runSim(p)
	fmt.Println(r.row(time.Second))
}
