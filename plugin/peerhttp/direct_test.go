package peerhttp

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	libp2ptls "github.com/libp2p/go-libp2p/p2p/security/tls"
)

// pathRecorder answers with the kind of connection the request came on.
func pathRecorder(callers chan<- string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		select {
		case callers <- r.RemoteAddr:
		default:
		}
		io.WriteString(w, local.Network())
	})
}

func get(t *testing.T, c *Client, p peer.ID) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "/v2/", nil)
	resp, err := c.Do(p, req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

func TestDirectPathCarriesRequestsAndNamesTheCaller(t *testing.T) {
	server, client := newHost(t), newHost(t)
	callers := make(chan string, 4)
	h := pathRecorder(callers)
	for _, start := range []func() (*Server, error){
		func() (*Server, error) { return Serve(server, h, time.Second) },
		func() (*Server, error) { return ServeDirect(server, "127.0.0.1:0", h, DirectOptions{}) },
	} {
		srv, err := start()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
	}
	client.Peerstore().AddAddrs(server.ID(), server.Addrs(), time.Hour)
	c := NewClient(client, ClientOptions{Direct: true})
	t.Cleanup(c.Close)
	for i := 0; i < 3; i++ {
		if got := get(t, c, server.ID()); got != "tcp" {
			t.Fatalf("request %d went over %q, want the direct TCP path", i, got)
		}
	}
	if got := <-callers; got != client.ID().String() {
		t.Fatalf("handler saw caller %q, want %s", got, client.ID())
	}

	plain := NewClient(client, ClientOptions{})
	t.Cleanup(plain.Close)
	if got := get(t, plain, server.ID()); got == "tcp" {
		t.Fatal("client without Direct used the direct path")
	}
}

func TestDirectPathRefusesHostsWithoutAPeerConnection(t *testing.T) {
	server := newHost(t)
	srv, err := ServeDirect(server, "127.0.0.1:0", pathRecorder(make(chan string)), DirectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })

	// A stranger with a valid libp2p identity but no connection to the
	// node (it could not make one without the network key).
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := libp2ptls.NewIdentity(key)
	if err != nil {
		t.Fatal(err)
	}
	conf, _ := id.ConfigForPeer(server.ID())
	conf.NextProtos = []string{dataALPN}
	conn, err := tls.Dial("tcp", srv.Addr().String(), conf)
	if err != nil {
		return // refused during the handshake
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(conn, "GET /v2/ HTTP/1.1\r\nHost: peer\r\n\r\n")
	reply, err := io.ReadAll(conn)
	if err == nil && strings.Contains(string(reply), "200 OK") {
		t.Fatal("a host with no peer connection was served")
	}
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("want a TLS alert about the certificate, got %v (reply %q)", err, reply)
	}
}

func TestDirectPathChecksItReachedThePeerItMeant(t *testing.T) {
	server, impostor, client := newHost(t), newHost(t), newHost(t)
	h := pathRecorder(make(chan string, 1))
	for _, start := range []func() (*Server, error){
		func() (*Server, error) { return Serve(server, h, time.Second) },
		func() (*Server, error) { return ServeDirect(impostor, "127.0.0.1:0", h, DirectOptions{}) },
	} {
		srv, err := start()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
	}
	client.Peerstore().AddAddrs(server.ID(), server.Addrs(), time.Hour)
	client.Peerstore().AddAddrs(impostor.ID(), impostor.Addrs(), time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := client.Connect(ctx, peer.AddrInfo{ID: impostor.ID()}); err != nil {
		t.Fatal(err)
	}
	c := NewClient(client, ClientOptions{Direct: true})
	t.Cleanup(c.Close)
	// The server's data address is (wrongly) the impostor's listener.
	impostorAddr, err := c.askDataAddress(ctx, impostor.ID())
	if err != nil {
		t.Fatal(err)
	}
	c.direct[server.ID()] = directEntry{addr: impostorAddr}
	if _, err := c.dialDirect(ctx, server.ID()); err == nil || !strings.Contains(err.Error(), "peer id mismatch") {
		t.Fatalf("dial to the wrong identity: %v, want a peer ID mismatch", err)
	}
	// The request still reaches the real peer, over libp2p.
	if got := get(t, c, server.ID()); got == "tcp" {
		t.Fatal("request went to the impostor's direct path")
	}
}

func TestDataAddressTakesOnlyThePortFromThePeer(t *testing.T) {
	conn := net.ParseIP("10.0.0.7")
	for answer, want := range map[string]string{
		":5051\n":          "10.0.0.7:5051",
		"10.0.0.7:5051\n":  "10.0.0.7:5051",
		"0.0.0.0:6000":     "10.0.0.7:6000",
		"[::]:6000":        "10.0.0.7:6000",
		"10.0.0.8:5051\n":  "",
		"internal.db:5432": "",
		":0":               "",
		":65536":           "",
		":-1":              "",
		"5051":             "",
		"":                 "",
	} {
		got, err := dataAddress(answer, conn)
		if want == "" {
			if err == nil {
				t.Errorf("%q accepted as %s", answer, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %s", answer, got, err, want)
		}
	}
}

func FuzzDataAddress(f *testing.F) {
	for _, s := range []string{":5051\n", "10.0.0.7:5051", "[::1]:1", "x:y", "::::"} {
		f.Add(s)
	}
	conn := net.ParseIP("10.0.0.7")
	f.Fuzz(func(t *testing.T, answer string) {
		addr, err := dataAddress(answer, conn)
		if err != nil {
			return
		}
		host, _, err := net.SplitHostPort(addr)
		if err != nil || host != "10.0.0.7" {
			t.Fatalf("%q gave %q: not the peer's own address", answer, addr)
		}
	})
}
