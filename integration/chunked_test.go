package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	runtime "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// chunkedFetch turns on containerd's chunked layer fetch (the transfer
// service's, since 2.1): a layer in 4 MiB ranges, up to six requests at
// once.
const chunkedFetch = `[plugins."io.containerd.transfer.v1.local"]
  concurrent_layer_fetch_buffer = 4194304
  max_concurrent_downloads = 6
`

// With containerd's chunked layer fetch set, the node that takes a layer
// from a registry that limits each connection reads it over several ranges
// at once, one copy in all, and the next node takes it from that node; a
// CRI pull with use_local_image_pull and the same setting (ranges asked of
// the loopback mirror) too.
func TestChunkedLayerFetchReadsTheRegistryInRangesAndPeersStillServe(t *testing.T) {
	reg := startRegistry(t)
	proxy := startPacedProxy(t, reg.Addr, 16<<20)
	a := startNode(t, "A", nodeOptions{extra: chunkedFetch})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, extra: chunkedFetch})
	im := pushImage(t, reg.Addr, "chunked/app", "v1", 32<<20)
	layer := im.largest()
	ref := strings.Replace(im.Ref, reg.Addr, proxy.addr(), 1)

	a.pull(ref)
	if n := reg.partialAnswers(layer.Digest); n < 2 {
		t.Fatalf("the registry answered %d ranges of the layer: the chunked fetch did not read it in ranges", n)
	}
	if sent := reg.blobBytes(layer.Digest); sent > layer.Size+layer.Size/20 {
		t.Fatalf("the registry sent %.2f copies of the layer, want one", float64(sent)/float64(layer.Size))
	}
	a.requireIntact(im)

	a.waitAnnounced(len(im.Blobs) + 2)
	before := reg.blobRequests(im.Repo)
	b.pull(ref)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B, with the chunked fetch set too, made %d registry blob requests for an image A holds, want 0", n)
	}
	b.requireIntact(im)

	c, _ := mirrorNode(t, "C", []string{a.bootstrapAddr()}, `[plugins."io.containerd.cri.v1.images"]
  use_local_image_pull = true
  concurrent_layer_fetch_buffer = 4194304
  max_concurrent_downloads = 6`)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	before = reg.blobRequests(im.Repo)
	if _, err := c.criImages().PullImage(ctx, &runtime.PullImageRequest{Image: &runtime.ImageSpec{Image: ref}}); err != nil {
		t.Fatalf("CRI PullImage with use_local_image_pull and the chunked fetch: %v", err)
	}
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("C's CRI local pull in ranges made %d registry blob requests, want 0", n)
	}
	// containerd's own debug line for the layer: the client asked the
	// mirror for it in six ranges at once.
	chunked := false
	for _, l := range c.logLines(`msg="fetching layer"`) {
		chunked = chunked || strings.Contains(l, layer.Digest.String()) && strings.Contains(l, "parallelism=6 ")
	}
	if !chunked {
		t.Fatal("C's log shows no chunked fetch of the layer: the setting did not reach the pull")
	}
}
