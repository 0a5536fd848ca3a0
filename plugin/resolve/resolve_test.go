package resolve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	remoteerrors "github.com/containerd/containerd/v2/core/remotes/errors"
	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/peerclient"
	"github.com/shoal-dev/shoal/plugin/penalty"
)

func TestOnlyAnUnreachableUpstreamIsSecondGuessed(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("failed to do request: %w", &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}), true},
		{&net.DNSError{Err: "no such host", Name: "registry.invalid"}, true},
		{fmt.Errorf("x: %w", syscall.ECONNRESET), true},
		{remoteerrors.ErrUnexpectedStatus{StatusCode: 503, Status: "503 Service Unavailable"}, true},
		{remoteerrors.ErrUnexpectedStatus{StatusCode: 500}, true},
		{remoteerrors.ErrUnexpectedStatus{StatusCode: 401, Status: "401 Unauthorized"}, false},
		{remoteerrors.ErrUnexpectedStatus{StatusCode: 403}, false},
		{remoteerrors.ErrUnexpectedStatus{StatusCode: 429}, false},
		{fmt.Errorf("registry.example/app:v1: %w", errdefs.ErrNotFound), false},
		{fmt.Errorf("pull access denied, repository does not exist or may require authorization: %w", errors.New("denied")), false},
		{errors.New("something else"), false},
		{nil, false},
	} {
		if got := UpstreamUnreachable(tc.err); got != tc.want {
			t.Errorf("UpstreamUnreachable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// tagAnswer answers a HEAD for a manifest like a peer holding target.
func tagAnswer(target ocispec.Descriptor) peerBehaviour {
	return func(req *http.Request) (*http.Response, error) {
		h := http.Header{}
		h.Set("Docker-Content-Digest", target.Digest.String())
		h.Set("Content-Length", strconv.FormatInt(target.Size, 10))
		h.Set("Content-Type", target.MediaType)
		return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(strings.NewReader(""))}, nil
	}
}

var refused = &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}

func TestTagResolvedByPeersOnlyWhenTheyAgree(t *testing.T) {
	m1 := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.FromString("m1"), Size: 100}
	m2 := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.FromString("m2"), Size: 100}
	key := func(ref string) digest.Digest { return digest.FromString(ref) }
	ctx := context.Background()

	agree := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: tagAnswer(m1), peerB: tagAnswer(m1)}}
	f := New(fakeFinder{providers: []peer.ID{peerA, peerB}}, peerclient.New(agree, peerclient.Options{}), Options{ReferenceKey: key})
	name, desc, err := f.Fallback(ctx, "registry.example/app:v1", refused)
	if err != nil || desc.Digest != m1.Digest || name != "registry.example/app:v1" {
		t.Fatalf("got %s %v %v", name, desc.Digest, err)
	}

	disagree := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: tagAnswer(m1), peerB: tagAnswer(m2)}}
	f = New(fakeFinder{providers: []peer.ID{peerA, peerB}}, peerclient.New(disagree, peerclient.Options{}), Options{ReferenceKey: key})
	if _, _, err := f.Fallback(ctx, "registry.example/app:v1", refused); err == nil || !strings.Contains(err.Error(), "disagree") {
		t.Fatalf("disagreeing peers accepted: %v", err)
	}
}

func TestAnswersAreNeverReplacedWhenTheUpstreamSpoke(t *testing.T) {
	m1 := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.FromString("m1"), Size: 100}
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: tagAnswer(m1)}}
	f := New(fakeFinder{providers: []peer.ID{peerA}}, peerclient.New(client, peerclient.Options{}), Options{ReferenceKey: func(string) digest.Digest { return m1.Digest }})
	for _, upstreamErr := range []error{
		remoteerrors.ErrUnexpectedStatus{StatusCode: 401},
		fmt.Errorf("x: %w", errdefs.ErrNotFound),
	} {
		if _, _, err := f.Fallback(context.Background(), "registry.example/app:v1", upstreamErr); err == nil || err.Error() != upstreamErr.Error() {
			t.Errorf("upstream error %v replaced by %v", upstreamErr, err)
		}
	}
	if len(client.sent()) != 0 {
		t.Fatalf("peers asked although the upstream answered: %v", client.sent())
	}
}

func TestDigestReferenceMustBeAnsweredWithThatDigest(t *testing.T) {
	want := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.FromString("m"), Size: 10}
	liar := want
	liar.Digest = digest.FromString("other")
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: tagAnswer(liar), peerB: tagAnswer(want)}}
	f := New(fakeFinder{providers: []peer.ID{peerA, peerB}}, peerclient.New(client, peerclient.Options{}), Options{ReferenceKey: func(string) digest.Digest { return "" }})
	_, desc, err := f.Fallback(context.Background(), "registry.example/app@"+want.Digest.String(), refused)
	if err != nil || desc.Digest != want.Digest {
		t.Fatalf("got %v, %v", desc.Digest, err)
	}
}

type fakeFinder struct{ providers []peer.ID }

func (f fakeFinder) FindProviders(ctx context.Context, d digest.Digest, limit int) ([]peer.AddrInfo, error) {
	var out []peer.AddrInfo
	for _, p := range f.providers {
		out = append(out, peer.AddrInfo{ID: p})
	}
	return out, nil
}

// peerBehaviour answers one request of a fake peer.
type peerBehaviour func(req *http.Request) (*http.Response, error)

type fakeClient struct {
	mu       sync.Mutex
	peers    map[peer.ID]peerBehaviour
	requests []string
}

func (c *fakeClient) sent() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.requests...)
}

func (c *fakeClient) Do(p peer.ID, req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.requests = append(c.requests, fmt.Sprintf("%s %s %s", p, req.Method, req.URL.Path))
	b := c.peers[p]
	c.mu.Unlock()
	if b == nil {
		return nil, errors.New("dial: no such peer")
	}
	return b(req)
}

const (
	peerA peer.ID = "peer-a"
	peerB peer.ID = "peer-b"
)

func TestDescribeVerifiesManifestsAndPenalizesLiars(t *testing.T) {
	manifest := []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}`)
	dgst := digest.FromBytes(manifest)
	serve := func(body []byte) peerBehaviour {
		return func(req *http.Request) (*http.Response, error) {
			h := http.Header{}
			h.Set("Content-Type", ocispec.MediaTypeImageManifest)
			return &http.Response{StatusCode: 200, Header: h, ContentLength: int64(len(body)), Body: io.NopCloser(strings.NewReader(string(body)))}, nil
		}
	}
	liar := []byte(strings.Replace(string(manifest), "2", "3", 1))
	client := &fakeClient{peers: map[peer.ID]peerBehaviour{peerA: serve(liar), peerB: serve(manifest)}}
	board := penalty.New(penalty.Options{})
	r := New(fakeFinder{providers: []peer.ID{peerA, peerB}}, peerclient.New(client, peerclient.Options{}), Options{Penalties: board})
	desc, err := r.Manifest(context.Background(), "registry.example/app", dgst)
	if err != nil || string(desc.Data) != string(manifest) {
		t.Fatalf("got %q, %v", desc.Data, err)
	}
	if !board.IsCorrupt(peerA, dgst) || board.IsCorrupt(peerB, dgst) {
		t.Fatal("the peer that sent a wrong manifest must be penalized, and only it")
	}
}
