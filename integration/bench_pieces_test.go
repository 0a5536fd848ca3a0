//go:build bench

package integration

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"testing"
)

// Rollouts by pieces, in a lab sized so that its CPU is not the
// bottleneck: 16 nodes and the registry, each behind a link of
// SHOAL_PIECES_MBIT (20) Mbit/s both ways, all fetching a new 96 MiB image
// (layers of 64, 24 and 8 MiB) at once, without the unpack, so that each
// time is when the node's last layer was committed. Each case runs
// SHOAL_PIECES_RUNS (5) times, a new image each time; the machine's CPU
// use is measured over every run. SHOAL_PIECES_CASES (a regular
// expression) picks cases by name; SHOAL_PIECES_CONFIG is a line added to
// every node's p2p section (idle_timeout = "10s", say). Uploads are counted by the kernel at
// each host's link (headers and TLS included).
func benchPieces(t *testing.T, r *benchReport) {
	nodes, mbit, runs := envInt(t, "SHOAL_PIECES_NODES", 16), envInt(t, "SHOAL_PIECES_MBIT", 20), envInt(t, "SHOAL_PIECES_RUNS", 5)
	extra := os.Getenv("SHOAL_PIECES_CONFIG")
	if extra != "" {
		extra = "  " + extra + "\n"
	}
	pieces := func(corrupt int) func(int) nodeOptions {
		return func(host int) nodeOptions {
			return nodeOptions{corruptPieces: host == corrupt, extra: extra}
		}
	}
	lab := newRolloutLabWith(t, nodes, mbit, nil)
	lab.fetchOnly = true
	slow, bad := nodes, nodes // the last host: its link at a tenth, or corrupting every piece it sends
	cases := []struct {
		name  string
		opts  func(int) nodeOptions
		slow  bool
		wrong int // the corrupting host, 0: none
		// seeds: the corrupting host is nearest the largest layer, the
		// node that takes it from the upstream.
		seeds bool
	}{
		{"by pieces", pieces(0), false, 0, false},
		{"by pieces, one node's link at a tenth", pieces(0), true, 0, false},
		{"by pieces, one member corrupting every piece it sends", pieces(bad), false, bad, false},
		{"by pieces, the seed of the 64 MiB layer corrupting every piece it sends", pieces(bad), false, bad, true},
	}
	only := regexp.MustCompile(os.Getenv("SHOAL_PIECES_CASES"))
	for k, c := range cases {
		if !only.MatchString(c.name) {
			continue
		}
		lab.startNodes(c.opts)
		lab.pullTimeout = 0
		if c.slow {
			lab.setRate(slow, mbit*100)
			// The slow node's link alone takes 403 s for the image at
			// 2 Mbit/s, past rolloutPullTimeout: twice that.
			size := 0
			for _, l := range rolloutImage {
				size += l
			}
			lab.pullTimeout = 2 * time.Duration(float64(size*8)/(float64(mbit)/10*1e6)*float64(time.Second))
		}
		var medians, lasts, copies, uploads, busy []float64
		for run := range runs {
			repo := fmt.Sprintf("bench/pieces%d-%d", k, run)
			var im testImage
			if c.seeds {
				im = lab.pushSeededBy(repo, bad, rolloutImage...)
			} else {
				im = lab.push(repo, rolloutImage...)
			}
			unit := lab.linkTime(im)
			before, beforeIn, beforeWaste := lab.sent(), lab.received(), lab.pieceWaste()
			beforeSegs, beforeResent := lab.tcpSegments()
			cpu := cpuBusy(t)
			progress := lab.sampleLinks(unit)
			times := lab.pullAllAtOnce(im.Ref)
			busy = append(busy, cpu())
			fmt.Print(progress(im.Data.Size()))
			after, afterIn, afterWaste := lab.sent(), lab.received(), lab.pieceWaste()
			afterSegs, afterResent := lab.tcpSegments()
			others := times
			if c.slow {
				others = times[:slow-1]
			}
			medians = append(medians, float64(median(others))/float64(unit))
			lasts = append(lasts, float64(slices.Max(others))/float64(unit))
			copies = append(copies, lab.copies(im))
			most := 0.0
			var up, in, waste, resent []string
			for i := range after {
				resent = append(resent, fmt.Sprintf("%.1f%%", 100*float64(afterResent[i]-beforeResent[i])/float64(max(afterSegs[i]-beforeSegs[i], 1))))
				w := afterWaste[i].sub(beforeWaste[i])
				of := func(n int64) float64 { return float64(n) / float64(im.Data.Size()) }
				waste = append(waste, fmt.Sprintf("%.2f(%.2f+%.2f)/%d/%d/%.2f/%d/%d-%d", of(w.arrived-w.kept), of(w.cancelled), of(w.failed), w.hedges, w.withoutTable, of(w.states), w.stateCount, w.passedOn, w.passCut))
				c := float64(after[i]-before[i]) / float64(im.Data.Size())
				most = max(most, c)
				up = append(up, strconv.FormatFloat(c, 'f', 2, 64))
				in = append(in, strconv.FormatFloat(float64(afterIn[i]-beforeIn[i])/float64(im.Data.Size()), 'f', 2, 64))
			}
			uploads = append(uploads, most)
			extra := ""
			if c.slow {
				extra = fmt.Sprintf("; the slow node %.2f×", float64(times[slow-1])/float64(unit))
			}
			if c.wrong > 0 {
				extra = fmt.Sprintf("; bad pieces caught %d", caughtPieces(lab, c.wrong))
			}
			if c.opts != nil {
				extra += fmt.Sprintf("; nodes that read each layer from the registry %v", readersPerLayer(lab, im))
			}
			fmt.Printf("pieces bench, %s, run %d: fetch end %v (× size÷link %s); upstream copies %.2f; most uploaded (kernel) %.2f copies; CPU %.0f%%%s\n"+
				"  copies each node sent %v, received %v (kernel, headers and resent packets included); TCP segments each node sent again %v;\n"+
				"  piece bytes that arrived in vain (copies: cancelled + failed) / hedges / pieces dropped for want of a table / states sent (copies) / states sent / pieces passed on while they arrived-of them cut short, per node %v\n",
				c.name, run+1, multiples(times, unit), unit.Round(time.Millisecond), copies[run], most, 100*busy[run], extra, up, in, resent, waste)
		}
		if c.slow {
			lab.setRate(slow, mbit*1000)
		}
		who := "all"
		if c.slow {
			who = "the others'"
		}
		r.row(fmt.Sprintf("%d nodes at %d Mbit/s fetch a new 96 MiB image, %s: %s median / last fetch end, × size÷link, over %d runs", nodes, mbit, c.name, who, runs),
			"", fmt.Sprintf("%s / %s", spanOf(medians, "×"), spanOf(lasts, "×")), "",
			fmt.Sprintf("upstream copies %s; most uploaded by one node %s copies (kernel); CPU busy %s", spanOf(copies, ""), spanOf(uploads, ""), spanOf(percent(busy), "%")))
	}
}

