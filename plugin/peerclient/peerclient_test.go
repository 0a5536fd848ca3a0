package peerclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/containerd/errdefs"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shoal-dev/shoal/plugin/oci"
)

// transport answers every request with fn.
type transport func(req *http.Request) (*http.Response, error)

func (t transport) Do(_ peer.ID, req *http.Request) (*http.Response, error) { return t(req) }

// holding answers like a correct content service holding data.
func holding(data []byte) transport {
	return func(req *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		http.ServeContent(rec, req, "", time.Time{}, bytes.NewReader(data))
		return rec.Result(), nil
	}
}

func answering(status int, header http.Header) transport {
	return func(req *http.Request) (*http.Response, error) {
		if header == nil {
			header = http.Header{}
		}
		return &http.Response{StatusCode: status, Status: http.StatusText(status), Header: header, Body: io.NopCloser(strings.NewReader(""))}, nil
	}
}

const peerA peer.ID = "peer-a"

var repo = Repository{Registry: "registry.example", Name: "team/app"}

func blob(data []byte) ocispec.Descriptor {
	return ocispec.Descriptor{MediaType: ocispec.MediaTypeImageLayer, Digest: digest.FromBytes(data), Size: int64(len(data))}
}

func TestRequestsNameTheRepositoryAndRegistry(t *testing.T) {
	data := []byte("layer")
	var got string
	c := New(transport(func(req *http.Request) (*http.Response, error) {
		got = req.URL.RequestURI()
		return holding(data)(req)
	}), Options{})
	rc, err := c.Open(context.Background(), peerA, repo, blob(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if want := "/v2/team/app/blobs/" + digest.FromBytes(data).String() + "?ns=registry.example"; got != want {
		t.Fatalf("asked %q, want %q", got, want)
	}
	if r := RepositoryOf("registry.example:5000/team/app:v1"); r.Registry != "registry.example:5000" || r.Name != "team/app" {
		t.Fatalf("RepositoryOf: %+v", r)
	}
}

func TestAnswersComeBackAsErrorKinds(t *testing.T) {
	data := bytes.Repeat([]byte("x"), 100)
	arriving := http.Header{}
	arriving.Set(oci.ArrivingHeader, "true")
	for _, tc := range []struct {
		name  string
		peer  transport
		check func(error) bool
	}{
		{"404 is a stale record", answering(http.StatusNotFound, nil), func(err error) bool { return errors.Is(err, ErrStale) && errdefs.IsNotFound(err) }},
		{"503 of a node still receiving", answering(http.StatusServiceUnavailable, arriving), func(err error) bool { return errors.Is(err, ErrArriving) }},
		{"a silent peer", func(req *http.Request) (*http.Response, error) {
			<-req.Context().Done()
			return nil, req.Context().Err()
		}, func(err error) bool { return errors.Is(err, ErrNoAnswer) }},
		{"a wrong length", holding(data[:50]), func(err error) bool { return err != nil && strings.Contains(err.Error(), "offers 50 bytes") }},
		{"a dial that ran out of time", func(*http.Request) (*http.Response, error) {
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
		}, func(err error) bool { return errors.Is(err, ErrNoAnswer) && !errors.Is(err, ErrUnreachable) }},
		{"a stream that ran out of time", func(*http.Request) (*http.Response, error) {
			return nil, fmt.Errorf("open stream to peer: %w", context.DeadlineExceeded)
		}, func(err error) bool { return errors.Is(err, ErrNoAnswer) && !errors.Is(err, ErrUnreachable) }},
		{"a connection its peer reset", func(*http.Request) (*http.Response, error) {
			return nil, fmt.Errorf("stream reset: %w", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET})
		}, func(err error) bool { return errors.Is(err, ErrNoAnswer) && !errors.Is(err, ErrUnreachable) }},
		{"a stream reset", func(*http.Request) (*http.Response, error) {
			return nil, fmt.Errorf("read: %w", network.ErrReset)
		}, func(err error) bool { return errors.Is(err, ErrNoAnswer) && !errors.Is(err, ErrUnreachable) }},
		{"a dial held back after a break", func(*http.Request) (*http.Response, error) {
			return nil, fmt.Errorf("open stream: failed to dial: %w", swarm.ErrDialBackoff)
		}, func(err error) bool { return errors.Is(err, ErrNoAnswer) && !errors.Is(err, ErrUnreachable) }},
		{"a refused dial", func(*http.Request) (*http.Response, error) {
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
		}, func(err error) bool { return errors.Is(err, ErrUnreachable) && !errors.Is(err, ErrNoAnswer) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := New(tc.peer, Options{RequestTimeout: 50 * time.Millisecond})
			_, err := c.ReadRange(context.Background(), peerA, repo, blob(data), 10, make([]byte, 10))
			if tc.name == "a wrong length" {
				_, err = c.Open(context.Background(), peerA, repo, blob(data), 0)
			}
			if !tc.check(err) {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func TestACallerThatGivesUpIsNotAPeerThatDidNotAnswer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := New(transport(func(req *http.Request) (*http.Response, error) {
		cancel()
		<-req.Context().Done()
		return nil, req.Context().Err()
	}), Options{RequestTimeout: time.Minute})
	_, err := c.Open(ctx, peerA, repo, blob([]byte("x")), 0)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrNoAnswer) {
		t.Fatalf("got %v", err)
	}
}

func TestRangesAreReadWhole(t *testing.T) {
	data := make([]byte, 1000)
	for i := range data {
		data[i] = byte(i)
	}
	c := New(holding(data), Options{})
	buf := make([]byte, 100)
	if available, err := c.ReadRange(context.Background(), peerA, repo, blob(data), 300, buf); err != nil || available != int64(len(data)) {
		t.Fatal(err)
	}
	if !bytes.Equal(buf, data[300:400]) {
		t.Fatal("range bytes differ")
	}
}

func TestAProbeTellsWhetherThePeerPullsFromTheRepositoryHeldOrNot(t *testing.T) {
	data := []byte("layer")
	for _, status := range []int{http.StatusOK, http.StatusNotFound} {
		for _, pulling := range []bool{false, true} {
			h := http.Header{}
			if pulling {
				h.Set(oci.PullingHeader, "true")
			}
			c := New(transport(func(req *http.Request) (*http.Response, error) {
				rec := httptest.NewRecorder()
				for k, v := range h {
					rec.Header()[k] = v
				}
				if status == http.StatusOK {
					http.ServeContent(rec, req, "", time.Time{}, bytes.NewReader(data))
				} else {
					oci.WriteError(rec, status, oci.CodeBlobUnknown, "not here")
				}
				return rec.Result(), nil
			}), Options{})
			got, err := c.Probe(context.Background(), peerA, repo, blob(data))
			if (err == nil) != (status == http.StatusOK) || got.Pulling != pulling {
				t.Errorf("status %d, pulling %v: %v %+v", status, pulling, err, got)
			}
		}
	}
}
