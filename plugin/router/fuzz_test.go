package router

import (
	"testing"

	ma "github.com/multiformats/go-multiaddr"
)

// Any bootstrap entry is either rejected with an error or yields a TCP
// address that round-trips.
func FuzzParseBootstrapPeer(f *testing.F) {
	for _, seed := range []string{"10.0.0.1:5050", "[::1]:1", "/dns/x/tcp/1/p2p/12D3KooWJJ6MkQ36MYBsbyT2vwJ1R4t2fX2xMurjNv1Dz2moVsY4", "/ip4/1.2.3.4/udp/1", ":", "/"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		bp, err := parseBootstrapPeer(entry)
		if err != nil {
			return
		}
		if bp.addr == nil {
			t.Fatalf("%q: no address and no error", entry)
		}
		if _, err := bp.addr.ValueForProtocol(ma.P_TCP); err != nil {
			t.Fatalf("%q: accepted without TCP: %s", entry, bp.addr)
		}
		if _, err := ma.NewMultiaddr(bp.addr.String()); err != nil {
			t.Fatalf("%q: address %s does not round-trip: %v", entry, bp.addr, err)
		}
	})
}
