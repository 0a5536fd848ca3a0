package integration

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

func TestOnlyNodesSharingTheNetworkKeyExchangeContent(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	outsider := startNode(t, "X", nodeOptions{bootstrap: []string{a.bootstrapAddr()}, networkKey: newNetworkKey(t)})
	im := pushImage(t, reg.Addr, "psk/app", "v1", 3<<20, 2<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)

	before := reg.blobRequests(im.Repo)
	b.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("B (same key) made %d upstream blob requests, want 0", n)
	}
	before = reg.blobRequests(im.Repo)
	outsider.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != len(im.Blobs) {
		t.Fatalf("X (other key) made %d upstream blob requests, want %d: it must get nothing from peers", n, len(im.Blobs))
	}
	// B's log shows the line X's must lack.
	if !b.logContains("connected to bootstrap peer") {
		t.Fatal("B's log does not say it connected to its bootstrap peer A")
	}
	if outsider.logContains("connected to bootstrap peer") {
		t.Fatal("X connected to A without A's network key")
	}
}

func TestAllowListAdmitsOnlyListedPeers(t *testing.T) {
	reg := startRegistry(t)
	aAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	listed := startNode(t, "listed", nodeOptions{bootstrap: []string{aAddr}})
	other := startNode(t, "unlisted", nodeOptions{bootstrap: []string{aAddr}})
	allow := func(ids ...string) string {
		for i := range ids {
			ids[i] = strconv.Quote(ids[i])
		}
		return "allowed_peers = [" + strings.Join(ids, ", ") + "]"
	}
	a := newNodeAt(t, "A", aAddr, nodeOptions{extra: "  " + allow(listed.peerID())})
	a.start()
	a.waitReady()
	// Both dial A now (a restart starts a bootstrap round at once).
	listed.restart()
	other.restart()

	im := pushImage(t, reg.Addr, "allow/app", "v1", 2<<20, 2<<20)
	a.pull(im.Ref)
	a.waitAnnounced(len(im.Blobs) + 1)

	// The listed peer, set up as the unlisted one is, is served by A.
	before := reg.blobRequests(im.Repo)
	listed.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("listed peer made %d upstream blob requests, want 0", n)
	}
	before = reg.blobRequests(im.Repo)
	other.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != len(im.Blobs) {
		t.Fatalf("unlisted peer made %d upstream blob requests, want %d", n, len(im.Blobs))
	}

	// The same node, once A lists it too, is served by A: the list alone
	// kept it out.
	cfg, err := os.ReadFile(a.Config)
	if err != nil {
		t.Fatal(err)
	}
	cfg = bytes.Replace(cfg, []byte(allow(listed.peerID())), []byte(allow(listed.peerID(), other.peerID())), 1)
	if err := os.WriteFile(a.Config, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	a.restart()
	other.restart()
	second := pushImage(t, reg.Addr, "allow/second", "v1", 2<<20)
	a.pull(second.Ref)
	// Everything A holds now: both images' blobs, manifests and names.
	a.waitAnnounced(len(im.Blobs) + len(second.Blobs) + 4)
	waitFor(t, 30*time.Second, "the formerly unlisted peer to connect to A", func() bool { return other.connectedPeers() >= 1 })
	before = reg.blobRequests(second.Repo)
	other.pull(second.Ref)
	if n := reg.blobRequests(second.Repo) - before; n != 0 {
		t.Fatalf("the formerly unlisted peer, now listed, made %d upstream blob requests, want 0", n)
	}
}

