package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/shoal-dev/shoal/plugin/netkey"
)

func runNetworkKey(args []string) error {
	fs := flag.NewFlagSet("network-key", flag.ContinueOnError)
	out := fs.String("o", "", "file to write the key to (mode 0600); default stdout")
	if err := fs.Parse(args); err != nil {
		return err
	}
	key, err := netkey.Generate()
	if err != nil {
		return err
	}
	if *out == "" {
		_, err := os.Stdout.Write(key)
		return err
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s exists; remove it first (replacing a key splits the network until every node has the new one)", *out)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
