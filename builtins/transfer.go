package builtins

import (
	"github.com/containerd/log"

	// containerd's transfer service. Go initialises this import before this
	// package, so its registration exists when init below wraps it.
	_ "github.com/containerd/containerd/v2/plugins/transfer"

	"github.com/shoal-dev/shoal/plugin/p2p"
	"github.com/shoal-dev/shoal/plugin/peertransfer"
)

// Pulls through the transfer service (CRI's, `ctr image pull`'s) try peers
// first: the stock io.containerd.transfer.v1.local keeps its ID and config,
// its InitFn wraps the service it makes.
func init() {
	if !peertransfer.Install(p2p.ID) {
		log.L.Warn("p2p: containerd's io.containerd.transfer.v1.local is not registered; pulls will not try peers")
	}
}
