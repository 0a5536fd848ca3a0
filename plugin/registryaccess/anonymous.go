package registryaccess

import (
	"container/list"
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/containerd/containerd/v2/core/remotes/docker"
	remoteerrors "github.com/containerd/containerd/v2/core/remotes/errors"
	"github.com/containerd/containerd/v2/pkg/reference"
	"github.com/containerd/errdefs"
	"github.com/containerd/log"

	"github.com/shoal-dev/shoal/plugin/recovery"
)

// Answer is what an anonymous check found.
type Answer int

const (
	// Unknown: the registry could not say (unreachable, timed out, 5xx,
	// 429), or the check could not be made.
	Unknown Answer = iota
	// Served: a client without credentials resolves the reference.
	Served
	// Refused: a client without credentials is refused (401, 403, denied)
	// or told that the reference does not exist.
	Refused
)

func (a Answer) String() string {
	switch a {
	case Served:
		return "served"
	case Refused:
		return "refused"
	default:
		return "unknown"
	}
}

// AnonymousPull reports whether the registry serves ref to a client without
// credentials, reached through cfg like a pull with cfg, following bearer
// challenges with anonymous tokens. Registries grant access per repository:
// the answer is remembered for ref's repository (AnswerTTL; an unknown one
// RetryAfter), the checks of one repository under way at once are one
// request, and each waits at most CheckTimeout however many are queued. A
// canceled ctx ends the wait, not the check.
func (a *Access) AnonymousPull(ctx context.Context, cfg Config, ref string) Answer {
	spec, err := reference.Parse(ref)
	if err != nil || spec.Object == "" {
		return Unknown
	}
	c := a.checks.get(cfg.key()+"\x00"+spec.Locator, func(c *check) {
		go a.run(context.WithoutCancel(ctx), c, cfg, ref)
	})
	wait := time.NewTimer(a.opts.CheckTimeout + time.Second) // run gives up first
	defer wait.Stop()
	select {
	case <-c.done:
		return c.answer
	case <-ctx.Done():
	case <-wait.C:
	}
	return Unknown
}

// run makes check c: one resolve of ref without credentials.
func (a *Access) run(ctx context.Context, c *check, cfg Config, ref string) {
	answer, ttl := Unknown, a.opts.RetryAfter
	defer func() {
		a.checks.finish(c, answer, ttl)
	}()
	defer recovery.Log(ctx, "p2p: anonymous check failed")
	ctx, cancel := context.WithTimeout(ctx, a.opts.CheckTimeout)
	defer cancel()
	release, ok := a.checks.slot(ctx)
	if !ok {
		log.G(ctx).WithField("ref", ref).Debug("p2p: too many anonymous checks under way; answer unknown")
		return
	}
	defer release()
	_, _, err := a.Resolver(cfg).Resolve(ctx, ref)
	answer = classify(err)
	if answer != Unknown {
		ttl = a.opts.AnswerTTL
	}
	log.G(ctx).WithError(err).WithField("ref", ref).WithField("answer", answer).Debug("p2p: anonymous check")
}

// classify turns the outcome of an anonymous resolve into an answer.
func classify(err error) Answer {
	if err == nil {
		return Served
	}
	if errdefs.IsNotFound(err) || errors.Is(err, docker.ErrInvalidAuthorization) {
		return Refused
	}
	if status, ok := errors.AsType[remoteerrors.ErrUnexpectedStatus](err); ok {
		switch code := status.StatusCode; {
		case code == http.StatusRequestTimeout || code == http.StatusTooManyRequests:
			return Unknown
		case code >= 400 && code < 500:
			return Refused
		}
	}
	return Unknown
}

// check is an anonymous check of one repository, under way or answered.
type check struct {
	key  string
	done chan struct{} // closed once answer is set
	elem *list.Element

	answer  Answer
	expires time.Time // zero while under way
}

// checks remembers answers per repository, most recently asked first, and
// bounds the checks under way.
type checks struct {
	mu     sync.Mutex
	byKey  map[string]*check
	recent list.List // of *check, most recently asked first
	max    int
	slots  chan struct{}
}

func (cs *checks) init(maxChecks, maxRepositories int) {
	cs.byKey = map[string]*check{}
	cs.max = maxRepositories
	cs.slots = make(chan struct{}, maxChecks)
}

// get returns the check of key: remembered, under way, or new (then
// started with start).
func (cs *checks) get(key string, start func(*check)) *check {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c, ok := cs.byKey[key]; ok {
		if c.expires.IsZero() || time.Now().Before(c.expires) {
			cs.recent.MoveToFront(c.elem)
			return c
		}
		cs.remove(c)
	}
	c := &check{key: key, done: make(chan struct{})}
	c.elem = cs.recent.PushFront(c)
	cs.byKey[key] = c
	for cs.recent.Len() > cs.max {
		// An evicted check under way still answers those waiting for it.
		cs.remove(cs.recent.Back().Value.(*check))
	}
	start(c)
	return c
}

func (cs *checks) remove(c *check) {
	cs.recent.Remove(c.elem)
	delete(cs.byKey, c.key)
}

// finish records c's answer, remembered for ttl, and wakes its waiters.
func (cs *checks) finish(c *check, answer Answer, ttl time.Duration) {
	cs.mu.Lock()
	c.answer = answer
	c.expires = time.Now().Add(ttl)
	cs.mu.Unlock()
	close(c.done)
}

// slot waits for one of the slots of checks under way, until ctx ends.
func (cs *checks) slot(ctx context.Context) (release func(), ok bool) {
	select {
	case cs.slots <- struct{}{}:
		return func() { <-cs.slots }, true
	case <-ctx.Done():
		return nil, false
	}
}
