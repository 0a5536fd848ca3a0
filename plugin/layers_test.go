package plugin_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/shoal-dev/shoal/plugin/"

// layer of every package under plugin/: a package may import only packages
// of lower layers. The pull path flows one way, top to bottom: the transfer
// wrapper, the fetcher, the peer client, the transport; the peer's content
// service answers it. The loopback mirror and the control socket are fronts
// like the transfer wrapper; node wires everything, p2p registers node.
var layer = map[string]int{
	"p2p":  8,
	"node": 7,
	// Fronts.
	"peertransfer": 6, "mirror": 6, "metrics": 6, "control": 6,
	// Getting content from peers.
	"fetcher": 5, "resolve": 5,
	// Reading one blob from the peers that hold it.
	"peerblob": 4,
	// Talking to one peer or, by itself, to a registry; serving this node's
	// content.
	"peerclient": 3, "contentserver": 3, "inflight": 3, "registryaccess": 3,
	// The network and what this node holds.
	"peerhttp": 2, "router": 2, "inventory": 2, "window": 2, "tables": 2,
	// Leaves: protocol grammar, bookkeeping, keys, policy.
	"contenttest": 1, "oci": 1, "penalty": 1, "throttle": 1, "failures": 1, "recovery": 1, "pieces": 1,
	"policy": 1, "identity": 1, "netkey": 1, "pullhistory": 1, "swarm": 1, "pulling": 1,
}

// No package imports one above it (or beside it) on the pull path, and
// every package has a place in the picture.
func TestPackagesImportOnlyLowerLayers(t *testing.T) {
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		pkg := d.Name()
		own, ok := layer[pkg]
		if !ok {
			t.Errorf("package %s has no layer: add it to the picture above", pkg)
			continue
		}
		for _, imp := range imports(t, pkg) {
			dep := strings.TrimPrefix(imp, module)
			if dep == imp {
				continue
			}
			dep = strings.SplitN(dep, "/", 2)[0]
			if layer[dep] >= own {
				t.Errorf("%s (layer %d) imports %s (layer %d): the pull path must flow one way", pkg, own, dep, layer[dep])
			}
		}
	}
}

// imports lists what the non-test files of pkg import.
func imports(t *testing.T, pkg string) []string {
	files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range parsed.Imports {
			seen[strings.Trim(s.Path.Value, `"`)] = true
		}
	}
	var out []string
	for imp := range seen {
		out = append(out, imp)
	}
	sort.Strings(out)
	return out
}
