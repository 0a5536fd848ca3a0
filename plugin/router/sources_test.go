package router

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// dnsServer serves a small zone on loopback, as a real DNS server would.
func dnsServer(t *testing.T, records map[string][]dns.RR) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := dns.NewServeMux()
	mux.HandleFunc(".", func(w dns.ResponseWriter, req *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(req)
		for _, q := range req.Question {
			for _, rr := range records[q.Name] {
				if rr.Header().Rrtype == q.Qtype {
					m.Answer = append(m.Answer, rr)
				}
			}
		}
		w.WriteMsg(m)
	})
	srv := &dns.Server{PacketConn: pc, Handler: mux}
	go srv.ActivateAndServe()
	t.Cleanup(func() { srv.Shutdown() })
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}

func rr(t *testing.T, s string) dns.RR {
	r, err := dns.NewRR(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func entries(bps []bootstrapPeer) []string {
	var out []string
	for _, bp := range bps {
		out = append(out, bp.addr.String())
	}
	sort.Strings(out)
	return out
}

func TestBootstrapPeersFromDNSNamesAndSRVRecords(t *testing.T) {
	resolver := dnsServer(t, map[string][]dns.RR{
		"boot.shoal.test.": {rr(t, "boot.shoal.test. 5 IN A 10.0.0.1"), rr(t, "boot.shoal.test. 5 IN A 10.0.0.2")},
		"_shoal._tcp.shoal.test.": {
			rr(t, "_shoal._tcp.shoal.test. 5 IN SRV 0 0 6000 n3.shoal.test."),
		},
		"n3.shoal.test.": {rr(t, "n3.shoal.test. 5 IN A 10.0.0.3")},
	})
	got := entries(resolveDNS(context.Background(), resolver, []string{"boot.shoal.test", "_shoal._tcp.shoal.test", "missing.shoal.test"}, 5050))
	want := []string{"/ip4/10.0.0.1/tcp/5050", "/ip4/10.0.0.2/tcp/5050", "/ip4/10.0.0.3/tcp/6000"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestBootstrapFileIsReadAgainWhenItChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "peers")
	os.WriteFile(path, []byte("# written by cloud-init\n10.0.0.1:5050\n\nnot an entry\n"), 0o644)
	f := fileFor(path)
	if got := entries(f.read(context.Background())); len(got) != 1 || got[0] != "/ip4/10.0.0.1/tcp/5050" {
		t.Fatalf("first read: %v", got)
	}
	later := time.Now().Add(time.Second)
	os.WriteFile(path, []byte("10.0.0.1:5050\n/ip4/10.0.0.2/tcp/5050\n"), 0o644)
	os.Chtimes(path, later, later)
	if got := entries(f.read(context.Background())); len(got) != 2 {
		t.Fatalf("after change: %v", got)
	}
	os.Remove(path)
	if got := f.read(context.Background()); len(got) != 0 {
		t.Fatalf("after removal: %v", got)
	}
}

func TestDeadBootstrapPeerIsNotDialledEveryRound(t *testing.T) {
	r := newTestRouterWith(t, Options{})
	dead, err := parseBootstrapPeer("127.0.0.1:1") // nothing listens there
	if err != nil {
		t.Fatal(err)
	}
	if n := r.bootstrapRound(context.Background(), []bootstrapPeer{dead}); n != 0 {
		t.Fatal("connected to nothing")
	}
	b := r.backoff[dead.entry]
	if b.delay <= 0 || time.Until(b.next) <= 0 {
		t.Fatalf("failure not remembered: %+v", b)
	}
	r.bootstrapRound(context.Background(), []bootstrapPeer{dead})
	if r.backoff[dead.entry] != b {
		t.Fatal("a peer in backoff was dialled again")
	}
}
