# Everyday targets. `make check` before every commit: about six minutes
# (issue 33's measurement, warm build cache; the short tests are most of it),
# so while working test only the packages you touch with
# `go test -short ./PKG/...`. `make ci` before a merge (what CI runs:
# scripts/test.sh).
GO       ?= go
FUZZTIME ?= 3s
# Build tags of `make bench` (openblas needs libopenblas-dev; empty: pure Go).
TAGS     ?= openblas

.PHONY: check ci race fuzz bench release

# Formatting, vet and the short tests of every package.
check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -short ./...

# Everything CI runs: both builds, staticcheck, the race detector, fuzzing.
ci:
	scripts/test.sh

# The race detector over the concurrent packages.
race:
	scripts/race.sh

# Every fuzz target for FUZZTIME each.
fuzz:
	scripts/fuzz.sh $(FUZZTIME)

# Speed against this machine's ceilings (docs/BENCHMARKS.md), one JSON line
# or object per measurement.
bench:
	$(GO) build -tags '$(TAGS)' -o bin/bomberzero ./cmd/bomberzero
	bin/bomberzero bench perft --json
	bin/bomberzero bench nn --json --seconds 10
	bin/bomberzero bench selfplay --json --measure 10s
	bin/bomberzero bench match --json
	bin/bomberzero bench values --json

# Release binaries: static pure-Go builds for linux, darwin (amd64, arm64)
# and windows/amd64 into dist/, with SHA256SUMS (scripts/release.sh).
release:
	GO=$(GO) scripts/release.sh dist
