// Command containerd is a drop-in containerd v2 with Shoal's peer-to-peer
// image mirror compiled in.
package main

import (
	"context"
	"fmt"
	"os"

	_ "github.com/containerd/containerd/v2/cmd/containerd/builtins"
	"github.com/containerd/containerd/v2/cmd/containerd/command"

	_ "github.com/shoal-dev/shoal/builtins"
	"github.com/shoal-dev/shoal/plugin/p2p"
	"github.com/shoal-dev/shoal/plugin/peertransfer"
)

func main() {
	// Must run before the registry is read: wraps the stock transfer
	// service so pulls try peers first.
	peertransfer.Install(p2p.ID)
	if err := command.App().Run(context.Background(), os.Args); err != nil {
		fmt.Fprintf(os.Stderr, "containerd: %s\n", err)
		os.Exit(1)
	}
}
