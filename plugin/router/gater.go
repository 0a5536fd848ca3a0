package router

import (
	"fmt"
	"net"

	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// allowList is a libp2p connection gater: when peer IDs are listed, only
// they may connect (either direction); when networks are listed, only
// addresses inside them may be dialled or accepted. Empty lists allow all.
type allowList struct {
	peers    map[peer.ID]struct{}
	networks []*net.IPNet
}

func newAllowList(peers, networks []string) (*allowList, error) {
	a := &allowList{}
	if len(peers) > 0 {
		a.peers = map[peer.ID]struct{}{}
		for _, s := range peers {
			id, err := peer.Decode(s)
			if err != nil {
				return nil, fmt.Errorf("allowed peer %q: %w", s, err)
			}
			a.peers[id] = struct{}{}
		}
	}
	for _, s := range networks {
		_, n, err := net.ParseCIDR(s)
		if err != nil {
			if ip := net.ParseIP(s); ip != nil {
				bits := 8 * len(ip.To16())
				if ip.To4() != nil {
					ip, bits = ip.To4(), 32
				}
				n = &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}
			} else {
				return nil, fmt.Errorf("allowed network %q: want a CIDR such as 10.0.0.0/8", s)
			}
		}
		a.networks = append(a.networks, n)
	}
	return a, nil
}

func (a *allowList) peerAllowed(p peer.ID) bool {
	if a.peers == nil {
		return true
	}
	_, ok := a.peers[p]
	return ok
}

func (a *allowList) addrAllowed(addr ma.Multiaddr) bool {
	if len(a.networks) == 0 {
		return true
	}
	ip, err := manet.ToIP(addr)
	if err != nil {
		return false // not an IP address (e.g. DNS not yet resolved)
	}
	for _, n := range a.networks {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

func (a *allowList) InterceptPeerDial(p peer.ID) bool { return a.peerAllowed(p) }

func (a *allowList) InterceptAddrDial(p peer.ID, addr ma.Multiaddr) bool {
	return a.peerAllowed(p) && a.addrAllowed(addr)
}

func (a *allowList) InterceptAccept(c network.ConnMultiaddrs) bool {
	return a.addrAllowed(c.RemoteMultiaddr())
}

func (a *allowList) InterceptSecured(_ network.Direction, p peer.ID, c network.ConnMultiaddrs) bool {
	return a.peerAllowed(p) && a.addrAllowed(c.RemoteMultiaddr())
}

func (a *allowList) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }
