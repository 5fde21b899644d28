#!/usr/bin/env bash
# Runs bomberzero's whole test suite on a fresh machine: installs what the
# tests need (OpenBLAS for the cgo build, staticcheck, SeaweedFS's weed for
# the S3 tests, Chromium, Stockfish and XBoard for the protocol and browser
# tests), checks formatting and static analysis, then runs the tests
# for the pure-Go build and the OpenBLAS build, package nn once more with its
# assembly kernels switched off, the race detector over the concurrent
# packages (scripts/race.sh) and every fuzz target for a short time
# (scripts/fuzz.sh; FUZZTIME, default 3s each).
# Usage: scripts/test.sh   (run from anywhere inside the repository)
set -euo pipefail
cd "$(dirname "$0")/.."

# OpenBLAS headers and library for the `openblas` build tag.
if ! ldconfig -p 2>/dev/null | grep -q 'libopenblas\.so\b'; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenblas-dev >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenblas-dev >/dev/null
  fi
fi
# Chromium for the web app's browser tests (package serve), Stockfish for
# the UCI match test, XBoard under a virtual display (xvfb-run) for the
# XBoard games; each test skips without its program.
# Debian installs stockfish and xboard in /usr/games.
export PATH="$PATH:/usr/games"
missing=""
command -v chromium >/dev/null || missing="$missing chromium"
command -v stockfish >/dev/null || missing="$missing stockfish"
command -v xboard >/dev/null || missing="$missing xboard"
command -v xvfb-run >/dev/null || missing="$missing xvfb xauth"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
  fi
fi
# Start Chromium once before the tests: its first start on a fresh machine
# builds the font cache and profile, which can take longer than a test allows.
if command -v chromium >/dev/null; then
  timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom about:blank >/dev/null 2>&1 || echo "warning: chromium did not start in 120 s" >&2
fi
STATICCHECK_VERSION=v0.8.2
if ! command -v staticcheck >/dev/null; then
  GOFLAGS= go install "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}"
fi
# SeaweedFS's weed, the S3 server the object-storage tests start on
# localhost (package internal/s3test); they skip without it.
scripts/install-weed.sh
export PATH="$PATH:$(go env GOPATH)/bin"

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi
echo "== go vet"
go vet ./...
go vet -tags openblas ./...
echo "== staticcheck"
staticcheck ./...
echo "== go test (pure Go)"
go test -count=1 -timeout 30m ./...
echo "== go test (OpenBLAS build)"
go test -count=1 -timeout 30m -tags openblas ./...
echo "== go test (nn with its Go kernels only, as on CPUs without AVX2)"
go vet -tags purego ./nn/...
go test -count=1 -timeout 10m -tags purego ./nn/...
echo "== go test -race (concurrent packages, -short)"
scripts/race.sh
echo "== fuzz targets"
scripts/fuzz.sh "${FUZZTIME:-3s}"
