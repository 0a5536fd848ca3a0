// Package builtins registers Shoal's plugins, as containerd's own
// cmd/containerd/builtins does for the stock ones, and wraps containerd's
// transfer service so that pulls try peers first. A containerd 2.x main
// that imports containerd's builtins and this package is Shoal:
//
//	import (
//		_ "github.com/containerd/containerd/v2/cmd/containerd/builtins"
//		_ "github.com/shoal-dev/shoal/builtins"
//	)
package builtins

import (
	_ "github.com/shoal-dev/shoal/plugin/p2p"
)
