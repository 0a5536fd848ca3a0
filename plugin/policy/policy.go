// Package policy answers "may this be shared with peers?": which containerd
// namespaces and which registries' content a node announces and serves.
package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/containerd/containerd/v2/pkg/labels"
	"github.com/containerd/containerd/v2/pkg/reference"
)

// Policy decides what is shared. The zero value shares everything.
type Policy struct {
	sharedNamespaces, privateNamespaces []string
	sharedRegistries, privateRegistries []string
	// keepUnknownOrigin: content with no distribution-source label (built
	// or imported on the node) is not shared.
	keepUnknownOrigin bool
}

// Option tunes a policy.
type Option func(*Policy)

// ShareUnknownOrigin shares content that came from no registry (built or
// imported on the node), which New's policy otherwise keeps to the node.
func ShareUnknownOrigin(share bool) Option {
	return func(p *Policy) { p.keepUnknownOrigin = !share }
}

// New returns a policy. Empty shared lists mean "all"; private lists win.
// Content of unknown origin is kept to the node unless ShareUnknownOrigin.
func New(sharedNamespaces, privateNamespaces, sharedRegistries, privateRegistries []string, opts ...Option) (*Policy, error) {
	for _, r := range append(slices.Clone(sharedRegistries), privateRegistries...) {
		if r == "" || strings.ContainsAny(r, "/ ") {
			return nil, fmt.Errorf("registry %q: want a host name, with a port if it has one (docker.io, registry.example:5000)", r)
		}
	}
	p := &Policy{
		sharedNamespaces: sharedNamespaces, privateNamespaces: privateNamespaces,
		sharedRegistries: sharedRegistries, privateRegistries: privateRegistries,
		keepUnknownOrigin: true,
	}
	for _, o := range opts {
		o(p)
	}
	return p, nil
}

// NamespaceShared reports whether content of namespace ns may be shared.
func (p *Policy) NamespaceShared(ns string) bool {
	if slices.Contains(p.privateNamespaces, ns) {
		return false
	}
	return len(p.sharedNamespaces) == 0 || slices.Contains(p.sharedNamespaces, ns)
}

// HasRegistryRules reports whether sharing depends on which registry
// content came from.
func (p *Policy) HasRegistryRules() bool {
	return len(p.sharedRegistries) > 0 || len(p.privateRegistries) > 0
}

// DependsOnOrigin reports whether sharing content depends on where it came
// from, which containerd records in labels just after the content is
// written.
func (p *Policy) DependsOnOrigin() bool {
	return p.HasRegistryRules() || p.keepUnknownOrigin
}

// ContentShared reports whether a blob held in ns with these labels may be
// shared. Its registries are those of its distribution-source labels;
// content of unknown origin is shared only when the policy shares it and
// every registry is.
func (p *Policy) ContentShared(ns string, contentLabels map[string]string) bool {
	if !p.NamespaceShared(ns) {
		return false
	}
	var registries []string
	prefix := labels.LabelDistributionSource + "."
	for k := range contentLabels {
		if r, ok := strings.CutPrefix(k, prefix); ok {
			registries = append(registries, r)
		}
	}
	if len(registries) == 0 && p.keepUnknownOrigin {
		return false
	}
	return p.registriesShared(registries)
}

// ImageShared reports whether image name (registry/repository:tag) held in
// ns may be resolved for peers.
func (p *Policy) ImageShared(ns, name string) bool {
	if !p.NamespaceShared(ns) {
		return false
	}
	spec, err := reference.Parse(name)
	if err != nil {
		return !p.HasRegistryRules()
	}
	return p.registriesShared([]string{spec.Hostname()})
}

func (p *Policy) registriesShared(registries []string) bool {
	for _, r := range registries {
		if slices.Contains(p.privateRegistries, r) {
			return false
		}
	}
	if len(p.sharedRegistries) == 0 {
		return true
	}
	for _, r := range registries {
		if slices.Contains(p.sharedRegistries, r) {
			return true
		}
	}
	return false
}
