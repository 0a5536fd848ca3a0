package tables

import (
	"bytes"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/pieces"
)

func signedTable(t *testing.T, key crypto.PrivKey, size int) pieces.Table {
	t.Helper()
	layer := make([]byte, size)
	rand.Read(layer)
	b := pieces.NewTableBuilder(digest.FromBytes(layer), int64(size))
	b.Write(layer)
	signed, err := b.Table().Sign(key)
	if err != nil {
		t.Fatal(err)
	}
	return signed
}

func newKey(t *testing.T) crypto.PrivKey {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestATableKeptIsFoundAfterARestart(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	table := signedTable(t, newKey(t), 3<<20+5)
	if err := s.Put(table); err != nil {
		t.Fatal(err)
	}
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := again.Get(table.Layer, table.Size)
	if !ok || !slices.Equal(got.Digests, table.Digests) || got.Publisher != table.Publisher {
		t.Fatalf("after a restart: %v %v", got, ok)
	}
	if _, ok := again.Get(table.Layer, table.Size+1); ok {
		t.Fatal("a table was found for a layer of another size")
	}
	again.Delete(table.Layer)
	if _, ok := again.Get(table.Layer, table.Size); ok {
		t.Fatal("a deleted table was found")
	}
}

func TestARottenTableFileIsRemoved(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	table := signedTable(t, newKey(t), 2<<20)
	if err := s.Put(table); err != nil {
		t.Fatal(err)
	}
	path := s.path(table.Layer)
	data, _ := os.ReadFile(path)
	// One hex digit of a piece digest changes: the signature no longer
	// holds.
	i := bytes.Index(data, []byte(table.Digests[1].Encoded()))
	data[i] ^= 1
	os.WriteFile(path, data, 0o600)

	fresh, _ := Open(dir)
	if _, ok := fresh.Get(table.Layer, table.Size); ok {
		t.Fatal("a rotten table was found")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the rotten file is still there: %v", err)
	}
}

func TestOnlyWholeTablesAreKept(t *testing.T) {
	s, _ := Open(t.TempDir())
	table := signedTable(t, newKey(t), 2<<20)
	part := table
	part.Digests = part.Digests[:len(part.Digests)-1]
	if err := s.Put(part); !errors.Is(err, ErrIncomplete) {
		t.Fatalf("Put of a partial table: %v, want ErrIncomplete", err)
	}
}

func TestTheOldestTablesGoPastTheLimit(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	s.limit = 3
	key := newKey(t)
	var kept []pieces.Table
	for i := range 5 {
		table := signedTable(t, key, 1<<20)
		if err := s.Put(table); err != nil {
			t.Fatal(err)
		}
		// Distinct modification times, oldest first.
		at := time.Now().Add(time.Duration(i-10) * time.Minute)
		os.Chtimes(s.path(table.Layer), at, at)
		kept = append(kept, table)
	}
	s.Put(kept[4]) // prunes again, with the times set
	os.WriteFile(filepath.Join(dir, partialPrefix+"x"), []byte("half"), 0o600)
	fresh, _ := Open(dir)
	for i, table := range kept {
		_, ok := fresh.Get(table.Layer, table.Size)
		if want := i >= 2; ok != want {
			t.Errorf("table %d kept: %v, want %v", i, ok, want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, partialPrefix+"*")); len(left) != 0 {
		t.Errorf("half-written files left after opening: %v", left)
	}
}

// A table the disk refuses is kept in memory all the same.
func TestATableTheDiskRefusesIsKeptInMemory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tables")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(dir)
	table := signedTable(t, newKey(t), 2<<20)
	if err := s.Put(table); err == nil {
		t.Fatal("Put into a directory that is gone succeeded")
	}
	if _, ok := s.Get(table.Layer, table.Size); !ok {
		t.Fatal("a table the disk refused is not kept in memory")
	}
}
