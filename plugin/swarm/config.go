// Package swarm answers "which piece next, and from whom" for one layer
// that several nodes fetch at once: a window of pieces ahead of the
// layer's write position is fetched from several holders at once, rarest
// first, the next-needed piece urgent; the pieces no holder has come from
// the upstream, each taken there by one node.
//
// The package is policy only: a Session takes what its node observes
// (holders found, their have-sets, pieces received or failed, the write
// position) with the time of each observation, and answers with the
// requests to start. Moving and verifying bytes is its driver's job (the
// fetcher, or the simulator in this package's tests), so every rule here
// runs the same in both and is table-tested with an injected clock.
package swarm

import "time"

// Config is every tunable of the swarm. Each says why it has its value;
// the figures are p99 of the simulator (make bench-swarm: 100 nodes, one
// 64 MiB layer, 5 ms hop) at size ÷ link 8 s / 1 s unless said otherwise.
// "Not tuned" marks a value no run has compared with another yet.
type Config struct {
	// Window is how many pieces past the write position a node fetches
	// and holds in memory (16 MiB at the 256 KiB piece of a 64 MiB layer,
	// 256 MiB at the 4 MiB piece of a layer of 1 GiB or more). The pieces
	// a node may choose among, rarest first, are what keep its holders'
	// uplinks busy: 32 gave 1.36×/2.26×, 48 1.28×/1.96×, 64 1.27×/1.91×,
	// 96 1.27×/1.93×.
	Window int
	// PerHolder is how many requests a node keeps in flight to one
	// holder: two hide a round trip between a holder's pieces. Four did
	// no better at 10–200 nodes; one did better under an earlier holder
	// rule and worse under another, and was not tried with these rules.
	PerHolder int
	// Uploads is how many pieces a node sends at once; the content
	// service answers a request beyond them Full, and its sender asks
	// another holder. A piece sent alongside k others arrives in k+1
	// piece times, so few at once keep pieces moving on; all at once let
	// every node ask the first holders it finds, whose uplinks then carry
	// the rollout (with no bound, under older rules, p99 8.22× and the
	// most any node uploaded 7.9 copies). More at once, with as many
	// asked (Requests), keep more of the uplinks busy, each transfer
	// limited by one end or the other: Uploads and Requests 4 gave
	// 1.40×/2.21×, 6 1.28×/2.01×, 8 1.27×/1.91×, 12 1.31×/1.95×.
	Uploads int
	// Requests bounds the requests a node keeps in flight, the
	// next-needed piece's included (it is asked even when the bound is
	// reached, and hedged when late): pieces asked at once share its
	// downlink, each arrives later, and the nodes waiting for it wait
	// longer (simulator, 10 nodes, older rules: last 1.87× unbounded,
	// 1.70× with 4). As many as Uploads (see there); 8 asked of holders
	// that send 4 gave 1.44×/1.90×, 4 of holders that send 8 1.71×/2.27×.
	// Layers fetched at once share it (Session.SetLayers): bounded per
	// layer, a node fetching three kept 24 pieces and more in flight, each
	// a TCP flow into one downlink. Three layers (64, 24, 8 MiB) at
	// 1 s / 8 s size ÷ link: p99 1.98×/1.40× per layer, 1.95×/1.39× shared.
	Requests int
	// Holders is how many holders a node keeps asking (and polling for
	// their have-sets) at once; others found are kept in reserve, and one
	// of them replaces a holder followed that brings too little
	// (RotateEvery). It bounds the have-set traffic a node causes at any
	// cluster size. A holder's
	// uplink idles when the nodes that want its pieces do not follow it:
	// at 100 nodes, of the nodes wanting a piece an idle holder had, nine
	// in ten did not follow it. Simulator, one 64 MiB layer at 1 s size ÷
	// link, p50/p99: 100 nodes (mean of five runs) 2.17×/2.29× with 16,
	// 1.99×/2.05× with 32; 1,000 nodes (one run each) 3.00×/3.14× and
	// 2.59×/2.71×. (With 8, p99 at 200 nodes was 3.5× against 2.9× with
	// 16, under older rules.) A holder that sends nothing is asked its
	// state every 400 ms: 32 of them cost a node up to 80 small requests a
	// second per layer. A holder lets twice as many follow it
	// (MaxFollowers).
	Holders int
	// Probe is how many nodes ranked above this one (nearest the layer's
	// key in the DHT's key space, among the peers it knows) it asks
	// whether they pull the layer before it takes the layer from the
	// upstream: when one does, this node waits for its pieces instead. It
	// makes one node, not every node of a rollout whose lookups all came
	// back empty, the one that goes upstream, while a lone miss pays one
	// round trip. Not tuned.
	Probe int
	// Stall: when nothing has moved for this long (no byte of a piece
	// arrived, no holder gained one, no seed read a byte more from the
	// upstream, as a holder followed says: HolderState.Reading), the node
	// takes the next-needed piece from the upstream itself. It bounds
	// what a dead or lying holder can cost; it measures silence, not
	// slowness, so it holds at any link rate, and it is counted from when
	// the states asked of holders come back (Session.StateTook). Not tuned.
	Stall time.Duration
	// Hedge: the next-needed piece in flight longer than Hedge times the
	// time its holder should take is asked of a second source. A hedge
	// costs the bytes of the request that loses, and the connection it
	// came on. Sixteen-node lab at 8 Mbit/s, five runs each: 3 gave a
	// median 60 hedges and 0.07 copies of the image in vain a node,
	// 1.22 copies received, fetch end median 1.37–1.59×, last 1.40–1.60×;
	// 6 gave 42, 0.04, 1.19, 1.37–1.44× and 1.41–1.46×. The simulator,
	// where a piece is late only when its holder is, gives the same rows
	// for both. A late piece is hedged only when the node has nothing
	// else to ask (Session.Next): seven runs, 0–35 hedges a node,
	// 0.00–0.03 copies in vain, 1.10–1.18 received, medians 1.36–1.72×
	// (README, "Where a piece waits": the time is not in the hedges). The
	// simulator, where a hedge's loser costs nothing, lost by it at a
	// 1 ms hop and 1 s size ÷ link (p99 1.58× → 1.67× at 100 nodes,
	// 1.77× → 1.86× at 200), nothing at 5 and 20 ms or 1,000 nodes.
	Hedge float64
	// SlowSeed: a seed whose pieces leave it (its read rate from the
	// upstream, or its upload cap if lower) at less than 1/SlowSeed of
	// the fastest read rate of the pull's seeds, while the registry has
	// room for another reader (Session.SetRegistryRoom), is slow, and so
	// is one capped below that rate: it counts as no seed, and after
	// Stall one of its followers reads the layer too, from where the slow
	// one has come; the slow one yields to it. Seeds that read
	// at once share the registry's link and their own (three layers at
	// once: a third each), so it must stay above 3; a node at a tenth of
	// the link must be caught. In the six-node lab at 200 Mbit/s a node at
	// 20 Mbit/s that was the seed of a layer held the others to 14× size
	// ÷ link without this rule.
	SlowSeed float64
	// Share is how many copies of a layer a node sends in a rollout before
	// it sends only the pieces its asker finds at no other holder (Share,
	// Request.Only): the holders found first, and the seeds once they hold
	// the whole layer, are asked by every node, and would carry the
	// rollout while others idle. Two is the bound a rollout promises its
	// nodes. Simulator, 100 nodes, 8 s layers: the most a node uploaded
	// 2.12 → 2.00–2.02 copies, p99 the same; at 1,000 nodes no change
	// (2.39: a node follows 32 holders, and to most the seed is the only
	// one with the piece).
	Share float64
}

