// Package contentserver serves this node's content to peers: read-only OCI
// distribution endpoints for blobs and manifests by digest, answered straight
// from the local containerd content store.
package contentserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/containerd/containerd/v2/core/content"
	"github.com/containerd/containerd/v2/core/images"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/pulling"
	"github.com/shoal-dev/shoal/plugin/recovery"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/throttle"
	"github.com/shoal-dev/shoal/plugin/window"
)

// Locator says which containerd namespaces hold a digest, and remembers
// which stored blobs were checked against their digest.
type Locator interface {
	Namespaces(dgst digest.Digest) []string
	Verified(dgst digest.Digest) bool
	MarkVerified(dgst digest.Digest)
	MarkCorrupt(dgst digest.Digest)
}

// Tables keeps the signed piece tables of stored layers whose bytes
// matched their digest (see package tables).
type Tables interface {
	Get(dgst digest.Digest, size int64) (pieces.Table, bool)
	Put(pieces.Table) error
	Delete(dgst digest.Digest)
}

// Images looks up what an image name (registry/repository:tag) points to in
// any namespace.
type Images interface {
	Lookup(ctx context.Context, name string) (namespace string, target ocispec.Descriptor, err error)
}

// Server is an http.Handler for peers.
type Server struct {
	store   content.Store
	locator Locator
	images  Images
	opts    Options

	// handler is serve, with its panics contained.
	handler http.Handler

	verify singleflight.Group

	mu      sync.Mutex
	total   int
	perPeer map[string]int
	sending map[digest.Digest]int // bodies being sent, by digest
	// pieceSends is how many pieces are being sent (swarm.Config.Uploads
	// bounds it).
	pieceSends int
	// shares: what this node sent of each layer in its current rollout
	// (swarm.Config.Share).
	shares map[digest.Digest]*swarm.Share
	// followers: the peers that follow each layer's state
	// (swarm.Config.MaxFollowers).
	followers map[digest.Digest]*swarm.Followers
	// corrupt: digests whose stored copy here was found not to match.
	corrupt map[digest.Digest]struct{}
	// tabling: piece tables of stored layers being computed.
	tabling map[digest.Digest]*storedHash
	hashing chan struct{} // a slot per stored layer hashed for its table
	// holding bounds the state requests held until a layer grows: they
	// count among MaxRequests, and half are left for pieces (not tuned:
	// beyond it a state is answered at once, as before states were held).
	holding *semaphore.Weighted

	served atomic.Int64
	// stateBytes counts the bytes of the layer states answered, states
	// the answers.
	stateBytes, states atomic.Int64
	// passedOn counts the pieces this node began to send while they
	// arrived, passCut those of them cut short: their arrival failed.
	passedOn, passCut atomic.Int64
}

// ServedBytes is how many content bytes were sent to peers.
func (s *Server) ServedBytes() int64 { return s.served.Load() }

// StateBytes is how many bytes of layer states (have-sets, piece tables)
// were sent to peers.
func (s *Server) StateBytes() int64 { return s.stateBytes.Load() }

// States is how many layer states this node has answered: each costs its
// asker and this node a request, headers and packets beside its bytes.
func (s *Server) States() int64 { return s.states.Load() }

// PassedOn is how many pieces this node began to send to peers while they
// arrived, and how many of those it cut short because the piece did not
// arrive verified.
func (s *Server) PassedOn() (started, cut int64) { return s.passedOn.Load(), s.passCut.Load() }

// countingWriter counts body bytes sent, paced by the upload limit.
type countingWriter struct {
	http.ResponseWriter
	body io.Writer // ResponseWriter, or it paced
	n    *atomic.Int64
}

func (s *Server) bodyWriter(ctx context.Context, w http.ResponseWriter) countingWriter {
	return countingWriter{ResponseWriter: w, body: s.opts.Upload.Writer(ctx, w), n: &s.served}
}

