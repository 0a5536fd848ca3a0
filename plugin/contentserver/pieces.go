package contentserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/log"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pieces"
)

// Bounds on what the server remembers of pieces and bad copies, and on
// the blobs it hashes for them at once: an answer of a few KiB costs a
// read of the whole blob.
const (
	maxPieceLists  = 64
	maxCorrupt     = 1024
	maxPieceHashes = 2
)

// piecesKeepAlive is how often a space is sent while pieces are hashed: a
// multi-GiB blob takes seconds, longer than an asker waits in silence.
const piecesKeepAlive = time.Second

// servePieces answers the piece digests of a stored blob. A node asks
// them after its copy of the blob failed verification, to tell whose copy
// the bad bytes came from and how much of its own is good. They are
// computed from the bytes stored here, and the whole is hashed on the way:
// a copy that rotted is found then, is not served again, and the answer
// says so ({"badCopy": true}; 410 to those who ask later).
func (s *Server) servePieces(w http.ResponseWriter, r *http.Request, dgst digest.Digest) {
	ctx := r.Context()
	ra, info, ns, err := s.open(ctx, dgst, false)
	if err != nil {
		if s.foundCorrupt(dgst) {
			oci.WriteError(w, http.StatusGone, oci.CodeBlobUnknown, "this node's copy did not match its digest")
			return
		}
		oci.WriteError(w, http.StatusNotFound, oci.CodeBlobUnknown, "content not held by this node")
		return
	}
	ra.Close()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(oci.DigestHeader, dgst.String())
	if r.Method == http.MethodHead {
		return
	}
	computed := s.verify.DoChan("pieces "+dgst.String(), func() (any, error) {
		if l, ok := s.cachedPieces(dgst); ok {
			return l, nil
		}
		// Finished even if the asker leaves: it may find a bad copy.
		return s.computePieces(namespaces.WithNamespace(context.WithoutCancel(ctx), ns), dgst, info.Size)
	})
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	flush()
	tick := time.NewTicker(piecesKeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			w.Write([]byte(" "))
			flush()
		case res := <-computed:
			l, _ := res.Val.(pieces.List)
			switch {
			case errors.Is(res.Err, errCorrupt):
				l = pieces.List{BadCopy: true}
			case res.Err != nil:
				log.G(ctx).WithError(res.Err).WithFields(log.Fields{"digest": dgst, "namespace": ns}).
					Warn("p2p: could not compute the pieces of a stored blob")
				return // cut short: the asker sees a body that does not decode
			}
			json.NewEncoder(w).Encode(l)
			return
		}
	}
}

// computePieces hashes the pieces of stored blob dgst and, with them, the
// whole, recording whether it matches.
func (s *Server) computePieces(ctx context.Context, dgst digest.Digest, size int64) (pieces.List, error) {
	s.hashing <- struct{}{}
	defer func() { <-s.hashing }()
	ra, err := s.store.ReaderAt(ctx, ocispec.Descriptor{Digest: dgst, Size: size})
	if err != nil {
		return pieces.List{}, err
	}
	defer ra.Close()
	whole := dgst.Algorithm().Digester()
	l, err := pieces.Compute(io.TeeReader(io.NewSectionReader(ra, 0, size), whole.Hash()), size)
	if err != nil {
		return pieces.List{}, err
	}
	if !s.verified(ctx, dgst)(whole.Digest() == dgst) {
		return pieces.List{}, errCorrupt
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	putBounded(s.pieceLists, dgst, l, maxPieceLists)
	return l, nil
}

// putBounded sets m[k] = v, first dropping an entry at random when m holds
// limit entries already.
func putBounded[V any](m map[digest.Digest]V, k digest.Digest, v V, limit int) {
	if _, ok := m[k]; !ok && len(m) >= limit {
		for d := range m {
			delete(m, d)
			break
		}
	}
	m[k] = v
}

func (s *Server) cachedPieces(dgst digest.Digest) (pieces.List, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.pieceLists[dgst]
	return l, ok
}

// markCorrupt remembers whether this node's copy of dgst was found not to
// match it, to say so to peers that ask for its pieces.
func (s *Server) markCorrupt(dgst digest.Digest, bad bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pieceLists, dgst)
	if !bad {
		delete(s.corrupt, dgst)
		return
	}
	putBounded(s.corrupt, dgst, struct{}{}, maxCorrupt)
}

func (s *Server) foundCorrupt(dgst digest.Digest) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.corrupt[dgst]
	return ok
}
