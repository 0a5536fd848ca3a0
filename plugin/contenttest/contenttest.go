// Package contenttest gives tests containerd's content store as Shoal's
// plugins get it: the metadata database's namespaced store over a local
// store on disk, with an event exchange that sees its commits.
package contenttest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/events/exchange"
	"github.com/containerd/containerd/v2/core/metadata"
	"github.com/containerd/containerd/v2/plugins/content/local"
	bolt "go.etcd.io/bbolt"
)

// Env is one content store and what surrounds it.
type Env struct {
	// Store is the namespaced store (the metadata database's).
	Store content.Store
	// Backend is the local store under it, not namespaced.
	Backend content.Store
	// DB is the metadata database.
	DB *metadata.DB
	// Events publishes what the database does (/content/create, ...).
	Events *exchange.Exchange
	// Root is containerd's root directory; the local store is at
	// ContentRoot, <Root>/<its plugin URI> as containerd lays it out.
	Root, ContentRoot string
}

// ContentPluginURI is where containerd puts the local content store under
// its root.
const ContentPluginURI = "io.containerd.content.v1.content"

// New returns a fresh store in a temporary directory, closed with the test.
func New(tb testing.TB) *Env {
	tb.Helper()
	root := tb.TempDir()
	env := &Env{Root: root, ContentRoot: filepath.Join(root, ContentPluginURI), Events: exchange.NewExchange()}
	var err error
	if env.Backend, err = local.NewStore(env.ContentRoot); err != nil {
		tb.Fatal(err)
	}
	bdb, err := bolt.Open(filepath.Join(root, "meta.db"), 0o600, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { bdb.Close() })
	env.DB = metadata.NewDB(bdb, env.Backend, nil, metadata.WithEventsPublisher(env.Events))
	if err := env.DB.Init(context.Background()); err != nil {
		tb.Fatal(err)
	}
	env.Store = env.DB.ContentStore()
	return env
}
