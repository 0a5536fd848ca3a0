package router

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/opencontainers/go-digest"
)

func TestParseBootstrapPeer(t *testing.T) {
	for _, tc := range []struct {
		entry, addr string
		hasID       bool
		wantErr     bool
	}{
		{entry: "10.0.0.1:5050", addr: "/ip4/10.0.0.1/tcp/5050"},
		{entry: "[fd00::1]:5050", addr: "/ip6/fd00::1/tcp/5050"},
		{entry: "node-1.cluster.local:5050", addr: "/dns/node-1.cluster.local/tcp/5050"},
		{entry: "/ip4/10.0.0.1/tcp/5050", addr: "/ip4/10.0.0.1/tcp/5050"},
		{entry: "/dns4/boot.example/tcp/5050/p2p/12D3KooWJJ6MkQ36MYBsbyT2vwJ1R4t2fX2xMurjNv1Dz2moVsY4", addr: "/dns4/boot.example/tcp/5050", hasID: true},
		{entry: "", wantErr: true},
		{entry: "10.0.0.1", wantErr: true},
		{entry: ":5050", wantErr: true},
		{entry: "/ip4/10.0.0.1/udp/5050/quic-v1", wantErr: true},
		{entry: "/p2p/12D3KooWJJ6MkQ36MYBsbyT2vwJ1R4t2fX2xMurjNv1Dz2moVsY4", wantErr: true},
		{entry: "/not/a/multiaddr", wantErr: true},
	} {
		bp, err := parseBootstrapPeer(tc.entry)
		if tc.wantErr {
			if err == nil {
				t.Errorf("%q: expected an error, got %v", tc.entry, bp.addr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.entry, err)
			continue
		}
		if bp.addr.String() != tc.addr || (bp.id != "") != tc.hasID {
			t.Errorf("%q: got %s id=%q, want %s id=%v", tc.entry, bp.addr, bp.id, tc.addr, tc.hasID)
		}
	}
}

func TestCIDOnlyForValidSHA256(t *testing.T) {
	d := digest.FromString("hello")
	c1, err := CID(d)
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := CID(d)
	if !c1.Equals(c2) {
		t.Fatal("CID must be deterministic")
	}
	if other, _ := CID(digest.FromString("other")); other.Equals(c1) {
		t.Fatal("different digests share a CID")
	}
	for _, bad := range []digest.Digest{"sha256:abc", "sha512:" + digest.Digest(digest.SHA512.FromString("x").Encoded()), "md5:00", ""} {
		if _, err := CID(bad); err == nil {
			t.Errorf("CID(%q) should fail", bad)
		}
	}
}

func newTestRouter(t *testing.T, bootstrap ...string) *Router {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(context.Background(), Options{
		Key:            key,
		ListenAddrs:    []string{"/ip4/127.0.0.1/tcp/0"},
		BootstrapPeers: bootstrap,
		ProtocolPrefix: "/shoal-test",
		ProviderTTL:    time.Hour,
		StartupGrace:   2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; r.Close() })
	return r
}

func tcpHostPort(t *testing.T, r *Router) string {
	t.Helper()
	for _, a := range r.Host().Addrs() {
		ip, err1 := a.ValueForProtocol(4)
		port, err2 := a.ValueForProtocol(6)
		if err1 == nil && err2 == nil {
			return fmt.Sprintf("%s:%s", ip, port)
		}
	}
	t.Fatal("router has no TCP address")
	return ""
}

func TestProviderFoundThroughBootstrapGivenWithoutPeerID(t *testing.T) {
	a := newTestRouter(t)
	b := newTestRouter(t, tcpHostPort(t, a))
	c := newTestRouter(t, tcpHostPort(t, a))

	held := digest.FromString("layer held by b")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for b.RoutingTableSize() == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("b never got a routing table entry")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := b.Provide(ctx, held); err != nil {
		t.Fatal(err)
	}
	found, err := c.FindProviders(ctx, held, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].ID != b.ID() {
		t.Fatalf("c found %v, want only b (%s)", found, b.ID())
	}

	missing, err := c.FindProviders(ctx, digest.FromString("nobody has this"), 3)
	if err != nil || len(missing) != 0 {
		t.Fatalf("lookup of unheld digest: %v, %v", missing, err)
	}
}

func TestLookupWithoutPeersFailsFast(t *testing.T) {
	alone := newTestRouter(t)
	start := time.Now()
	_, err := alone.FindProviders(context.Background(), digest.FromString("x"), 3)
	if err != ErrNoPeers {
		t.Fatalf("got %v, want ErrNoPeers", err)
	}
	t.Logf("lookup without peers answered in %s", time.Since(start))
}

func TestNodeListingItselfAsBootstrapIgnoresItself(t *testing.T) {
	key, _, _ := crypto.GenerateEd25519Key(nil)
	r, err := New(context.Background(), Options{Key: key, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, ProtocolPrefix: "/shoal-test", ProviderTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	bp, err := parseBootstrapPeer(tcpHostPort(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.connectBootstrap(context.Background(), bp); err != nil {
		t.Fatalf("self in bootstrap list: %v", err)
	}
	if n := len(r.Host().Network().Peers()); n != 0 {
		t.Fatalf("connected to %d peers, want none", n)
	}
}

func TestPublicDHTPrefixIsRefused(t *testing.T) {
	key, _, _ := crypto.GenerateEd25519Key(nil)
	for _, prefix := range []string{"", "/ipfs"} {
		if _, err := New(context.Background(), Options{Key: key, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, ProtocolPrefix: prefix}); err == nil {
			t.Errorf("prefix %q accepted", prefix)
		}
	}
}
