package router

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	pb "github.com/libp2p/go-libp2p-kad-dht/pb"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/protocol"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"
	"github.com/libp2p/go-msgio"
	"github.com/libp2p/go-msgio/pbio"
	"google.golang.org/protobuf/proto"
)

const testDHTProto = protocol.ID("/shoal-test/kad/1.0.0")

// dhtPeer is the answering side: it echoes each request's key, after
// gate lets it, and counts the streams requests came on.
type dhtPeer struct {
	gate    func()
	mu      sync.Mutex
	streams map[network.Stream]int
}

func (d *dhtPeer) handle(s network.Stream) {
	r := msgio.NewVarintReaderSize(s, network.MessageSizeMax)
	w := pbio.NewDelimitedWriter(s)
	for {
		data, err := r.ReadMsg()
		if err != nil {
			s.Reset()
			return
		}
		var m pb.Message
		if err := proto.Unmarshal(data, &m); err != nil {
			s.Reset()
			return
		}
		r.ReleaseMsg(data)
		d.mu.Lock()
		d.streams[s]++
		d.mu.Unlock()
		if m.Type == pb.Message_ADD_PROVIDER {
			continue // answered by nothing
		}
		if d.gate != nil {
			d.gate()
		}
		if err := w.WriteMsg(&pb.Message{Type: m.Type, Key: m.Key}); err != nil {
			return
		}
	}
}

func (d *dhtPeer) streamCount() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.streams)
}

func senderPair(t *testing.T, d *dhtPeer) (*streamSender, host.Host) {
	t.Helper()
	mn := mocknet.New()
	t.Cleanup(func() { mn.Close() })
	a, err := mn.GenPeer()
	if err != nil {
		t.Fatal(err)
	}
	b, err := mn.GenPeer()
	if err != nil {
		t.Fatal(err)
	}
	if err := mn.LinkAll(); err != nil {
		t.Fatal(err)
	}
	if err := mn.ConnectAllButSelf(); err != nil {
		t.Fatal(err)
	}
	d.streams = map[network.Stream]int{}
	b.SetStreamHandler(testDHTProto, d.handle)
	return newStreamSender(a, []protocol.ID{testDHTProto}).(*streamSender), b
}

// Requests sent at once to one peer are all in flight at once: the peer
// answers none until four have arrived.
func TestDHTRequestsToOnePeerDoNotWaitForEachOther(t *testing.T) {
	const n = 4
	var arrived sync.WaitGroup
	arrived.Add(n)
	d := &dhtPeer{gate: func() { arrived.Done(); arrived.Wait() }}
	ss, b := senderPair(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	errs := make(chan error, n)
	for i := range n {
		go func() {
			key := []byte{byte(i)}
			answer, err := ss.SendRequest(ctx, b.ID(), &pb.Message{Type: pb.Message_GET_PROVIDERS, Key: key})
			if err == nil && string(answer.Key) != string(key) {
				t.Errorf("answer to key %x has key %x", key, answer.Key)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatalf("request: %v (a sender that sends one request to a peer at a time never gets here)", err)
		}
	}
	if got := d.streamCount(); got != n {
		t.Errorf("%d requests at once went on %d streams, want %d", n, got, n)
	}
}

// Messages one after another reuse one stream; one the peer reset while
// it was idle is replaced without the caller seeing an error.
func TestDHTMessagesReuseAStreamAndReplaceOneResetWhileIdle(t *testing.T) {
	d := &dhtPeer{}
	ss, b := senderPair(t, d)
	ctx := context.Background()
	for i := range 3 {
		if _, err := ss.SendRequest(ctx, b.ID(), &pb.Message{Type: pb.Message_FIND_NODE, Key: []byte{byte(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := ss.SendMessage(ctx, b.ID(), &pb.Message{Type: pb.Message_ADD_PROVIDER, Key: []byte("k")}); err != nil {
		t.Fatal(err)
	}
	if got := d.streamCount(); got != 1 {
		t.Fatalf("4 messages one after another went on %d streams, want 1", got)
	}

	// The peer resets the idle stream (as a DHT does after a minute idle).
	d.mu.Lock()
	for s := range d.streams {
		s.Reset()
	}
	d.mu.Unlock()
	if _, err := ss.SendRequest(ctx, b.ID(), &pb.Message{Type: pb.Message_FIND_NODE, Key: []byte("after")}); err != nil {
		t.Fatalf("request after the peer reset the idle stream: %v", err)
	}
	if got := d.streamCount(); got != 2 {
		t.Errorf("streams used: %d, want 2 (the reset one replaced)", got)
	}
}

// A request whose context ends while it waits for the answer returns the
// context's error and leaves no stream behind to be reused.
func TestADHTRequestEndsWithItsContext(t *testing.T) {
	release := make(chan struct{})
	d := &dhtPeer{gate: func() { <-release }}
	defer close(release)
	ss, b := senderPair(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := ss.SendRequest(ctx, b.ID(), &pb.Message{Type: pb.Message_GET_PROVIDERS, Key: []byte("k")})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's deadline", err)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if n := len(ss.idle[b.ID()]); n != 0 {
		t.Errorf("%d streams kept after a request that did not end", n)
	}
}
