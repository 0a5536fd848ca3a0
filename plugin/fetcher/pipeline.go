package fetcher

import (
	"context"
	"io"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// pipelineDepth is how many buffers a pipelined copy has in flight.
const pipelineDepth = 3

// passOn is the least a pipelined copy reads before it writes.
const passOn = 64 << 10

// pipelinedCopy copies up to limit bytes from r to w with the reading
// (for a peer: TLS decryption) and the writing (the content store's write
// and hash) on two goroutines, so that one blob can use two cores. It
// returns the bytes written. After an error of w it returns at once; the
// reading goroutine ends when the caller closes r.
func pipelinedCopy(w io.Writer, r io.Reader, limit int64) (int64, error) {
	type chunk struct {
		buf []byte
		err error
	}
	full := make(chan chunk, pipelineDepth)
	free := make(chan []byte, pipelineDepth)
	for i := 0; i < pipelineDepth; i++ {
		free <- make([]byte, copyBufferSize)
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(full) // after a recovered panic too: the writer sees a short copy
		defer recovery.Log(context.Background(), "p2p: reading a blob failed")
		left := limit
		for left > 0 {
			var buf []byte
			select {
			case buf = <-free:
			case <-done:
				return
			}
			// Passed on once 64 KiB are in, not 1 MiB: in a chain of
			// nodes each waits for its predecessor's buffer, and a full
			// one per hop would add up.
			want := min(int64(len(buf)), left)
			n, err := io.ReadAtLeast(r, buf[:want], int(min(want, passOn)))
			left -= int64(n)
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			select {
			case full <- chunk{buf[:n], err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	var written int64
	for c := range full {
		if len(c.buf) > 0 {
			n, err := w.Write(c.buf)
			written += int64(n)
			if err != nil {
				return written, err
			}
		}
		if c.err == io.EOF {
			return written, nil
		}
		if c.err != nil {
			return written, c.err
		}
		free <- c.buf[:cap(c.buf)]
	}
	return written, nil
}
