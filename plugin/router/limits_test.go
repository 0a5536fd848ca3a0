package router

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// The stream limits of a protocol served beside the DHT are in force:
// libp2p's resource manager refuses a peer's stream beyond its share.
func TestStreamLimitsOfAProtocolAreEnforced(t *testing.T) {
	const proto protocol.ID = "/shoal-test/limited/1.0.0"
	server := newTestRouterWith(t, Options{StreamLimits: []StreamLimit{{Protocol: proto, PerPeer: 2, Total: 8}}})
	held := make(chan struct{})
	t.Cleanup(func() { close(held) })
	server.Host().SetStreamHandler(proto, func(s network.Stream) {
		s.Write([]byte("x")) //nolint:errcheck
		<-held               // keep the stream open
		s.Close()
	})
	client := newTestRouter(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := client.Host().Connect(ctx, peer.AddrInfo{ID: server.ID(), Addrs: server.Host().Addrs()}); err != nil {
		t.Fatal(err)
	}
	open := func() error {
		s, err := client.Host().NewStream(ctx, server.ID(), proto)
		if err != nil {
			return err
		}
		// A stream the server refused is reset when the client reads.
		_, err = io.ReadFull(s, make([]byte, 1))
		return err
	}
	for i := 0; i < 2; i++ {
		if err := open(); err != nil {
			t.Fatalf("stream %d within the limit refused: %v", i+1, err)
		}
	}
	if err := open(); err == nil {
		t.Fatal("a third stream from one peer was accepted with a per-peer limit of 2")
	}
}
