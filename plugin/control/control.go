// Package control serves the `shoal` command: node status, peers,
// providers and recent pulls, as JSON over HTTP on a unix socket under the plugin's state
// directory (root-only), whose path the plugin exports through containerd's
// introspection service.
package control

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/failures"
	"github.com/shoal-dev/shoal/plugin/pullhistory"
)

// Peer is one other node.
type Peer struct {
	ID        string   `json:"id"`
	Addresses []string `json:"addresses"`
}

// Status describes this node.
type Status struct {
	PeerID         string             `json:"peer_id"`
	Addresses      []string           `json:"addresses"`
	ConnectedPeers int                `json:"connected_peers"`
	RoutingTable   int                `json:"routing_table"`
	AnnouncedKeys  int                `json:"announced_keys"`
	Counters       map[string]int64   `json:"counters"`
	RecentFailures []failures.Failure `json:"recent_failures"`
}

// Source answers the queries.
type Source interface {
	Status() Status
	Peers() []Peer
	Providers(ctx context.Context, key digest.Digest) ([]Peer, error)
	ReferenceKey(ref string) digest.Digest
	// Pulls are this node's latest pulls, oldest first.
	Pulls() []pullhistory.Pull
}

// Server is the control endpoint.
type Server struct {
	srv *http.Server
}

// Serve listens on the unix socket at path (created 0600, in a 0700
// directory) and answers from src.
func Serve(path string, src Source) (*Server, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) { reply(w, src.Status(), nil) })
	mux.HandleFunc("GET /peers", func(w http.ResponseWriter, r *http.Request) { reply(w, src.Peers(), nil) })
	mux.HandleFunc("GET /pulls", func(w http.ResponseWriter, r *http.Request) { reply(w, src.Pulls(), nil) })
	mux.HandleFunc("GET /providers", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		var key digest.Digest
		switch {
		case q.Get("digest") != "":
			d, err := digest.Parse(q.Get("digest"))
			if err != nil {
				http.Error(w, "bad digest: "+err.Error(), http.StatusBadRequest)
				return
			}
			key = d
		case q.Get("ref") != "":
			key = src.ReferenceKey(q.Get("ref"))
		default:
			http.Error(w, "give digest= or ref=", http.StatusBadRequest)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		peers, err := src.Providers(ctx, key)
		reply(w, peers, err)
	})
	s := &Server{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}}
	go s.srv.Serve(l) //nolint:errcheck // ErrServerClosed on Close
	return s, nil
}

func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// Close stops serving.
func (s *Server) Close() error { return s.srv.Close() }

// Client queries a control socket.
type Client struct{ http *http.Client }

// NewClient talks to the socket at path.
func NewClient(path string) *Client {
	return &Client{http: &http.Client{
		Timeout: 15 * time.Second,
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		}},
	}}
}

// Get fetches path (e.g. "/status") into v.
func (c *Client) Get(ctx context.Context, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://shoal"+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var msg [512]byte
		n, _ := resp.Body.Read(msg[:])
		return errors.New(resp.Status + ": " + string(msg[:n]))
	}
	return json.NewDecoder(resp.Body).Decode(v)
}
