package metrics

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/shoal-dev/shoal/plugin/fetcher"
)

// dashboard is the Grafana dashboard shipped for these metrics.
const dashboard = "../../deploy/grafana/shoal.json"

// Every query of the dashboard asks for series the plugin exports, with
// label values they have: a renamed metric or a mistyped label fails here,
// not as an empty panel on someone's screen.
func TestTheDashboardQueriesOnlyWhatThePluginExports(t *testing.T) {
	exported := exportedSeries(t)
	queries := dashboardQueries(t)
	if len(queries) < 10 {
		t.Fatalf("found only %d queries in %s", len(queries), dashboard)
	}
	used := map[string]bool{}
	for _, q := range queries {
		selectors := metricSelectors(q.expr)
		if len(selectors) == 0 {
			t.Errorf("%s: %q queries no metric", q.where, q.expr)
		}
		for _, s := range selectors {
			labels, ok := exported[s.name]
			if !ok {
				t.Errorf("%s queries %s, which the plugin does not export (it exports %v)", q.where, s.name, sortedKeys(exported))
				continue
			}
			used[s.name] = true
			for label, value := range s.equal {
				if !labels[label+"="+value] {
					t.Errorf("%s queries %s{%s=%q}, which the plugin never exports", q.where, s.name, label, value)
				}
			}
		}
	}
	// What the dashboard is for.
	for _, want := range []string{
		"containerd_p2p_fetched_bytes_total",            // bytes by source
		"containerd_p2p_lookups_total",                  // hit ratio
		"containerd_p2p_lookup_duration_seconds_bucket", // lookup latency
		"containerd_p2p_failovers_total",                // failovers by reason
		"containerd_p2p_connected_peers",                // peers
		"containerd_p2p_routing_table_peers",            // peers
		"containerd_p2p_served_bytes_total",             // what this node gives back
		"containerd_p2p_lookup_duration_seconds_sum",    // mean latency
		"containerd_p2p_lookup_duration_seconds_count",  // mean latency
	} {
		if !used[want] {
			t.Errorf("no panel shows %s", want)
		}
	}
	for name := range exported {
		if !used[name] {
			t.Logf("not on the dashboard: %s", name)
		}
	}
}

// exportedSeries are the series names that Register exports into a fresh
// registry (a histogram's as _bucket, _sum and _count), each with the
// label pairs ("source=peer") its series carry.
func exportedSeries(t *testing.T) map[string]map[string]bool {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	zero := func() int64 { return 0 }
	m := New()
	err := m.Register(reg, Sources{
		Fetcher: &fetcher.Stats{}, PeerResolves: zero, ServedBytes: zero, DirectSentBytes: zero,
		PassedOn:       func() (int64, int64) { return 0, 0 },
		ConnectedPeers: func() int { return 0 }, RoutingTableSize: func() int { return 0 }, AnnouncedKeys: func() int { return 0 },
	})
	if err != nil {
		t.Fatal(err)
	}
	// A histogram vector has series only once it has observed something.
	m.ObserveLookup(time.Millisecond, true)
	m.ObserveLookup(time.Second, false)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	for _, f := range families {
		names := []string{f.GetName()}
		switch f.GetType().String() {
		case "HISTOGRAM":
			names = []string{f.GetName() + "_bucket", f.GetName() + "_sum", f.GetName() + "_count"}
		case "SUMMARY":
			names = append(names, f.GetName()+"_sum", f.GetName()+"_count")
		}
		for _, name := range names {
			labels := map[string]bool{}
			for _, metric := range f.GetMetric() {
				for _, l := range metric.GetLabel() {
					labels[l.GetName()+"="+l.GetValue()] = true
				}
			}
			out[name] = labels
		}
	}
	return out
}

type query struct{ where, expr string }

