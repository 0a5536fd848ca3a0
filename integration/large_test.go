package integration

import (
	"archive/tar"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"
	"github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// largeLayerSize is the one layer of the large image: 5 GiB, more than a
// holder can hash within a puller's header deadline.
const largeLayerSize = 5 << 30

// A holder that was just restarted has verified nothing it stores. Asked
// for a 5 GiB layer, it must start sending at once (checking the bytes as
// they leave) rather than hash the whole layer first: a puller waits for
// headers no longer than dial_timeout (2 s), then goes to the upstream.
// SHOAL_SKIP_LARGE=1 skips this test (it writes ~15 GiB to disk).
func TestAJustRestartedHolderServesA5GiBLayerWithoutTheUpstream(t *testing.T) {
	if os.Getenv("SHOAL_SKIP_LARGE") == "1" {
		t.Skip("SHOAL_SKIP_LARGE=1: the 5 GiB layer test skipped")
	}
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})

	start := time.Now()
	im := pushLargeImage(t, reg.Addr, "large/app", "v1", largeLayerSize)
	layer := im.largest()
	t.Logf("pushed a %d-byte layer in %s", layer.Size, time.Since(start).Round(time.Millisecond))

	// Fetch only: --all-platforms leaves out the unpack (another 5 GiB on disk).
	fetch := func(n *node) time.Duration {
		t.Helper()
		start := time.Now()
		if out, err := n.ctrErr(5*time.Minute, "image", "pull", "--plain-http", "--all-platforms", im.Ref); err != nil {
			t.Fatalf("%s's pull: %v\n%s", n.name, err, out)
		}
		return time.Since(start)
	}
	t.Logf("A pulled the image from the upstream in %s", fetch(a).Round(time.Millisecond))

	a.restart()
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	a.waitAnnounced(len(im.Blobs) + 1)

	before, beforeBytes := reg.blobRequests(im.Repo), reg.blobBytes(layer.Digest)
	took := fetch(b)
	requests, sent := reg.blobRequests(im.Repo)-before, reg.blobBytes(layer.Digest)-beforeBytes
	t.Logf("B pulled the image in %s (%.0f MiB/s)", took.Round(time.Millisecond), float64(layer.Size)/(1<<20)/took.Seconds())
	// Time to first byte, from B's log: B found A as the layer's provider,
	// then A's answer (headers first) reached B.
	aID := a.peerID()
	found, _, okFound := b.logLine("p2p: providers found", layer.Digest.String())
	if at, _, ok := b.logLine("p2p: receiving blob", layer.Digest.String(), "peer="+aID); ok && okFound {
		t.Logf("time to first byte: A's answer reached B %s after B found A as the provider", at.Sub(found).Round(time.Millisecond))
	} else if _, line, ok := b.logLine("p2p: peer did not serve", layer.Digest.String(), aID); ok {
		t.Logf("A did not answer B in time: %s", line)
	}
	if requests != 0 {
		t.Fatalf("B made %d upstream blob requests (%d bytes of the layer), want 0: A holds the layer and must serve it right after its restart", requests, sent)
	}
	if fi, err := os.Stat(b.blobPath(layer.Digest)); err != nil || fi.Size() != layer.Size {
		t.Fatalf("B does not hold the whole layer: %v", err)
	}
}

// logLine is the time and text of the first line of n's current log that
// contains every one of parts.
func (n *node) logLine(parts ...string) (time.Time, string, bool) {
	data, _ := os.ReadFile(n.Logs()[len(n.Logs())-1])
lines:
	for _, line := range strings.Split(string(data), "\n") {
		for _, p := range parts {
			if !strings.Contains(line, p) {
				continue lines
			}
		}
		if m := logTimeRE.FindStringSubmatch(line); m != nil {
			if at, err := time.Parse(time.RFC3339Nano, m[1]); err == nil {
				return at, line, true
			}
		}
	}
	return time.Time{}, "", false
}

