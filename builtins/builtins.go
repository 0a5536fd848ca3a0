// Package builtins registers Shoal's plugins, as containerd's own
// cmd/containerd/builtins does for the stock ones.
package builtins

import (
	_ "github.com/shoal-dev/shoal/plugin/p2p"
)
