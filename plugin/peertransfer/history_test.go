package peertransfer

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/transfer"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/shoal-dev/shoal/plugin/fetcher"
	"github.com/shoal-dev/shoal/plugin/pullhistory"
)

// pullingTransferrer asks the source for a fetcher per platform, as
// containerd's pull does for a multi-platform image, then takes its time.
type pullingTransferrer struct {
	platforms int
	took      time.Duration
	err       error
}

func (p pullingTransferrer) Transfer(ctx context.Context, src, dst any, opts ...transfer.Opt) error {
	for range p.platforms {
		if _, err := src.(transfer.ImageFetcher).Fetcher(ctx, "registry.example/app:v1"); err != nil {
			return err
		}
	}
	time.Sleep(p.took)
	return p.err
}

// tallied is a peer-first fetcher that says what it received.
type tallied struct {
	upstreamOnly
	got fetcher.Received
}

func (t tallied) Received() fetcher.Received { return t.got }

// recordingPeers hands out tallied fetchers and keeps the pulls recorded.
type recordingPeers struct {
	peersFirst
	received []fetcher.Received
	pulls    []pullhistory.Pull
}

func (r *recordingPeers) PeerFirst(up transfer.Fetcher, ref string) Fetcher {
	got := r.received[0]
	r.received = r.received[1:]
	return tallied{upstreamOnly: upstreamOnly{up}, got: got}
}

func (r *recordingPeers) RecordPull(p pullhistory.Pull) { r.pulls = append(r.pulls, p) }

// pulledSource names the image it pulls, as containerd's OCIRegistry does.
type pulledSource struct{ registrySource }

func (pulledSource) Image() string { return "registry.example/app:v1:latest" }

func TestEachPullIsRecordedWithWhereItsBytesCameFrom(t *testing.T) {
	peers := &recordingPeers{received: []fetcher.Received{
		{Upstream: 100, Peers: map[peer.ID]int64{"peer-a": 1000, "peer-b": 30}, Failovers: 1},
		{Upstream: 5, Peers: map[peer.ID]int64{"peer-b": 2000}, Failovers: 2},
	}}
	svc := NewService(pullingTransferrer{platforms: 2, took: 20 * time.Millisecond}, func() PeerFetcher { return peers })
	ctx := namespaces.WithNamespace(context.Background(), "k8s.io")
	before := time.Now()
	if err := svc.Transfer(ctx, &pulledSource{}, imageStore{}); err != nil {
		t.Fatal(err)
	}
	// Recorded by the time the pull returns: `shoal pulls` right after
	// `ctr image pull` lists it.
	if len(peers.pulls) != 1 {
		t.Fatalf("recorded %d pulls, want 1", len(peers.pulls))
	}
	p := peers.pulls[0]
	if p.Image != "registry.example/app:v1:latest" || p.Namespace != "k8s.io" || p.Error != "" {
		t.Fatalf("recorded %+v", p)
	}
	if p.Start.Before(before) || p.Duration < 20*time.Millisecond || p.Duration > time.Since(before) {
		t.Fatalf("start %v, duration %v", p.Start, p.Duration)
	}
	if p.UpstreamBytes != 105 || p.Failovers != 3 || p.PeerTotal() != 3030 {
		t.Fatalf("recorded %+v", p)
	}
	// Most bytes first.
	want := []pullhistory.PeerBytes{{Peer: peer.ID("peer-b").String(), Bytes: 2030}, {Peer: peer.ID("peer-a").String(), Bytes: 1000}}
	if len(p.Peers) != 2 || p.Peers[0] != want[0] || p.Peers[1] != want[1] {
		t.Fatalf("peers %+v, want %+v", p.Peers, want)
	}
}

func TestAFailedPullIsRecordedWithItsError(t *testing.T) {
	peers := &recordingPeers{received: []fetcher.Received{{}}}
	svc := NewService(pullingTransferrer{platforms: 1, err: errors.New("unexpected EOF")}, func() PeerFetcher { return peers })
	if err := svc.Transfer(context.Background(), &registrySource{}, imageStore{}); err == nil {
		t.Fatal("the pull's error was not passed on")
	}
	if len(peers.pulls) != 1 || peers.pulls[0].Error != "unexpected EOF" || peers.pulls[0].Image != "registry.example/app:v1" {
		t.Fatalf("recorded %+v", peers.pulls)
	}
	if peers.pulls[0].Peers == nil {
		t.Fatal("no peers must be an empty list (JSON [])")
	}
}
