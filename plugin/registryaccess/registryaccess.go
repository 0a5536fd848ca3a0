// Package registryaccess is how Shoal talks to registries by itself: the
// check whether an image is served without credentials, and the loopback
// mirror's tag resolution and fallbacks. Every request is built the way
// containerd builds a pull's own: the hosts directory through
// config.ConfigureHosts (mirrors, `server` overrides, CA, client
// certificates, skip_verify, plain HTTP, per-host headers), the pull's
// headers, and the standard token flow, here always without credentials.
//
// What ConfigureHosts returns for a registry is kept for a while, so the
// clients (and their connections) are shared rather than built per request.
// Authorizers are not shared: each resolver gets fresh ones, so a token or a
// failed token fetch never outlives the request that obtained it.
package registryaccess

import (
	"context"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/containerd/containerd/v2/core/remotes"
	"github.com/containerd/containerd/v2/core/remotes/docker"
	"github.com/containerd/containerd/v2/core/remotes/docker/config"
	"github.com/containerd/containerd/v2/pkg/reference"
	"github.com/containerd/log"
)

// DefaultHostDir is the hosts directory CRI reads by default: the
// loopback mirror reaches registries as CRI's pulls do.
const DefaultHostDir = "/etc/containerd/certs.d"

// Config is how containerd reaches registries for a pull: what a pull's
// resolver is built from.
type Config struct {
	// HostDir is the hosts directory (containerd's config_path, ctr's
	// --hosts-dir): <dir>/<host>/hosts.toml, then <dir>/_default. A single
	// directory, as in containerd's transfer service. Empty: none.
	HostDir string
	// DefaultScheme is the scheme of registries without a hosts.toml
	// ("http" for ctr --plain-http). Empty: https, and http for localhost
	// on a port other than 443.
	DefaultScheme string
	// Headers are sent with every request (CRI's registry headers).
	Headers http.Header
}

// key identifies c in caches.
func (c Config) key() string {
	var b strings.Builder
	b.WriteString(c.HostDir)
	b.WriteByte(0)
	b.WriteString(c.DefaultScheme)
	for _, k := range slices.Sorted(maps.Keys(c.Headers)) {
		b.WriteByte(0)
		b.WriteString(http.CanonicalHeaderKey(k))
		for _, v := range c.Headers[k] {
			b.WriteByte(1)
			b.WriteString(v)
		}
	}
	return b.String()
}

// Options configure an Access. Zero values mean the defaults.
type Options struct {
	// Skip are addresses ("host:port") no request is ever sent to: the
	// loopback mirror's own, which the hosts.toml files it writes list. A
	// "localhost" host and a loopback IP with the same port are the same.
	Skip []string
	// HostsTTL is how long what ConfigureHosts returned for a registry
	// (its clients, their connections) is reused; hosts.toml edits are seen
	// after at most this. Default 1m.
	HostsTTL time.Duration
	// CheckTimeout bounds one anonymous check, waiting for a free slot
	// included. Default 5s.
	CheckTimeout time.Duration
	// AnswerTTL is how long a definite answer of an anonymous check (served,
	// or refused) is remembered for a repository. Default 1h.
	AnswerTTL time.Duration
	// RetryAfter is how long an unknown answer (registry unreachable, timed
	// out, 5xx, 429) is remembered before the repository is checked again.
	// Default 1m.
	RetryAfter time.Duration
	// MaxRepositories bounds the answers remembered. Default 4096.
	MaxRepositories int
	// MaxChecks bounds the anonymous checks under way at once. Default 8.
	MaxChecks int
}

// maxHostConfigs bounds the registries whose configuration is kept.
const maxHostConfigs = 256

// Access makes registry clients. It is safe for concurrent use.
type Access struct {
	opts Options
	skip []hostPort

	mu    sync.Mutex
	hosts map[string]*hostsEntry // by Config.key() and registry host

	checks checks
}

// New returns an Access.
func New(opts Options) *Access {
	if opts.HostsTTL <= 0 {
		opts.HostsTTL = time.Minute
	}
	if opts.CheckTimeout <= 0 {
		opts.CheckTimeout = 5 * time.Second
	}
	if opts.AnswerTTL <= 0 {
		opts.AnswerTTL = time.Hour
	}
	if opts.RetryAfter <= 0 {
		opts.RetryAfter = time.Minute
	}
	if opts.MaxRepositories <= 0 {
		opts.MaxRepositories = 4096
	}
	if opts.MaxChecks <= 0 {
		opts.MaxChecks = 8
	}
	a := &Access{opts: opts, hosts: map[string]*hostsEntry{}}
	for _, s := range opts.Skip {
		if hp, ok := parseHostPort(s); ok {
			a.skip = append(a.skip, hp)
		}
	}
	a.checks.init(opts.MaxChecks, opts.MaxRepositories)
	return a
}

// Resolver returns a resolver without credentials, built like a pull's
// resolver with cfg: for fetching what anybody may pull.
func (a *Access) Resolver(cfg Config) remotes.Resolver {
	return docker.NewResolver(docker.ResolverOptions{Hosts: a.Hosts(cfg), Headers: cfg.Headers})
}

