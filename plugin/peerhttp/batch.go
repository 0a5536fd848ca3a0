package peerhttp

import (
	"crypto/tls"
	"net"
	"sync"
)

// batchSize is how many bytes of TLS records go to the socket in one write.
const batchSize = 256 << 10

// recordBatcher sits between a tls.Conn and its socket. Once the handshake
// is done it collects the records of one Write (TLS cuts it into 16 KiB
// records, each otherwise a system call of its own) and sends them to the
// socket together.
type recordBatcher struct {
	net.Conn
	batching bool // set once, before the connection is shared

	// TLS writes from its reading side too (an alert): mu orders those
	// with the flush of a Write.
	mu  sync.Mutex
	buf []byte
}

func (b *recordBatcher) Write(p []byte) (int, error) {
	if !b.batching {
		return b.Conn.Write(p)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) >= batchSize {
		if err := b.flushLocked(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (b *recordBatcher) flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *recordBatcher) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.Conn.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

// batchedTLS is a TLS connection whose Writes reach the socket in few
// system calls. What TLS sends outside a Write (an alert, the answer to a
// key update) goes out with the next Write or at Close.
type batchedTLS struct {
	*tls.Conn
	raw *recordBatcher
}

// newBatchedTLS wraps an established connection: call it after the
// handshake, with the conn that was passed to tls.Client or tls.Server.
func newBatchedTLS(tc *tls.Conn, raw *recordBatcher) *batchedTLS {
	raw.batching = true
	return &batchedTLS{Conn: tc, raw: raw}
}

func (c *batchedTLS) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if ferr := c.raw.flush(); err == nil {
		err = ferr
	}
	return n, err
}

func (c *batchedTLS) Close() error {
	// close_notify, into the batch; TLS bounds it with a write deadline.
	c.Conn.CloseWrite() //nolint:errcheck // closing anyway
	c.raw.flush()       //nolint:errcheck // closing anyway
	return c.Conn.Close()
}