// load says in the answer how many bodies of dgst this node is sending, and
// counts this one in when it is a GET: askers choose the least loaded of
// the holders, so that each uplink carries about one copy. Call done when
// the answer is sent.
func (s *Server) load(w http.ResponseWriter, r *http.Request, dgst digest.Digest) (done func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set(oci.LoadHeader, strconv.Itoa(s.sending[dgst]))
	if r.Method != http.MethodGet {
		return func() {}
	}
	s.sending[dgst]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.sending[dgst]--; s.sending[dgst] <= 0 {
			delete(s.sending, dgst)
		}
	}
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.body.Write(b)
	c.n.Add(int64(n))
	return n, err
}

// copyBuffers are the buffers content is sent through: large writes let
// the data path send many TLS records per system call.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 1<<20); return &b }}

// ReadFrom is what http.ServeContent's copy uses.
func (c *countingWriter) ReadFrom(r io.Reader) (int64, error) {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	return io.CopyBuffer(struct{ io.Writer }{c}, r, *buf)
}

// Defaults of Options.MaxRequests and Options.MaxRequestsPerPeer.
const (
	DefaultMaxRequests        = 256
	DefaultMaxRequestsPerPeer = 32
)

// Options bound what peers can ask of a node at once.
type Options struct {
	// MaxRequests is the most requests served at once, in all. Default
	// DefaultMaxRequests.
	MaxRequests int
	// MaxRequestsPerPeer is the most requests one peer may have open.
	// Default DefaultMaxRequestsPerPeer.
	MaxRequestsPerPeer int
	// Policy decides what may be shared; nil shares everything. It is
	// checked on every request, whatever the inventory announced.
	Policy Policy
	// InFlight, if set, serves blobs that are still arriving.
	InFlight InFlight
	// Pulling, if set, says whether this node is pulling from a
	// repository (registry host, name) now; answers about its blobs say so
	// (oci.PullingHeader), found or not. It tells only of activity, never
	// of content.
	Pulling *pulling.Tracker
	// Windows, if set, are the layers this node fetches by pieces: peers
	// ask their state and pieces (oci.Swarm).
	Windows *window.Registry
	// SignTable, if set, signs the piece table of a stored layer for
	// peers that fetch it by pieces; without it only layers this node
	// fetches by pieces are offered so.
	SignTable func(pieces.Table) (pieces.Table, error)
	// Tables keeps the tables of stored layers, verified and signed:
	// without it (or SignTable) stored layers are not offered by pieces.
	Tables Tables
	// PieceUploads is the most pieces this node sends at once (to peers
	// fetching by pieces); a request beyond is answered busy, and its
	// sender asks another holder. Default swarm.DefaultConfig().Uploads,
	// which gives the reason.
	PieceUploads int
	// Upload paces everything this node sends to peers; nil: no limit.
	Upload *throttle.Limiter
	// VerifyFirstLimit: a stored blob not verified since start and up to
	// this size is hashed before its headers are sent; a larger one is
	// verified as it is sent (see verifyingReader), so that a multi-GiB
	// layer starts at once after a restart. Default 4 MiB.
	VerifyFirstLimit int64
}

// Arriving is a blob still arriving on this node: ReadAt waits for bytes
// not yet there.
type Arriving interface {
	io.ReaderAt
	io.Closer
	Size() int64
	// Available is how many bytes from the start have arrived.
	Available() int64
	// ReadSome reads what has arrived at off, waiting for some (a
	// stream's read: bytes are passed on as they land, not once a
	// buffer's worth is there).
	ReadSome(p []byte, off int64) (int, error)
}

// streaming reads an arriving blob as a stream, for http.ServeContent.
type streaming struct {
	blob Arriving
	pos  int64
}

func (s *streaming) Read(p []byte) (int, error) {
	if s.pos >= s.blob.Size() {
		return 0, io.EOF
	}
	n, err := s.blob.ReadSome(p, s.pos)
	s.pos += int64(n)
	return n, err
}

