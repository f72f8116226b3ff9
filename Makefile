# corelane — see README.md. Every target runs from the module root.

GO        ?= go
PKGS      ?= ./...
BENCHTIME ?= 1s
COUNT     ?= 10
BENCHSTAT ?= $(shell $(GO) env GOPATH)/bin/benchstat
BENCHSTAT_VERSION = v0.0.0-20260908200009-22c9c6c9d4da

.PHONY: all build test vet fmtcheck race full purego bench benchstat fuzz lint asmcheck fmacheck gencheck test-arm64 benchstat-tool

all: build test

build:
	$(GO) build $(PKGS)
	CGO_ENABLED=0 $(GO) build $(PKGS)
	GOARCH=arm64 $(GO) build $(PKGS)
	GOARCH=386 $(GO) build $(PKGS)
	$(GO) build -tags purego $(PKGS)

# The README's test command: vet, formatting, every package under the race
# detector (-short: the single-goroutine exhaustive sweeps of the kernels
# skip there) and again without it in full, and the pure-Go build.
test: build vet fmtcheck race full purego

vet:
	$(GO) vet $(PKGS)
	$(GO) vet -tags purego $(PKGS)

fmtcheck:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

race:
	$(GO) test -race -short -count=1 $(PKGS)

full:
	$(GO) test -count=1 $(PKGS)

purego:
	$(GO) test -tags purego -count=1 $(PKGS)

# Benchmarks, benchstat-ready: make bench PKGS=./kernels > new.txt
bench:
	$(GO) test -run=NONE -bench=. -benchtime=$(BENCHTIME) -count=$(COUNT) $(PKGS)

# Run benchmarks COUNT times and print benchstat's comparison of the
# column COL (e.g. /variant, /sched, /impl): see bench/README.md.
BENCH ?= .
COL   ?= /variant
benchstat: benchstat-tool
	$(GO) test -run=NONE -bench='$(BENCH)' -benchtime=$(BENCHTIME) -count=$(COUNT) $(if $(filter ./...,$(PKGS)),./kernels,$(PKGS)) | tee bench/results/last.txt
	$(BENCHSTAT) -col $(COL) bench/results/last.txt

# Each fuzz target for a short while (go test runs one -fuzz target at a time).
FUZZTIME ?= 10s
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run=NONE -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; done

lint: vet fmtcheck
	$(GO) vet -tags purego $(PKGS)
	GOARCH=arm64 $(GO) vet $(PKGS)

benchstat-tool:
	@test -x $(BENCHSTAT) || $(GO) install golang.org/x/perf/cmd/benchstat@$(BENCHSTAT_VERSION)

# Re-encode every byte-encoded instruction from its comment and compare;
# the generated assembly must be what its generator writes.
asmcheck: gencheck
	./scripts/asmcheck-amd64
	./scripts/asmcheck-arm64

# Fail on a fused multiply-add the compiler made where the float order is a
# contract (arm64 and GOAMD64=v3; scripts/fma-allowlist lists the
# tolerance-only functions that may fuse).
fmacheck:
	./scripts/fmacheck

# go generate in the assembly packages must leave the tree unchanged.
gencheck:
	cd kernels/internal/amd64 && $(GO) generate
	@git diff --exit-code --stat -- kernels/internal/amd64 || { echo "gencheck: generated assembly is out of date: run go generate in kernels/internal/amd64 and commit"; exit 1; }

# Cross-compile the tests for arm64 and run them under qemu-user: every
# package with the default arm64 variant, kernels and sdpa with every arm64
# variant, the pure-Go float packages with -tags purego (scripts/test-arm64
# says more).
test-arm64:
	./scripts/test-arm64
