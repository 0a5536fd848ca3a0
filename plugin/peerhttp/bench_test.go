package peerhttp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// BenchmarkBlob moves a 64 MiB blob from a peer's handler to a client that
// hashes it, over each path; `go test -bench Blob -cpuprofile` shows where
// the time goes.
func BenchmarkBlob(b *testing.B) {
	blob := make([]byte, 64<<20)
	rand.Read(blob)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(blob)))
		io.CopyBuffer(struct{ io.Writer }{w}, struct{ io.Reader }{bytes.NewReader(blob)}, make([]byte, 1<<20))
	})
	for _, direct := range []bool{true, false} {
		name := "libp2p-stream"
		if direct {
			name = "direct"
		}
		b.Run(name, func(b *testing.B) {
			server, client := newHost(b), newHost(b)
			if direct {
				srv, err := ServeDirect(server, "127.0.0.1:0", handler, DirectOptions{})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { srv.Close() })
			}
			srv, err := Serve(server, handler, 5*time.Second)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { srv.Close() })
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := client.Connect(ctx, peer.AddrInfo{ID: server.ID(), Addrs: server.Addrs()}); err != nil {
				b.Fatal(err)
			}
			c := NewClient(client, ClientOptions{Direct: direct})
			b.Cleanup(c.Close)
			b.SetBytes(int64(len(blob)))
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodGet, "/blob", nil)
				resp, err := c.Do(server.ID(), req)
				if err != nil {
					b.Fatal(err)
				}
				h := sha256.New()
				if n, err := io.Copy(h, resp.Body); err != nil || n != int64(len(blob)) {
					b.Fatal(n, err)
				}
				resp.Body.Close()
			}
		})
	}
}