func (s *streaming) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += s.pos
	case io.SeekEnd:
		offset += s.blob.Size()
	}
	if offset < 0 {
		return 0, errors.New("seek before the start")
	}
	s.pos = offset
	return offset, nil
}

// InFlight finds blobs that are arriving, with the namespace and labels
// that the sharing policy judges them by.
type InFlight interface {
	Open(ctx context.Context, dgst digest.Digest) (blob Arriving, ns string, labels map[string]string, ok bool)
}

// Policy is the sharing policy (see package policy).
type Policy interface {
	ContentShared(ns string, labels map[string]string) bool
	ImageShared(ns, name string) bool
}

// New returns a content server over the namespaced content store. images
// may be nil: then tags are never answered.
func New(store content.Store, locator Locator, images Images, opts Options) *Server {
	if opts.MaxRequests <= 0 {
		opts.MaxRequests = DefaultMaxRequests
	}
	if opts.MaxRequestsPerPeer <= 0 {
		opts.MaxRequestsPerPeer = DefaultMaxRequestsPerPeer
	}
	if opts.PieceUploads <= 0 {
		opts.PieceUploads = swarm.DefaultConfig().Uploads
	}
	if opts.VerifyFirstLimit <= 0 {
		opts.VerifyFirstLimit = 4 << 20
	}
	s := &Server{store: store, locator: locator, images: images, opts: opts, perPeer: map[string]int{}, sending: map[digest.Digest]int{},
		tabling: map[digest.Digest]*storedHash{}, shares: map[digest.Digest]*swarm.Share{}, followers: map[digest.Digest]*swarm.Followers{}, corrupt: map[digest.Digest]struct{}{}, hashing: make(chan struct{}, maxPieceHashes),
		holding: semaphore.NewWeighted(int64(max(1, opts.MaxRequests/2)))}
	s.handler = recovery.Handler("p2p: content service recovered from a panic", http.HandlerFunc(s.serve), oci.WriteInternalError)
	return s
}

// admit counts a request in; the caller must call the returned release.
func (s *Server) admit(peer string) (release func(), ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.total >= s.opts.MaxRequests || s.perPeer[peer] >= s.opts.MaxRequestsPerPeer {
		return nil, false
	}
	s.total++
	s.perPeer[peer]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.total--
		if s.perPeer[peer]--; s.perPeer[peer] <= 0 {
			delete(s.perPeer, peer)
		}
	}, true
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		oci.WriteError(w, http.StatusMethodNotAllowed, oci.CodeUnsupported, "only GET and HEAD are served to peers")
		return
	}
	release, ok := s.admit(r.RemoteAddr)
	if !ok {
		w.Header().Set("Retry-After", "1")
		oci.WriteError(w, http.StatusTooManyRequests, oci.CodeTooManyRequests, "too many concurrent requests")
		return
	}
	defer release()
	// Percent-encoded paths (an encoded "/" or "..") are never needed by a
	// well-formed OCI request.
	if r.URL.RawPath != "" || strings.Contains(r.URL.Path, "//") {
		oci.WriteError(w, http.StatusBadRequest, oci.CodeNameInvalid, "encoded or empty path segments are not accepted")
		return
	}
	if r.URL.Path == "/v2/" || r.URL.Path == "/v2" {
		w.Header().Set(oci.APIVersionHeader, oci.APIVersion)
		w.WriteHeader(http.StatusOK)
		return
	}
	name, kind, ref, ok := oci.SplitPath(r.URL.Path)
	if !ok {
		oci.WriteError(w, http.StatusNotFound, oci.CodeNotFound, "unknown endpoint")
		return
	}
	if !oci.ValidRepository(name) {
		oci.WriteError(w, http.StatusBadRequest, oci.CodeNameInvalid, "invalid repository name")
		return
	}
	if kind == oci.Manifests && oci.ValidTag(ref) {
		s.serveTag(w, r, name, ref)
		return
	}
	dgst, err := digest.Parse(ref)
	if err != nil {
		oci.WriteError(w, http.StatusBadRequest, oci.CodeDigestInvalid, "invalid digest")
		return
	}
	if kind == oci.Swarm {
		s.serveSwarm(w, r, dgst)
		return
	}
	if kind == oci.Blobs && s.opts.Pulling.Pulling(pulling.Key(r.URL.Query().Get(oci.NamespaceQuery), name)) {
		w.Header().Set(oci.PullingHeader, "true")
	}
	// A HEAD of a manifest is how a peer resolves a reference.
	resolution := kind == oci.Manifests && r.Method == http.MethodHead
	s.serveContent(w, r, kind, dgst, "", resolution)
}

