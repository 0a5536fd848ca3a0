# Shoal: containerd with a built-in peer-to-peer image mirror.

CONTAINERD_VERSION := 2.4.2
SHOAL_VERSION      ?= 0.1.0
REVISION           ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

GO         ?= go
BUILDTAGS  := no_btrfs,no_zfs,no_devmapper
VERSION_PKG := github.com/containerd/containerd/v2/version
LDFLAGS    := -s -w \
	-X $(VERSION_PKG).Version=$(CONTAINERD_VERSION)+shoal.$(SHOAL_VERSION) \
	-X $(VERSION_PKG).Revision=$(REVISION) \
	-X $(VERSION_PKG).Package=github.com/shoal-dev/shoal
GOBUILD    := CGO_ENABLED=0 $(GO) build -mod=vendor -trimpath -tags $(BUILDTAGS) -ldflags '$(LDFLAGS)'

# Test tools are built from the Go module proxy at pinned versions, outside
# the module (they are not part of the product).
TOOLS_DIR        := $(CURDIR)/_tools
REGISTRY_VERSION := v3.1.2
REGISTRY_BIN     := $(TOOLS_DIR)/registry-$(REGISTRY_VERSION)/registry

.PHONY: all build demo test test-unit test-integration tools bench clean vet fuzz

all: build

build: bin/containerd bin/ctr bin/shoal bin/containerd-stock

bin/containerd: $(shell find cmd/containerd plugin builtins -name '*.go') go.mod vendor/modules.txt
	$(GOBUILD) -o $@ ./cmd/containerd

# Stock containerd from the same vendored module: the reference for plugin
# parity and boot-time comparisons.
bin/containerd-stock: go.mod vendor/modules.txt
	CGO_ENABLED=0 $(GO) build -mod=vendor -trimpath -tags $(BUILDTAGS) -ldflags '-s -w -X $(VERSION_PKG).Version=$(CONTAINERD_VERSION)' \
		-o $@ github.com/containerd/containerd/v2/cmd/containerd

bin/ctr: go.mod vendor/modules.txt
	$(GOBUILD) -o $@ github.com/containerd/containerd/v2/cmd/ctr

bin/shoal: $(shell find cmd/shoal plugin -name '*.go') go.mod vendor/modules.txt
	$(GOBUILD) -o $@ ./cmd/shoal

$(REGISTRY_BIN):
	mkdir -p $(dir $@)
	cd /tmp && GOBIN=$(dir $@) GOFLAGS= $(GO) install github.com/distribution/distribution/v3/cmd/registry@$(REGISTRY_VERSION)

tools: $(REGISTRY_BIN)

vet:
	$(GO) vet ./cmd/... ./plugin/... ./builtins/... ./integration/...

## demo: three nodes on loopback share a generated image (run as root).
demo: build
	./bin/shoal demo --bin ./bin

test: test-unit fuzz test-integration

# Every parser of network input has a fuzz target; CI runs each briefly.
FUZZTIME    ?= 10s
FUZZ_TARGETS := contentserver:FuzzServeHTTP contentserver:FuzzValidRange router:FuzzParseBootstrapPeer fetcher:FuzzHeadManifest

fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$fn ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) ./plugin/$$pkg || exit 1; \
	done

test-unit:
	$(GO) test -race -count=1 ./plugin/... ./cmd/...

## test-integration: real containerd processes and a real registry (root).
test-integration: build tools
	SHOAL_BIN_DIR=$(CURDIR)/bin SHOAL_REGISTRY_BIN=$(REGISTRY_BIN) \
		$(GO) test -count=1 -timeout 20m -v ./integration/...

clean:
	rm -rf bin

## bench: side-by-side measurements printed as a markdown table (root).
bench: build tools
	SHOAL_BENCH=1 SHOAL_BENCH_OUT=$(CURDIR)/bin/bench.md SHOAL_BIN_DIR=$(CURDIR)/bin SHOAL_REGISTRY_BIN=$(REGISTRY_BIN) \
		$(GO) test -count=1 -timeout 30m -run TestBenchmarkReport -v ./integration/ | grep -v '^        time='
