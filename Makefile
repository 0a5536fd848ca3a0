# Shoal: containerd with a built-in peer-to-peer image mirror.

# The containerd line to build against: 2.4 (default, vendored) or 2.3 (the
# LTS line: go.2.3.mod, modules from the Go module proxy). Each line's
# containerd version is the one its module file requires.
CONTAINERD ?= 2.4
ifeq ($(CONTAINERD),2.4)
MODFILE    := go.mod
MODFLAGS   := -mod=vendor
MODDEPS    := go.mod vendor/modules.txt
LINETAGS   :=
else ifeq ($(CONTAINERD),2.3)
MODFILE    := go.2.3.mod
MODFLAGS   := -modfile=go.2.3.mod -mod=mod
MODDEPS    := go.2.3.mod go.2.3.sum
LINETAGS   := ,containerd2.3
else
$(error CONTAINERD=$(CONTAINERD): the lines are 2.4 and 2.3)
endif
CONTAINERD_VERSION := $(shell awk '$$1 == "github.com/containerd/containerd/v2" { sub(/^v/, "", $$2); print $$2 }' $(MODFILE))
SHOAL_VERSION      ?= 0.1.0
REVISION           ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

GO         ?= go
BUILDTAGS  := no_btrfs,no_zfs,no_devmapper
VERSION_PKG := github.com/containerd/containerd/v2/version
LDFLAGS    := -s -w \
	-X $(VERSION_PKG).Version=$(CONTAINERD_VERSION)+shoal.$(SHOAL_VERSION) \
	-X $(VERSION_PKG).Revision=$(REVISION) \
	-X $(VERSION_PKG).Package=github.com/shoal-dev/shoal
GOBUILD    := CGO_ENABLED=0 $(GO) build $(MODFLAGS) -trimpath -tags $(BUILDTAGS)$(LINETAGS) -ldflags '$(LDFLAGS)'

# Test tools are built from the Go module proxy at pinned versions, outside
# the module (they are not part of the product).
TOOLS_DIR        := $(CURDIR)/_tools
REGISTRY_VERSION := v3.1.2
REGISTRY_BIN     := $(TOOLS_DIR)/registry-$(REGISTRY_VERSION)/registry

.PHONY: all build demo test test-unit test-integration test-2.3 test-host bump tools bench clean vet fuzz install release bench-scale bench-dht bench-swarm

all: build

build: bin/containerd bin/ctr bin/shoal bin/containerd-shim-runc-v2 bin/containerd-stock

# Every binary depends on this stamp, rewritten only when the line changes:
# switching CONTAINERD rebuilds them all.
LINE_STAMP := bin/.containerd-version
$(LINE_STAMP): FORCE
	@mkdir -p bin && if [ "$$(cat $@ 2>/dev/null)" != "$(CONTAINERD_VERSION)" ]; then echo "$(CONTAINERD_VERSION)" > $@; fi
FORCE:

bin/containerd: $(shell find cmd/containerd plugin builtins -name '*.go' -not -name '*_test.go') $(MODDEPS) $(LINE_STAMP)
	$(GOBUILD) -o $@ ./cmd/containerd

# Stock containerd from the same module (of the same line): the reference for plugin
# parity and boot-time comparisons.
bin/containerd-stock: $(MODDEPS) $(LINE_STAMP)
	CGO_ENABLED=0 $(GO) build $(MODFLAGS) -trimpath -tags $(BUILDTAGS) -ldflags '-s -w -X $(VERSION_PKG).Version=$(CONTAINERD_VERSION)' \
		-o $@ github.com/containerd/containerd/v2/cmd/containerd

# A test-only build whose content service flips a byte of every piece it
# sends (build tag shoalfault): the corrupting member of the rollout tests.
# Never installed or released.
bin/containerd-fault: $(shell find cmd/containerd plugin builtins -name '*.go' -not -name '*_test.go') $(MODDEPS) $(LINE_STAMP)
	CGO_ENABLED=0 $(GO) build $(MODFLAGS) -trimpath -tags $(BUILDTAGS)$(LINETAGS),shoalfault -ldflags '$(LDFLAGS)' -o $@ ./cmd/containerd

