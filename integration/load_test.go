package integration

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/shoal-dev/shoal/integration/cluster"
	"github.com/shoal-dev/shoal/plugin/netkey"
	"github.com/shoal-dev/shoal/plugin/peerhttp"
)

// rssKiB reads a process's resident set size.
func rssKiB(t *testing.T, pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			var kib int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kib)
			return kib
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// peerClient joins the peer network as a bare libp2p host (a real client of
// the content service, as another node would be) and connects to n.
func peerClient(t *testing.T, n *node) (*peerhttp.Client, peer.ID) {
	return peerClientWith(t, n, peerhttp.ClientOptions{IdleTimeout: 10 * time.Second})
}

func peerClientWith(t *testing.T, n *node, opts peerhttp.ClientOptions) (*peerhttp.Client, peer.ID) {
	t.Helper()
	out := n.ctr("plugins", "ls", "-d", "id==p2p")
	m := regexp.MustCompile(`listen_addresses\s+(\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no listen_addresses in exports:\n%s", out)
	}
	info, err := peer.AddrInfoFromP2pAddr(ma.StringCast(strings.Split(m[1], ",")[0]))
	if err != nil {
		t.Fatal(err)
	}
	psk, err := netkey.Load(networkKey(t))
	if err != nil {
		t.Fatal(err)
	}
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.PrivateNetwork(psk))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.Connect(ctx, *info); err != nil {
		t.Fatal(err)
	}
	c := peerhttp.NewClient(h, opts)
	t.Cleanup(c.Close)
	return c, info.ID
}

func TestContentServiceUnderConcurrentLoadAnswersCorrectlyInBoundedMemory(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	im := pushImage(t, reg.Addr, "load/app", "v1", 4<<20, 4<<20, 4<<20, 4<<20)
	a.pull(im.Ref)
	// Held and shared (A has no peer to announce to).
	waitFor(t, 30*time.Second, "A to hold the image", func() bool { return a.heldKeys() >= len(im.Blobs)+1 })
	client, id := peerClient(t, a)
	blobs := im.Data.Blobs()

	var peakKiB atomic.Int64
	baseKiB := rssKiB(t, a.PID())
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if r := rssKiB(t, a.PID()); r > peakKiB.Load() {
				peakKiB.Store(r)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	// 32 concurrent streams (the per-peer limit), 16 requests each: whole
	// blobs and open-ended ranges, every body checked byte for byte.
	const workers, perWorker = 32, 16
	var (
		wg       sync.WaitGroup
		bad      atomic.Int64
		served   atomic.Int64
		firstErr sync.Once
		errMsg   string
	)
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(seed, 1))
			for i := 0; i < perWorker; i++ {
				b := blobs[rnd.IntN(len(blobs))]
				offset := int64(0)
				if rnd.IntN(2) == 1 {
					offset = rnd.Int64N(b.Desc.Size)
				}
				err := getAndCheck(client, id, im.Repo, b, offset)
				if err != nil {
					bad.Add(1)
					firstErr.Do(func() { errMsg = err.Error() })
					continue
				}
				served.Add(int64(len(b.Data)) - offset)
			}
		}(uint64(w))
	}
	wg.Wait()
	took := time.Since(start)
	close(stopSampling)
	<-sampled
	if bad.Load() > 0 {
		t.Fatalf("%d of %d requests answered wrongly; first: %s", bad.Load(), workers*perWorker, errMsg)
	}
	growthMiB := float64(peakKiB.Load()-baseKiB) / 1024
	t.Logf("%d requests, %.0f MiB served in %s by A; A's RSS %.0f MiB before, peak +%.0f MiB",
		workers*perWorker, float64(served.Load())/(1<<20), took.Round(time.Millisecond), float64(baseKiB)/1024, growthMiB)
	// In flight at once: 32 requests of up to 4 MiB. A server that held
	// whole blobs in memory would grow by more than that.
	if growthMiB > 96 {
		t.Fatalf("A's memory grew by %.0f MiB while serving: content must stream", growthMiB)
	}
}

func getAndCheck(c *peerhttp.Client, p peer.ID, repo string, b cluster.Blob, offset int64) error {
	req, _ := http.NewRequest(http.MethodGet, "/v2/"+repo+"/blobs/"+b.Desc.Digest.String(), nil)
	want := http.StatusOK
	if offset > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", offset))
		want = http.StatusPartialContent
	}
	resp, err := c.Do(p, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		return fmt.Errorf("%s at %d: status %s", b.Desc.Digest, offset, resp.Status)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if !bytes.Equal(body, b.Data[offset:]) {
		return fmt.Errorf("%s at %d: wrong bytes", b.Desc.Digest, offset)
	}
	return nil
}

// heldKeys is how many digests and names the node holds and would announce
// (`shoal status`).
func (n *node) heldKeys() int {
	st, _ := n.status()
	return st.AnnouncedKeys
}
