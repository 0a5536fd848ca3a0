package router

import (
	"fmt"
	"net"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// bootstrapPeer is one configured bootstrap entry. ID is empty until it is
// learned from the peer's handshake, so operators never need to know IDs.
type bootstrapPeer struct {
	entry string // as configured, for logs
	addr  ma.Multiaddr
	id    peer.ID
}

// parseBootstrapPeer accepts "host:port", "/ip4/1.2.3.4/tcp/5050",
// "/dns/name/tcp/5050" and any of those with a trailing "/p2p/<peer-id>".
func parseBootstrapPeer(entry string) (bootstrapPeer, error) {
	entry = strings.TrimSpace(entry)
	if entry == "" {
		return bootstrapPeer{}, fmt.Errorf("empty bootstrap peer")
	}
	if !strings.HasPrefix(entry, "/") {
		host, port, err := net.SplitHostPort(entry)
		if err != nil {
			return bootstrapPeer{}, fmt.Errorf("bootstrap peer %q: want host:port or a multiaddr: %w", entry, err)
		}
		if host == "" || port == "" {
			return bootstrapPeer{}, fmt.Errorf("bootstrap peer %q: want host:port or a multiaddr", entry)
		}
		proto := "dns"
		if ip := net.ParseIP(host); ip != nil {
			proto = "ip4"
			if ip.To4() == nil {
				proto = "ip6"
			}
		}
		addr, err := ma.NewMultiaddr(fmt.Sprintf("/%s/%s/tcp/%s", proto, host, port))
		if err != nil {
			return bootstrapPeer{}, fmt.Errorf("bootstrap peer %q: %w", entry, err)
		}
		return bootstrapPeer{entry: entry, addr: addr}, nil
	}

	addr, err := ma.NewMultiaddr(entry)
	if err != nil {
		return bootstrapPeer{}, fmt.Errorf("bootstrap peer %q: %w", entry, err)
	}
	transport, id := peer.SplitAddr(addr)
	if transport == nil {
		return bootstrapPeer{}, fmt.Errorf("bootstrap peer %q: a peer ID alone is not enough, add its address", entry)
	}
	if _, err := transport.ValueForProtocol(ma.P_TCP); err != nil {
		return bootstrapPeer{}, fmt.Errorf("bootstrap peer %q: only TCP addresses are supported", entry)
	}
	return bootstrapPeer{entry: entry, addr: transport, id: id}, nil
}