// pushLargeImage pushes an image whose one layer is an uncompressed tar of
// size bytes (a multiple of 512): one file of pseudo-random bytes. The layer
// is generated as it is uploaded and hashed on the way, so memory stays
// bounded whatever the size.
func pushLargeImage(t *testing.T, addr, repo, tag string, size int64) testImage {
	t.Helper()
	base := "http://" + addr + "/v2/" + repo
	layer := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageLayer, Size: size}
	layer.Digest = pushStreamedBlob(t, base, largeTar(t, size))

	config, err := json.Marshal(ocispec.Image{
		Platform: ocispec.Platform{OS: "linux", Architecture: runtime.GOARCH},
		RootFS:   ocispec.RootFS{Type: "layers", DiffIDs: []digest.Digest{layer.Digest}},
	})
	if err != nil {
		t.Fatal(err)
	}
	configDesc := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageConfig, Digest: digest.FromBytes(config), Size: int64(len(config))}
	if got := pushStreamedBlob(t, base, bytes.NewReader(config)); got != configDesc.Digest {
		t.Fatalf("config pushed as %s, want %s", got, configDesc.Digest)
	}
	manifest, err := json.Marshal(ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2},
		MediaType: ocispec.MediaTypeImageManifest,
		Config:    configDesc,
		Layers:    []ocispec.Descriptor{layer},
	})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPut, base+"/manifests/"+tag, bytes.NewReader(manifest))
	req.Header.Set("Content-Type", ocispec.MediaTypeImageManifest)
	registryDo(t, req, http.StatusCreated)
	return testImage{
		Ref:      fmt.Sprintf("%s/%s:%s", addr, repo, tag),
		Repo:     repo,
		Manifest: ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.FromBytes(manifest), Size: int64(len(manifest))},
		Blobs:    []ocispec.Descriptor{configDesc, layer},
	}
}

// pushStreamedBlob uploads body with the distribution API's streamed upload
// (POST, then one PATCH with the body, then PUT with the digest computed on
// the way) and returns its digest.
func pushStreamedBlob(t *testing.T, base string, body io.Reader) digest.Digest {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/blobs/uploads/", nil)
	location := registryDo(t, req, http.StatusAccepted)
	digester := digest.SHA256.Digester()
	req, _ = http.NewRequest(http.MethodPatch, location, io.TeeReader(body, digester.Hash()))
	req.Header.Set("Content-Type", "application/octet-stream")
	location = registryDo(t, req, http.StatusAccepted)
	dgst := digester.Digest()
	u, err := url.Parse(location)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("digest", dgst.String())
	u.RawQuery = q.Encode()
	req, _ = http.NewRequest(http.MethodPut, u.String(), nil)
	registryDo(t, req, http.StatusCreated)
	return dgst
}

// registryDo sends req and returns the absolute Location of the answer,
// which must have status want.
func registryDo(t *testing.T, req *http.Request, want int) string {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		t.Fatalf("%s %s: %s, want %d: %s", req.Method, req.URL, resp.Status, want, body)
	}
	loc, err := resp.Location()
	if err != nil {
		return ""
	}
	return loc.String()
}

// largeTar is a tar of size bytes holding one file: a header block, the
// file's bytes from a deterministic AES-CTR keystream (≈ 8 GB/s, so that
// hashing stays the only real cost) and the two zero blocks that end it.
func largeTar(t *testing.T, size int64) io.Reader {
	t.Helper()
	const block = 512
	if size%block != 0 || size < 3*block {
		t.Fatalf("tar size %d is not a multiple of %d of at least 3 blocks", size, block)
	}
	var header bytes.Buffer
	tw := tar.NewWriter(&header)
	if err := tw.WriteHeader(&tar.Header{Name: "large.bin", Mode: 0o644, Size: size - 3*block, Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	if header.Len() != block {
		t.Fatalf("tar header of %d bytes, want one block", header.Len())
	}
	aesBlock, err := aes.NewCipher(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	keystream := &keystreamReader{s: cipher.NewCTR(aesBlock, make([]byte, aes.BlockSize))}
	return io.MultiReader(&header, io.LimitReader(keystream, size-3*block), bytes.NewReader(make([]byte, 2*block)))
}

type keystreamReader struct{ s cipher.Stream }

func (k *keystreamReader) Read(p []byte) (int, error) {
	clear(p)
	k.s.XORKeyStream(p, p)
	return len(p), nil
}
