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

// criPull is what CRI counted as pulled bytes during one pull of an image:
// at each of its progress checks, and at the pull's end.
type criPull struct {
	checks []int64
	end    int64
}

// criPulls reads CRI's counts for ref's pulls from n's current log: the
// debug line of each progress check and the line each pull ends with.
func (n *node) criPulls(ref string) []criPull {
	data, _ := os.ReadFile(n.Logs()[len(n.Logs())-1])
	check := regexp.MustCompile(`msg="progress for image pull" .*ref="` + regexp.QuoteMeta(ref) + `" .*totalBytesRead=(\d+)`)
	end := regexp.MustCompile(`stop pulling image ` + regexp.QuoteMeta(ref) + `: active requests=\d+, bytes read=(\d+)`)
	var pulls []criPull
	var cur criPull
	for _, line := range strings.Split(string(data), "\n") {
		if m := check.FindStringSubmatch(line); m != nil {
			v, _ := strconv.ParseInt(m[1], 10, 64)
			cur.checks = append(cur.checks, v)
		} else if m := end.FindStringSubmatch(line); m != nil {
			cur.end, _ = strconv.ParseInt(m[1], 10, 64)
			pulls = append(pulls, cur)
			cur = criPull{}
		}
	}
	return pulls
}

// grew reports whether CRI saw the count rise between two of its checks
// (the end included) while the pull ran.
func (p criPull) grew() bool {
	seen := append(append([]int64(nil), p.checks...), p.end)
	for i := 1; i < len(seen); i++ {
		if seen[i-1] > 0 && seen[i] > seen[i-1] {
			return true
		}
	}
	return false
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
// did not have them. CRI sees a peer layer's count rise while it arrives:
// with a progress timeout shorter than the pull, a pull that showed no
// progress would be cancelled. A CRI pull interrupted midway does not spoil
// the next one. Peers serve every layer: the registry's own count says so.
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
		// How a layer ends is not checked: ctr's last frame can miss the
		// progress stream's last events (containerd's client returns when
		// the transfer does, without draining its progress stream:
		// core/transfer/proxy), and a layer committed ended shown
		// "downloading 8.0 MiB/12.0 MiB" in one run of many.
	}

	// CRI: a pull interrupted midway through the big layer. containerd
	// collects its ingest once the pull's lease is gone, so the next pull
	// starts that layer again.
	im2 := reg.push(t, "public/progress-cri", "v1", 24<<20, 1<<20)
	a.ctr(reg.pullArgs(im2.Ref, false)...)
	a.waitAnnounced(2*(len(im.Blobs)+1) - 1) // the config is shared
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	_, err := b.criImages().PullImage(ctx, &runtime.PullImageRequest{Image: &runtime.ImageSpec{Image: im2.Ref}})
	cancel()
	if err == nil {
		t.Fatal("the interrupted CRI pull finished: the download cap did not hold")
	}
	// CRI logs the interrupted pull's end a moment after it returned.
	for deadline := time.Now().Add(5 * time.Second); len(b.criPulls(im2.Ref)) == 0 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	pulled := len(b.criPulls(im2.Ref))
	if pulled != 1 {
		t.Fatalf("CRI logged %d ends of the interrupted pull, want 1", pulled)
	}
	before = reg.blobRequests(im2.Repo)
	start := time.Now()
	b.criPull(im2.Ref)
	took := time.Since(start)
	if n := reg.blobRequests(im2.Repo) - before; n != 0 {
		t.Fatalf("B's CRI pull made %d upstream blob requests, want 0", n)
	}
	pulls := b.criPulls(im2.Ref)
	if len(pulls) != pulled+1 {
		t.Fatalf("CRI logged %d pull ends, want %d", len(pulls), pulled+1)
	}
	// The count at the end misses the bytes written after CRI's last
	// progress event when the pull ends first (containerd's tracker sends
	// one every 300 ms), so what is asserted is that it rose.
	p := pulls[pulled]
	t.Logf("CRI's count during the pull (%s): checks %v, end %d", took.Round(time.Millisecond), p.checks, p.end)
	if took < 2*time.Second {
		t.Fatalf("the CRI pull took %s, less than its progress timeout: the download cap did not hold", took)
	}
	if !p.grew() {
		t.Fatalf("CRI's count of pulled bytes did not rise between its checks: %v, end %d", p.checks, p.end)
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