// AnonymousPullLabel marks an image root (manifest or index) with whether
// its registry serves it without credentials ("true"/"false"). Only roots
// marked "true" are resolved for peers that cannot reach the registry: a
// node must never obtain through peers an image its own credentials would
// not have got it.
const AnonymousPullLabel = "shoal.dev/anonymous-pull"

// serveTag answers what this node's image registry/name:tag points to. It
// is only asked when the asking node cannot reach the upstream; the registry
// comes from the ns parameter, without which a tag is ambiguous.
func (s *Server) serveTag(w http.ResponseWriter, r *http.Request, name, tag string) {
	registry := r.URL.Query().Get(oci.NamespaceQuery)
	if s.images == nil || registry == "" {
		oci.WriteError(w, http.StatusNotFound, oci.CodeManifestUnknown, "tags are answered only with the ns parameter")
		return
	}
	if !oci.ValidRegistryHost(registry) {
		oci.WriteError(w, http.StatusBadRequest, oci.CodeNameInvalid, "invalid registry in ns")
		return
	}
	imageName := registry + "/" + name + ":" + tag
	ns, target, err := s.images.Lookup(r.Context(), imageName)
	if err == nil && s.opts.Policy != nil && !s.opts.Policy.ImageShared(ns, imageName) {
		err = errdefs.ErrNotFound
	}
	if err != nil {
		oci.WriteError(w, http.StatusNotFound, oci.CodeManifestUnknown, "no such image on this node")
		return
	}
	if !images.IsManifestType(target.MediaType) && !images.IsIndexType(target.MediaType) {
		oci.WriteError(w, http.StatusNotFound, oci.CodeManifestUnknown, "image target is not a manifest")
		return
	}
	s.serveContent(w, r, oci.Manifests, target.Digest, target.MediaType, true)
}

