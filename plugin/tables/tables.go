// Package tables keeps, on disk, the signed piece tables of layers this
// node holds whole and verified. A table is a function of the layer's
// bytes, so a kept one never goes stale: a node answers peers that fetch
// the layer by pieces at once, after a restart too, instead of hashing
// the layer first, and checks each piece it sends against it.
package tables

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/containerd/errdefs"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/pieces"
)

const (
	// MaxTables bounds the tables kept on disk; the oldest go first. A
	// table of a layer in 256 pieces is about 20 KB, one of a 5 GiB layer
	// about 100 KB: some thousands of layers' tables take tens of MB.
	MaxTables = 4096
	// cached is how many decoded tables are kept in memory.
	cached = 64
)

// ErrIncomplete: only a table of every piece of a layer is kept.
var ErrIncomplete = fmt.Errorf("piece table does not cover the whole layer: %w", errdefs.ErrFailedPrecondition)

// Store is a directory of tables, one file per layer digest.
type Store struct {
	dir   string
	limit int // MaxTables

	mu  sync.Mutex
	mem map[digest.Digest]pieces.Table
}

// Open returns the store in dir, creating it.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("piece tables directory: %w", err)
	}
	// Files a crash left half written.
	if partial, err := filepath.Glob(filepath.Join(dir, partialPrefix+"*")); err == nil {
		for _, p := range partial {
			os.Remove(p)
		}
	}
	return &Store{dir: dir, limit: MaxTables, mem: map[digest.Digest]pieces.Table{}}, nil
}

// partialPrefix names a table's file while it is written.
const partialPrefix = ".new-"

func (s *Store) path(dgst digest.Digest) string {
	return filepath.Join(s.dir, dgst.Algorithm().String()+"-"+dgst.Encoded())
}

// Put keeps t, a signed table of every piece of its layer, which the
// caller verified against the layer's digest.
func (s *Store) Put(t pieces.Table) error {
	if !t.Complete() {
		return fmt.Errorf("piece table of %s: %w", t.Layer, ErrIncomplete)
	}
	if err := t.Layer.Validate(); err != nil {
		return fmt.Errorf("piece table of %q: %w", t.Layer, err)
	}
	// Remembered whatever becomes of the file: a disk that refuses it
	// does not make every asker's state a hash of the whole layer.
	s.remember(t)
	var buf bytes.Buffer
	if err := t.Encode(&buf); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, partialPrefix+"*")
	if err != nil {
		return fmt.Errorf("keep piece table of %s: %w", t.Layer, err)
	}
	_, err = tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path(t.Layer))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("keep piece table of %s: %w", t.Layer, err)
	}
	s.prune()
	return nil
}

// Get is the kept table of the layer of dgst and size. A file that does
// not decode to a table its publisher signed (it rotted, or was cut short)
// is removed.
func (s *Store) Get(dgst digest.Digest, size int64) (pieces.Table, bool) {
	if dgst.Validate() != nil {
		return pieces.Table{}, false
	}
	s.mu.Lock()
	t, ok := s.mem[dgst]
	s.mu.Unlock()
	if ok {
		return t, t.Size == size
	}
	data, err := os.ReadFile(s.path(dgst))
	if err != nil {
		return pieces.Table{}, false
	}
	t, err = pieces.DecodeTable(bytes.NewReader(data), dgst, size)
	if err != nil || !t.Complete() {
		os.Remove(s.path(dgst))
		return pieces.Table{}, false
	}
	s.remember(t)
	return t, true
}

// Delete forgets the table of dgst.
func (s *Store) Delete(dgst digest.Digest) {
	if dgst.Validate() != nil {
		return
	}
	s.mu.Lock()
	delete(s.mem, dgst)
	s.mu.Unlock()
	os.Remove(s.path(dgst))
}

func (s *Store) remember(t pieces.Table) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.mem[t.Layer]; !ok && len(s.mem) >= cached {
		for k := range s.mem {
			delete(s.mem, k)
			break
		}
	}
	s.mem[t.Layer] = t
}

// prune removes the oldest files past MaxTables.
func (s *Store) prune() {
	entries, err := os.ReadDir(s.dir)
	if err != nil || len(entries) <= s.limit {
		return
	}
	type kept struct {
		name string
		mod  time.Time
	}
	var files []kept
	for _, e := range entries {
		if info, err := e.Info(); err == nil && !strings.HasPrefix(e.Name(), partialPrefix) {
			files = append(files, kept{e.Name(), info.ModTime()})
		}
	}
	slices.SortFunc(files, func(a, b kept) int { return a.mod.Compare(b.mod) })
	for _, f := range files[:max(0, len(files)-s.limit)] {
		os.Remove(filepath.Join(s.dir, f.name))
		if d, err := digest.Parse(strings.Replace(f.name, "-", ":", 1)); err == nil {
			s.mu.Lock()
			delete(s.mem, d)
			s.mu.Unlock()
		}
	}
}
