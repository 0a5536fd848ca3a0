package peertransfer

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/containerd/containerd/v2/pkg/namespaces"

	"github.com/shoal-dev/shoal/plugin/pullhistory"
	"github.com/shoal-dev/shoal/plugin/recovery"
)

// record tells the peer fetcher about the pull that began at
// start and ended with err. It runs as soon as the pull returns, so that
// the pull is listed when its caller looks.
func (s *source) record(ctx context.Context, start time.Time, err error) {
	defer recovery.Log(ctx, "p2p: recording a pull failed")
	p := pullhistory.Pull{Image: s.image(), Start: start, Duration: time.Since(start), Peers: []pullhistory.PeerBytes{}}
	p.Namespace, _ = namespaces.Namespace(ctx)
	if err != nil {
		p.Error = err.Error()
	}
	s.mu.Lock()
	fetchers := s.fetchers
	s.mu.Unlock()
	peers := map[string]int64{}
	for _, f := range fetchers {
		got := f.Received()
		p.UpstreamBytes += got.Upstream
		p.Failovers += got.Failovers
		for id, n := range got.Peers {
			peers[id.String()] += n
		}
	}
	for id, n := range peers {
		p.Peers = append(p.Peers, pullhistory.PeerBytes{Peer: id, Bytes: n})
	}
	slices.SortFunc(p.Peers, func(a, b pullhistory.PeerBytes) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Peer, b.Peer))
	})
	s.peers.RecordPull(p)
}

// image is the reference being pulled, as the caller named it.
func (s *source) image() string {
	if im, ok := s.ImageFetcher.(interface{ Image() string }); ok {
		return im.Image()
	}
	return fmt.Sprint(s.ImageFetcher)
}
