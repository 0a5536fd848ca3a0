package registryaccess

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	transfertypes "github.com/containerd/containerd/api/types/transfer"
	"github.com/containerd/containerd/v2/core/streaming"
	"github.com/containerd/typeurl/v2"
)

// CredentialsTimeout bounds the wait for a pull's credential helper to say
// whether it has credentials, all hosts together.
const CredentialsTimeout = 2 * time.Second

// Pull is how a pull through the transfer service reaches its registry, as
// learned from its source.
type Pull struct {
	// Config builds clients as the pull's resolver was built.
	Config Config
	// Reference is the image reference of the pull.
	Reference string

	// helper is the conversation with the pull's credential helper; nil
	// when the pull has none.
	helper *pipe
	// unknownHelper: the pull has a credential helper Shoal cannot ask.
	unknownHelper bool
	cancel        context.CancelFunc
	streams       *streams
}

// marshaler is the public side of containerd's *registry.OCIRegistry that
// tells its options, the way the remote transfer service learns them.
type marshaler interface {
	MarshalAny(context.Context, streaming.StreamCreator) (typeurl.Any, error)
}

// LearnPull reads the registry options of src, a transfer source, through
// its public MarshalAny: containerd's *registry.OCIRegistry yields its hosts
// directory, headers, default scheme and, when it has a credential helper,
// a stream on which the helper answers for credentials. It returns nil for
// any other source. Call Close when done: it ends the helper's side of the
// conversation.
func LearnPull(ctx context.Context, src any) *Pull {
	m, ok := src.(marshaler)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &Pull{cancel: cancel, streams: &streams{created: map[string]*pipe{}}}
	a, err := m.MarshalAny(ctx, p.streams)
	if err != nil {
		p.Close()
		return nil
	}
	var reg transfertypes.OCIRegistry
	if err := typeurl.UnmarshalTo(a, &reg); err != nil {
		p.Close()
		return nil
	}
	p.Reference = reg.GetReference()
	res := reg.GetResolver()
	p.Config = Config{HostDir: res.GetHostDir(), DefaultScheme: res.GetDefaultScheme()}
	if len(res.GetHeaders()) > 0 {
		p.Config.Headers = http.Header{}
		for k, v := range res.GetHeaders() {
			p.Config.Headers.Add(k, v)
		}
	}
	if id := res.GetAuthStream(); id != "" {
		p.helper = p.streams.get(id)
		p.unknownHelper = p.helper == nil
	}
	return p
}

// Close ends the conversation with the pull's credential helper.
func (p *Pull) Close() {
	if p == nil {
		return
	}
	p.cancel()
	p.streams.closeAll()
}

// HasCredentials reports whether the pull's credential helper has
// credentials for any of hosts, as the pull's authorizer would have asked
// it. A pull without a helper has none; a helper that cannot be asked or
// does not answer within CredentialsTimeout counts as having them.
func (p *Pull) HasCredentials(ctx context.Context, hosts []string) bool {
	if p.helper == nil {
		return p.unknownHelper
	}
	timeout := time.NewTimer(CredentialsTimeout)
	defer timeout.Stop()
	for _, host := range hosts {
		req, err := typeurl.MarshalAny(&transfertypes.AuthRequest{Host: host, Reference: p.Reference})
		if err != nil {
			return true
		}
		select {
		case p.helper.requests <- req:
		case <-p.helper.closed:
			return true
		case <-timeout.C:
			return true
		case <-ctx.Done():
			return true
		}
		var resp typeurl.Any
		select {
		case resp = <-p.helper.responses:
		case <-p.helper.closed:
			return true
		case <-timeout.C:
			// A late answer would be taken for the next host's: stop here.
			return true
		case <-ctx.Done():
			return true
		}
		var auth transfertypes.AuthResponse
		if err := typeurl.UnmarshalTo(resp, &auth); err != nil {
			return true
		}
		if auth.GetUsername() != "" || auth.GetSecret() != "" {
			return true
		}
	}
	return false
}

// errNotCredentials refuses streams other than the credentials stream: a
// source that would stream HTTP debug logs to its client must not have
// that client's stream closed by Shoal.
var errNotCredentials = errors.New("only the credentials stream is followed")

// streams is an in-memory streaming.StreamCreator.
type streams struct {
	mu      sync.Mutex
	created map[string]*pipe
	closed  bool
}

func (s *streams) Create(ctx context.Context, id string) (streaming.Stream, error) {
	if !strings.HasPrefix(id, "creds-") {
		return nil, fmt.Errorf("stream %s: %w", id, errNotCredentials)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, io.ErrClosedPipe
	}
	p := &pipe{requests: make(chan typeurl.Any), responses: make(chan typeurl.Any), closed: make(chan struct{})}
	s.created[id] = p
	return p, nil
}

func (s *streams) get(id string) *pipe {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.created[id]
}

func (s *streams) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, p := range s.created {
		p.Close()
	}
}

// pipe is one stream. The source holds it as a streaming.Stream: it
// receives requests and sends responses; Shoal holds the other ends.
type pipe struct {
	requests  chan typeurl.Any
	responses chan typeurl.Any
	closed    chan struct{}
	once      sync.Once
}

func (p *pipe) Send(a typeurl.Any) error {
	select {
	case p.responses <- a:
		return nil
	case <-p.closed:
		return io.EOF
	}
}

func (p *pipe) Recv() (typeurl.Any, error) {
	select {
	case a := <-p.requests:
		return a, nil
	case <-p.closed:
		return nil, io.EOF
	}
}

func (p *pipe) Close() error {
	p.once.Do(func() { close(p.closed) })
	return nil
}
