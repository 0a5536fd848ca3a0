// Command shoal is the companion tool of Shoal's containerd: what the P2P
// mirror of the containerd at --address is doing, and its network keys. It
// is built like ctr: the same global flags, help and errors.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/containerd/containerd/v2/client"
	"github.com/containerd/containerd/v2/defaults"
	"github.com/containerd/containerd/v2/version"
	"github.com/urfave/cli/v3"
	"google.golang.org/grpc/grpclog"

	"github.com/shoal-dev/shoal/plugin/control"
)

func init() {
	// As in ctr: gRPC's logs would mix with the tables.
	grpclog.SetLoggerV2(grpclog.NewLoggerV2(io.Discard, io.Discard, io.Discard))

	// `shoal --version` reads like `containerd --version`.
	cli.VersionPrinter = func(cmd *cli.Command) {
		fmt.Fprintln(cmd.Root().Writer, cmd.Name, version.Package, cmd.Version, version.Revision)
	}
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "Print the version", HideDefault: true}
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "Show help", HideDefault: true}
}

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if err := newApp(findControlSocket).Run(ctx, os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "shoal:", err)
		os.Exit(1)
	}
}

// socketFinder returns the path of the P2P plugin's control socket of the
// containerd at address.
type socketFinder func(ctx context.Context, address string, connectTimeout time.Duration) (string, error)

// newApp is the command line; find locates the control socket (tests
// replace it).
func newApp(find socketFinder) *cli.Command {
	q := &queries{find: find}
	return &cli.Command{
		Name:    "shoal",
		Version: version.Version,
		Usage:   "the P2P image mirror of Shoal's containerd",
		Description: `shoal asks the P2P plugin of the containerd at --address (found through
containerd's introspection service, as ` + "`ctr plugins ls -d id==p2p`" + ` shows it)
about its peers, what they hold and this node's recent pulls, and makes
private-network keys. Tables are for people; --json is for scripts.`,
		DisableSliceFlagSeparator: true,
		Flags: []cli.Flag{
			&cli.StringFlag{
				Name:    "address",
				Aliases: []string{"a"},
				Usage:   "Address for containerd's GRPC server",
				Value:   defaults.DefaultAddress,
				Sources: cli.EnvVars("CONTAINERD_ADDRESS"),
			},
			&cli.DurationFlag{
				Name:  "timeout",
				Usage: "Total timeout for shoal commands",
			},
			&cli.DurationFlag{
				Name:  "connect-timeout",
				Usage: "Timeout for connecting to containerd",
				Value: 5 * time.Second,
			},
		},
		Commands: []*cli.Command{
			q.statusCommand(),
			q.peersCommand(),
			q.providersCommand(),
			q.pullsCommand(),
			networkKeyCommand(),
		},
	}
}

// jsonFlag is the flag of every command that prints a table.
var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "Print JSON, for scripts"}

// queries are the commands that ask the plugin's control socket.
type queries struct{ find socketFinder }

// client finds the control socket of the containerd that cmd names, and
// returns the context of the command (bounded by --timeout, as in ctr).
func (q *queries) client(ctx context.Context, cmd *cli.Command) (*control.Client, context.Context, context.CancelFunc, error) {
	var cancel context.CancelFunc
	if timeout := cmd.Duration("timeout"); timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	path, err := q.find(ctx, cmd.String("address"), cmd.Duration("connect-timeout"))
	if err != nil {
		cancel()
		return nil, nil, nil, err
	}
	return control.NewClient(path), ctx, cancel, nil
}

// findControlSocket asks containerd's introspection service for the P2P
// plugin's control socket.
func findControlSocket(ctx context.Context, address string, connectTimeout time.Duration) (string, error) {
	if _, err := os.Stat(address); err != nil {
		return "", fmt.Errorf("cannot access socket %s (is containerd running? use -a to name its socket): %w", address, err)
	}
	cc, err := client.New(address, client.WithTimeout(connectTimeout))
	if err != nil {
		return "", fmt.Errorf("cannot reach containerd at %s (is it running? use -a to name its socket): %w", address, err)
	}
	defer cc.Close()
	resp, err := cc.IntrospectionService().Plugins(ctx, `type=="io.containerd.server.v1",id=="p2p"`)
	if err != nil {
		return "", fmt.Errorf("ask containerd at %s for its plugins: %w", address, err)
	}
	if len(resp.Plugins) == 0 {
		return "", fmt.Errorf("containerd at %s has no p2p plugin: is it Shoal's containerd (containerd --version)?", address)
	}
	p := resp.Plugins[0]
	if p.InitErr != nil {
		return "", fmt.Errorf("the p2p plugin is not running: %s (see `containerd config default` and the README's configuration reference)", p.InitErr.Message)
	}
	path := p.Exports["control_socket"]
	if path == "" {
		return "", errors.New("the p2p plugin exports no control socket")
	}
	return path, nil
}
