// Command shoal is the companion tool of Shoal's containerd.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

const usage = `usage: shoal <command> [flags]

commands:
  status [-a SOCKET] [--json]       this node: peer ID, addresses, peers, announcements, counters, recent failures
  peers [-a SOCKET] [--json]        connected peers
  providers [-a SOCKET] [--json] <digest|image-ref>
                                    who holds a blob, or announced an image reference
  network-key [-o FILE]   write a new private-network key (swarm-key format) to FILE (mode 0600) or stdout
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	var err error
	switch os.Args[1] {
	case "status":
		err = runStatus(ctx, os.Args[2:])
	case "peers":
		err = runPeers(ctx, os.Args[2:])
	case "providers":
		err = runProviders(ctx, os.Args[2:])
	case "network-key":
		err = runNetworkKey(os.Args[2:])
	case "help", "-h", "--help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "shoal: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "shoal %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
