package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/containerd/containerd/v2/pkg/progress"
	"github.com/urfave/cli/v3"

	"github.com/shoal-dev/shoal/plugin/pullhistory"
)

func (q *queries) pullsCommand() *cli.Command {
	return &cli.Command{
		Name:  "pulls",
		Usage: "List this node's recent pulls and where their bytes came from",
		Description: `The last pulls through containerd's transfer service (CRI, ctr image pull),
oldest first: when each began, how long it took, the bytes received from the
upstream registry and from each peer, and how many times a peer failed and
the pull went on elsewhere. Tag resolution, which always asks the registry,
is not counted. Kept in memory: a restart of containerd forgets them.`,
		Flags: []cli.Flag{jsonFlag},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 0 {
				return fmt.Errorf("extra arguments: %v", cmd.Args().Slice())
			}
			var pulls []pullhistory.Pull
			if err := q.get(ctx, cmd, "/pulls", &pulls); err != nil {
				return err
			}
			w := cmd.Root().Writer
			if cmd.Bool("json") {
				return printJSON(w, pulls)
			}
			tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "IMAGE\tSTARTED\tDURATION\tFROM UPSTREAM\tFROM PEERS\tFAILOVERS\tSTATUS\tBY PEER")
			for _, p := range pulls {
				status := "ok"
				if p.Error != "" {
					status = "failed"
				}
				from := make([]string, 0, len(p.Peers))
				for _, b := range p.Peers {
					from = append(from, b.Peer+" "+progress.Bytes(b.Bytes).String())
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n",
					p.Image, p.Start.Format(time.RFC3339), p.Duration.Round(time.Millisecond),
					progress.Bytes(p.UpstreamBytes), progress.Bytes(p.PeerTotal()), p.Failovers, status,
					orDash(strings.Join(from, ", ")))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			for _, p := range pulls {
				if p.Error != "" {
					fmt.Fprintf(w, "\n%s (%s) failed: %s\n", p.Image, p.Start.Format(time.RFC3339), p.Error)
				}
			}
			return nil
		},
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
