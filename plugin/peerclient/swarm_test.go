package peerclient

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/shoal-dev/shoal/plugin/oci"
	"github.com/shoal-dev/shoal/plugin/swarm"
	"github.com/shoal-dev/shoal/plugin/window"
)

func TestAPieceComesWithTheHoldersHaveSetAndItsLengthChecked(t *testing.T) {
	data := bytes.Repeat([]byte("p"), 600<<10) // 3 pieces of 256 KiB
	have := swarm.NewBitfield(3)
	have.Set(0)
	serve := func(body []byte, status int) transport {
		return func(req *http.Request) (*http.Response, error) {
			if got := req.URL.Query().Get(oci.PieceQuery); got != "0" || req.URL.Query().Get(oci.NamespaceQuery) != repo.Registry {
				t.Errorf("asked %s", req.URL)
			}
			rec := httptest.NewRecorder()
			rec.Header().Set(oci.HaveHeader, window.EncodeHave(have))
			rec.Header().Set("Content-Length", strconv.Itoa(len(body)))
			rec.WriteHeader(status)
			rec.Write(body)
			return rec.Result(), nil
		}
	}
	buf := make([]byte, 256<<10)
	got, err := New(serve(data[:256<<10], http.StatusOK), Options{}).Piece(t.Context(), peerA, repo, blob(data), 0, buf)
	if err != nil || !got.Has(0) || got.Has(1) || !bytes.Equal(buf, data[:256<<10]) {
		t.Fatalf("piece: %v, have %v", err, got)
	}
	if _, err := New(serve(data[:100], http.StatusOK), Options{}).Piece(t.Context(), peerA, repo, blob(data), 0, buf); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a short piece: %v, want ErrCorrupt", err)
	}
	got, err = New(serve(nil, http.StatusNotFound), Options{}).Piece(t.Context(), peerA, repo, blob(data), 0, buf)
	if !errors.Is(err, ErrStale) || !got.Has(0) {
		t.Fatalf("a piece not held: %v, have %v; want ErrStale with the have-set", err, got)
	}
}

func TestASwarmStateIsDecodedWithItsLoad(t *testing.T) {
	data := bytes.Repeat([]byte("s"), 600<<10)
	have := swarm.NewBitfield(3)
	have.Set(2)
	c := New(transport(func(req *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		rec.Header().Set(oci.LoadHeader, "3")
		window.State{Have: have, Seed: true}.Encode(rec)
		return rec.Result(), nil
	}), Options{})
	st, load, err := c.SwarmState(t.Context(), peerA, repo, blob(data))
	if err != nil || !st.Seed || !st.Have.Has(2) || load != 3 {
		t.Fatalf("state %+v, load %d: %v", st, load, err)
	}
	bad := New(answering(http.StatusOK, nil), Options{})
	if _, _, err := bad.SwarmState(t.Context(), peerA, repo, blob(data)); !errors.Is(err, window.ErrInvalidState) {
		t.Fatalf("an empty body: %v, want ErrInvalidState", err)
	}
}
