package router

import (
	"context"
	"fmt"
	"net"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
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
func learnPeerID(ctx context.Context, key crypto.PrivKey, addr ma.Multiaddr) (peer.ID, error) {
	addrs, err := madns.DefaultResolver.Resolve(ctx, addr)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", addr, err)
	}
	var lastErr error = fmt.Errorf("no usable address for %s", addr)
	for _, a := range addrs {
		network, hostport, err := manet.DialArgs(a)
		if err != nil {
			lastErr = err
			continue
		}
		id, err := handshakeID(ctx, key, network, hostport)
		if err == nil {
			return id, nil
		}
		lastErr = err
	}
	return "", lastErr
}

func handshakeID(ctx context.Context, key crypto.PrivKey, network, hostport string) (peer.ID, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, network, hostport)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		conn.SetDeadline(deadline)
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
