// Command sgz converts an image to eStargz with the stargz snapshotter's
// converter, and pulls an image lazily into the stargz snapshotter (what
// ctr-remote does), through a containerd socket.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"

	containerd "github.com/containerd/containerd/v2/client"
	"github.com/containerd/containerd/v2/core/images/converter"
	"github.com/containerd/containerd/v2/core/remotes/docker"
	"github.com/containerd/containerd/v2/pkg/namespaces"
	"github.com/containerd/platforms"
	"github.com/containerd/stargz-snapshotter/fs/source"
	estargzconvert "github.com/containerd/stargz-snapshotter/nativeconverter/estargz"
)

func main() {
	address := flag.String("a", "", "containerd socket")
	mirror := flag.String("mirror", "", "host:port of a registry mirror asked first (plain HTTP)")
	flag.Parse()
	args := flag.Args()
	ctx := namespaces.WithNamespace(context.Background(), "default")
	client, err := containerd.New(*address)
	if err != nil {
		fail(err)
	}
	defer client.Close()
	switch {
	case len(args) == 3 && args[0] == "convert":
		_, err = converter.Convert(ctx, client, args[2], args[1],
			converter.WithLayerConvertFunc(estargzconvert.LayerConvertFunc()),
			converter.WithDockerToOCI(true), converter.WithPlatform(platforms.Default()))
	case len(args) == 2 && args[0] == "rpull":
		hosts := func(host string) ([]docker.RegistryHost, error) {
			var out []docker.RegistryHost
			for _, h := range []string{*mirror, host} {
				if h == "" {
					continue
				}
				out = append(out, docker.RegistryHost{Client: http.DefaultClient, Host: h, Scheme: "http", Path: "/v2", Capabilities: docker.HostCapabilityPull | docker.HostCapabilityResolve})
			}
			return out, nil
		}
		_, err = client.Pull(ctx, args[1],
			containerd.WithResolver(docker.NewResolver(docker.ResolverOptions{Hosts: hosts})),
			containerd.WithPullUnpack, containerd.WithPullSnapshotter("stargz"),
			containerd.WithImageHandlerWrapper(source.AppendDefaultLabelsHandlerWrapper(args[1], 0)))
	default:
		err = fmt.Errorf("usage: sgz -a SOCKET convert SRC DST | sgz -a SOCKET [-mirror HOST] rpull REF")
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sgz:", err)
	os.Exit(1)
}
