package peertransfer

import (
	"context"
	"time"

	"github.com/containerd/containerd/v2/core/remotes/docker"
)

// anonymousProbeTimeout bounds the extra request a pull makes to learn
// whether its image needs credentials.
const anonymousProbeTimeout = 10 * time.Second

// anonymousPull reports whether the registry resolves ref for a client
// without credentials. Content of images that need credentials is never
// handed to peers that cannot reach the registry; when the answer is not
// known (the probe failed), the image counts as needing them.
func anonymousPull(ctx context.Context, ref string) bool {
	ctx, cancel := context.WithTimeout(ctx, anonymousProbeTimeout)
	defer cancel()
	resolver := docker.NewResolver(docker.ResolverOptions{
		Hosts: docker.ConfigureDefaultRegistries(docker.WithPlainHTTP(docker.MatchLocalhost)),
	})
	_, _, err := resolver.Resolve(ctx, ref)
	return err == nil
}
