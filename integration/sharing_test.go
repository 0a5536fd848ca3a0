package integration

import (
	"archive/tar"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// writeOCIArchive writes im as an OCI image-layout tar named ref, as
// `ctr image export` would, for `ctr image import`.
func writeOCIArchive(t *testing.T, im testImage, ref string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "image.tar")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tw := tar.NewWriter(f)
	put := func(name string, data []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	manifest := im.Data.Manifest.Desc
	manifest.Annotations = map[string]string{ocispec.AnnotationRefName: ref, "io.containerd.image.name": ref}
	index, _ := json.Marshal(ocispec.Index{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageIndex, Manifests: []ocispec.Descriptor{manifest}})
	put("oci-layout", []byte(`{"imageLayoutVersion":"1.0.0"}`))
	put("index.json", index)
	put("blobs/sha256/"+im.Data.Manifest.Desc.Digest.Encoded(), im.Data.Manifest.Data)
	for _, b := range im.Data.Blobs() {
		put("blobs/sha256/"+b.Desc.Digest.Encoded(), b.Data)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// Content built or imported on a node carries no registry of origin: it is
// not shared unless the operator opts in (share_unknown_origin), while what
// the same node pulled from a registry is.
func TestImportedContentIsSharedOnlyWhenTheOperatorOptsIn(t *testing.T) {
	reg := startRegistry(t)
	for _, tc := range []struct {
		name   string
		extra  string
		shared bool
	}{
		{"by default", "", false},
		{"with share_unknown_origin", "  share_unknown_origin = true\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := startNode(t, "A", nodeOptions{extra: tc.extra})
			b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
			pulled := pushImage(t, reg.Addr, "sharing/pulled", "v1", 2<<20)
			imported := pushImage(t, reg.Addr, "sharing/imported", "v1", 3<<20)
			a.pull(pulled.Ref)
			a.ctr("image", "import", "--all-platforms", writeOCIArchive(t, imported, imported.Ref))
			a.waitAnnounced(len(pulled.Blobs) + 1)

			// Positive control: what A pulled is shared either way.
			before := reg.blobRequests(pulled.Repo)
			b.pull(pulled.Ref)
			if n := reg.blobRequests(pulled.Repo) - before; n != 0 {
				t.Fatalf("B made %d upstream blob requests for the image A pulled", n)
			}
			if tc.shared {
				a.waitAnnounced(len(pulled.Blobs) + len(imported.Blobs) + 2)
			}
			before = reg.blobRequests(imported.Repo)
			b.pull(imported.Ref)
			n := reg.blobRequests(imported.Repo) - before
			if tc.shared && n != 0 {
				t.Fatalf("B made %d upstream blob requests for the image A imported and shares", n)
			}
			if !tc.shared && n != len(imported.Blobs) {
				t.Fatalf("B made %d upstream blob requests for the image A imported, want %d: A shared content of unknown origin", n, len(imported.Blobs))
			}
		})
	}
}
