// Command stargz-grpc serves the stargz snapshotter's snapshots API on a
// unix socket, for containerd's proxy_plugins: containerd-stargz-grpc's
// job, built from the snapshotter's Go module (whose commands are a module
// of their own, not served by the module proxy).
package main

import (
	"context"
	"flag"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/BurntSushi/toml"
	snapshotsapi "github.com/containerd/containerd/api/services/snapshots/v1"
	"github.com/containerd/containerd/v2/contrib/snapshotservice"
	"github.com/containerd/log"
	"github.com/containerd/stargz-snapshotter/service"
	"google.golang.org/grpc"
)

func main() {
	address := flag.String("address", "", "unix socket to serve the snapshots API on")
	configPath := flag.String("config", "", "config.toml")
	root := flag.String("root", "", "root directory")
	flag.Parse()
	log.SetLevel("debug")
	ctx := context.Background()
	var cfg service.Config
	if *configPath != "" {
		if _, err := toml.DecodeFile(*configPath, &cfg); err != nil {
			log.G(ctx).WithError(err).Fatal("config")
		}
	}
	sn, err := service.NewStargzSnapshotterService(ctx, *root, &cfg)
	if err != nil {
		log.G(ctx).WithError(err).Fatal("snapshotter")
	}
	defer sn.Close()
	rpc := grpc.NewServer()
	snapshotsapi.RegisterSnapshotsServer(rpc, snapshotservice.FromSnapshotter(sn))
	os.Remove(*address)
	l, err := net.Listen("unix", *address)
	if err != nil {
		log.G(ctx).WithError(err).Fatal("listen")
	}
	go func() {
		if err := rpc.Serve(l); err != nil {
			log.G(ctx).WithError(err).Error("serve")
		}
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	rpc.Stop()
}
