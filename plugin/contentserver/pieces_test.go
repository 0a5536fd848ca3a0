package contentserver

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"testing"

	"github.com/shoal-dev/shoal/plugin/pieces"
)

// A held blob's piece digests are answered, computed from its bytes; a
// copy that rotted after it was verified is found when they are asked,
// says so, answers 410 after, and is no longer served.
func TestPiecesOfAStoredBlobAreAnsweredAndARottenCopyOwnsUp(t *testing.T) {
	t.Run("intact", func(t *testing.T) {
		s, d, loc, _, data := largeBlobServer(t, 3<<20+100)
		loc.MarkVerified(d)
		rec := do(s, http.MethodGet, "/v2/app/pieces/"+d.String())
		if rec.Code != http.StatusOK {
			t.Fatalf("GET pieces: %d %s", rec.Code, rec.Body.String())
		}
		got, err := pieces.Decode(rec.Body, int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := pieces.Compute(bytes.NewReader(data), int64(len(data)))
		if len(got.Digests) != 4 || pieces.FirstDifference(got, want) != -1 {
			t.Fatalf("pieces %+v, want %+v", got, want)
		}
	})
	t.Run("rotted", func(t *testing.T) {
		s, d, loc, path, data := largeBlobServer(t, 3<<20)
		loc.MarkVerified(d) // checked when it arrived, rotten since
		rotten := append([]byte(nil), data...)
		rotten[len(rotten)/2] ^= 0xff
		if err := os.WriteFile(path, rotten, 0o644); err != nil {
			t.Fatal(err)
		}
		rec := do(s, http.MethodGet, "/v2/app/pieces/"+d.String())
		if _, err := pieces.Decode(rec.Body, int64(len(data))); rec.Code != http.StatusOK || !errors.Is(err, pieces.ErrBadCopy) {
			t.Fatalf("pieces of a rotten copy: %d %v", rec.Code, err)
		}
		if rec := do(s, http.MethodGet, "/v2/app/pieces/"+d.String()); rec.Code != http.StatusGone {
			t.Fatalf("pieces of a copy found rotten: %d %s", rec.Code, rec.Body.String())
		}
		if !loc.corrupt[d] {
			t.Fatal("the rotten copy was not reported to the inventory")
		}
		if rec := do(s, http.MethodGet, "/v2/app/blobs/"+d.String()); rec.Code != http.StatusNotFound {
			t.Fatalf("the rotten copy is still served: %d", rec.Code)
		}
	})
	t.Run("not held", func(t *testing.T) {
		s, _ := newTestServer(t, "x")
		if rec := do(s, http.MethodGet, "/v2/app/pieces/sha256:"+string(bytes.Repeat([]byte("0"), 64))); rec.Code != http.StatusNotFound {
			t.Fatalf("pieces of a blob not held: %d", rec.Code)
		}
	})
}
