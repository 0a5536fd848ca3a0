package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/shoal-dev/shoal/plugin/netkey"
)

func networkKeyCommand() *cli.Command {
	return &cli.Command{
		Name:  "network-key",
		Usage: "Write a new private-network key (swarm-key format)",
		Description: `Every node of a cluster needs the same key (network_key_file), root-owned,
mode 0600. Without -o the key goes to standard output.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "Write the key to `FILE` (created with mode 0600; never replaced)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 0 {
				return fmt.Errorf("extra arguments: %v", cmd.Args().Slice())
			}
			key, err := netkey.Generate()
			if err != nil {
				return err
			}
			out := cmd.String("output")
			if out == "" {
				_, err := cmd.Root().Writer.Write(key)
				return err
			}
			f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("%s exists; remove it first (replacing a key splits the network until every node has the new one)", out)
			}
			if err != nil {
				return err
			}
			if _, err := f.Write(key); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		},
	}
}