// StatePoll is how often a node asks a holder it follows for its state
// while no answer came from it (a piece's answer, a busy one too, carries
// its have-set): it bounds the have-set traffic a node causes to a few
// answers a second per holder it follows. Sixteen nodes at 20 Mbit/s,
// each following up to sixteen holders for each of three layers, kept
// the two CPUs 79–86% busy at 100 ms and 71–77% at 400 ms (two runs each,
// same fetch times); the six-node test 57–68% and 42–52%.
const StatePoll = 400 * time.Millisecond

// StateHold is the longest a holder holds a state asked of it (see
// StateSpacing) when it gains no piece: a held state that ends with no
// news only refreshes the holder's load, which its pieces' answers carry
// too, and each costs a request and an answer on both links. Sixteen-node
// lab at 8 Mbit/s, one run each: states answered per node (median) 6,955
// at 400 ms, 5,058 at 1 s. The asker's own bound (half its request
// timeout) caps it too.
const StateHold = time.Second

// StateSpacing is the least time between two states a node asks of one
// holder. A state asked is held by the holder until it has a piece more
// than its asker knows of (or StateHold), so a node learns of new pieces
// as they come, at most one state per holder per StateSpacing. Simulator,
// 100 nodes, 5 ms hop, p99 at 8 s / 1 s size ÷ link: states asked every
// StatePoll, not held, 1.35×/2.80×; held, asked again at once
// 1.26×/1.88×, after 25 ms 1.25×/1.87×, 50 ms 1.28×/1.90×, 100 ms
// 1.29×/1.92×, 200 ms 1.29×/2.00×. 100 ms keeps a node's state traffic
// at the rate of states asked every 100 ms, only while holders gain
// pieces. It costs more at 1,000 nodes and 1 s: a seed's followers learn
// of its first pieces 100 ms (0.1×) late, and 0 gave p99 2.02× (25 ms
// 2.10×) against 2.24×, with the busiest node answering 10,602 states a
// second against 5,357; each is an HTTP exchange, so the bound stays
// until news of pieces is pushed on a stream.
const StateSpacing = 100 * time.Millisecond

// LookupHolders is the most holders of a layer one lookup asks the DHT
// for: a node learns of more from those it follows (a state names up to
// eight holders, and a node that asks is followed and named by the one it
// asks), so no lookup grows with the cluster and no node is looked up
// again and again. Simulator, one 64 MiB layer, 5 ms hop: 16 and 20 gave
// the same rows at 100 and 1,000 nodes, 1 s and 8 s size ÷ link.
const LookupHolders = 16

// NamesEvery is how often a node asks a holder it follows for the holders
// that one names (up to eight in a state): a list of names was most of a
// state's bytes, and a node following 32 holders hears from them 16
// lists a second even so. Sixteen-node lab, five runs: state bytes a
// node sent 0.04 → 0.02 copies of the image, fetch ends within the runs'
// spread. Other spans were not compared.
const NamesEvery = 2 * time.Second

// DefaultConfig is the configuration nodes run with.
func DefaultConfig() Config {
	return Config{
		Window:    64,
		PerHolder: 2,
		Uploads:   8,
		Holders:   32,
		Requests:  8,
		Probe:     3,
		Stall:     2 * time.Second,
		Hedge:     6,
		SlowSeed:  4,
		Share:     2,
	}
}
