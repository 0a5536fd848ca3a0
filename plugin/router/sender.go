package router

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	pb "github.com/libp2p/go-libp2p-kad-dht/pb"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-msgio"
	"github.com/libp2p/go-msgio/pbio"
	"google.golang.org/protobuf/proto"
)

// streamSender sends the DHT's messages, each on a stream of its own
// taken from the few left open to that peer. The DHT's own sender keeps
// one stream per peer and one request on it at a time, so the lookups a
// pull starts at once, and the announcements of what it just committed,
// wait for each other's round trips at every peer they share: a miss of
// four layers of 1 MiB waited 2, 5, 9 and 13 ms for its four lookups.
type streamSender struct {
	host   host.Host
	protos []protocol.ID

	mu   sync.Mutex
	idle map[peer.ID][]*dhtStream
}

// dhtStream is a stream to a peer's DHT with its reader (which buffers).
type dhtStream struct {
	s    network.Stream
	r    msgio.ReadCloser
	used time.Time
}

const (
	// idleStreamsPerPeer bounds the streams kept open to one peer between
	// messages: a pull has three blobs' lookups in flight at once
	// (containerd's download limit) and an announcement of one it just
	// committed. Messages beyond them open streams that are then closed.
	idleStreamsPerPeer = 4
	// idleStreamAge: a stream left idle longer is closed rather than
	// reused, before the peer's DHT resets it (after a minute idle).
	idleStreamAge = 30 * time.Second
	// dhtReadTimeout bounds the wait for an answer when the context has
	// no deadline, as the DHT's own sender does.
	dhtReadTimeout = 10 * time.Second
)

func newStreamSender(h host.Host, protos []protocol.ID) pb.MessageSenderWithDisconnect {
	return &streamSender{host: h, protos: protos, idle: map[peer.ID][]*dhtStream{}}
}

// SendRequest sends m to p and returns its answer.
func (ss *streamSender) SendRequest(ctx context.Context, p peer.ID, m *pb.Message) (*pb.Message, error) {
	start := time.Now()
	answer, err := ss.send(ctx, p, m, true)
	if err == nil {
		ss.host.Peerstore().RecordLatency(p, time.Since(start))
	}
	return answer, err
}

// SendMessage sends m to p, which answers nothing.
func (ss *streamSender) SendMessage(ctx context.Context, p peer.ID, m *pb.Message) error {
	_, err := ss.send(ctx, p, m, false)
	return err
}

// send sends m to p over a stream kept or new, and reads its answer if
// answered. A stream that was reused and fails is replaced by the next
// (a new one last): the peer may have closed it while it was idle.
func (ss *streamSender) send(ctx context.Context, p peer.ID, m *pb.Message, answered bool) (*pb.Message, error) {
	for {
		st, reused, err := ss.stream(ctx, p)
		if err != nil {
			return nil, err
		}
		answer, err := ss.exchange(ctx, st, m, answered)
		if err == nil {
			ss.release(p, st)
			return answer, nil
		}
		st.s.Reset()
		if !reused || ctx.Err() != nil {
			return nil, err
		}
	}
}

// exchange writes m on st and, if answered, reads the answer; the
// context's end, or dhtReadTimeout without a deadline, resets the stream.
func (ss *streamSender) exchange(ctx context.Context, st *dhtStream, m *pb.Message, answered bool) (*pb.Message, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, dhtReadTimeout)
		defer cancel()
	}
	stop := context.AfterFunc(ctx, func() { st.s.Reset() })
	answer, err := roundTrip(st, m, answered)
	if !stop() && err == nil { // reset as it ended: not to be kept
		err = ctx.Err()
	}
	if err != nil {
		return nil, ctxErr(ctx, fmt.Errorf("DHT message to %s: %w", st.s.Conn().RemotePeer(), err))
	}
	return answer, nil
}

func roundTrip(st *dhtStream, m *pb.Message, answered bool) (*pb.Message, error) {
	if err := pbio.NewDelimitedWriter(st.s).WriteMsg(m); err != nil {
		return nil, err
	}
	if !answered {
		return nil, nil
	}
	data, err := st.r.ReadMsg()
	if err != nil {
		return nil, err
	}
	defer st.r.ReleaseMsg(data)
	answer := new(pb.Message)
	if err := proto.Unmarshal(data, answer); err != nil {
		return nil, fmt.Errorf("bad answer: %w", err)
	}
	return answer, nil
}

// ctxErr is the context's error when it ended, err otherwise.
func ctxErr(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return errors.Join(cerr, err)
	}
	return err
}

// stream takes an idle stream to p, or opens one.
func (ss *streamSender) stream(ctx context.Context, p peer.ID) (st *dhtStream, reused bool, err error) {
	now := time.Now()
	ss.mu.Lock()
	for streams := ss.idle[p]; len(streams) > 0; streams = ss.idle[p] {
		st = streams[len(streams)-1]
		ss.idle[p] = streams[:len(streams)-1]
		if now.Sub(st.used) < idleStreamAge {
			ss.mu.Unlock()
			return st, true, nil
		}
		st.s.Close()
	}
	delete(ss.idle, p)
	ss.mu.Unlock()

	s, err := ss.host.NewStream(ctx, p, ss.protos...)
	if err != nil {
		return nil, false, err
	}
	return &dhtStream{s: s, r: msgio.NewVarintReaderSize(s, network.MessageSizeMax)}, false, nil
}

// release keeps st for the next message to p, or closes it.
func (ss *streamSender) release(p peer.ID, st *dhtStream) {
	st.used = time.Now()
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.idle[p]) < idleStreamsPerPeer {
		ss.idle[p] = append(ss.idle[p], st)
		return
	}
	st.s.Close()
}

// OnDisconnect closes the streams kept to p.
func (ss *streamSender) OnDisconnect(_ context.Context, p peer.ID) {
	ss.mu.Lock()
	streams := ss.idle[p]
	delete(ss.idle, p)
	ss.mu.Unlock()
	for _, st := range streams {
		st.s.Reset()
	}
}