// sampleLinks samples, every tenth of unit until the returned function is called,
// the bytes the registry's host sent and each node host received (the
// kernel's counters at the bridge's end of each veth). The function tells,
// at each step, the registry's copies of an image of size bytes and the
// least, median and most copies a node had received: whether the nodes
// fall behind what the registry has sent, and when.
func (l *rolloutLab) sampleLinks(unit time.Duration) func(size int64) string {
	l.t.Helper()
	sample := func() ([]int64, error) { // host 0: the registry's, sent; then each node's, received
		out := make([]int64, len(l.nodes)+1)
		for i := range out {
			host, counter := i, "tx_bytes"
			if i == 0 {
				host, counter = len(l.nodes)+1, "rx_bytes"
			}
			n, err := l.linkCounter(host, counter)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	}
	base, err := sample()
	if err != nil {
		l.t.Fatal(err)
	}
	var samples [][]int64
	stop, done := make(chan struct{}), make(chan struct{})
	end := sync.OnceFunc(func() { close(stop); <-done })
	l.t.Cleanup(end) // a run that fails before it reads the samples
	go func() {
		defer close(done)
		tick := time.NewTicker(unit / 10)
		defer tick.Stop()
		for range 1000 { // bounded: 100× the unit of time
			select {
			case <-stop:
				return
			case <-tick.C:
				s, err := sample()
				if err != nil {
					l.t.Errorf("sampling the links: %v", err)
					return
				}
				samples = append(samples, s)
			}
		}
	}()
	return func(size int64) string {
		end()
		var b strings.Builder
		b.WriteString("  registry sent / nodes received least, median, most (copies), every tenth of size÷link:")
		for i, s := range samples {
			of := func(k int) float64 { return float64(s[k]-base[k]) / float64(size) }
			nodes := make([]float64, 0, len(s)-1)
			for k := 1; k < len(s); k++ {
				nodes = append(nodes, of(k))
			}
			slices.Sort(nodes)
			fmt.Fprintf(&b, " %.1f: %.2f/%.2f,%.2f,%.2f", float64(i+1)/10, of(0), nodes[0], nodes[len(nodes)/2], nodes[len(nodes)-1])
		}
		b.WriteString("\n")
		return b.String()
	}
}

// readersPerLayer counts, for each layer of im, the nodes that read pieces
// of it from the registry.
func readersPerLayer(lab *rolloutLab, im testImage) []int {
	var out []int
	for _, b := range im.Blobs[1:] {
		n := 0
		var why []string
		for i, nd := range lab.nodes {
			for _, line := range nd.logLines("pieces from the upstream") {
				if strings.Contains(line, b.Digest.String()) {
					n++
					for _, l := range append(nd.logLines("pieces of a layer no peer brings"), nd.logLines("a registry body for a layer's pieces")...) {
						if strings.Contains(l, b.Digest.String()) {
							why = append(why, fmt.Sprintf("n%d %s", i+1, logFields(l)))
						}
					}
					why = append(why, fmt.Sprintf("n%d %s", i+1, logFields(line)))
					break
				}
			}
		}
		if n > 1 { // why it had more than one reader: when each became a seed, what it knew
			fmt.Printf("  layer %s (%d MiB) read by %d nodes:\n    %s\n", b.Digest.Encoded()[:12], b.Size>>20, n, strings.Join(why, "\n    "))
		}
		out = append(out, n)
	}
	return out
}

// caughtPieces counts the bad pieces the nodes other than host caught.
func caughtPieces(lab *rolloutLab, host int) int {
	n := 0
	for i, nd := range lab.nodes {
		if i != host-1 {
			n += len(nd.logLines("a piece from a peer failed verification"))
		}
	}
	return n
}

// spanOf is "min–max" of vs (or the one value), with unit after each.
func spanOf(vs []float64, unit string) string {
	lo, hi := slices.Min(vs), slices.Max(vs)
	if fmt.Sprintf("%.2f", lo) == fmt.Sprintf("%.2f", hi) {
		return fmt.Sprintf("%.2f%s", lo, unit)
	}
	return fmt.Sprintf("%.2f–%.2f%s", lo, hi, unit)
}

func percent(vs []float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = 100 * v
	}
	return out
}

