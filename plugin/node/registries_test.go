package node

import (
	"testing"

	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/registryaccess"
)

// The hosts.toml files the mirror writes list it; the registry clients the
// transfer wrapper gets from the node skip it, so an anonymous check never
// takes the mirror's (peers') word for the registry's.
func TestPullsShareRegistryClientsThatSkipTheMirror(t *testing.T) {
	cfg := testConfig()
	cfg.MirrorAddress = "127.0.0.1:0"
	cfg.MirrorHostsDir = t.TempDir()
	cfg.MirrorRegistries = []string{"registry.test"}
	n := start(t, cfg, deps(t))

	shared := n.PeerFetcher()
	if shared.RegistryAccess() == nil {
		t.Fatal("the node does not share its registry clients with pulls")
	}
	ref := "registry.test/team/app@" + digest.FromString("x").String()
	hosts, skipped, err := shared.RegistryAccess().Endpoints(registryaccess.Config{HostDir: cfg.MirrorHostsDir}, ref)
	if err != nil || !skipped || len(hosts) != 1 || hosts[0] != "registry.test" {
		t.Errorf("endpoints %v, skipped=%v, err=%v: want the registry only, the mirror (%s) skipped", hosts, skipped, err, n.Exports()["mirror_address"])
	}
}
