package inflight

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// fakeIngest lays out an ingest as containerd's local store does.
func fakeIngest(t *testing.T, root, storeRef string) *os.File {
	t.Helper()
	dir := filepath.Join(root, "ingest", digest.FromString(storeRef).Encoded())
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ref"), []byte(storeRef), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func blob(t *testing.T, n int) ([]byte, ocispec.Descriptor) {
	data := make([]byte, n)
	rand.Read(data)
	return data, ocispec.Descriptor{Digest: digest.FromBytes(data), Size: int64(n)}
}

func TestReaderFollowsTheWriterToTheEnd(t *testing.T) {
	root := t.TempDir()
	w := fakeIngest(t, root, "default/7/layer-x")
	data, desc := blob(t, 3<<20)
	r := New(root, 0)
	tr, err := r.Begin("default", "layer-x", desc, nil)
	if err != nil {
		t.Fatal(err)
	}
	rd, got, ok := r.Open(context.Background(), desc.Digest)
	if !ok || got != tr {
		t.Fatal("transfer not found by digest")
	}
	go func() {
		for off := 0; off < len(data); off += 100 << 10 {
			w.Write(data[off:min(off+100<<10, len(data))])
			time.Sleep(time.Millisecond)
		}
		tr.End()
	}()
	read, err := io.ReadAll(io.NewSectionReader(rd, 0, rd.Size()))
	if err != nil {
		t.Fatal(err)
	}
	rd.Close()
	if !bytes.Equal(read, data) {
		t.Fatalf("read %d bytes that differ from the %d written", len(read), len(data))
	}
	if _, _, ok := r.Open(context.Background(), desc.Digest); ok {
		t.Fatal("an ended transfer can still be opened")
	}
}

func TestReaderFailsOnBytesThatNeverCame(t *testing.T) {
	root := t.TempDir()
	w := fakeIngest(t, root, "default/1/layer-y")
	data, desc := blob(t, 1<<20)
	r := New(root, 0)
	tr, err := r.Begin("default", "layer-y", desc, nil)
	if err != nil {
		t.Fatal(err)
	}
	rd, _, _ := r.Open(context.Background(), desc.Digest)
	defer rd.Close()
	w.Write(data[:1000])
	tr.End() // the upstream failed
	buf := make([]byte, 500)
	if n, err := rd.ReadAt(buf, 0); n != 500 || err != nil {
		t.Fatalf("bytes that arrived: %d, %v", n, err)
	}
	if _, err := rd.ReadAt(buf, 800); !errors.Is(err, ErrIncomplete) {
		t.Fatalf("bytes that never came: %v, want ErrIncomplete", err)
	}
}

func TestReaderWaitsAreBounded(t *testing.T) {
	root := t.TempDir()
	fakeIngest(t, root, "default/1/layer-z")
	_, desc := blob(t, 1<<20)
	r := New(root, 100*time.Millisecond)
	tr, err := r.Begin("default", "layer-z", desc, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.End()
	rd, _, _ := r.Open(context.Background(), desc.Digest)
	defer rd.Close()
	if _, err := rd.ReadAt(make([]byte, 10), 0); !errors.Is(err, ErrStalled) {
		t.Fatalf("nothing arrives: %v, want ErrStalled", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	rd2, _, _ := r.Open(ctx, desc.Digest)
	defer rd2.Close()
	if _, err := rd2.ReadAt(make([]byte, 10), 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("reader's context ended: %v", err)
	}
}

func TestBeginNeedsTheIngestOfThatNamespace(t *testing.T) {
	root := t.TempDir()
	fakeIngest(t, root, "other/1/layer-x")
	_, desc := blob(t, 10)
	if _, err := New(root, 0).Begin("default", "layer-x", desc, nil); err == nil {
		t.Fatal("found another namespace's ingest")
	}
}