// envInt is the integer in environment variable name, or def.
func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

// logFields is a log line from its time on, less the digest.
func logFields(line string) string {
	if i := strings.Index(line, "time="); i >= 0 {
		line = line[i:]
	}
	if i := strings.Index(line, " digest="); i >= 0 {
		if j := strings.IndexByte(line[i+1:], ' '); j >= 0 {
			line = line[:i] + line[i+1+j:]
		}
	}
	return line
}

// pieceCounts are a node's counters of piece bytes (shoal status).
type pieceCounts struct {
	arrived, kept, cancelled, failed, hedges, withoutTable, states, stateCount int64
	passedOn, passCut                                                          int64
}

func (a pieceCounts) sub(b pieceCounts) pieceCounts {
	return pieceCounts{a.arrived - b.arrived, a.kept - b.kept, a.cancelled - b.cancelled, a.failed - b.failed, a.hedges - b.hedges, a.withoutTable - b.withoutTable, a.states - b.states, a.stateCount - b.stateCount,
		a.passedOn - b.passedOn, a.passCut - b.passCut}
}

// pieceWaste reads each node's piece counters.
func (l *rolloutLab) pieceWaste() []pieceCounts {
	l.t.Helper()
	out := make([]pieceCounts, len(l.nodes))
	for i, n := range l.nodes {
		st, err := n.status()
		if err != nil {
			l.t.Fatal(err)
		}
		c := st.Counters
		out[i] = pieceCounts{c["piece_bytes_arrived"], c["piece_bytes_kept"], c["piece_bytes_cancelled"], c["piece_bytes_failed"], c["hedges"], c["pieces_without_table"], c["state_bytes_sent"], c["states_sent"], c["pieces_passed_on"], c["pieces_passed_on_cut"]}
	}
	return out
}
