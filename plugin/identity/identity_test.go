package identity

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

func TestKeySurvivesReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "identity.key")
	first, err := LoadOrCreate(path)
	if err != nil {
		t.Fatal(err)
	}
	second, err := LoadOrCreate(path)
	if err != nil {
		t.Fatal(err)
	}
	id1, _ := peer.IDFromPrivateKey(first)
	id2, _ := peer.IDFromPrivateKey(second)
	if id1 != id2 {
		t.Fatalf("peer ID changed across reload: %s then %s", id1, id2)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("identity key mode = %v, want 0600", st.Mode().Perm())
	}
}

func TestCorruptKeyIsReportedNotReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "identity.key")
	if err := os.WriteFile(path, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreate(path); err == nil {
		t.Fatal("expected an error for a corrupt key")
	}
	data, _ := os.ReadFile(path)
	if string(data) != "garbage" {
		t.Fatal("a corrupt key must not be overwritten silently")
	}
}
