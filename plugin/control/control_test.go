package control

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/pullhistory"
)

type fakeSource struct{}

func (fakeSource) Status() Status { return Status{PeerID: "me", ConnectedPeers: 2} }
func (fakeSource) Peers() []Peer {
	return []Peer{{ID: "p1", Addresses: []string{"/ip4/10.0.0.1/tcp/5050"}}}
}
func (fakeSource) Providers(ctx context.Context, key digest.Digest) ([]Peer, error) {
	if key == digest.FromString("held") {
		return []Peer{{ID: "p1"}}, nil
	}
	return nil, errors.New("not connected to any peer")
}
func (fakeSource) ReferenceKey(ref string) digest.Digest { return digest.FromString(ref) }
func (fakeSource) Pulls() []pullhistory.Pull {
	return []pullhistory.Pull{{
		Image: "registry.example/app:v1", Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Duration: 278 * time.Millisecond,
		Peers: []pullhistory.PeerBytes{{Peer: "p1", Bytes: 64 << 20}}, Failovers: 1,
	}}
}

func TestControlSocketAnswersAndIsRootOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "shoal.sock")
	s, err := Serve(path, fakeSource{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v, %v", st.Mode().Perm(), err)
	}
	c := NewClient(path)
	ctx := context.Background()
	var status Status
	if err := c.Get(ctx, "/status", &status); err != nil || status.PeerID != "me" || status.ConnectedPeers != 2 {
		t.Fatalf("status %+v %v", status, err)
	}
	var peers []Peer
	if err := c.Get(ctx, "/providers?digest="+digest.FromString("held").String(), &peers); err != nil || len(peers) != 1 {
		t.Fatalf("providers %v %v", peers, err)
	}
	if err := c.Get(ctx, "/providers?digest=sha256:nothex", &peers); err == nil {
		t.Fatal("bad digest accepted")
	}
	if err := c.Get(ctx, "/providers?ref=registry.example/app:v1", &peers); err == nil {
		t.Fatal("lookup error not passed on")
	}
	var pulls []pullhistory.Pull
	if err := c.Get(ctx, "/pulls", &pulls); err != nil || len(pulls) != 1 {
		t.Fatalf("pulls %+v %v", pulls, err)
	}
	if p := pulls[0]; p.Image != "registry.example/app:v1" || p.Duration != 278*time.Millisecond || p.PeerTotal() != 64<<20 || p.Failovers != 1 || !p.Start.Equal(fakeSource{}.Pulls()[0].Start) {
		t.Fatalf("pull did not survive the socket: %+v", p)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := c.Get(cancelled, "/status", &status); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled query: %v", err)
	}
}
