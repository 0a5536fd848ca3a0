package peertransfer

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/containerd/containerd/v2/core/images"
	"github.com/containerd/containerd/v2/core/transfer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/fetcher"
	"github.com/shoal-dev/shoal/plugin/pullhistory"
	"github.com/shoal-dev/shoal/plugin/registryaccess"
)

// recordingTransferrer keeps what the stock service was asked to transfer.
type recordingTransferrer struct{ src, dst any }

func (r *recordingTransferrer) Transfer(ctx context.Context, src, dst any, opts ...transfer.Opt) error {
	r.src, r.dst = src, dst
	return nil
}

type registrySource struct {
	resolverOpts int
}

func (s *registrySource) String() string { return "registry.example/app:v1" }
func (s *registrySource) Resolve(ctx context.Context) (string, ocispec.Descriptor, error) {
	return "registry.example/app:v1", ocispec.Descriptor{}, nil
}
func (s *registrySource) Fetcher(ctx context.Context, ref string) (transfer.Fetcher, error) {
	return upstreamFetcher{}, nil
}
func (s *registrySource) SetResolverOptions(opts ...transfer.ImageResolverOption) {
	s.resolverOpts += len(opts)
}

type upstreamFetcher struct{}

func (upstreamFetcher) Fetch(ctx context.Context, desc ocispec.Descriptor) (io.ReadCloser, error) {
	return io.NopCloser(strings.NewReader("upstream")), nil
}

type imageStore struct{}

func (imageStore) Store(context.Context, ocispec.Descriptor, images.Store) ([]images.Image, error) {
	return nil, nil
}

type peersFirst struct{ wrapped []string }

func (p *peersFirst) ResolveFallback(ctx context.Context, ref string, err error) (string, ocispec.Descriptor, error) {
	return "", ocispec.Descriptor{}, err
}

func (p *peersFirst) MarkAccess(ctx context.Context, target ocispec.Descriptor, anonymous bool) error {
	return nil
}

func (p *peersFirst) PeerFirst(up transfer.Fetcher, ref string) Fetcher {
	p.wrapped = append(p.wrapped, ref)
	return upstreamOnly{up}
}

func (p *peersFirst) RecordPull(pullhistory.Pull) {}

func (p *peersFirst) RegistryAccess() *registryaccess.Access { return nil }

// upstreamOnly is a peer-first fetcher that only passes on to the upstream.
type upstreamOnly struct{ transfer.Fetcher }

func (upstreamOnly) Received() fetcher.Received { return fetcher.Received{} }

func (upstreamOnly) DiscardCorrupt(context.Context) bool { return false }

func TestPullsGoThroughPeersAndKeepTheSourcesOptions(t *testing.T) {
	inner := &recordingTransferrer{}
	peers := &peersFirst{}
	svc := NewService(inner, func() PeerFetcher { return peers })
	src := &registrySource{}
	if err := svc.Transfer(context.Background(), src, imageStore{}); err != nil {
		t.Fatal(err)
	}
	wrapped, ok := inner.src.(transfer.ImageFetcher)
	if !ok || inner.src == src {
		t.Fatalf("source was not wrapped: %T", inner.src)
	}
	if _, err := wrapped.Fetcher(context.Background(), "registry.example/app:v1"); err != nil {
		t.Fatal(err)
	}
	if len(peers.wrapped) != 1 {
		t.Fatal("fetcher did not go through the peer fetcher")
	}
	setter, ok := inner.src.(transfer.ImageResolverOptionSetter)
	if !ok {
		t.Fatal("wrapped source lost SetResolverOptions: containerd's concurrency settings would be ignored")
	}
	setter.SetResolverOptions(transfer.WithMaxConcurrentDownloads(3))
	if src.resolverOpts != 1 {
		t.Fatal("resolver options not passed to the original source")
	}
	if s, ok := inner.src.(interface{ String() string }); !ok || s.String() != src.String() {
		t.Fatal("wrapped source must describe itself as the original")
	}
}

func TestEverythingElsePassesThroughUnchanged(t *testing.T) {
	inner := &recordingTransferrer{}
	svc := NewService(inner, func() PeerFetcher { return &peersFirst{} })
	type exporter struct{ imageStore }
	src := "not an image fetcher"
	if err := svc.Transfer(context.Background(), src, exporter{}); err != nil {
		t.Fatal(err)
	}
	if inner.src != src {
		t.Fatal("non-pull transfer was changed")
	}
}

func TestWithoutP2PPluginPullsAreStock(t *testing.T) {
	inner := &recordingTransferrer{}
	svc := NewService(inner, func() PeerFetcher { return nil })
	src := &registrySource{}
	svc.Transfer(context.Background(), src, imageStore{})
	if inner.src != src {
		t.Fatal("source wrapped although no P2P plugin is available")
	}
}

// failingTransferrer fails every pull after asking for a fetcher, as a
// pull does whose layer from peers failed verification.
type failingTransferrer struct{ pulls int }

func (f *failingTransferrer) Transfer(ctx context.Context, src, dst any, opts ...transfer.Opt) error {
	f.pulls++
	if _, err := src.(transfer.ImageFetcher).Fetcher(ctx, "registry.example/app:v1"); err != nil {
		return err
	}
	return errors.New("failed to copy: content failed verification")
}

// discarding hands out fetchers that discarded a corrupt layer, until
// corrupt runs out.
type discarding struct {
	peersFirst
	corrupt int
}

func (d *discarding) PeerFirst(up transfer.Fetcher, ref string) Fetcher {
	found := d.corrupt > 0
	d.corrupt--
	return &discarder{upstreamOnly: upstreamOnly{up}, found: found}
}

type discarder struct {
	upstreamOnly
	found bool
}

func (d *discarder) DiscardCorrupt(context.Context) bool {
	found := d.found
	d.found = false
	return found
}

// A pull that failed because peers sent bad bytes, which the fetcher
// discarded, is made again; a pull that failed otherwise is not, and
// neither is one that keeps failing.
func TestAPullFailedByBadBytesFromPeersIsMadeAgain(t *testing.T) {
	for _, tc := range []struct {
		corrupt, pulls int
	}{{0, 1}, {1, 2}, {5, 1 + corruptRetries}} {
		inner := &failingTransferrer{}
		svc := NewService(inner, func() PeerFetcher { return &discarding{corrupt: tc.corrupt} })
		if err := svc.Transfer(context.Background(), &registrySource{}, imageStore{}); err == nil {
			t.Fatal("a failed pull succeeded")
		}
		if inner.pulls != tc.pulls {
			t.Errorf("%d discarded layers: %d pulls, want %d", tc.corrupt, inner.pulls, tc.pulls)
		}
	}
}
