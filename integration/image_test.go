package integration

import (
	"context"
	"fmt"
	"testing"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/integration/cluster"
)

// testImage is a generated image pushed to the test's registry.
type testImage struct {
	Ref      string
	Repo     string
	Manifest ocispec.Descriptor
	Blobs    []ocispec.Descriptor // config and layers
	Data     *cluster.Image
}

// pushImage generates an image with random layers of the given sizes and
// pushes it to the registry at addr with containerd's registry client.
func pushImage(t *testing.T, addr, repo, tag string, layerSizes ...int) testImage {
	t.Helper()
	return pushImageAs(t, "", "", addr, repo, tag, layerSizes...)
}

// pushImageAs pushes with credentials, to a registry that wants them.
func pushImageAs(t *testing.T, user, password, addr, repo, tag string, layerSizes ...int) testImage {
	t.Helper()
	return pushImageWith(t, addr, repo, tag, func(ref string, im *cluster.Image) error {
		return im.Push(context.Background(), ref, user, password)
	}, layerSizes...)
}

// pushImageWith generates an image and uploads it to addr/repo:tag with push.
func pushImageWith(t *testing.T, addr, repo, tag string, push func(ref string, im *cluster.Image) error, layerSizes ...int) testImage {
	t.Helper()
	im, err := cluster.RandomImage(layerSizes...)
	if err != nil {
		t.Fatal(err)
	}
	return pushBuilt(t, addr, repo, tag, push, im)
}

// pushBuilt uploads im to addr/repo:tag with push.
func pushBuilt(t *testing.T, addr, repo, tag string, push func(ref string, im *cluster.Image) error, im *cluster.Image) testImage {
	t.Helper()
	ref := fmt.Sprintf("%s/%s:%s", addr, repo, tag)
	if err := push(ref, im); err != nil {
		t.Fatal(err)
	}
	out := testImage{Ref: ref, Repo: repo, Manifest: im.Manifest.Desc, Data: im}
	for _, b := range im.Blobs() {
		out.Blobs = append(out.Blobs, b.Desc)
	}
	return out
}
