package peerclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/window"
)

// SwarmState asks p for its state of layer desc (see package window): the
// pieces it holds, the piece tables and holders it knows, and how many
// bodies of the layer it is sending (its load). known are the digests of
// the longest table the caller holds: tables that cover no more are left
// out, and the others come as what they add to it (oci.SuffixQuery).
func (c *Client) SwarmState(ctx context.Context, p peer.ID, repo Repository, desc ocispec.Descriptor, known []digest.Digest) (window.State, int, error) {
	st, load, _, err := c.WaitSwarmState(ctx, p, repo, desc, known, 0, 0, true)
	return st, load, err
}

// WaitSwarmState is SwarmState answered once p holds more than held
// pieces, or after wait (0: at once; at most half the request timeout,
// and p holds it swarm.StateHold at most), with the holders p names only
// if names; it also returns how long p held the request.
func (c *Client) WaitSwarmState(ctx context.Context, p peer.ID, repo Repository, desc ocispec.Descriptor, known []digest.Digest, held int, wait time.Duration, names bool) (window.State, int, time.Duration, error) {
	st, load, hold, err := c.waitSwarmState(ctx, p, repo, desc, known, held, wait, names)
	if errors.Is(err, window.ErrSuffixMismatch) {
		// Whole, the tables verify on their own: p is not blamed for a
		// table of this node's that differs from the one p holds.
		st, load, hold, err = c.waitSwarmState(ctx, p, repo, desc, nil, 0, 0, names)
	}
	return st, load, hold, err
}

func (c *Client) waitSwarmState(ctx context.Context, p peer.ID, repo Repository, desc ocispec.Descriptor, known []digest.Digest, held int, wait time.Duration, names bool) (window.State, int, time.Duration, error) {
	path := repo.path(oci.Swarm, desc.Digest.String())
	if !names {
		path += querySep(path) + oci.NamesQuery + "=0"
	}
	if len(known) > 0 {
		path += querySep(path) + oci.KnownQuery + "=" + strconv.Itoa(len(known)) + "&" + oci.SuffixQuery + "=1"
	}
	// Held within the request's bound, with room for the answer.
	if ms := min(wait, c.opts.RequestTimeout/2).Milliseconds(); ms > 0 && held >= 0 {
		path += querySep(path) + oci.HeldQuery + "=" + strconv.Itoa(held) + "&" + oci.WaitQuery + "=" + strconv.FormatInt(ms, 10)
	}
	resp, err := c.send(ctx, p, http.MethodGet, path, nil)
	if err != nil {
		return window.State{}, 0, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return window.State{}, 0, 0, fmt.Errorf("peer %s: %w", p, statusError(resp))
	}
	st, err := window.DecodeState(resp.Body, desc.Digest, desc.Size, known)
	if err != nil {
		return window.State{}, 0, 0, fmt.Errorf("peer %s: %w", p, err)
	}
	load, _ := strconv.Atoi(resp.Header.Get(oci.LoadHeader))
	heldMs, _ := strconv.Atoi(resp.Header.Get(oci.HeldHeader))
	return st, max(load, 0), time.Duration(max(heldMs, 0)) * time.Millisecond, nil
}

// querySep is what joins a query parameter to path.
func querySep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// PieceAsk is how a piece is asked for.
type PieceAsk struct {
	// Only: the caller knows no other holder of the piece
	// (swarm.Request.Only).
	Only bool
	// Arrived, if set, is told of the piece's bytes as they arrive: on a
	// slow link a piece takes seconds, and its bytes show the fetch is
	// moving. It is called on the caller's goroutine.
	Arrived func(n int)
	// Behind is how long the answer may wait behind what the caller
	// receives already (window.Registry.Behind), beyond RequestTimeout
	// for its headers and beyond the transport's idle timeout for each
	// byte of its body (IdleExtender).
	Behind time.Duration
}

// Piece reads piece i of layer desc from p into buf, which has the piece's
// length, and returns p's state as it answered (also when it does not
// hold the piece: ErrStale): its have-set, nil if it sent none, whether it
// takes the layer from the upstream, with the bytes it has read there, and
// whether it has sent its share. The caller verifies the bytes.
func (c *Client) Piece(ctx context.Context, p peer.ID, repo Repository, desc ocispec.Descriptor, i int, ask PieceAsk, buf []byte) (swarm.HolderState, error) {
	path := repo.path(oci.Swarm, desc.Digest.String())
	path += querySep(path) + oci.PieceQuery + "=" + strconv.Itoa(i)
	if ask.Only {
		path += "&" + oci.OnlyQuery + "=1"
	}
	resp, err := c.sendBehind(ctx, p, http.MethodGet, path, nil, ask.Behind)
	if err != nil {
		return swarm.HolderState{}, err
	}
	defer resp.Body.Close()
	var st swarm.HolderState
	n := pieces.SwarmPieceCount(desc.Size)
	if have, err := window.DecodeHave(resp.Header.Get(oci.HaveHeader), n); err == nil {
		st.Have = have // a peer that sends no have-set tells nothing of it
		st.Receiving = swarm.NewBitfield(n)
		if v := resp.Header.Get(oci.ReceivingHeader); v != "" {
			if receiving, err := window.DecodeHave(v, n); err == nil {
				st.Receiving = receiving
			}
		}
	}
	if v := resp.Header.Get(oci.SeedHeader); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			st.Seed, st.Upstream = true, n
		}
	}
	if v := resp.Header.Get(oci.CapHeader); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			st.Cap = n
		}
	}
	if v := resp.Header.Get(oci.IntakeHeader); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			st.Intake = n
		}
	}
	st.Spent = resp.Header.Get(oci.SpentHeader) != ""
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("piece %d from peer %s: %w", i, p, statusError(resp))
	}
	if resp.ContentLength != int64(len(buf)) {
		return st, fmt.Errorf("peer %s offers %d bytes for piece %d of %d: %w", p, resp.ContentLength, i, len(buf), ErrCorrupt)
	}
	var body io.Reader = resp.Body
	if ask.Arrived != nil {
		body = countingReader{resp.Body, ask.Arrived}
	}
	if _, err := io.ReadFull(body, buf); err != nil {
		return st, fmt.Errorf("piece %d from peer %s: %w", i, p, err)
	}
	return st, nil
}

// countingReader tells n of the bytes read from r.
type countingReader struct {
	r io.Reader
	n func(int)
}

func (c countingReader) Read(b []byte) (int, error) {
	k, err := c.r.Read(b)
	c.n(k)
	return k, err
}
