package fetcher

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// byDigestFinder knows the providers of each digest.
type byDigestFinder map[digest.Digest][]peer.ID

func (f byDigestFinder) FindProviders(ctx context.Context, d digest.Digest, limit int) ([]peer.AddrInfo, error) {
	return fakeFinder{providers: f[d]}.FindProviders(ctx, d, limit)
}

// registry is an upstream holding several blobs; safe for concurrent use.
type registry map[digest.Digest][]byte

func (r registry) Fetch(ctx context.Context, d ocispec.Descriptor) (io.ReadCloser, error) {
	data, ok := r[d.Digest]
	if !ok {
		return nil, errdefs.ErrNotFound
	}
	return readSeekCloser{bytes.NewReader(data)}, nil
}

// fetchWith reads d through pf.
func fetchWith(t *testing.T, pf *PeerFirst, d ocispec.Descriptor) []byte {
	t.Helper()
	rc, err := pf.Fetch(testNamespace(), d)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestAPullsTallySaysWhichSourceSentWhatAndHowOftenPeersFailedIt(t *testing.T) {
	manifest := []byte(`{"mediaType":"application/vnd.oci.image.manifest.v1+json","layers":[]}`)
	config := randomBytes(t, 100)
	layer1 := randomBytes(t, 64<<10)
	layer2 := randomBytes(t, 64<<10)
	dm, dc := desc(manifest, ocispec.MediaTypeImageManifest), desc(config, ocispec.MediaTypeImageConfig)
	d1, d2 := desc(layer1, ocispec.MediaTypeImageLayer), desc(layer2, ocispec.MediaTypeImageLayer)

	client := &fakeClient{peers: map[peer.ID]peerBehaviour{
		// A sends a corrupt manifest and breaks off both layers; B holds
		// the manifest and breaks off the second layer; C holds the first.
		peerA: func(req *http.Request) (*http.Response, error) {
			switch {
			case strings.HasSuffix(req.URL.Path, dm.Digest.String()):
				return serves(bytes.ToUpper(manifest))(req)
			case strings.HasSuffix(req.URL.Path, d1.Digest.String()):
				return breaksAfter(layer1, 10000)(req)
			}
			return breaksAfter(layer2, 5000)(req)
		},
		peerB: func(req *http.Request) (*http.Response, error) {
			if strings.HasSuffix(req.URL.Path, dm.Digest.String()) {
				return serves(manifest)(req)
			}
			return breaksAfter(layer2, 7000)(req)
		},
		peerC: serves(layer1),
	}}
	finder := byDigestFinder{
		dm.Digest: {peerA, peerB},
		d1.Digest: {peerA, peerC},
		d2.Digest: {peerA, peerB},
		// Nobody holds the config.
	}
	up := registry{dc.Digest: config, d2.Digest: layer2}
	store := newStore(t)
	f := newFetcher(t, finder, client, Options{Store: store})
	pf := f.WrapFetcher(up, "registry.example/team/app:v1")

	if got := pf.Received(); got.Upstream != 0 || len(got.Peers) != 0 || got.Failovers != 0 || got.Peers == nil {
		t.Fatalf("before the pull: %+v", got)
	}
	for _, d := range []ocispec.Descriptor{dm, dc, d1, d2} {
		want := map[digest.Digest][]byte{dm.Digest: manifest, dc.Digest: config, d1.Digest: layer1, d2.Digest: layer2}[d.Digest]
		if got := fetchWith(t, pf, d); !bytes.Equal(got, want) {
			t.Fatalf("%s: content differs", d.Digest)
		}
	}

	got := pf.Received()
	// Blobs up to 4 MiB are read whole: what a peer sent before it broke
	// off is not kept.
	wantPeers := map[peer.ID]int64{
		peerB: int64(len(manifest)),
		peerC: int64(len(layer1)),
	}
	if len(got.Peers) != len(wantPeers) {
		t.Fatalf("peers %v, want %v", got.Peers, wantPeers)
	}
	for p, n := range wantPeers {
		if got.Peers[p] != n {
			t.Errorf("%s sent %d bytes, want %d", p, got.Peers[p], n)
		}
	}
	if want := int64(len(config) + len(layer2)); got.Upstream != want {
		t.Errorf("upstream %d bytes, want %d", got.Upstream, want)
	}
	// A's manifest, A's first layer, A and B's second layer.
	if got.Failovers != 4 {
		t.Errorf("failovers %d, want 4", got.Failovers)
	}
	// The fetcher's own counters saw the same.
	st := f.Stats()
	if st.PeerBytes.Load() != wantPeers[peerB]+wantPeers[peerC] || st.UpstreamBytes.Load() != got.Upstream {
		t.Errorf("fetcher stats: peer %d, upstream %d", st.PeerBytes.Load(), st.UpstreamBytes.Load())
	}

	// What was handed out is a copy.
	got.Peers[peerB] = 0
	if pf.Received().Peers[peerB] == 0 {
		t.Fatal("Received shares its map")
	}
}

func TestATallyAddsUpConcurrentFetches(t *testing.T) {
	f := newFetcher(t, fakeFinder{}, &fakeClient{}, Options{})
	blobs := registry{}
	var descs []ocispec.Descriptor
	for range 16 {
		data := randomBytes(t, 1000)
		d := desc(data, ocispec.MediaTypeImageLayer)
		blobs[d.Digest] = data
		descs = append(descs, d)
	}
	pf := f.WrapFetcher(blobs, "registry.example/team/app:v1")
	var wg sync.WaitGroup
	for _, d := range descs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rc, err := pf.Fetch(testNamespace(), d)
			if err != nil {
				t.Error(err)
				return
			}
			defer rc.Close()
			if _, err := io.Copy(io.Discard, rc); err != nil {
				t.Error(err)
			}
			pf.Received()
		}()
	}
	wg.Wait()
	if got := pf.Received().Upstream; got != 16*1000 {
		t.Fatalf("upstream %d bytes, want %d", got, 16*1000)
	}
}