bin/ctr: $(MODDEPS) $(LINE_STAMP)
	$(GOBUILD) -o $@ github.com/containerd/containerd/v2/cmd/ctr

# The runc shim of the same containerd version, built as containerd builds it.
bin/containerd-shim-runc-v2: $(MODDEPS) $(LINE_STAMP)
	CGO_ENABLED=0 $(GO) build $(MODFLAGS) -trimpath -tags no_grpc -ldflags '-s -w -X $(VERSION_PKG).Version=$(CONTAINERD_VERSION)' \
		-o $@ github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2

bin/shoal: $(shell find cmd/shoal plugin -name '*.go' -not -name '*_test.go') $(MODDEPS) $(LINE_STAMP)
	$(GOBUILD) -o $@ ./cmd/shoal

# The demo is a development tool built from the test harness; it is not
# installed or released.
bin/shoal-demo: $(shell find integration/demo integration/cluster -name '*.go' -not -name '*_test.go') go.mod vendor/modules.txt
	$(GOBUILD) -o $@ ./integration/demo

$(REGISTRY_BIN):
	mkdir -p $(dir $@)
	cd /tmp && GOBIN=$(dir $@) GOFLAGS= $(GO) install github.com/distribution/distribution/v3/cmd/registry@$(REGISTRY_VERSION)

# The OCI distribution-spec conformance suite (pull category), v1.1 era.
CONFORMANCE_VERSION := v0.0.0-20231101194043-f2182352d4cc
CONFORMANCE_BIN     := $(TOOLS_DIR)/conformance-$(CONFORMANCE_VERSION)/conformance.test

$(CONFORMANCE_BIN):
	rm -rf $(dir $@)src && mkdir -p $(dir $@)src
	cd $(dir $@)src && GOFLAGS= $(GO) mod init shoal.local/conformance >/dev/null 2>&1 && \
		GOFLAGS= $(GO) get -t github.com/opencontainers/distribution-spec/conformance@$(CONFORMANCE_VERSION) && \
		GOFLAGS= $(GO) test -c -o $@ github.com/opencontainers/distribution-spec/conformance

# The stargz snapshotter (a proxy snapshotter) and its eStargz converter, for
# the lazy-pull tests: integration/stargz pins its module.
STARGZ_DIR := $(TOOLS_DIR)/stargz-$(shell awk '$$1 == "github.com/containerd/stargz-snapshotter" {print $$2}' integration/stargz/go.mod)

