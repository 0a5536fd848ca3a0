package contentserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/containerd/log"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pieces"
)

// Bounds on what the server remembers of pieces and bad copies.
const (
	maxPieceLists = 64
	maxCorrupt    = 1024
)

// servePieces answers the piece digests of a stored blob. A node asks
// them after its copy of the blob failed verification, to tell whose copy
// the bad bytes came from and how much of its own is good. They are
// computed from the bytes stored here, and the whole is hashed on the way:
// a copy that rotted is found, never served again, and answered 410.
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
	defer ra.Close()
	v, err, _ := s.verify.Do("pieces "+dgst.String(), func() (any, error) {
		if l, ok := s.cachedPieces(dgst); ok {
			return l, nil
		}
		// Finished even if the asker leaves: it may find a bad copy.
		return s.computePieces(context.WithoutCancel(ctx), dgst, io.NewSectionReader(ra, 0, info.Size))
	})
	switch {
	case errors.Is(err, errCorrupt):
		oci.WriteError(w, http.StatusGone, oci.CodeBlobUnknown, "this node's copy did not match its digest")
		return
	case err != nil:
		log.G(ctx).WithError(err).WithFields(log.Fields{"digest": dgst, "namespace": ns}).Warn("p2p: could not compute the pieces of a stored blob")
		oci.WriteError(w, http.StatusInternalServerError, oci.CodeUnknown, "could not read the content")
		return
	}
	body, err := json.Marshal(v.(pieces.List))
	if err != nil {
		oci.WriteError(w, http.StatusInternalServerError, oci.CodeUnknown, "could not encode the pieces")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(oci.DigestHeader, dgst.String())
	if r.Method == http.MethodGet {
		w.Write(body)
	}
}

// computePieces hashes the pieces of the stored blob r and, with them, the
// whole, recording whether it matches.
func (s *Server) computePieces(ctx context.Context, dgst digest.Digest, r *io.SectionReader) (pieces.List, error) {
	whole := dgst.Algorithm().Digester()
	l, err := pieces.Compute(io.TeeReader(r, whole.Hash()), r.Size())
	if err != nil {
		return pieces.List{}, err
	}
	if !s.verified(ctx, dgst)(whole.Digest() == dgst) {
		return pieces.List{}, errCorrupt
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pieceLists) >= maxPieceLists {
		for d := range s.pieceLists {
			delete(s.pieceLists, d)
			break
		}
	}
	s.pieceLists[dgst] = l
	return l, nil
}

func (s *Server) cachedPieces(dgst digest.Digest) (pieces.List, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.pieceLists[dgst]
	return l, ok
}

// markCorrupt remembers that this node's copy of dgst did not match it,
// to say so to peers that ask for its pieces.
func (s *Server) markCorrupt(dgst digest.Digest, bad bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pieceLists, dgst)
	if !bad {
		delete(s.corrupt, dgst)
		return
	}
	if len(s.corrupt) >= maxCorrupt {
		for d := range s.corrupt {
			delete(s.corrupt, d)
			break
		}
	}
	s.corrupt[dgst] = struct{}{}
}

func (s *Server) foundCorrupt(dgst digest.Digest) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.corrupt[dgst]
	return ok
}
