package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/containerd/containerd/v2/client"
	"github.com/containerd/containerd/v2/defaults"
	"github.com/opencontainers/go-digest"

	"github.com/shoal-dev/shoal/plugin/control"
)

// common are the flags every query command takes, as ctr does.
type common struct {
	address string
	json    bool
}

func (c *common) register(fs *flag.FlagSet) {
	def := defaults.DefaultAddress
	if env := os.Getenv("CONTAINERD_ADDRESS"); env != "" {
		def = env
	}
	fs.StringVar(&c.address, "a", def, "containerd socket (also --address, $CONTAINERD_ADDRESS)")
	fs.StringVar(&c.address, "address", def, "containerd socket")
	fs.BoolVar(&c.json, "json", false, "print JSON for scripts")
}

// controlClient finds the P2P plugin's control socket through containerd's
// introspection service.
func (c *common) controlClient(ctx context.Context) (*control.Client, error) {
	cc, err := client.New(c.address, client.WithTimeout(5*time.Second))
	if err != nil {
		return nil, fmt.Errorf("cannot reach containerd at %s (is it running? use -a to name its socket): %w", c.address, err)
	}
	defer cc.Close()
	resp, err := cc.IntrospectionService().Plugins(ctx, `type=="io.containerd.server.v1",id=="p2p"`)
	if err != nil {
		return nil, fmt.Errorf("ask containerd at %s for its plugins: %w", c.address, err)
	}
	if len(resp.Plugins) == 0 {
		return nil, fmt.Errorf("containerd at %s has no p2p plugin: is it Shoal's containerd (containerd --version)?", c.address)
	}
	p := resp.Plugins[0]
	if p.InitErr != nil {
		return nil, fmt.Errorf("the p2p plugin is not running: %s (see `containerd config default` and the README's configuration reference)", p.InitErr.Message)
	}
	path := p.Exports["control_socket"]
	if path == "" {
		return nil, errors.New("the p2p plugin exports no control socket")
	}
	return control.NewClient(path), nil
}

// connect parses a query command's flags and finds the control socket. It
// returns the arguments left after the flags.
func connect(ctx context.Context, name string, args []string) (*common, *control.Client, []string, error) {
	var c common
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	c.register(fs)
	if err := fs.Parse(args); err != nil {
		return nil, nil, nil, err
	}
	cl, err := c.controlClient(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	return &c, cl, fs.Args(), nil
}

func runStatus(ctx context.Context, args []string) error {
	c, cl, _, err := connect(ctx, "status", args)
	if err != nil {
		return err
	}
	var st control.Status
	if err := cl.Get("/status", &st); err != nil {
		return err
	}
	if c.json {
		return printJSON(st)
	}
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "peer ID\t%s\n", st.PeerID)
	fmt.Fprintf(tw, "addresses\t%s\n", strings.Join(st.Addresses, ", "))
	fmt.Fprintf(tw, "connected peers\t%d\n", st.ConnectedPeers)
	fmt.Fprintf(tw, "routing table\t%d\n", st.RoutingTable)
	fmt.Fprintf(tw, "announced keys\t%d\n", st.AnnouncedKeys)
	names := make([]string, 0, len(st.Counters))
	for k := range st.Counters {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(tw, "%s\t%d\n", strings.ReplaceAll(k, "_", " "), st.Counters[k])
	}
	tw.Flush()
	if len(st.RecentFailures) > 0 {
		fmt.Println("\nrecent failures:")
		tw = tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "TIME\tPEER\tDIGEST\tERROR")
		for _, f := range st.RecentFailures {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Time.Format(time.RFC3339), f.Peer, f.Digest, f.Error)
		}
		tw.Flush()
	}
	return nil
}

func runPeers(ctx context.Context, args []string) error {
	c, cl, _, err := connect(ctx, "peers", args)
	if err != nil {
		return err
	}
	var peers []control.Peer
	if err := cl.Get("/peers", &peers); err != nil {
		return err
	}
	return printPeers(c.json, peers)
}

func runProviders(ctx context.Context, args []string) error {
	var c common
	fs := flag.NewFlagSet("providers", flag.ContinueOnError)
	c.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: shoal providers [-a SOCKET] [--json] <digest|image-ref>")
	}
	arg := fs.Arg(0)
	// References may hold "@" and, in principle, anything else a query
	// string would misread.
	query := "/providers?ref=" + url.QueryEscape(arg)
	if d, err := digest.Parse(arg); err == nil {
		query = "/providers?digest=" + d.String()
	}
	cl, err := c.controlClient(ctx)
	if err != nil {
		return err
	}
	var peers []control.Peer
	if err := cl.Get(query, &peers); err != nil {
		return err
	}
	return printPeers(c.json, peers)
}

func printPeers(asJSON bool, peers []control.Peer) error {
	if asJSON {
		return printJSON(peers)
	}
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PEER\tADDRESSES")
	for _, p := range peers {
		fmt.Fprintf(tw, "%s\t%s\n", p.ID, strings.Join(p.Addresses, ", "))
	}
	return tw.Flush()
}

func printJSON(v any) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
