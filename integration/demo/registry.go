package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shoal-dev/shoal/integration/cluster"
)

// demoRegistry is a small read-only registry holding one image in memory.
// It listens once per node, so that every byte it sends is attributed to
// the node that asked for it.
type demoRegistry struct {
	repo, tag string
	blobs     map[string]cluster.Blob // by digest, manifest included
	manifest  cluster.Blob

	servers []*http.Server
	Addrs   []string
	counts  []*upstreamCount
	wg      sync.WaitGroup
}

type upstreamCount struct {
	bytes    atomic.Int64
	blobGets atomic.Int64
}

func startDemoRegistry(im *cluster.Image, repo, tag string, listeners int) (*demoRegistry, error) {
	r := &demoRegistry{repo: repo, tag: tag, blobs: map[string]cluster.Blob{}, manifest: im.Manifest}
	for _, b := range append(im.Blobs(), im.Manifest) {
		r.blobs[b.Desc.Digest.String()] = b
	}
	for i := 0; i < listeners; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			r.Close()
			return nil, err
		}
		count := &upstreamCount{}
		srv := &http.Server{Handler: r.handler(count), ReadHeaderTimeout: 10 * time.Second}
		r.servers = append(r.servers, srv)
		r.Addrs = append(r.Addrs, l.Addr().String())
		r.counts = append(r.counts, count)
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			srv.Serve(l)
		}()
	}
	return r, nil
}

func (r *demoRegistry) handler(count *upstreamCount) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			http.Error(w, "read-only", http.StatusMethodNotAllowed)
			return
		}
		if req.URL.Path == "/v2/" {
			w.WriteHeader(http.StatusOK)
			return
		}
		prefix := "/v2/" + r.repo + "/"
		rest, ok := strings.CutPrefix(req.URL.Path, prefix)
		if !ok {
			http.NotFound(w, req)
			return
		}
		kind, ref, _ := strings.Cut(rest, "/")
		var b cluster.Blob
		switch {
		case kind == "manifests" && (ref == r.tag || ref == r.manifest.Desc.Digest.String()):
			b = r.manifest
		case kind == "blobs":
			var found bool
			if b, found = r.blobs[ref]; !found {
				http.NotFound(w, req)
				return
			}
			count.blobGets.Add(1)
		default:
			http.NotFound(w, req)
			return
		}
		w.Header().Set("Content-Type", b.Desc.MediaType)
		w.Header().Set("Docker-Content-Digest", b.Desc.Digest.String())
		http.ServeContent(&countingWriter{ResponseWriter: w, n: &count.bytes}, req, "", time.Time{}, bytes.NewReader(b.Data))
	})
}

// Served is what the listener for node i sent: body bytes and blob requests.
func (r *demoRegistry) Served(i int) (int64, int64) {
	return r.counts[i].bytes.Load(), r.counts[i].blobGets.Load()
}

func (r *demoRegistry) Ref(i int) string { return fmt.Sprintf("%s/%s:%s", r.Addrs[i], r.repo, r.tag) }

func (r *demoRegistry) Close() {
	for _, s := range r.servers {
		s.Close()
	}
	r.wg.Wait()
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.n.Add(int64(n))
	return n, err
}
