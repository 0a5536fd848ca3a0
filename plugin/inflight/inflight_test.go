package inflight

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/errdefs"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// arriving opens a writer of ref in namespace ns in a content store built
// as containerd's, and returns it with a registry over that store.
func arriving(t *testing.T, ns, ref string, stallLimit time.Duration) (content.Writer, *Registry) {
	t.Helper()
	cs, _, contentRoot := contentStore(t)
	return openWriter(t, cs, ns, ref), New(contentRoot, stallLimit)
}

func blob(t *testing.T, n int) ([]byte, ocispec.Descriptor) {
	data := make([]byte, n)
	rand.Read(data)
	return data, ocispec.Descriptor{Digest: digest.FromBytes(data), Size: int64(n)}
}

func TestReaderFollowsTheWriterToTheEnd(t *testing.T) {
	w, r := arriving(t, "default", "layer-x", 0)
	data, desc := blob(t, 3<<20)
	tr, err := r.Begin("default", "layer-x", desc, nil)
	if err != nil {
		t.Fatal(err)
	}
	rd, got, ok := r.Open(context.Background(), desc.Digest)
	if !ok || got != tr {
		t.Fatal("transfer not found by digest")
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for off := 0; off < len(data); off += 100 << 10 {
			w.Write(data[off:min(off+100<<10, len(data))])
			time.Sleep(time.Millisecond) // a slow arrival for the reader to follow, not a synchronisation
		}
		ctx := namespaces.WithNamespace(context.Background(), "default")
		if err := w.Commit(ctx, desc.Size, desc.Digest); err != nil {
			t.Error(err)
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
	<-ended
	if _, _, ok := r.Open(context.Background(), desc.Digest); ok {
		t.Fatal("an ended transfer can still be opened")
	}
}

func TestReaderFailsOnBytesThatNeverCame(t *testing.T) {
	w, r := arriving(t, "default", "layer-y", 0)
	data, desc := blob(t, 1<<20)
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
	_, r := arriving(t, "default", "layer-z", 100*time.Millisecond)
	_, desc := blob(t, 1<<20)
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
	_, r := arriving(t, "other", "layer-x", 0)
	_, desc := blob(t, 10)
	if _, err := r.Begin("default", "layer-x", desc, nil); !errdefs.IsNotFound(err) {
		t.Fatalf("another namespace's ingest: %v, want not found", err)
	}
}

// A stream's read passes on what has arrived once there is 64 KiB of it,
// without waiting for its buffer to fill: each node of a chain adds that
// much delay, not a buffer's worth.
func TestReadSomePassesOnWhatArrivedWithoutWaitingForTheBuffer(t *testing.T) {
	w, r := arriving(t, "default", "layer-s", 0)
	data, desc := blob(t, 2<<20)
	tr, err := r.Begin("default", "layer-s", desc, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.End()
	rd, _, _ := r.Open(context.Background(), desc.Digest)
	defer rd.Close()
	buf := make([]byte, 1<<20)

	w.Write(data[:100<<10])
	if n, err := rd.ReadSome(buf, 0); err != nil || n != 100<<10 || !bytes.Equal(buf[:n], data[:n]) {
		t.Fatalf("read %d (%v), want the 100 KiB there", n, err)
	}
	// Less than 64 KiB more: the read waits for the rest of it.
	w.Write(data[100<<10 : 120<<10])
	got := make(chan int, 1)
	go func() {
		n, _ := rd.ReadSome(buf, 100<<10)
		got <- n
	}()
	select {
	case n := <-got:
		t.Fatalf("returned %d bytes, fewer than 64 KiB and not the end", n)
	case <-time.After(50 * time.Millisecond): // a bound on a wait that must not end
	}
	w.Write(data[120<<10 : 200<<10])
	if n := <-got; n < 64<<10 || n > 100<<10 {
		t.Fatalf("read %d bytes, want what arrived (64–100 KiB)", n)
	}
	// The blob's end is returned however short.
	w.Write(data[200<<10:])
	if n, err := rd.ReadSome(buf, desc.Size-10); n != 10 || err != nil {
		t.Fatalf("the last 10 bytes: %d, %v", n, err)
	}
	if _, err := rd.ReadSome(buf, desc.Size); err != io.EOF {
		t.Fatalf("past the end: %v, want EOF", err)
	}
}
