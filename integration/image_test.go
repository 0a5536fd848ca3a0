package integration

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/containerd/containerd/v2/core/remotes/docker"
	"github.com/containerd/errdefs"
	"github.com/opencontainers/go-digest"
	"github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// testImage is a generated image with random layers, pushed to a registry.
type testImage struct {
	Ref      string
	Repo     string
	Manifest ocispec.Descriptor
	Blobs    []ocispec.Descriptor // config and layers
}

// layerBytes is the total size of the layers.
func (im testImage) layerBytes() int64 {
	var n int64
	for _, b := range im.Blobs {
		if b.MediaType == ocispec.MediaTypeImageLayer {
			n += b.Size
		}
	}
	return n
}

// randomLayer is an uncompressed tar holding one file of random bytes.
func randomLayer(t *testing.T, name string, size int) []byte {
	t.Helper()
	data := make([]byte, size)
	if _, err := rand.Read(data); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(size), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	tw.Write(data)
	tw.Close()
	return buf.Bytes()
}

// pushImage generates an image with the given layer sizes and pushes it to
// the registry at addr with containerd's own registry client.
func pushImage(t *testing.T, addr, repo, tag string, layerSizes ...int) testImage {
	t.Helper()
	ctx := context.Background()
	ref := fmt.Sprintf("%s/%s:%s", addr, repo, tag)

	type blob struct {
		desc ocispec.Descriptor
		data []byte
	}
	var (
		layers  []blob
		diffIDs []digest.Digest
	)
	for i, size := range layerSizes {
		data := randomLayer(t, fmt.Sprintf("layer%d.bin", i), size)
		d := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageLayer, Digest: digest.FromBytes(data), Size: int64(len(data))}
		layers = append(layers, blob{d, data})
		diffIDs = append(diffIDs, d.Digest)
	}
	config, _ := json.Marshal(ocispec.Image{
		Platform: ocispec.Platform{OS: "linux", Architecture: hostArch()},
		RootFS:   ocispec.RootFS{Type: "layers", DiffIDs: diffIDs},
	})
	cfg := blob{ocispec.Descriptor{MediaType: ocispec.MediaTypeImageConfig, Digest: digest.FromBytes(config), Size: int64(len(config))}, config}
	manifest := ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2},
		MediaType: ocispec.MediaTypeImageManifest,
		Config:    cfg.desc,
	}
	for _, l := range layers {
		manifest.Layers = append(manifest.Layers, l.desc)
	}
	mdata, _ := json.Marshal(manifest)
	man := blob{ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.FromBytes(mdata), Size: int64(len(mdata))}, mdata}

	resolver := docker.NewResolver(docker.ResolverOptions{
		Hosts: docker.ConfigureDefaultRegistries(docker.WithPlainHTTP(docker.MatchAllHosts)),
	})
	pusher, err := resolver.Pusher(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range append(append(layers, cfg), man) {
		w, err := pusher.Push(ctx, b.desc)
		if errdefs.IsAlreadyExists(err) {
			continue
		}
		if err != nil {
			t.Fatalf("push %s: %v", b.desc.Digest, err)
		}
		if _, err := w.Write(b.data); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(ctx, b.desc.Size, b.desc.Digest); err != nil && !errdefs.IsAlreadyExists(err) {
			t.Fatalf("commit %s: %v", b.desc.Digest, err)
		}
		w.Close()
	}
	im := testImage{Ref: ref, Repo: repo, Manifest: man.desc, Blobs: []ocispec.Descriptor{cfg.desc}}
	for _, l := range layers {
		im.Blobs = append(im.Blobs, l.desc)
	}
	return im
}
