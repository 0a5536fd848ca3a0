package inflight

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/containerd/v2/plugins"
	_ "github.com/containerd/containerd/v2/plugins/content/local/plugin"
	"github.com/containerd/errdefs"
	"github.com/containerd/plugin/registry"

	"github.com/shoal-dev/shoal/plugin/contenttest"
)

// contentStore builds the content store as containerd does: the metadata
// store over the local store, in the directory containerd gives the local
// store's plugin. It returns both stores and the local store's root.
func contentStore(tb testing.TB) (cs, backend content.Store, contentRoot string) {
	tb.Helper()
	var uris []string
	for _, r := range registry.Graph(nil) {
		if r.Type == plugins.ContentPlugin {
			uris = append(uris, r.URI())
		}
	}
	if len(uris) != 1 {
		tb.Fatalf("content plugins registered: %v, want the local store alone", uris)
	}
	if uris[0] != contenttest.ContentPluginURI {
		tb.Fatalf("the local store registers as %s, not %s", uris[0], contenttest.ContentPluginURI)
	}
	env := contenttest.New(tb)
	return env.Store, env.Backend, env.ContentRoot
}

// openWriter opens a writer of ref in namespace ns, closed with the test.
func openWriter(t *testing.T, cs content.Store, ns, ref string) content.Writer {
	t.Helper()
	w, err := content.OpenWriter(namespaces.WithNamespace(context.Background(), ns), cs, content.WithRef(ref))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func readAll(t *testing.T, f *os.File) []byte {
	t.Helper()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(io.NewSectionReader(f, 0, st.Size()))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestContentRootIsWhereContainerdPutsTheLocalStore(t *testing.T) {
	_, _, contentRoot := contentStore(t)
	p2pRoot := filepath.Join(filepath.Dir(contentRoot), "io.containerd.server.v1.p2p")
	got, err := ContentRoot(p2pRoot)
	if err != nil || got != contentRoot {
		t.Fatalf("ContentRoot(%s) = %q, %v; want %q", p2pRoot, got, err, contentRoot)
	}

	elsewhere := filepath.Join(t.TempDir(), "io.containerd.server.v1.p2p")
	if _, err := ContentRoot(elsewhere); !errdefs.IsNotFound(err) {
		t.Fatalf("no local store: %v, want not found", err)
	}
	if _, err := ContentRoot(""); !errdefs.IsInvalidArgument(err) {
		t.Fatalf("no plugin root: %v, want invalid argument", err)
	}
}

// TestIngestLayoutOfTheVendoredStore fails if containerd's metadata or local
// store changes how it lays out an ingest on disk.
func TestIngestLayoutOfTheVendoredStore(t *testing.T) {
	cs, _, contentRoot := contentStore(t)
	open := ingestOpener(contentRoot)
	mine, theirs := []byte("the first bytes of layer-1 in ns1"), []byte("ns2's layer-1")

	w := openWriter(t, cs, "ns1", "layer-1")
	if _, err := w.Write(mine); err != nil {
		t.Fatal(err)
	}
	// Neither the same ref in another namespace nor a ref ending like it.
	if _, err := openWriter(t, cs, "ns2", "layer-1").Write(theirs); err != nil {
		t.Fatal(err)
	}
	if _, err := openWriter(t, cs, "ns1", "other/layer-1").Write([]byte("another ref")); err != nil {
		t.Fatal(err)
	}

	f, err := open("ns1", "layer-1")
	if err != nil {
		t.Fatalf("the ingest being written is not found: %v", err)
	}
	defer f.Close()
	if got := readAll(t, f); !bytes.Equal(got, mine) {
		t.Fatalf("the ingest reads %q, want %q", got, mine)
	}
	f2, err := open("ns2", "layer-1")
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	if got := readAll(t, f2); !bytes.Equal(got, theirs) {
		t.Fatalf("ns2's ingest reads %q, want %q", got, theirs)
	}
	if _, err := open("ns3", "layer-1"); !errdefs.IsNotFound(err) {
		t.Fatalf("a namespace with no such ingest: %v, want not found", err)
	}

	// The commit renames the data file into the blob store; what is open
	// still reads.
	ctx := namespaces.WithNamespace(context.Background(), "ns1")
	if err := w.Commit(ctx, int64(len(mine)), ""); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, f); !bytes.Equal(got, mine) {
		t.Fatalf("after the commit the open file reads %q, want %q", got, mine)
	}
	if _, err := open("ns1", "layer-1"); !errdefs.IsNotFound(err) {
		t.Fatalf("a committed ingest: %v, want not found", err)
	}
}

func TestSequenceOfABackendRef(t *testing.T) {
	for _, tc := range []struct {
		backendRef, ns, ref string
		seq                 uint64
		ok                  bool
	}{
		{"ns1/7/layer-1", "ns1", "layer-1", 7, true},
		{"ns1/7/a/layer-1", "ns1", "a/layer-1", 7, true},
		{"ns1/7/a/layer-1", "ns1", "layer-1", 0, false},
		{"ns10/7/layer-1", "ns1", "layer-1", 0, false},
		{"ns1/x/layer-1", "ns1", "layer-1", 0, false},
		{"ns1/layer-1", "ns1", "layer-1", 0, false},
	} {
		seq, ok := sequenceOf(tc.backendRef, tc.ns, tc.ref)
		if seq != tc.seq || ok != tc.ok {
			t.Errorf("sequenceOf(%q, %q, %q) = %d, %v; want %d, %v", tc.backendRef, tc.ns, tc.ref, seq, ok, tc.seq, tc.ok)
		}
	}
}
