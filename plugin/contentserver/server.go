// Package contentserver serves this node's content to peers: read-only OCI
// distribution endpoints for blobs and manifests by digest, answered straight
// from the local containerd content store.
package contentserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// Locator says which containerd namespaces hold a digest.
type Locator interface {
	Namespaces(dgst digest.Digest) []string
}

// Server is an http.Handler for peers.
type Server struct {
	store   content.Store
	locator Locator
}

// New returns a content server over the namespaced content store.
func New(store content.Store, locator Locator) *Server {
	return &Server{store: store, locator: locator}
}

// Repository names, from the OCI distribution spec.
var nameRE = regexp.MustCompile(`^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*$`)

// manifestSniffLimit bounds how much of a manifest is parsed to find its
// media type.
const manifestSniffLimit = 4 << 20

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, "UNSUPPORTED", "only GET and HEAD are served to peers")
		return
	}
	if r.URL.Path == "/v2/" || r.URL.Path == "/v2" {
		w.Header().Set("Docker-Distribution-API-Version", "registry/2.0")
		w.WriteHeader(http.StatusOK)
		return
	}
	name, kind, ref, ok := splitPath(r.URL.Path)
	if !ok {
		writeError(w, http.StatusNotFound, "NOT_FOUND", "unknown endpoint")
		return
	}
	if len(name) > 255 || !nameRE.MatchString(name) {
		writeError(w, http.StatusBadRequest, "NAME_INVALID", "invalid repository name")
		return
	}
	dgst, err := digest.Parse(ref)
	if err != nil {
		if kind == "manifests" && !strings.Contains(ref, ":") {
			// Tags are resolved by each node against its upstream, never by peers.
			writeError(w, http.StatusNotFound, "MANIFEST_UNKNOWN", "tags are not served to peers")
			return
		}
		writeError(w, http.StatusBadRequest, "DIGEST_INVALID", "invalid digest")
		return
	}
	s.serveContent(w, r, kind, dgst)
}

// splitPath splits /v2/<name>/(blobs|manifests)/<reference>.
func splitPath(p string) (name, kind, ref string, ok bool) {
	rest, found := strings.CutPrefix(p, "/v2/")
	if !found {
		return "", "", "", false
	}
	for _, k := range []string{"/blobs/", "/manifests/"} {
		i := strings.LastIndex(rest, k)
		if i <= 0 {
			continue
		}
		ref = rest[i+len(k):]
		if ref == "" || strings.Contains(ref, "/") {
			return "", "", "", false
		}
		return rest[:i], strings.Trim(k, "/"), ref, true
	}
	return "", "", "", false
}

func (s *Server) serveContent(w http.ResponseWriter, r *http.Request, kind string, dgst digest.Digest) {
	ctx := r.Context()
	ra, info, ns, err := s.open(ctx, dgst)
	if err != nil {
		code := "BLOB_UNKNOWN"
		if kind == "manifests" {
			code = "MANIFEST_UNKNOWN"
		}
		if !errdefs.IsNotFound(err) {
			log.G(ctx).WithError(err).WithField("digest", dgst).Warn("p2p: reading content for a peer failed")
		}
		writeError(w, http.StatusNotFound, code, "content not held by this node")
		return
	}
	defer ra.Close()

	section := io.NewSectionReader(ra, 0, info.Size)
	contentType := "application/octet-stream"
	if kind == "manifests" {
		contentType = sniffMediaType(section, info.Size)
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Docker-Content-Digest", dgst.String())
	h.Set("ETag", `"`+dgst.String()+`"`)
	log.G(ctx).WithFields(log.Fields{"digest": dgst, "peer": r.RemoteAddr, "namespace": ns, "range": r.Header.Get("Range")}).
		Debug("p2p: serving content to peer")
	http.ServeContent(w, r, "", time.Time{}, section)
}

// open finds dgst in one of the namespaces that hold it.
func (s *Server) open(ctx context.Context, dgst digest.Digest) (content.ReaderAt, content.Info, string, error) {
	for _, ns := range s.locator.Namespaces(dgst) {
		nctx := namespaces.WithNamespace(ctx, ns)
		info, err := s.store.Info(nctx, dgst)
		if err != nil {
			continue
		}
		ra, err := s.store.ReaderAt(nctx, ocispec.Descriptor{Digest: dgst, Size: info.Size})
		if err != nil {
			return nil, content.Info{}, "", err
		}
		return ra, info, ns, nil
	}
	return nil, content.Info{}, "", errdefs.ErrNotFound
}

func sniffMediaType(r io.ReaderAt, size int64) string {
	const fallback = ocispec.MediaTypeImageManifest
	if size > manifestSniffLimit {
		return fallback
	}
	var m struct {
		MediaType string `json:"mediaType"`
	}
	if err := json.NewDecoder(io.NewSectionReader(r, 0, size)).Decode(&m); err != nil || m.MediaType == "" {
		return fallback
	}
	return m.MediaType
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	body := map[string]any{"errors": []map[string]string{{"code": code, "message": message}}}
	_ = json.NewEncoder(w).Encode(body) // the peer may have gone; nothing to do
}
