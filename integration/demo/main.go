// Command shoal-demo runs a registry and several nodes of Shoal's containerd
// on loopback, pulls a generated image on each, and shows where every byte
// came from. It is a development tool (`make demo`), not part of a release.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if err := runDemo(ctx, os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "shoal-demo: %v\n", err)
		os.Exit(1)
	}
}
