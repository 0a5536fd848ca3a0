package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
)

const hostsMarker = "# Written by Shoal's p2p plugin"

// LoopbackAddress turns a configured mirror_address into a loopback listen
// address: a bare ":port" means 127.0.0.1; anything else must be loopback,
// because the mirror serves without credentials.
func LoopbackAddress(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("mirror_address %q: %w", addr, err)
	}
	switch host {
	case "":
		host = "127.0.0.1"
	case "localhost":
	default:
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			return "", fmt.Errorf("mirror_address %q is not a loopback address: the mirror serves without credentials and must not face the network", addr)
		}
	}
	return net.JoinHostPort(host, port), nil
}

// WriteHostsFiles writes <dir>/<registry>/hosts.toml for each registry (or
// "_default" for all), listing the mirror before the registry itself. A
// hosts.toml that Shoal did not write is left alone.
func WriteHostsFiles(dir string, registries []string, mirrorAddr string) error {
	var errs []error
	for _, reg := range registries {
		name := reg // containerd looks up <dir>/<host[:port]>/hosts.toml, then _default
		if name == "" || strings.ContainsAny(name, "/\\") || name == "." || name == ".." {
			errs = append(errs, fmt.Errorf("mirror_registries entry %q is not a registry host", reg))
			continue
		}
		path := filepath.Join(dir, name, "hosts.toml")
		if old, err := os.ReadFile(path); err == nil && !bytes.HasPrefix(old, []byte(hostsMarker)) {
			errs = append(errs, fmt.Errorf("%s exists and was not written by Shoal: add the mirror to it by hand", path))
			continue
		}
		body := fmt.Sprintf(`%s; peers first, then the registry itself.
# Only pulls by digest go to the mirror: tags are resolved by the registry,
# with the client's own credentials.
[host."http://%s"]
  capabilities = ["pull"]
  dial_timeout = "200ms"
`, hostsMarker, mirrorAddr)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
