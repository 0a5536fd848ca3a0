// Package p2p registers the peer-to-peer mirror, io.containerd.server.v1.p2p:
// it hands containerd's stores to package node, which builds the mirror.
package p2p

import (
	"context"
	"errors"
	"fmt"

	"github.com/containerd/containerd/v2/core/events"
	"github.com/containerd/containerd/v2/core/metadata"
	"github.com/containerd/containerd/v2/plugins"
	"github.com/containerd/log"
	"github.com/containerd/plugin"
	"github.com/containerd/plugin/registry"
	"github.com/prometheus/client_golang/prometheus"
	bolt "go.etcd.io/bbolt"

	"github.com/shoal-dev/shoal/plugin/inflight"
	"github.com/shoal-dev/shoal/plugin/node"
)

// ID is the plugin's ID; its URI is io.containerd.server.v1.p2p.
const ID = "p2p"

func init() {
	registry.Register(&plugin.Registration{
		Type: plugins.ServerPlugin,
		ID:   ID,
		Requires: []plugin.Type{
			plugins.EventPlugin,
			plugins.MetadataPlugin,
		},
		Config: node.DefaultConfig(),
		InitFn: initPlugin,
	})
}

func initPlugin(ic *plugin.InitContext) (any, error) {
	cfg := ic.Config.(*node.Config)
	m, err := ic.GetSingle(plugins.MetadataPlugin)
	if err != nil {
		return nil, err
	}
	db := m.(*metadata.DB)
	ep, err := ic.GetSingle(plugins.EventPlugin)
	if err != nil {
		return nil, err
	}
	subscriber, ok := ep.(events.Subscriber)
	if !ok {
		return nil, fmt.Errorf("event plugin %T cannot be subscribed to", ep)
	}
	root := ic.Properties[plugins.PropertyRootDir]
	contentRoot, err := inflight.ContentRoot(root)
	if err != nil {
		log.G(ic.Context).WithError(err).Warn("p2p: layers are served only once complete")
	}
	n, err := node.New(ic.Context, cfg, node.Dependencies{
		Store:       db.ContentStore(),
		Namespaces:  listNamespaces(db),
		Images:      metadata.NewImageStore(db),
		Events:      subscriber,
		RootDir:     root,
		StateDir:    ic.Properties[plugins.PropertyStateDir],
		ContentRoot: contentRoot,
		// containerd's metrics endpoint serves the default registry.
		Metrics: prometheus.DefaultRegisterer,
	})
	if errors.Is(err, node.ErrNoNetworkKey) {
		return nil, fmt.Errorf("%w: %w", err, plugin.ErrSkipPlugin)
	}
	if err != nil {
		return nil, err
	}
	for k, v := range n.Exports() {
		ic.Meta.Exports[k] = v
	}
	return n, nil
}

func listNamespaces(db *metadata.DB) func(context.Context) ([]string, error) {
	return func(ctx context.Context) ([]string, error) {
		var nss []string
		err := db.View(func(tx *bolt.Tx) error {
			var err error
			nss, err = metadata.NewNamespaceStore(tx).List(ctx)
			return err
		})
		return nss, err
	}
}
