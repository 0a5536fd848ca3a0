package router

import (
	"context"
	"time"

	"github.com/containerd/log"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/discovery/mdns"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// mdnsService is the service name nodes advertise on the local link.
const mdnsService = "_shoal-p2p._udp"

type mdnsNotifee struct {
	ctx context.Context
	r   *Router
}

// HandlePeerFound connects to a peer seen on the local link. The network
// key and the allow-list apply as to any other connection.
func (n *mdnsNotifee) HandlePeerFound(info peer.AddrInfo) {
	if info.ID == n.r.host.ID() || n.r.host.Network().Connectedness(info.ID) == network.Connected {
		return
	}
	go func() {
		defer recovery.Log(n.ctx, "p2p: connecting a peer found by mDNS failed")
		ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
		defer cancel()
		if err := n.r.host.Connect(ctx, info); err != nil {
			log.G(n.ctx).WithError(err).WithField("peer", info.ID).Debug("p2p: peer found by mDNS not reachable")
			return
		}
		log.G(n.ctx).WithField("peer", info.ID).Info("p2p: connected to peer found by mDNS")
	}()
}

func (r *Router) startMDNS(ctx context.Context) (stop func()) {
	svc := mdns.NewMdnsService(r.host, mdnsService, &mdnsNotifee{ctx: ctx, r: r})
	if err := svc.Start(); err != nil {
		log.G(ctx).WithError(err).Warn("p2p: mDNS discovery not started")
		return func() {}
	}
	log.G(ctx).Info("p2p: mDNS discovery on the local link")
	return func() { svc.Close() }
}