func (s *Server) serveContent(w http.ResponseWriter, r *http.Request, kind string, dgst digest.Digest, mediaType string, resolution bool) {
	ctx := r.Context()
	ra, info, ns, err := s.open(ctx, dgst, resolution)
	if errdefs.IsNotFound(err) && kind == oci.Blobs && s.serveArriving(w, r, dgst) {
		return
	}
	if err != nil {
		code := oci.UnknownCode(kind)
		if !errdefs.IsNotFound(err) {
			log.G(ctx).WithError(err).WithField("digest", dgst).Warn("p2p: reading content for a peer failed")
		}
		oci.WriteError(w, http.StatusNotFound, code, "content not held by this node")
		return
	}
	defer ra.Close()

	section := io.NewSectionReader(ra, 0, info.Size)
	rng := r.Header.Get("Range")
	if rng != "" && !oci.ValidRange(rng, info.Size) {
		w.Header().Set("Content-Range", "bytes */"+strconv.FormatInt(info.Size, 10))
		oci.WriteError(w, http.StatusRequestedRangeNotSatisfiable, oci.CodeRangeInvalid, "only one range bytes=N- or bytes=N-M within the blob is served")
		return
	}
	var body io.ReadSeeker = section
	if !s.locator.Verified(dgst) {
		switch {
		case info.Size <= s.opts.VerifyFirstLimit:
			if err := s.verifyStored(ctx, dgst, section); err != nil {
				oci.WriteError(w, http.StatusNotFound, oci.UnknownCode(kind), "content not available from this node")
				return
			}
		case r.Method == http.MethodGet && (rng == "" || strings.HasPrefix(rng, "bytes=0-")):
			// From its start: hashed as it goes out, its end withheld unless
			// it matches.
			body = &verifyingReader{r: section, want: dgst, hash: dgst.Algorithm().Digester(), done: s.verified(ctx, dgst)}
		default:
			// A piece from the middle cannot be checked on its own; the whole
			// is hashed meanwhile, and the receiver verifies what it gets.
			s.verifyInBackground(ctx, ns, dgst, info.Size)
		}
	}
	contentType := "application/octet-stream"
	if kind == oci.Manifests {
		contentType = mediaType
		if contentType == "" {
			contentType = sniffMediaType(section, info.Size)
		}
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set(oci.DigestHeader, dgst.String())
	h.Set("ETag", `"`+dgst.String()+`"`)
	log.G(ctx).WithFields(log.Fields{"digest": dgst, "peer": r.RemoteAddr, "namespace": ns, "range": r.Header.Get("Range")}).
		Debug("p2p: serving content to peer")
	defer s.load(w, r, dgst)()
	out := s.bodyWriter(ctx, w)
	http.ServeContent(&out, r, "", time.Time{}, body)
}

// serveArriving serves a blob that is still arriving, as it arrives. The
// receiver verifies it against its digest, as it does everything from a
// peer; a transfer that fails here cuts the response short, and the
// receiver continues elsewhere at that offset.
func (s *Server) serveArriving(w http.ResponseWriter, r *http.Request, dgst digest.Digest) bool {
	if s.opts.InFlight == nil {
		return false
	}
	blob, ns, labels, ok := s.opts.InFlight.Open(r.Context(), dgst)
	if !ok {
		return false
	}
	defer blob.Close()
	if s.opts.Policy != nil && !s.opts.Policy.ContentShared(ns, labels) {
		return false
	}
	rng := r.Header.Get("Range")
	if rng != "" && !oci.ValidRange(rng, blob.Size()) {
		w.Header().Set("Content-Range", "bytes */"+strconv.FormatInt(blob.Size(), 10))
		oci.WriteError(w, http.StatusRequestedRangeNotSatisfiable, oci.CodeRangeInvalid, "only one range bytes=N- or bytes=N-M within the blob is served")
		return true
	}
	// Whole, from an offset or a bounded range: what is here goes at once,
	// the rest as it arrives (each read waits, bounded by the stall limit).
	// The asker learns how much is here, to ask for pieces this node has.
	h := w.Header()
	h.Set(oci.ArrivingHeader, "true")
	h.Set(oci.AvailableHeader, strconv.FormatInt(blob.Available(), 10))
	h.Set("Content-Type", "application/octet-stream")
	h.Set(oci.DigestHeader, dgst.String())
	h.Set("ETag", `"`+dgst.String()+`"`)
	log.G(r.Context()).WithFields(log.Fields{"digest": dgst, "peer": r.RemoteAddr, "namespace": ns, "range": rng}).
		Debug("p2p: serving content that is still arriving to peer")
	// Headers go out at once: the first bytes may be a while.
	defer s.load(w, r, dgst)()
	out := &flushHeaders{s.bodyWriter(r.Context(), w)}
	http.ServeContent(out, r, "", time.Time{}, &streaming{blob: blob})
	return true
}

// flushHeaders sends the response headers as soon as they are written.
type flushHeaders struct{ countingWriter }

func (f *flushHeaders) WriteHeader(code int) {
	f.ResponseWriter.WriteHeader(code)
	if fl, ok := f.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// verifyStored hashes a stored blob that was not checked since this node
// started (it may have rotted on disk), once however many peers ask. A blob
// that does not match its digest is never served or announced again.
func (s *Server) verifyStored(ctx context.Context, dgst digest.Digest, r io.ReaderAt) error {
	_, err, _ := s.verify.Do(dgst.String(), func() (any, error) {
		if s.locator.Verified(dgst) {
			return nil, nil
		}
		v := dgst.Algorithm().Digester()
		size := r.(*io.SectionReader).Size()
		if _, err := io.Copy(v.Hash(), io.NewSectionReader(r, 0, size)); err != nil {
			return nil, err
		}
		if !s.verified(ctx, dgst)(v.Digest() == dgst) {
			return nil, errCorrupt
		}
		return nil, nil
	})
	return err
}

// verified returns what records the outcome of hashing stored blob dgst.
func (s *Server) verified(ctx context.Context, dgst digest.Digest) func(ok bool) bool {
	return func(ok bool) bool {
		s.markCorrupt(dgst, !ok)
		if ok {
			s.locator.MarkVerified(dgst)
			return true
		}
		s.locator.MarkCorrupt(dgst)
		log.G(ctx).WithField("digest", dgst).
			Error("p2p: stored blob does not match its digest; not serving it (re-pull the image to repair it)")
		return false
	}
}

// verifyInBackground hashes stored blob dgst of namespace ns, once however
// many ask, without holding up the request that asked.
func (s *Server) verifyInBackground(ctx context.Context, ns string, dgst digest.Digest, size int64) {
	bctx := namespaces.WithNamespace(context.WithoutCancel(ctx), ns)
	recovery.Go(bctx, "p2p: verifying a stored blob", func(ctx context.Context) {
		ra, err := s.store.ReaderAt(ctx, ocispec.Descriptor{Digest: dgst, Size: size})
		if err != nil {
			return
		}
		defer ra.Close()
		if err := s.verifyStored(ctx, dgst, io.NewSectionReader(ra, 0, size)); err != nil && !errors.Is(err, errCorrupt) {
			log.G(ctx).WithError(err).WithField("digest", dgst).Warn("p2p: could not verify a stored blob")
		}
	})
}

// verifyingReader sends a stored blob from its start while hashing it, and
// withholds the last bytes unless the whole matches the digest: a receiver
// can never commit a blob that rotted on this node's disk, and the first
// byte leaves at once however large the blob is.
type verifyingReader struct {
	r      *io.SectionReader
	want   digest.Digest
	hash   digest.Digester
	pos    int64 // where the next Read reads
	hashed int64 // bytes hashed, from 0 without a gap
	done   func(ok bool) bool
	failed bool
}

func (v *verifyingReader) Seek(offset int64, whence int) (int64, error) {
	pos, err := v.r.Seek(offset, whence)
	if err == nil {
		v.pos = pos
	}
	return pos, err
}

func (v *verifyingReader) Read(p []byte) (int, error) {
	if v.failed {
		return 0, errCorrupt
	}
	n, err := v.r.Read(p)
	if v.pos == v.hashed && n > 0 {
		v.hash.Hash().Write(p[:n])
		v.hashed += int64(n)
		if v.hashed == v.r.Size() && !v.done(v.hash.Digest() == v.want) {
			v.failed = true
			return 0, errCorrupt // the last bytes never leave
		}
	}
	v.pos += int64(n)
	return n, err
}

var errCorrupt = errors.New("stored content does not match its digest")

// open finds dgst in one of the namespaces that hold it and may share it.
// For a resolution, the content must also be marked as anonymously pullable.
func (s *Server) open(ctx context.Context, dgst digest.Digest, resolution bool) (content.ReaderAt, content.Info, string, error) {
	for _, ns := range s.locator.Namespaces(dgst) {
		nctx := namespaces.WithNamespace(ctx, ns)
		info, err := s.store.Info(nctx, dgst)
		if err != nil {
			continue
		}
		if s.opts.Policy != nil && !s.opts.Policy.ContentShared(ns, info.Labels) {
			continue
		}
		if resolution && info.Labels[AnonymousPullLabel] != "true" {
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
	if size > oci.MaxManifestSize {
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
