package builtins

import (
	"testing"

	"github.com/containerd/containerd/v2/plugins"
	"github.com/containerd/plugin"
	"github.com/containerd/plugin/registry"

	"github.com/shoal-dev/shoal/plugin/p2p"
	"github.com/shoal-dev/shoal/plugin/peertransfer"
)

// Importing the package is all a main does: by then the stock transfer
// service is wrapped and the P2P plugin registered, once each.
func TestImportWrapsTheStockTransferServiceAndRegistersP2P(t *testing.T) {
	if !peertransfer.Install(p2p.ID) {
		t.Fatal("the package's init did not find io.containerd.transfer.v1.local")
	}
	count := map[string]int{}
	for _, reg := range registry.Graph(func(*plugin.Registration) bool { return false }) {
		count[reg.URI()]++
	}
	for _, uri := range []string{plugins.TransferPlugin.String() + ".local", plugins.ServerPlugin.String() + "." + p2p.ID} {
		if count[uri] != 1 {
			t.Errorf("%s registered %d times, want 1", uri, count[uri])
		}
	}
}