// dashboardQueries are the PromQL expressions of every panel (rows
// included) and of the template variables.
func dashboardQueries(t *testing.T) []query {
	t.Helper()
	data, err := os.ReadFile(dashboard)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels     []panel `json:"panels"`
		Templating struct {
			List []struct {
				Name  string          `json:"name"`
				Type  string          `json:"type"`
				Query json.RawMessage `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", dashboard, err)
	}
	var out []query
	var walk func([]panel)
	walk = func(panels []panel) {
		for _, p := range panels {
			if p.Type != "row" && len(p.Targets) == 0 {
				t.Errorf("panel %q has no query", p.Title)
			}
			for _, tg := range p.Targets {
				out = append(out, query{fmt.Sprintf("panel %q", p.Title), tg.Expr})
			}
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		var q struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(v.Query, &q); err != nil {
			_ = json.Unmarshal(v.Query, &q.Query) // an older dashboard's plain string
		}
		expr := q.Query
		if m := labelValues.FindStringSubmatch(expr); m != nil {
			expr = m[1]
		}
		out = append(out, query{fmt.Sprintf("variable %q", v.Name), expr})
	}
	return out
}

type panel struct {
	Type    string  `json:"type"`
	Title   string  `json:"title"`
	Panels  []panel `json:"panels"`
	Targets []struct {
		Expr string `json:"expr"`
	} `json:"targets"`
}

// labelValues is Grafana's label_values(selector, label) variable query.
var labelValues = regexp.MustCompile(`^\s*label_values\(\s*(.+?)\s*,\s*[a-zA-Z_][a-zA-Z0-9_]*\s*\)\s*$`)

// selector is a metric a query reads, with its equality matchers.
type selector struct {
	name  string
	equal map[string]string
}

var (
	grafanaVar   = regexp.MustCompile(`\$\{[^}]*\}|\$[a-zA-Z_][a-zA-Z0-9_]*`)
	matchers     = regexp.MustCompile(`([a-zA-Z_:][a-zA-Z0-9_:]*)?\s*\{([^}]*)\}`)
	equalMatcher = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!=|!~|=)\s*"([^"]*)"`)
	quoted       = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`")
	rangeOrSub   = regexp.MustCompile(`\[[^\]]*\]`)
	grouping     = regexp.MustCompile(`\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	token        = regexp.MustCompile(`[0-9][0-9a-zA-Z_.]*|[a-zA-Z_:][a-zA-Z0-9_:]*`)
	keywords     = []string{"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "group_left", "group_right", "inf", "nan", "atan2"}
)

// metricSelectors lists the metrics a PromQL expression reads: the
// identifiers that are not functions, aggregations, keywords, label names
// of a grouping, numbers or durations.
func metricSelectors(expr string) []selector {
	var out []selector
	equal := map[string]map[string]string{}
	expr = matchers.ReplaceAllStringFunc(expr, func(s string) string {
		m := matchers.FindStringSubmatch(s)
		name, body := m[1], m[2]
		if name == "" { // {__name__="..."}
			for _, e := range equalMatcher.FindAllStringSubmatch(body, -1) {
				if e[1] == "__name__" && e[2] == "=" {
					name = e[3]
				}
			}
		}
		if equal[name] == nil {
			equal[name] = map[string]string{}
		}
		// Only "=": "=~" and "!=" match a label's absence or many values.
		for _, e := range equalMatcher.FindAllStringSubmatch(body, -1) {
			label, op, value := e[1], e[2], e[3]
			if op == "=" && label != "__name__" && !grafanaVar.MatchString(value) {
				equal[name][label] = value
			}
		}
		return " " + name + " "
	})
	expr = quoted.ReplaceAllString(expr, " ")
	expr = rangeOrSub.ReplaceAllString(expr, " ")
	expr = grafanaVar.ReplaceAllString(expr, " ")
	expr = grouping.ReplaceAllString(expr, " ")
	seen := map[string]bool{}
	for _, loc := range token.FindAllStringIndex(expr, -1) {
		name := expr[loc[0]:loc[1]]
		rest := strings.TrimLeft(expr[loc[1]:], " \t\n")
		switch {
		case name[0] >= '0' && name[0] <= '9', strings.HasPrefix(rest, "("), slices.Contains(keywords, strings.ToLower(name)):
			continue
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, selector{name: name, equal: equal[name]})
		}
	}
	return out
}

func TestMetricSelectorsFindTheMetricsOfAQuery(t *testing.T) {
	for expr, want := range map[string]string{
		`sum by (source) (rate(containerd_p2p_fetched_bytes_total{instance=~"$instance"}[$__rate_interval]))`: `containerd_p2p_fetched_bytes_total{}`,
		`histogram_quantile(0.99, sum by (le, result) (rate(lookup_seconds_bucket{result="hit"}[5m])))`:       `lookup_seconds_bucket{result=hit}`,
		`a{x="1",y!="2",z=~"3"} / on (instance) group_left(node) b offset 5m > bool 0.5`:                      `a{x=1} b{}`,
		`label_replace(up{job="c"}, "dst", "$1", "src", "(.*)") or vector(0)`:                                 `up{job=c}`,
		`{__name__="containerd_p2p_connected_peers"}`:                                                         `containerd_p2p_connected_peers{}`,
		`sum(increase(m_total[$__range])) / sum without (reason) (m_total)`:                                   `m_total{}`,
	} {
		var got []string
		for _, s := range metricSelectors(expr) {
			var eq []string
			for l, v := range s.equal {
				eq = append(eq, l+"="+v)
			}
			sort.Strings(eq)
			got = append(got, s.name+"{"+strings.Join(eq, ",")+"}")
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s:\n got %q\nwant %q", expr, strings.Join(got, " "), want)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
