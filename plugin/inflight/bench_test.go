package inflight

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// BenchmarkIngest compares writing a layer into the content store, as a
// pull does, with also teeing every chunk into a spool file of our own: the
// alternative to reading the ingest while it arrives.
func BenchmarkIngest(b *testing.B) {
	const size = 256 << 20
	data := make([]byte, size)
	rand.Read(data)
	desc := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageLayerGzip, Digest: digest.FromBytes(data), Size: size}

	b.Run("ingest only", func(b *testing.B) { benchIngest(b, data, desc, "") })
	b.Run("ingest + tee", func(b *testing.B) { benchIngest(b, data, desc, b.TempDir()) })
}

func benchIngest(b *testing.B, data []byte, desc ocispec.Descriptor, spoolDir string) {
	const chunk = 1 << 20
	cs, backend, _ := contentStore(b)
	ctx := namespaces.WithNamespace(context.Background(), "bench")
	spoolPath := filepath.Join(spoolDir, "spool")
	b.SetBytes(desc.Size)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w, err := content.OpenWriter(ctx, cs, content.WithRef(fmt.Sprintf("layer-%d", i)), content.WithDescriptor(desc))
		if err != nil {
			b.Fatal(err)
		}
		var spool *os.File
		if spoolDir != "" {
			if spool, err = os.Create(spoolPath); err != nil {
				b.Fatal(err)
			}
		}
		for off := 0; off < len(data); off += chunk {
			p := data[off:min(off+chunk, len(data))]
			if _, err := w.Write(p); err != nil {
				b.Fatal(err)
			}
			if spool != nil {
				if _, err := spool.Write(p); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := w.Commit(ctx, desc.Size, desc.Digest); err != nil {
			b.Fatal(err)
		}
		if spool != nil {
			if err := spool.Close(); err != nil {
				b.Fatal(err)
			}
		}

		// The next round writes the same blob again.
		b.StopTimer()
		if err := cs.Delete(ctx, desc.Digest); err != nil {
			b.Fatal(err)
		}
		if err := backend.Delete(ctx, desc.Digest); err != nil {
			b.Fatal(err)
		}
		if spool != nil {
			os.Remove(spoolPath)
		}
		b.StartTimer()
	}
}