// Hosts returns the registry hosts cfg configures, in order, without the
// skipped addresses; each has a fresh authorizer without credentials that
// follows bearer challenges with anonymous tokens.
func (a *Access) Hosts(cfg Config) docker.RegistryHosts {
	key := cfg.key()
	return func(host string) ([]docker.RegistryHost, error) {
		configured, err := a.configured(key, cfg, host)
		if err != nil {
			return nil, err
		}
		out := make([]docker.RegistryHost, 0, len(configured))
		for _, h := range configured {
			if a.skipped(h.Host) {
				continue
			}
			authOpts := []docker.AuthorizerOpt{docker.WithAuthClient(h.Client)}
			if len(h.Header) > 0 {
				authOpts = append(authOpts, docker.WithAuthHeader(h.Header))
			}
			h.Authorizer = docker.NewDockerAuthorizer(authOpts...)
			out = append(out, h)
		}
		return out, nil
	}
}

// Endpoints lists the hosts a resolve of ref under cfg may ask (those
// with the capabilities the resolver requires for it: pull and resolve for
// a tag, pull for a digest), and whether one of them is a skipped address.
func (a *Access) Endpoints(cfg Config, ref string) (hosts []string, skipped bool, err error) {
	spec, err := reference.Parse(ref)
	if err != nil {
		return nil, false, err
	}
	caps := docker.HostCapabilityPull
	if spec.Digest() == "" {
		caps |= docker.HostCapabilityResolve
	}
	configured, err := a.configured(cfg.key(), cfg, spec.Hostname())
	if err != nil {
		return nil, false, err
	}
	for _, h := range configured {
		if !h.Capabilities.Has(caps) {
			continue
		}
		if a.skipped(h.Host) {
			skipped = true
			continue
		}
		hosts = append(hosts, h.Host)
	}
	return hosts, skipped, nil
}

type hostsEntry struct {
	hosts   []docker.RegistryHost
	err     error
	expires time.Time
}

// configured is what ConfigureHosts returns for host under cfg, from the
// cache while it is fresh.
func (a *Access) configured(key string, cfg Config, host string) ([]docker.RegistryHost, error) {
	key += "\x00" + host
	now := time.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	if e, ok := a.hosts[key]; ok && now.Before(e.expires) {
		return e.hosts, e.err
	}
	opts := config.HostOptions{DefaultScheme: cfg.DefaultScheme}
	if cfg.HostDir != "" {
		opts.HostDir = config.HostDirFromRoot(cfg.HostDir)
	}
	// Reading a hosts.toml and its certificates is quick and local: done
	// under the lock, once per registry and HostsTTL however many ask.
	hosts, err := config.ConfigureHosts(context.Background(), opts)(host)
	if err != nil {
		log.L.WithError(err).WithField("host", host).Warn("p2p: registry configuration cannot be read; Shoal's own requests to this registry fail until it is fixed")
	}
	if old, ok := a.hosts[key]; ok {
		closeIdle(old.hosts)
	}
	a.hosts[key] = &hostsEntry{hosts: hosts, err: err, expires: now.Add(a.opts.HostsTTL)}
	a.evictHosts(now)
	return hosts, err
}

// evictHosts keeps at most maxHostConfigs entries: the expired go first,
// then those expiring soonest.
func (a *Access) evictHosts(now time.Time) {
	if len(a.hosts) <= maxHostConfigs {
		return
	}
	for k, e := range a.hosts {
		if !now.Before(e.expires) {
			closeIdle(e.hosts)
			delete(a.hosts, k)
		}
	}
	for len(a.hosts) > maxHostConfigs {
		var oldest string
		for k, e := range a.hosts {
			if oldest == "" || e.expires.Before(a.hosts[oldest].expires) {
				oldest = k
			}
		}
		closeIdle(a.hosts[oldest].hosts)
		delete(a.hosts, oldest)
	}
}

// closeIdle lets the connections of clients no longer handed out go; the
// requests still using them finish.
func closeIdle(hosts []docker.RegistryHost) {
	for _, h := range hosts {
		if h.Client != nil {
			h.Client.CloseIdleConnections()
		}
	}
}

// hostPort is an address to skip.
type hostPort struct {
	host string // lower case; "localhost" or an IP
	ip   net.IP // nil for "localhost"
	port string
}

func parseHostPort(s string) (hostPort, bool) {
	host, port, err := net.SplitHostPort(s)
	if err != nil || port == "" {
		return hostPort{}, false
	}
	hp := hostPort{host: strings.ToLower(host), port: port, ip: net.ParseIP(host)}
	if hp.ip == nil && hp.host != "localhost" {
		return hostPort{}, false
	}
	return hp, true
}

// skipped reports whether address (a RegistryHost's Host) is one of the
// skipped addresses.
func (a *Access) skipped(address string) bool {
	if len(a.skip) == 0 {
		return false
	}
	hp, ok := parseHostPort(address)
	if !ok {
		return false
	}
	for _, s := range a.skip {
		if s.port != hp.port {
			continue
		}
		switch {
		case s.ip != nil && hp.ip != nil:
			if s.ip.Equal(hp.ip) {
				return true
			}
		case s.ip == nil && hp.ip == nil:
			return true // both localhost
		case s.ip != nil:
			if s.ip.IsLoopback() { // hp is localhost
				return true
			}
		default:
			if hp.ip.IsLoopback() { // s is localhost
				return true
			}
		}
	}
	return false
}
