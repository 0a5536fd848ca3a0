package integration

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	runtime "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// layerStates reads `ctr image pull` output: for each blob (by the short
// digest ctr shows), every state it was shown in, in order.
func layerStates(out string) map[string][]string {
	states := map[string][]string{}
	row := regexp.MustCompile(`(?:layer|config|manifest) \(([0-9a-f]{12})\)`)
	for _, line := range strings.Split(out, "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) < 2 {
			continue
		}
		m := row.FindStringSubmatch(fields[0])
		if m == nil {
			continue
		}
		state := strings.TrimSpace(fields[1])
		if seen := states[m[1]]; len(seen) == 0 || seen[len(seen)-1] != state {
			states[m[1]] = append(seen, state)
		}
	}
	return states
}

// criPullEnds is what CRI counted as pulled for ref, at each pull's end,
// from the line it logs then.
func (n *node) criPullEnds(ref string) []int64 {
	data, _ := os.ReadFile(n.Logs()[len(n.Logs())-1])
	re := regexp.MustCompile(`stop pulling image ` + regexp.QuoteMeta(ref) + `: active requests=\d+, bytes read=(\d+)`)
	var out []int64
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		out = append(out, n)
	}
	return out
}

func layers(im testImage) []ocispec.Descriptor {
	var out []ocispec.Descriptor
	for _, d := range im.Blobs {
		if d.MediaType != ocispec.MediaTypeImageConfig {
			out = append(out, d)
		}
	}
	return out
}

// Layers from peers show their bytes arriving, in `ctr image pull` and in
// CRI's count of pulled bytes, and never as "already exists" on a node that
// did not have them. A CRI pull that finds an ingest an interrupted pull
// left behind continues it, and CRI sees it move: with a progress timeout
// shorter than the pull, a pull that showed no progress would be cancelled.
// Peers serve every layer: the registry's own count says so.
func TestPeerLayersShowTheirProgressInCtrAndCRI(t *testing.T) {
	reg := startTLSRegistry(t)
	a := startNode(t, "A", nodeOptions{hostsDir: reg.hostsDir})
	// B's peer downloads are capped so that its pulls take seconds.
	b := startNode(t, "B", nodeOptions{hostsDir: reg.hostsDir, bootstrap: []string{a.bootstrapAddr()}, extra: `max_download_bytes_per_second = 8000000
[plugins."io.containerd.cri.v1.images"]
  image_pull_progress_timeout = "2s"`})

	im := reg.push(t, "public/progress", "v1", 12<<20, 6<<20, 1<<20)
	a.ctr(reg.pullArgs(im.Ref, false)...)
	a.waitAnnounced(len(im.Blobs) + 1)
	before := reg.blobRequests(im.Repo)
	out := b.ctr(reg.pullArgs(im.Ref, false)...)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B's pull made %d upstream blob requests, want 0", n)
	}
	states := layerStates(out)
	if i := strings.LastIndex(out, "downloading"); i >= 0 {
		frame := out[:i]
		frame = frame[strings.LastIndex(frame, "Pulling from"):]
		t.Logf("a frame of B's ctr output:\n%s", ansi.ReplaceAllString(frame+out[i:i+strings.Index(out[i:], "\n")], ""))
	}
	for _, l := range layers(im) {
		short := l.Digest.Encoded()[:12]
		seen := states[short]
		if len(seen) == 0 {
			t.Fatalf("ctr never showed layer %s:\n%s", short, out)
		}
		for _, s := range seen {
			if s == "already exists" {
				t.Errorf("layer %s (%d bytes), fetched from a peer, shown as %q: %v", short, l.Size, s, seen)
			}
		}
		if l.Size > 4<<20 && !contains(seen, "downloading") {
			t.Errorf("layer %s (%d bytes) never shown downloading: %v", short, l.Size, seen)
		}
		if last := seen[len(seen)-1]; last != "extracted" && last != "complete" {
			t.Errorf("layer %s ends %q: %v", short, last, seen)
		}
	}

	// CRI: a pull interrupted midway leaves containerd's ingest of the big
	// layer behind; the next pull continues it.
	im2 := reg.push(t, "public/progress-cri", "v1", 24<<20, 1<<20)
	big := layers(im2)[0]
	a.ctr(reg.pullArgs(im2.Ref, false)...)
	a.waitAnnounced(2*(len(im.Blobs)+1) - 1) // the config is shared
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	_, err := b.criImages().PullImage(ctx, &runtime.PullImageRequest{Image: &runtime.ImageSpec{Image: im2.Ref}})
	cancel()
	if err == nil {
		t.Fatal("the interrupted CRI pull finished: the download cap did not hold")
	}
	partial := b.settledIngest("k8s.io", big.Digest)
	if partial <= 0 || partial >= big.Size {
		t.Fatalf("the interrupted pull left %d bytes of %d in containerd's ingest, want part of it", partial, big.Size)
	}
	ended := len(b.criPullEnds(im2.Ref))
	before = reg.blobRequests(im2.Repo)
	b.criPull(im2.Ref)
	if n := reg.blobRequests(im2.Repo) - before; n != 0 {
		t.Fatalf("B's CRI pull made %d upstream blob requests, want 0", n)
	}
	ends := b.criPullEnds(im2.Ref)
	if len(ends) != ended+1 {
		t.Fatalf("CRI logged %d pull ends, want %d", len(ends), ended+1)
	}
	if got := ends[ended]; got < big.Size-partial {
		t.Fatalf("CRI counted %d bytes pulled, want at least the %d the layer lacked", got, big.Size-partial)
	}
	b.requireIntact(im2)
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
