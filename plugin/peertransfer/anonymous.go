package peertransfer

import (
	"context"

	"github.com/containerd/log"

	"github.com/shoal-dev/shoal/plugin/registryaccess"
)

// anonymousPull reports whether the registry serves image ref, which the
// pull from src has just resolved, to a client without credentials. Content
// of images that need credentials is never handed to peers that cannot
// reach the registry; when the answer is not known, the image counts as
// needing them.
//
// A pull made without credentials proved it already: its own resolve
// succeeded anonymously, and no request is made. Only a pull whose
// credential helper had credentials (or could not tell) costs an anonymous
// check, through the same host configuration as the pull, at most one per
// repository per hour (see registryaccess.Access.AnonymousPull).
func anonymousPull(ctx context.Context, access *registryaccess.Access, src any, ref string) bool {
	cfg := registryaccess.Config{}
	if pull := registryaccess.LearnPull(ctx, src); pull != nil {
		proved := provedAnonymous(ctx, access, pull)
		pull.Close()
		if proved {
			return true
		}
		cfg = pull.Config
		if pull.Reference != "" {
			ref = pull.Reference
		}
	}
	answer := access.AnonymousPull(ctx, cfg, ref)
	log.G(ctx).WithField("ref", ref).WithField("answer", answer).Debug("p2p: anonymous check of a pull made with credentials")
	return answer == registryaccess.Served
}

// provedAnonymous reports whether the pull resolved without credentials:
// its credential helper has none for any host its resolve may have asked,
// and none of those hosts is one Shoal skips (its loopback mirror serves by
// digest what peers hold, without asking the registry).
func provedAnonymous(ctx context.Context, access *registryaccess.Access, pull *registryaccess.Pull) bool {
	hosts, viaMirror, err := access.Endpoints(pull.Config, pull.Reference)
	if err != nil || viaMirror {
		return false
	}
	return !pull.HasCredentials(ctx, hosts)
}
