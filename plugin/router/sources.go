package router

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/containerd/log"
)

// Sources of bootstrap peers besides the static list. Each is consulted at
// start and again every bootstrap interval, so a name that moves, or a file
// rewritten by cloud-init, is followed.
type Sources struct {
	// DNS names: "name" or "name:port" (A/AAAA records, port DNSPort when
	// absent), or "_service._tcp.name" (SRV records, with their ports).
	DNS []string
	// DNSPort is the port for A/AAAA names without one.
	DNSPort int
	// File holds one bootstrap entry per line (as in BootstrapPeers);
	// blank lines and lines starting with # are ignored.
	File string
	// MDNS discovers peers on the local link.
	MDNS bool
}

// fileSource re-reads a bootstrap file when it changes.
type fileSource struct {
	path    string
	modTime time.Time
	size    int64
	entries []bootstrapPeer
}

func (f *fileSource) read(ctx context.Context) []bootstrapPeer {
	st, err := os.Stat(f.path)
	if err != nil {
		if f.entries != nil || f.modTime.IsZero() {
			log.G(ctx).WithError(err).WithField("file", f.path).Warn("p2p: bootstrap file unreadable")
		}
		f.entries, f.modTime = nil, time.Unix(1, 0)
		return nil
	}
	if st.ModTime().Equal(f.modTime) && st.Size() == f.size {
		return f.entries
	}
	data, err := os.ReadFile(f.path)
	if err != nil {
		log.G(ctx).WithError(err).WithField("file", f.path).Warn("p2p: bootstrap file unreadable")
		return f.entries
	}
	f.modTime, f.size = st.ModTime(), st.Size()
	f.entries = parseBootstrapFile(ctx, f.path, data)
	log.G(ctx).WithField("file", f.path).WithField("peers", len(f.entries)).Info("p2p: bootstrap file read")
	return f.entries
}

func parseBootstrapFile(ctx context.Context, path string, data []byte) []bootstrapPeer {
	var out []bootstrapPeer
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		bp, err := parseBootstrapPeer(text)
		if err != nil {
			log.G(ctx).WithError(err).WithField("file", path).WithField("line", line).Warn("p2p: bad bootstrap entry ignored")
			continue
		}
		out = append(out, bp)
	}
	return out
}

// resolveDNS turns the configured names into bootstrap entries.
func resolveDNS(ctx context.Context, resolver *net.Resolver, names []string, defaultPort int) []bootstrapPeer {
	var out []bootstrapPeer
	for _, name := range names {
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		entries, err := resolveName(lctx, resolver, name, defaultPort)
		cancel()
		if err != nil {
			log.G(ctx).WithError(err).WithField("name", name).Debug("p2p: bootstrap name did not resolve")
			continue
		}
		out = append(out, entries...)
	}
	return out
}

func resolveName(ctx context.Context, resolver *net.Resolver, name string, defaultPort int) ([]bootstrapPeer, error) {
	var hostports []string
	if strings.HasPrefix(name, "_") {
		_, srvs, err := resolver.LookupSRV(ctx, "", "", name)
		if err != nil {
			return nil, err
		}
		for _, srv := range srvs {
			addrs, err := resolver.LookupHost(ctx, strings.TrimSuffix(srv.Target, "."))
			if err != nil {
				continue
			}
			for _, a := range addrs {
				hostports = append(hostports, net.JoinHostPort(a, strconv.Itoa(int(srv.Port))))
			}
		}
	} else {
		host, port := name, strconv.Itoa(defaultPort)
		if h, p, err := net.SplitHostPort(name); err == nil {
			host, port = h, p
		}
		addrs, err := resolver.LookupHost(ctx, host)
		if err != nil {
			return nil, err
		}
		for _, a := range addrs {
			hostports = append(hostports, net.JoinHostPort(a, port))
		}
	}
	var out []bootstrapPeer
	for _, hp := range hostports {
		bp, err := parseBootstrapPeer(hp)
		if err != nil {
			return nil, fmt.Errorf("%s gave %s: %w", name, hp, err)
		}
		out = append(out, bp)
	}
	return out, nil
}