// htpasswdRegistry is a registry that serves only user "alice".
func htpasswdRegistry(t *testing.T) *upstream {
	hash, err := bcrypt.GenerateFromPassword([]byte(registryPassword), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(shortTempDir(t, "auth-"), "htpasswd")
	if err := os.WriteFile(path, []byte(registryUser+":"+string(hash)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return startRegistryWith(t, fmt.Sprintf("auth:\n  htpasswd:\n    realm: shoal-test\n    path: %s\n", path))
}

// Against a registry with basic auth, and one whose token service grants
// private/ repositories only to a user (public/ to anyone).
func TestCredentialsStayWithTheUpstream(t *testing.T) {
	forEachRegistry(t, []registryKind{htpasswdRegistryKind, tokenRegistryKind}, testCredentialsStayWithTheUpstream)
}

func testCredentialsStayWithTheUpstream(t *testing.T, reg *testRegistry) {
	a := startNode(t, "A", nodeOptions{})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	c := startNode(t, "C", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := reg.push(t, "private/app", "v1", 3<<20, 1<<20)
	byDigest := reg.Addr + "/" + im.Repo + "@" + im.Manifest.Digest.String()

	a.ctr(reg.pullArgs(im.Ref, true)...)
	a.waitAnnounced(len(im.Blobs) + 2)

	// B has no credentials: neither by tag nor by digest, although A holds it.
	for _, ref := range []string{im.Ref, byDigest} {
		if out, err := b.ctrErr(time.Minute, reg.pullArgs(ref, false)...); err == nil {
			t.Fatalf("B pulled %s without credentials:\n%s", ref, out)
		}
	}
	if _, err := os.Stat(b.blobPath(im.largest().Digest)); err == nil {
		t.Fatal("B holds a layer of the private image")
	}

	// C has them: the registry confirms the tag, the blobs come from A.
	before := reg.blobRequests(im.Repo)
	c.ctr(reg.pullArgs(im.Ref, true)...)
	if n := reg.blobRequests(im.Repo) - before; n != 0 {
		t.Fatalf("C made %d upstream blob requests, want 0", n)
	}
	c.requireIntact(im)

	// With the registry down, nobody gets the private image through peers.
	reg.stop()
	for _, ref := range []string{im.Ref, byDigest} {
		out, err := b.ctrErr(time.Minute, reg.pullArgs(ref, false)...)
		if err == nil {
			t.Fatalf("B pulled private %s from peers while the registry was down:\n%s", ref, out)
		}
		t.Logf("B, registry down, %s: %s", ref, lastLine(out))
	}
}

func TestRoguePeerCannotRepointATag(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{})
	rogue := startNode(t, "rogue", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	d := startNode(t, "D", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	good := pushImage(t, reg.Addr, "rogue/app", "v1", 2<<20)
	evil := pushImage(t, reg.Addr, "rogue/evil", "v1", 2<<20)
	a.pull(good.Ref)
	// The rogue holds another image and claims it is rogue/app:v1.
	rogue.pull(evil.Ref)
	rogue.ctr("image", "tag", evil.Ref, good.Ref)
	a.waitAnnounced(len(good.Blobs) + 2)
	rogue.waitAnnounced(len(evil.Blobs) + 3)

	b.pull(good.Ref)
	if got := imageDigest(b, good.Ref); got != good.Manifest.Digest.String() {
		t.Fatalf("B's %s points to %s, want %s", good.Ref, got, good.Manifest.Digest)
	}

	// Registry down: A and the rogue disagree, so no peer answer is taken.
	reg.stop()
	out, err := d.ctrErr(time.Minute, "image", "pull", "--plain-http", good.Ref)
	if err == nil {
		t.Fatalf("D resolved a disputed tag from peers: now %s\n%s", imageDigest(d, good.Ref), out)
	}
	if !strings.Contains(out, "disagree") {
		t.Fatalf("D's error does not say the peers disagree: %s", out)
	}
}

func TestContentOfAPrivateNamespaceIsNotServedEvenByDigest(t *testing.T) {
	reg := startRegistry(t)
	a := startNode(t, "A", nodeOptions{extra: `  private_namespaces = ["secret"]`})
	b := startNode(t, "B", nodeOptions{bootstrap: []string{a.bootstrapAddr()}})
	im := pushImage(t, reg.Addr, "ns/secret", "v1", 2<<20, 1<<20)
	a.ctr("-n", "secret", "image", "pull", "--plain-http", im.Ref)
	// The control: what A holds in a shared namespace, the same client and
	// B do get from A.
	shared := pushImage(t, reg.Addr, "ns/shared", "v1", 2<<20, 1<<20)
	a.pull(shared.Ref)
	a.waitAnnounced(len(shared.Blobs) + 1)

	client, id := peerClient(t, a)
	for _, blob := range shared.Data.Blobs() {
		if err := getAndCheck(client, id, shared.Repo, blob, 0); err != nil {
			t.Fatalf("A did not serve %s of a shared namespace: %v", blob.Desc.Digest, err)
		}
	}
	before := reg.blobRequests(shared.Repo)
	b.pull(shared.Ref)
	if n := reg.blobRequests(shared.Repo) - before; n != 0 {
		t.Fatalf("B made %d upstream blob requests for what A shares, want 0", n)
	}

	for _, blob := range im.Data.Blobs() {
		if err := getAndCheck(client, id, im.Repo, blob, 0); err == nil || !strings.Contains(err.Error(), "404") {
			t.Fatalf("A served %s of a private namespace: %v", blob.Desc.Digest, err)
		}
	}
	before = reg.blobRequests(im.Repo)
	b.pull(im.Ref)
	if n := reg.blobRequests(im.Repo) - before; n != len(im.Blobs) {
		t.Fatalf("B made %d upstream blob requests, want %d: nothing of A's private namespace may come from A", n, len(im.Blobs))
	}
	_ = http.StatusNotFound
}

func imageDigest(n *node, ref string) string {
	for _, line := range strings.Split(n.ctr("image", "ls"), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == ref {
			return f[2]
		}
	}
	return ""
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