$(STARGZ_DIR)/sgz: integration/stargz/go.mod $(wildcard integration/stargz/cmd/*/main.go)
	mkdir -p $(STARGZ_DIR)
	cd integration/stargz && GOFLAGS= CGO_ENABLED=0 $(GO) build -trimpath -o $(STARGZ_DIR)/ ./cmd/...

tools: $(REGISTRY_BIN) $(CONFORMANCE_BIN) $(STARGZ_DIR)/sgz

vet:
	$(GO) vet ./cmd/... ./plugin/... ./builtins/... ./integration/...
	$(GO) vet -tags bench ./plugin/router ./plugin/swarm ./integration/

## demo: three nodes on loopback share a generated image (run as root).
demo: build bin/shoal-demo
	./bin/shoal-demo --bin ./bin

test: test-unit fuzz test-integration

# Every parser of network input has a fuzz target; CI runs each briefly.
# Runs are counted in executions, not seconds: a time limit can end a run
# with a spurious "context deadline exceeded" on a slow machine.
FUZZ_TARGETS := contentserver:FuzzServeHTTP:100000x mirror:FuzzMirrorRequest:20000x oci:FuzzSplitPath:200000x oci:FuzzValidRange:200000x \
	router:FuzzParseBootstrapPeer:20000x peerclient:FuzzHeadManifest:200000x \
	peerhttp:FuzzDataAddress:100000x pieces:FuzzDecodeTable:100000x

fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; fn=$${rest%%:*}; n=$${FUZZTIME:-$${rest#*:}}; \
		echo "fuzz $$fn ($$pkg), $$n"; \
		$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $$n ./plugin/$$pkg || exit 1; \
	done

# One package at a time: the fetcher's tests time holders against each
# other, and under the race detector beside other packages on two CPUs
# they failed in three clean-clone runs of five (2026-12-05).
test-unit:
	$(GO) test -race -count=1 -p 1 ./plugin/... ./cmd/... ./builtins/...

## test-integration: real containerd processes and a real registry (root).
# What the integration tests run besides our binaries, from Debian: iptables
# (the partition test) and runc (the lazy-pull test starts a container).
test-host:
	@missing=""; \
	command -v iptables >/dev/null 2>&1 || missing="$$missing iptables"; \
	command -v runc >/dev/null 2>&1 || missing="$$missing runc"; \
	if [ -n "$$missing" ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

test-integration: build tools bin/containerd-fault test-host
	SHOAL_CONTAINERD=$(CONTAINERD) SHOAL_BIN_DIR=$(CURDIR)/bin SHOAL_REGISTRY_BIN=$(REGISTRY_BIN) SHOAL_CONFORMANCE_BIN=$(CONFORMANCE_BIN) \
		SHOAL_STARGZ_BIN_DIR=$(STARGZ_DIR) $(GO) test -count=1 -timeout 20m -v ./integration/...

## test-2.3: the 2.3 (LTS) line: unit tests against containerd 2.3, then its version,
## plugin parity, its own main plus Shoal's import, and peer pulls, with binaries
## built with CONTAINERD=2.3 (root). Leaves the 2.3 binaries in bin/.
LTS_TESTS := TestBinaryNamesVersionsAndDefaultConfig|TestContainerdLinksNoQUICWebTransportOrWebRTC|TestLoadsEveryStockPluginWithTheSameStatusPlusP2P|TestContainerdsOwnMainPlusOneImportPullsFromPeers|TestCtrPullOfImageAPeerHoldsMakesNoUpstreamBlobRequests|TestCRIPullOnFreshNodeAtBootIsServedByPeers
test-2.3: tools
	$(MAKE) CONTAINERD=2.3 build
	$(GO) test -count=1 -modfile=go.2.3.mod -mod=mod -tags containerd2.3 ./plugin/... ./builtins/... ./cmd/...
	SHOAL_CONTAINERD=2.3 SHOAL_BIN_DIR=$(CURDIR)/bin SHOAL_REGISTRY_BIN=$(REGISTRY_BIN) \
		$(GO) test -count=1 -timeout 20m -v -run '^($(LTS_TESTS))$$' ./integration/

## bump: move a line to another containerd release, e.g. `make bump CONTAINERD=2.4 TO=v2.4.3`:
## updates its module file (and, for 2.4, re-vendors); then `make CONTAINERD=... test`.
BUMP_MODFILE := $(if $(filter 2.3,$(CONTAINERD)),-modfile=go.2.3.mod)
bump:
	@test -n "$(TO)" || { echo "usage: make bump CONTAINERD=2.4|2.3 TO=v2.x.y" >&2; exit 1; }
	$(GO) get $(BUMP_MODFILE) github.com/containerd/containerd/v2@$(TO)
	$(GO) mod tidy $(BUMP_MODFILE)
	$(if $(BUMP_MODFILE),,$(GO) mod vendor)
	@echo "containerd $(TO) in $(MODFILE); next: make CONTAINERD=$(CONTAINERD) test, README's version table, SHOAL_VERSION"

## install: binaries and the systemd unit under $(DESTDIR)$(PREFIX).
PREFIX     ?= /usr/local
DESTDIR    ?=
SYSTEMDDIR ?= $(PREFIX)/lib/systemd/system
INSTALL_BINS := containerd containerd-shim-runc-v2 ctr shoal

install: $(addprefix bin/,$(INSTALL_BINS))
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(SYSTEMDDIR)
	for b in $(INSTALL_BINS); do install -m 0755 bin/$$b $(DESTDIR)$(PREFIX)/bin/$$b; done
	sed 's|@BINDIR@|$(PREFIX)/bin|' cmd/containerd/containerd.service > $(DESTDIR)$(SYSTEMDDIR)/containerd.service
	chmod 0644 $(DESTDIR)$(SYSTEMDDIR)/containerd.service

## release: a tarball laid out like containerd's (bin/...), with a checksum.
GOARCH      ?= $(shell $(GO) env GOARCH)
RELEASE     := shoal-$(SHOAL_VERSION)-containerd-$(CONTAINERD_VERSION)-linux-$(GOARCH)
RELEASE_DIR ?= $(CURDIR)/release

release: $(addprefix bin/,$(INSTALL_BINS))
	rm -rf $(RELEASE_DIR)/$(RELEASE) && install -d $(RELEASE_DIR)/$(RELEASE)/bin
	for b in $(INSTALL_BINS); do install -m 0755 bin/$$b $(RELEASE_DIR)/$(RELEASE)/bin/$$b; done
	sed 's|@BINDIR@|/usr/local/bin|' cmd/containerd/containerd.service > $(RELEASE_DIR)/$(RELEASE)/containerd.service
	cp README.md $(RELEASE_DIR)/$(RELEASE)/
	tar -C $(RELEASE_DIR)/$(RELEASE) --owner=0 --group=0 --numeric-owner -czf $(RELEASE_DIR)/$(RELEASE).tar.gz bin containerd.service README.md
	cd $(RELEASE_DIR) && sha256sum $(RELEASE).tar.gz > $(RELEASE).tar.gz.sha256sum
	rm -rf $(RELEASE_DIR)/$(RELEASE)
	@echo $(RELEASE_DIR)/$(RELEASE).tar.gz

clean:
	rm -rf bin release

## bench-scale: the DHT with N simulated nodes (libp2p mock network).
SCALE ?= 10,100,1000
bench-scale:
	SHOAL_SCALE=$(SCALE) SHOAL_BENCH_OUT=$(CURDIR)/bin/bench-scale.md \
		$(GO) test -count=1 -timeout 60m -tags bench -run TestScaleReport -v ./plugin/router | grep -v '^time='

## bench-dht: announce → findable and lookup delays on N real libp2p nodes (TCP on loopback, one process).
CALIBRATE ?= 100,200
bench-dht:
	mkdir -p bin
	SHOAL_CALIBRATE=$(CALIBRATE) SHOAL_BENCH_OUT=$(CURDIR)/bin/bench-dht.md \
		$(GO) test -count=1 -timeout 60m -tags bench -run TestDHTCalibration -v ./plugin/router | grep -v '^time=\|^ts='

## bench-swarm: rollouts of the piece swarm's policy (plugin/swarm) to N simulated nodes (discrete events).
## SWARM_TIMES: the layers' size ÷ link to simulate (1s,8s by default);
## SWARM_CASES: a regexp of the rows to run, on "<case> <hop>" (e.g. 'one layer 5ms').
## Every case runs at a 5 ms hop and each SWARM_TIMES; "one layer" at 1, 5 and 20 ms too.
## A 1,000-node row takes a few minutes on one core, 3,000 nodes 17 minutes, 10,000 nodes 85 (8 GB): one case at a time.
SWARM ?= 100
SWARM_TIMES ?= 1s,8s
SWARM_CASES ?=
bench-swarm:
	SHOAL_SWARM=$(SWARM) SHOAL_SWARM_TIMES=$(SWARM_TIMES) SHOAL_SWARM_CASES='$(SWARM_CASES)' SHOAL_BENCH_OUT=$(CURDIR)/bin/bench-swarm.md \
		$(GO) test -count=1 -timeout 180m -tags bench -run TestSwarmReport -v ./plugin/swarm

## bench: side-by-side measurements printed as a markdown table (root); ONLY=<regexp> picks sections.
bench: build tools bin/containerd-fault
	SHOAL_BENCH=1 SHOAL_BENCH_ONLY='$(ONLY)' SHOAL_BENCH_OUT=$(CURDIR)/bin/bench.md SHOAL_BIN_DIR=$(CURDIR)/bin SHOAL_REGISTRY_BIN=$(REGISTRY_BIN) \
		$(GO) test -count=1 -timeout 60m -tags bench -run TestBenchmarkReport -v ./integration/ | grep -v '^        time='
