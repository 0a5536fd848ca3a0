package cluster

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"runtime"
	"time"

	"github.com/containerd/containerd/v2/core/remotes/docker"
	"github.com/containerd/errdefs"
	"github.com/opencontainers/go-digest"
	"github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// Blob is one piece of content with its descriptor.
type Blob struct {
	Desc ocispec.Descriptor
	Data []byte
}

// Image is a generated single-platform OCI image.
type Image struct {
	Manifest Blob
	Config   Blob
	Layers   []Blob
}

// RandomImage builds an image for this machine's platform whose layers are
// uncompressed tars, each holding one file of random bytes of the given size.
func RandomImage(layerSizes ...int) (*Image, error) {
	var layers [][]File
	for i, size := range layerSizes {
		data := make([]byte, size)
		if _, err := rand.Read(data); err != nil {
			return nil, err
		}
		layers = append(layers, []File{{Name: fmt.Sprintf("layer%d.bin", i), Mode: 0o644, Data: data}})
	}
	return FilesImage(layers...)
}

// File is a regular file of a layer.
type File struct {
	Name string
	Mode int64
	Data []byte
}

// FilesImage builds an image for this machine's platform whose layers are
// uncompressed tars of the given files.
func FilesImage(layers ...[]File) (*Image, error) {
	im := &Image{}
	var diffIDs []digest.Digest
	for _, files := range layers {
		data, err := tarOf(files)
		if err != nil {
			return nil, err
		}
		b := newBlob(ocispec.MediaTypeImageLayer, data)
		im.Layers = append(im.Layers, b)
		diffIDs = append(diffIDs, b.Desc.Digest)
	}
	config, err := json.Marshal(ocispec.Image{
		Platform: ocispec.Platform{OS: "linux", Architecture: runtime.GOARCH},
		RootFS:   ocispec.RootFS{Type: "layers", DiffIDs: diffIDs},
	})
	if err != nil {
		return nil, err
	}
	im.Config = newBlob(ocispec.MediaTypeImageConfig, config)
	manifest := ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2},
		MediaType: ocispec.MediaTypeImageManifest,
		Config:    im.Config.Desc,
	}
	for _, l := range im.Layers {
		manifest.Layers = append(manifest.Layers, l.Desc)
	}
	mdata, err := json.Marshal(manifest)
	if err != nil {
		return nil, err
	}
	im.Manifest = newBlob(ocispec.MediaTypeImageManifest, mdata)
	return im, nil
}

func newBlob(mediaType string, data []byte) Blob {
	return Blob{Desc: ocispec.Descriptor{MediaType: mediaType, Digest: digest.FromBytes(data), Size: int64(len(data))}, Data: data}
}

// Blobs are the config and the layers: what a registry serves as blobs.
func (im *Image) Blobs() []Blob { return append([]Blob{im.Config}, im.Layers...) }

// Size is the total size of manifest, config and layers.
func (im *Image) Size() int64 {
	n := im.Manifest.Desc.Size
	for _, b := range im.Blobs() {
		n += b.Desc.Size
	}
	return n
}

func tarOf(files []File) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: f.Name, Mode: f.Mode, Size: int64(len(f.Data)), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Push uploads the image to ref (a plain-HTTP registry) with containerd's
// own registry client; user and password may be empty.
func (im *Image) Push(ctx context.Context, ref, user, password string) error {
	opts := []docker.RegistryOpt{docker.WithPlainHTTP(docker.MatchAllHosts)}
	if user != "" {
		opts = append(opts, docker.WithAuthorizer(docker.NewDockerAuthorizer(
			docker.WithAuthCreds(func(string) (string, string, error) { return user, password, nil }))))
	}
	return im.PushWith(ctx, ref, docker.ResolverOptions{Hosts: docker.ConfigureDefaultRegistries(opts...)})
}

// PushWith uploads the image to ref through a resolver built from opts: a
// registry behind TLS or a hosts directory, with the caller's authorizer.
func (im *Image) PushWith(ctx context.Context, ref string, opts docker.ResolverOptions) error {
	resolver := docker.NewResolver(opts)
	pusher, err := resolver.Pusher(ctx, ref)
	if err != nil {
		return err
	}
	for _, b := range append(im.Blobs(), im.Manifest) {
		w, err := pusher.Push(ctx, b.Desc)
		if errdefs.IsAlreadyExists(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("push %s: %w", b.Desc.Digest, err)
		}
		if _, err := w.Write(b.Data); err != nil {
			w.Close()
			return fmt.Errorf("push %s: %w", b.Desc.Digest, err)
		}
		if err := w.Commit(ctx, b.Desc.Size, b.Desc.Digest); err != nil && !errdefs.IsAlreadyExists(err) {
			w.Close()
			return fmt.Errorf("commit %s: %w", b.Desc.Digest, err)
		}
		w.Close()
	}
	return nil
}
