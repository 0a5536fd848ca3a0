package netkey

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestGeneratedKeyLoads(t *testing.T) {
	data, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "swarm.key")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	psk, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := Generate()
	if bytes.Equal(data, other) || len(psk) != 32 {
		t.Fatal("keys must be random and 32 bytes")
	}
}

func TestBadKeysAreRefused(t *testing.T) {
	dir := t.TempDir()
	good, _ := Generate()
	for name, tc := range map[string]struct {
		data []byte
		mode os.FileMode
	}{
		"world-readable": {good, 0o644},
		"not a key":      {[]byte("hello"), 0o600},
		"short":          {[]byte("/key/swarm/psk/1.0.0/\n/base16/\nabcd\n"), 0o600},
		"bad hex":        {[]byte("/key/swarm/psk/1.0.0/\n/base16/\n" + string(bytes.Repeat([]byte("zz"), 32)) + "\n"), 0o600},
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, tc.data, tc.mode)
		os.Chmod(path, tc.mode)
		if _, err := Load(path); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing key accepted")
	}
}
