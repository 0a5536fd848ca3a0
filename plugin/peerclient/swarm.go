package peerclient

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/pieces"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/window"
)

// SwarmState asks p for its state of layer desc (see package window): the
// pieces it holds, the piece tables and holders it knows, and how many
// bodies of the layer it is sending (its load). known is how many pieces
// the longest table the caller holds covers: tables that cover no more
// are left out.
func (c *Client) SwarmState(ctx context.Context, p peer.ID, repo Repository, desc ocispec.Descriptor, known int) (window.State, int, error) {
	path := repo.path(oci.Swarm, desc.Digest.String())
	if known > 0 {
		path += querySep(path) + oci.KnownQuery + "=" + strconv.Itoa(known)
	}
	resp, err := c.send(ctx, p, http.MethodGet, path, nil)
	if err != nil {
		return window.State{}, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return window.State{}, 0, fmt.Errorf("peer %s: %w", p, statusError(resp))
	}
	st, err := window.DecodeState(resp.Body, desc.Digest, desc.Size)
	if err != nil {
		return window.State{}, 0, fmt.Errorf("peer %s: %w", p, err)
	}
	load, _ := strconv.Atoi(resp.Header.Get(oci.LoadHeader))
	return st, max(load, 0), nil
}

// querySep is what joins a query parameter to path.
func querySep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// Piece reads piece i of layer desc from p into buf, which has the piece's
// length, and returns p's have-set as it answered (also when it does not
// hold the piece: ErrStale). The caller verifies the bytes.
func (c *Client) Piece(ctx context.Context, p peer.ID, repo Repository, desc ocispec.Descriptor, i int, buf []byte) (swarm.Bitfield, error) {
	path := repo.path(oci.Swarm, desc.Digest.String())
	resp, err := c.send(ctx, p, http.MethodGet, path+querySep(path)+oci.PieceQuery+"="+strconv.Itoa(i), nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	have, herr := window.DecodeHave(resp.Header.Get(oci.HaveHeader), pieces.SwarmPieceCount(desc.Size))
	if herr != nil {
		have = nil // a peer that sends no have-set tells nothing of it
	}
	if resp.StatusCode != http.StatusOK {
		return have, fmt.Errorf("piece %d from peer %s: %w", i, p, statusError(resp))
	}
	if resp.ContentLength != int64(len(buf)) {
		return have, fmt.Errorf("peer %s offers %d bytes for piece %d of %d: %w", p, resp.ContentLength, i, len(buf), ErrCorrupt)
	}
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		return have, fmt.Errorf("piece %d from peer %s: %w", i, p, err)
	}
	return have, nil
}
