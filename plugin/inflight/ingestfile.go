package inflight

// This file holds all the package knows of how containerd's local content
// store lays itself out on disk; the rest sees only an opener of the
// arriving data file. TestIngestLayoutOfTheVendoredStore fails if the
// vendored store changes what is assumed here.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/containerd/containerd/v2/plugins"
	"github.com/containerd/errdefs"
)

// contentPluginDir is the local content store's directory under containerd's
// root: a plugin's root is <root>/<type>.<id>, and the store registers as
// ID "content" of the content plugin type.
const contentPluginDir = string(plugins.ContentPlugin) + ".content"

// ContentRoot returns the root of containerd's local content store, given
// the root dir (plugins.PropertyRootDir) of another plugin of the same
// containerd. It fails with a not-found error if the store is not there, as
// when containerd keeps its content elsewhere.
func ContentRoot(pluginRoot string) (string, error) {
	if pluginRoot == "" {
		return "", fmt.Errorf("plugin root dir not set: %w", errdefs.ErrInvalidArgument)
	}
	dir := filepath.Join(filepath.Dir(pluginRoot), contentPluginDir)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("local content store not found at %s: %w", dir, errdefs.ErrNotFound)
	case err != nil:
		return "", fmt.Errorf("local content store at %s: %w", dir, err)
	case !st.IsDir():
		return "", fmt.Errorf("local content store at %s is not a directory: %w", dir, errdefs.ErrNotFound)
	}
	return dir, nil
}

// opener opens the data file of the ingest receiving ref in namespace ns.
type opener func(ns, ref string) (*os.File, error)

// ingestOpener opens ingests of the local content store at contentRoot.
func ingestOpener(contentRoot string) opener {
	ingests := filepath.Join(contentRoot, "ingest")
	return func(ns, ref string) (*os.File, error) {
		return openIngest(ingests, ns, ref)
	}
}

// openIngest opens the data file of the ingest that the metadata store
// opened for ref in namespace ns. The local store keeps an ingest in
// ingest/<digest of its ref>/, its ref in "ref" and its bytes in "data";
// the metadata store names it "<ns>/<sequence>/<ref>". The sequence is not
// known here, so the refs are scanned; of several matches (one left by a
// crash), the highest sequence is the newest.
func openIngest(ingests, ns, ref string) (*os.File, error) {
	entries, err := os.ReadDir(ingests)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var (
		found string
		seq   uint64
	)
	for _, e := range entries {
		dir := filepath.Join(ingests, e.Name())
		name, err := os.ReadFile(filepath.Join(dir, "ref"))
		if err != nil {
			continue // gone, or not yet written
		}
		if n, ok := sequenceOf(string(name), ns, ref); ok && (found == "" || n > seq) {
			found, seq = dir, n
		}
	}
	if found == "" {
		return nil, fmt.Errorf("ingest %s of namespace %s not in %s: %w", ref, ns, ingests, errdefs.ErrNotFound)
	}
	f, err := os.Open(filepath.Join(found, "data"))
	if errors.Is(err, fs.ErrNotExist) {
		// Committed or aborted since the scan.
		return nil, fmt.Errorf("ingest %s of namespace %s ended: %w", ref, ns, errdefs.ErrNotFound)
	}
	return f, err
}

// sequenceOf returns the metadata store's sequence in a backend ref, if that
// ref is the one it made for ref in namespace ns. Namespaces hold no "/",
// refs may.
func sequenceOf(backendRef, ns, ref string) (uint64, bool) {
	rest, ok := strings.CutPrefix(backendRef, ns+"/")
	if !ok {
		return 0, false
	}
	seq, r, ok := strings.Cut(rest, "/")
	if !ok || r != ref {
		return 0, false
	}
	n, err := strconv.ParseUint(seq, 10, 64)
	return n, err == nil
}
