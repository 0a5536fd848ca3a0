package router

import (
	"context"
	"fmt"
	"testing"
	"time"

	kb "github.com/libp2p/go-libp2p-kbucket"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
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
	return newTestRouterWith(t, Options{BootstrapPeers: bootstrap})
}

func newTestRouterWith(t *testing.T, opts Options) *Router {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	opts.Key = key
	opts.ListenAddrs = []string{"/ip4/127.0.0.1/tcp/0"}
	opts.ProtocolPrefix = "/shoal-test"
	opts.ProviderTTL = time.Hour
	opts.StartupGrace = 2 * time.Second
	opts.DialTimeout = time.Second
	r, err := New(context.Background(), opts)
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

func testKey(b byte) []byte {
	k := make([]byte, 32)
	for i := range k {
		k[i] = b
	}
	return k
}

func TestOnlyNodesWithTheSameNetworkKeyConnect(t *testing.T) {
	a := newTestRouterWith(t, Options{NetworkKey: testKey(1)})
	same := newTestRouterWith(t, Options{NetworkKey: testKey(1), BootstrapPeers: []string{tcpHostPort(t, a)}})
	other := newTestRouterWith(t, Options{NetworkKey: testKey(2), BootstrapPeers: []string{tcpHostPort(t, a)}})
	none := newTestRouterWith(t, Options{BootstrapPeers: []string{tcpHostPort(t, a)}})

	deadline := time.Now().Add(10 * time.Second)
	for same.RoutingTableSize() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if same.RoutingTableSize() == 0 {
		t.Fatal("nodes sharing a key did not connect")
	}
	// An observation window (the control above connected): the others get
	// as long again to fail.
	time.Sleep(500 * time.Millisecond)
	for name, r := range map[string]*Router{"other key": other, "no key": none} {
		if n := len(r.Host().Network().Peers()); n != 0 {
			t.Errorf("node with %s connected to %d peers", name, n)
		}
	}
	if _, err := other.FindProviders(context.Background(), digest.FromString("x"), 1); err != ErrNoPeers {
		t.Errorf("lookup by a node with another key: %v, want ErrNoPeers", err)
	}
}

func TestAllowList(t *testing.T) {
	key, _, _ := crypto.GenerateEd25519Key(nil)
	id, _ := peer.IDFromPrivateKey(key)
	other, _, _ := crypto.GenerateEd25519Key(nil)
	otherID, _ := peer.IDFromPrivateKey(other)
	a, err := newAllowList([]string{id.String()}, []string{"10.1.0.0/16", "192.168.1.7"})
	if err != nil {
		t.Fatal(err)
	}
	if !a.peerAllowed(id) || a.peerAllowed(otherID) {
		t.Fatal("peer list not applied")
	}
	for addr, want := range map[string]bool{
		"/ip4/10.1.2.3/tcp/5050": true, "/ip4/10.2.0.1/tcp/5050": false,
		"/ip4/192.168.1.7/tcp/1": true, "/ip4/192.168.1.8/tcp/1": false, "/dns/x/tcp/1": false,
	} {
		if got := a.addrAllowed(ma.StringCast(addr)); got != want {
			t.Errorf("%s allowed=%v, want %v", addr, got, want)
		}
	}
	open, _ := newAllowList(nil, nil)
	if !open.peerAllowed(otherID) || !open.addrAllowed(ma.StringCast("/ip4/8.8.8.8/tcp/1")) {
		t.Fatal("empty lists must allow all")
	}
	if _, err := newAllowList([]string{"not-a-peer"}, nil); err == nil {
		t.Fatal("bad peer ID accepted")
	}
	if _, err := newAllowList(nil, []string{"10.0.0.0/33"}); err == nil {
		t.Fatal("bad network accepted")
	}
}

func TestPeerOutsideTheAllowListCannotJoin(t *testing.T) {
	a := newTestRouterWith(t, Options{AllowedNetworks: []string{"10.0.0.0/8"}}) // loopback not allowed
	// The control: a node that allows loopback, which b dials as it dials a.
	open := newTestRouterWith(t, Options{AllowedNetworks: []string{"127.0.0.0/8"}})
	b := newTestRouterWith(t, Options{BootstrapPeers: []string{tcpHostPort(t, a), tcpHostPort(t, open)}})
	deadline := time.Now().Add(10 * time.Second)
	for open.Host().Network().Connectedness(b.Host().ID()) != network.Connected {
		if time.Now().After(deadline) {
			t.Fatal("b did not join the node whose allowed networks include it")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// An observation window: time for a to (wrongly) accept b as well.
	time.Sleep(500 * time.Millisecond)
	if n := len(a.Host().Network().Peers()); n != 0 {
		t.Fatalf("a accepted %d peers from outside its allowed networks", n)
	}
}

// The order of a layer fetched by pieces is nearness to its provider key
// in the DHT's key space, the order the routing table keeps: the node
// every node ranks first is the one the DHT finds nearest the key.
func TestTheOrderOfALayerIsTheDHTsDistanceToItsKey(t *testing.T) {
	var ids []peer.ID
	for range 50 {
		_, pub, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPublicKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for i := range 20 {
		layer := digest.FromString(fmt.Sprintf("layer %d", i))
		c, err := CID(layer)
		if err != nil {
			t.Fatal(err)
		}
		key := string(c.Hash())
		for _, a := range ids[:10] {
			for _, b := range ids[10:] {
				if kb.Closer(a, b, key) != (DistanceScore(layer, a) > DistanceScore(layer, b)) {
					t.Fatalf("layer %d: %s before %s is %v by the DHT, not by DistanceScore", i, a, b, kb.Closer(a, b, key))
				}
			}
		}
	}
}

// Peers are the peers of the routing table with the connected ones.
func TestPeersAreTheKnownPeers(t *testing.T) {
	a := newTestRouter(t)
	b := newTestRouter(t, tcpHostPort(t, a))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for b.RoutingTableSize() == 0 || a.ConnectedPeers() == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("a and b never met")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if got := b.Peers(); len(got) != 1 || got[0].ID != a.ID() {
		t.Fatalf("b knows %v, want a", got)
	}
}
