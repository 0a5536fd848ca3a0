package node

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/metadata"
	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/shoal-dev/shoal/plugin/contenttest"
)

// deps are containerd's stores as the plugin gets them: the metadata
// database over a local content store, with an event exchange.
func deps(t *testing.T) Dependencies {
	t.Helper()
	env := contenttest.New(t)
	dir := env.Root
	return Dependencies{
		Store:      env.Store,
		Namespaces: func(ctx context.Context) ([]string, error) { return []string{"default"}, nil },
		Images:     metadata.NewImageStore(env.DB),
		Events:     env.Events,
		RootDir:    filepath.Join(dir, "root"),
		StateDir:   filepath.Join(dir, "state"),
		Metrics:    prometheus.NewRegistry(),
	}
}

func testConfig() *Config {
	cfg := DefaultConfig()
	cfg.AllowOpenNetwork = true
	cfg.ListenAddresses = []string{"/ip4/127.0.0.1/tcp/0"}
	cfg.DataAddress = "127.0.0.1:0"
	cfg.MinPeers = 1
	cfg.BootstrapInterval = Duration(100 * time.Millisecond)
	return cfg
}

func start(t *testing.T, cfg *Config, d Dependencies) *Node {
	t.Helper()
	n, err := New(context.Background(), cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return n
}

// A node built from containerd's stores serves what it holds: a second node
// bootstrapped from it fetches a layer through the transfer wrapper's
// interface without asking the upstream.
func TestNodesBuiltFromContainerdsStoresShareALayer(t *testing.T) {
	holderDeps := deps(t)
	holder := start(t, testConfig(), holderDeps)
	for _, k := range []string{"peer_id", "listen_addresses", "data_address", "control_socket"} {
		if holder.Exports()[k] == "" {
			t.Fatalf("export %s missing: %v", k, holder.Exports())
		}
	}

	layer := make([]byte, 8<<20)
	if _, err := rand.Read(layer); err != nil {
		t.Fatal(err)
	}
	desc := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageLayer, Digest: digest.FromBytes(layer), Size: int64(len(layer))}
	ctx := namespaces.WithNamespace(context.Background(), "default")
	if err := content.WriteBlob(ctx, holderDeps.Store, "layer", bytes.NewReader(layer), desc,
		content.WithLabels(map[string]string{"containerd.io/distribution.source.registry.example": "team/app"})); err != nil {
		t.Fatal(err)
	}

	cfg := testConfig()
	cfg.BootstrapPeers = []string{holder.Exports()["listen_addresses"] + "/p2p/" + holder.Exports()["peer_id"]}
	pullerDeps := deps(t)
	puller := start(t, cfg, pullerDeps)

	upstream := unreachableUpstream{}
	deadline := time.Now().Add(20 * time.Second)
	for {
		// As containerd's pull does: into its ingest, then its commit.
		err := remotes.Fetch(ctx, pullerDeps.Store, puller.PeerFetcher().PeerFirst(upstream, "registry.example/team/app:v1"), desc)
		if err == nil {
			got, err := content.ReadBlob(ctx, pullerDeps.Store, desc)
			if err != nil || !bytes.Equal(got, layer) {
				t.Fatalf("committed layer differs: %v", err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the layer never came from the holder (last: %v)", err)
		}
		time.Sleep(100 * time.Millisecond) // until the holder's announcement is found
	}
	if holder.content.ServedBytes() < int64(len(layer)) {
		t.Fatalf("holder served %d bytes, want at least %d", holder.content.ServedBytes(), len(layer))
	}
}

// unreachableUpstream is an upstream that cannot be reached.
type unreachableUpstream struct{}

func (unreachableUpstream) Fetch(context.Context, ocispec.Descriptor) (io.ReadCloser, error) {
	return nil, errors.New("upstream unreachable in this test")
}

func TestConfigurationErrorsStopTheNodeBeforeItListens(t *testing.T) {
	cfg := testConfig()
	cfg.AllowOpenNetwork = false
	if _, err := New(context.Background(), cfg, deps(t)); !errors.Is(err, ErrNoNetworkKey) {
		t.Fatalf("no network key: got %v", err)
	}
	cfg = testConfig()
	cfg.SharedRegistries = []string{"registry.example/team"}
	if _, err := New(context.Background(), cfg, deps(t)); err == nil {
		t.Fatal("a repository given as a registry was accepted")
	}
	cfg = testConfig()
	cfg.NetworkKeyFile = filepath.Join(t.TempDir(), "missing.key")
	if _, err := New(context.Background(), cfg, deps(t)); err == nil {
		t.Fatal("a missing network key file was accepted")
	}
}
