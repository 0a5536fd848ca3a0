package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/opencontainers/go-digest"
	"github.com/urfave/cli/v3"

	"github.com/shoal-dev/shoal/plugin/control"
)

func (q *queries) statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "Show this node: peer ID, addresses, peers, announcements, counters, recent failures",
		Flags: []cli.Flag{jsonFlag},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 0 {
				return fmt.Errorf("extra arguments: %v", cmd.Args().Slice())
			}
			var st control.Status
			if err := q.get(ctx, cmd, "/status", &st); err != nil {
				return err
			}
			w := cmd.Root().Writer
			if cmd.Bool("json") {
				return printJSON(w, st)
			}
			tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
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
			if err := tw.Flush(); err != nil {
				return err
			}
			if len(st.RecentFailures) == 0 {
				return nil
			}
			fmt.Fprintln(w, "\nrecent failures:")
			tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "TIME\tPEER\tDIGEST\tERROR")
			for _, f := range st.RecentFailures {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Time.Format(time.RFC3339), f.Peer, f.Digest, f.Error)
			}
			return tw.Flush()
		},
	}
}

func (q *queries) peersCommand() *cli.Command {
	return &cli.Command{
		Name:  "peers",
		Usage: "List the connected peers",
		Flags: []cli.Flag{jsonFlag},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 0 {
				return fmt.Errorf("extra arguments: %v", cmd.Args().Slice())
			}
			var peers []control.Peer
			if err := q.get(ctx, cmd, "/peers", &peers); err != nil {
				return err
			}
			return printPeers(cmd, peers)
		},
	}
}

func (q *queries) providersCommand() *cli.Command {
	return &cli.Command{
		Name:      "providers",
		Usage:     "List the peers that hold a blob, or announced an image reference",
		ArgsUsage: "<digest|image-ref>",
		Flags:     []cli.Flag{jsonFlag},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 1 {
				return errors.New("give one digest or image reference: shoal providers <digest|image-ref>")
			}
			arg := cmd.Args().First()
			// References may hold "@" and, in principle, anything else a
			// query string would misread.
			query := "/providers?ref=" + url.QueryEscape(arg)
			if d, err := digest.Parse(arg); err == nil {
				query = "/providers?digest=" + d.String()
			}
			var peers []control.Peer
			if err := q.get(ctx, cmd, query, &peers); err != nil {
				return err
			}
			return printPeers(cmd, peers)
		},
	}
}

// get asks the control socket of the containerd that cmd names for path.
func (q *queries) get(ctx context.Context, cmd *cli.Command, path string, v any) error {
	cl, ctx, cancel, err := q.client(ctx, cmd)
	if err != nil {
		return err
	}
	defer cancel()
	return cl.Get(ctx, path, v)
}

func printPeers(cmd *cli.Command, peers []control.Peer) error {
	w := cmd.Root().Writer
	if cmd.Bool("json") {
		return printJSON(w, peers)
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PEER\tADDRESSES")
	for _, p := range peers {
		fmt.Fprintf(tw, "%s\t%s\n", p.ID, strings.Join(p.Addresses, ", "))
	}
	return tw.Flush()
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
