// Package oci is the OCI distribution protocol as Shoal speaks it: names,
// references, paths, error bodies, headers.
package oci

import (
	"net/url"
	"regexp"
	"strings"
)

// The kinds of content a path asks for: the two of the distribution API,
// and Swarm, which Shoal's nodes ask of each other.
const (
	Blobs     = "blobs"
	Manifests = "manifests"
	// Swarm is a Shoal node's state of a layer it fetches or holds by
	// pieces, and (with PieceQuery) one piece of it.
	Swarm = "swarm"
)

// MaxManifestSize is the largest manifest or index Shoal reads, serves or
// accepts from a peer.
const MaxManifestSize = 4 << 20

// PieceQuery names the piece asked for in a Swarm request.
const PieceQuery = "piece"

// KnownQuery, on a Swarm state request, is how many pieces the longest
// piece table the asker holds covers: the answer leaves out the tables
// that cover no more. Tables are most of a state's bytes, and checking
// their signatures most of its cost.
const KnownQuery = "known"

// SuffixQuery, with KnownQuery, asks for each table's digests past the
// asker's known pieces only: the asker completes them from its own table,
// whose first pieces a table of the same layer shares, and checks the
// signature over the whole. A seed's table grows with every piece it
// writes, and sent whole at every state it was most of a rollout's state
// bytes.
const SuffixQuery = "suffix"

// HeldQuery, on a Swarm state request, is how many pieces the asker knows
// the serving node to hold, and WaitQuery how long, in milliseconds, it
// waits for its answer: the node answers once it holds more, or when the
// wait is over. A node learns of its holders' new pieces as they arrive,
// without asking again and again for states that did not change.
const (
	HeldQuery = "held"
	WaitQuery = "wait"
)

// NamesQuery=0, on a Swarm state request, leaves out the holders the
// serving node names (window.State.Holders): an asker wants names now and
// then (swarm.NamesEvery), not in every state, and eight of them were
// most of a state's bytes.
const NamesQuery = "names"

// OnlyQuery, on a piece request, says the asker knows no other holder of
// the piece: a node that has sent its share of the layer sends it still.
const OnlyQuery = "only"

// NamespaceQuery is the query parameter naming the registry a request is
// for, as containerd sends it to mirrors.
const NamespaceQuery = "ns"

// Headers.
const (
	// DigestHeader carries the digest of the content served.
	DigestHeader = "Docker-Content-Digest"
	// APIVersionHeader, set to APIVersion, says the distribution API is
	// spoken here.
	APIVersionHeader = "Docker-Distribution-API-Version"
	APIVersion       = "registry/2.0"
	// ArrivingHeader marks an answer about content still arriving at the
	// serving node.
	ArrivingHeader = "Shoal-Arriving"
	// AvailableHeader, on an answer about content still arriving, is how
	// many bytes from its start the serving node holds.
	AvailableHeader = "Shoal-Available"
	// LoadHeader is how many bodies of the content asked for the serving
	// node is sending.
	LoadHeader = "Shoal-Load"
	// PullingHeader, on an answer about a blob (found or not), says that
	// the serving node is pulling from the repository the request named:
	// a rollout of it may be under way.
	PullingHeader = "Shoal-Pulling"
	// HaveHeader, on a piece of a layer, is the serving node's have-set
	// of it (window.EncodeHave): have-sets travel with the pieces.
	HaveHeader = "Shoal-Have"
	// ReceivingHeader, on a piece of a layer, is the pieces arriving at
	// the serving node now, which it passes on as they come (encoded as
	// HaveHeader); absent when none arrives.
	ReceivingHeader = "Shoal-Receiving"
	// SeedHeader, on a piece of a layer the serving node takes from the
	// upstream, is how many bytes of it the node has read there so far:
	// a seed and its progress travel with the pieces, as have-sets do.
	SeedHeader = "Shoal-Seed"
	// CapHeader, on a piece of a layer, is the serving node's upload cap
	// in bytes per second, if it has one: how fast its pieces leave it.
	CapHeader = "Shoal-Cap"
	// IntakeHeader, on a piece of a layer the serving node takes from the
	// upstream, is how many bytes per second it receives, for every layer
	// and from every source.
	IntakeHeader = "Shoal-Intake"
	// SpentHeader, on a piece of a layer, says the serving node has sent
	// its share of the layer in this rollout: it sends only pieces its
	// asker finds nowhere else (OnlyQuery).
	SpentHeader = "Shoal-Spent"
	// FullHeader, on a busy answer to a piece request, says every upload
	// slot of the serving node is taken: its asker asks it for no piece
	// until one should be free.
	FullHeader = "Shoal-Full"
	// HeldHeader, on a state held for HeldQuery, is how many milliseconds
	// the serving node held it: the asker measures the round trip without.
	HeldHeader = "Shoal-Held"
)

// maxRepositoryLength bounds a repository name, as the distribution spec
// recommends.
const maxRepositoryLength = 255

var (
	// Repository names, from the OCI distribution spec.
	repositoryRE = regexp.MustCompile(`^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*$`)
	// Tags, from the OCI distribution spec.
	tagRE = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$`)
	// Registry host names with an optional port.
	registryHostRE = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9.-]{0,251}[a-zA-Z0-9])?(:[0-9]{1,5})?$`)
)

// ValidRepository reports whether name is a repository name (such as
// library/alpine).
func ValidRepository(name string) bool {
	return len(name) <= maxRepositoryLength && repositoryRE.MatchString(name)
}

// ValidTag reports whether ref is a tag rather than a digest.
func ValidTag(ref string) bool {
	return tagRE.MatchString(ref)
}

// ValidRegistryHost reports whether host is a registry host name with an
// optional port (docker.io, registry.example:5000).
func ValidRegistryHost(host string) bool {
	return registryHostRE.MatchString(host)
}

// SplitPath splits /v2/<name>/(blobs|manifests|pieces)/<reference>. The
// last of "/blobs/", "/manifests/" and "/pieces/" decides, so a repository
// may have any of the words as a component. The reference is neither empty nor holds a "/"; the name
// is not checked (see ValidRepository).
func SplitPath(p string) (name, kind, ref string, ok bool) {
	rest, found := strings.CutPrefix(p, "/v2/")
	if !found {
		return "", "", "", false
	}
	i, kind := -1, ""
	for _, k := range []string{Blobs, Manifests, Swarm} {
		if m := strings.LastIndex(rest, "/"+k+"/"); m > i {
			i, kind = m, k
		}
	}
	if i <= 0 {
		return "", "", "", false
	}
	ref = rest[i+len(kind)+2:]
	if ref == "" || strings.Contains(ref, "/") {
		return "", "", "", false
	}
	return rest[:i], kind, ref, true
}

// Path is the request path for reference (a tag or digest) of kind in
// repository. A registry, when known, goes in the ns parameter, as
// containerd sends it to mirrors: without it a tag is ambiguous.
func Path(repository, kind, reference, registry string) string {
	p := "/v2/" + repository + "/" + kind + "/" + reference
	if registry != "" {
		p += "?" + NamespaceQuery + "=" + url.QueryEscape(registry)
	}
	return p
}
