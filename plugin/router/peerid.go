package router

import (
	"context"
	"fmt"
	"net"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/pnet"
	"github.com/libp2p/go-libp2p/core/protocol"
	libp2ppnet "github.com/libp2p/go-libp2p/p2p/net/pnet"
	libp2ptls "github.com/libp2p/go-libp2p/p2p/security/tls"
	ma "github.com/multiformats/go-multiaddr"
	madns "github.com/multiformats/go-multiaddr-dns"
	manet "github.com/multiformats/go-multiaddr/net"
	mss "github.com/multiformats/go-multistream"
)

// learnPeerID runs the libp2p security handshake against addr without an
// expected peer ID and returns the ID the remote proved it holds. libp2p's
// dialer insists on knowing the ID up front; this is how a bootstrap entry
// given as plain host:port gets one.
func learnPeerID(ctx context.Context, key crypto.PrivKey, psk pnet.PSK, gater *allowList, addr ma.Multiaddr) (peer.ID, error) {
	addrs, err := madns.DefaultResolver.Resolve(ctx, addr)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", addr, err)
	}
	var lastErr error = fmt.Errorf("no usable address for %s", addr)
	for _, a := range addrs {
		if !gater.addrAllowed(a) {
			lastErr = fmt.Errorf("%s is outside allowed_networks", a)
			continue
		}
		network, hostport, err := manet.DialArgs(a)
		if err != nil {
			lastErr = err
			continue
		}
		id, err := handshakeID(ctx, key, psk, network, hostport)
		if err == nil {
			if !gater.peerAllowed(id) {
				return "", fmt.Errorf("peer %s at %s is not in allowed_peers", id, a)
			}
			return id, nil
		}
		lastErr = err
	}
	return "", lastErr
}

func handshakeID(ctx context.Context, key crypto.PrivKey, psk pnet.PSK, network, hostport string) (peer.ID, error) {
	var d net.Dialer
	raw, err := d.DialContext(ctx, network, hostport)
	if err != nil {
		return "", err
	}
	defer raw.Close()
	if deadline, ok := ctx.Deadline(); ok {
		raw.SetDeadline(deadline)
	}
	conn := raw
	if psk != nil {
		// The same private-network wrapping libp2p's upgrader applies.
		if conn, err = libp2ppnet.NewProtectedConn(psk, raw); err != nil {
			return "", err
		}
	}
	if err := mss.SelectProtoOrFail(protocol.ID(libp2ptls.ID), conn); err != nil {
		return "", fmt.Errorf("negotiate security with %s: %w", hostport, err)
	}
	tpt, err := libp2ptls.New(libp2ptls.ID, key, nil)
	if err != nil {
		return "", err
	}
	sconn, err := tpt.SecureOutbound(ctx, conn, "")
	if err != nil {
		return "", fmt.Errorf("handshake with %s: %w", hostport, err)
	}
	defer sconn.Close()
	return sconn.RemotePeer(), nil
}
