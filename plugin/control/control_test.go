package control

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/opencontainers/go-digest"
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
	var status Status
	if err := c.Get("/status", &status); err != nil || status.PeerID != "me" || status.ConnectedPeers != 2 {
		t.Fatalf("status %+v %v", status, err)
	}
	var peers []Peer
	if err := c.Get("/providers?digest="+digest.FromString("held").String(), &peers); err != nil || len(peers) != 1 {
		t.Fatalf("providers %v %v", peers, err)
	}
	if err := c.Get("/providers?digest=sha256:nothex", &peers); err == nil {
		t.Fatal("bad digest accepted")
	}
	if err := c.Get("/providers?ref=registry.example/app:v1", &peers); err == nil {
		t.Fatal("lookup error not passed on")
	}
}
