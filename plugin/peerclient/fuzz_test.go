package peerclient

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opencontainers/go-digest"
)

// Whatever headers a peer answers a tag query with, the client either
// rejects them or returns a descriptor that is well-formed and bounded.
func FuzzHeadManifest(f *testing.F) {
	f.Add(200, digest.FromString("m").String(), "512", "application/vnd.oci.image.manifest.v1+json")
	f.Add(200, "sha256:zz", "-1", "text/html")
	f.Add(404, "", "", "")
	f.Fuzz(func(t *testing.T, status int, dgst, length, mediaType string) {
		if status < 100 || status > 999 {
			return
		}
		c := New(transport(func(req *http.Request) (*http.Response, error) {
			h := http.Header{}
			h.Set("Docker-Content-Digest", dgst)
			h.Set("Content-Length", length)
			h.Set("Content-Type", mediaType)
			return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(""))}, nil
		}), Options{})
		desc, err := c.HeadManifest(context.Background(), peerA, repo, "v1")
		if err != nil {
			return
		}
		if desc.Digest.Validate() != nil || desc.Size <= 0 || desc.Size > c.MaxManifestSize() || desc.MediaType == "" {
			t.Fatalf("accepted a bad descriptor: %+v", desc)
		}
	})
}
