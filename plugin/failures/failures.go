// Package failures keeps the latest things that went wrong with peers, for
// `shoal status`: a small bounded log, oldest first.
package failures

import (
	"sync"
	"time"
)

// Failure is one thing that went wrong with a peer.
type Failure struct {
	Time   time.Time `json:"time"`
	Digest string    `json:"digest"`
	Peer   string    `json:"peer"`
	Error  string    `json:"error"`
}

// Log holds the latest failures; when full, the oldest makes room.
type Log struct {
	mu      sync.Mutex
	max     int
	entries []Failure
}

// DefaultSize is how many failures a Log keeps unless told otherwise.
const DefaultSize = 32

// NewLog returns a log of at most size failures (DefaultSize if size <= 0).
func NewLog(size int) *Log {
	if size <= 0 {
		size = DefaultSize
	}
	return &Log{max: size}
}

// Record adds a failure of peer with dgst.
func (l *Log) Record(dgst, peer string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.entries) == l.max {
		l.entries = append(l.entries[:0], l.entries[1:]...)
	}
	l.entries = append(l.entries, Failure{Time: time.Now(), Digest: dgst, Peer: peer, Error: err.Error()})
}

// Recent returns the failures kept, oldest first.
func (l *Log) Recent() []Failure {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Failure(nil), l.entries...)
}
