#!/usr/bin/env bash
# Runs bomberzero's whole test suite on a fresh machine: installs what the
# tests need (OpenBLAS for the cgo build, staticcheck, SeaweedFS's weed for
# the S3 tests, Chromium, Stockfish and XBoard for the protocol and browser
# tests), checks formatting and static analysis, then runs the tests
# for the pure-Go build and the OpenBLAS build, package nn once more with its
# assembly kernels switched off, the race detector over the concurrent
# packages (scripts/race.sh) and every fuzz target for a short time
# (scripts/fuzz.sh; FUZZTIME, default 3s each).
#
# On a machine without network (or with a broken mirror) it still runs every
# test it can: each install that fails prints one line, "test.sh: skipping
# WHAT: WHY", and the tests that need it skip (or the step is left out);
# packages whose modules are neither in the module cache nor downloadable
# are left out the same way. A summary of the skips ends the run; only a
# check or test that ran and failed fails the script.
# Usage: scripts/test.sh   (run from anywhere inside the repository)
#   TEST_PACKAGES="./env/ ./stats/" limits every step to those packages
#   (for checking this script itself; CI leaves it unset: ./...).
set -euo pipefail
cd "$(dirname "$0")/.."

skipped=()
# skip WHAT WHY: says on one line what is skipped and why, and keeps it for
# the summary at the end.
skip() {
  echo "test.sh: skipping $1: $2" >&2
  skipped+=("$1: $2")
}
# The summary of the skips ends every run, one that stops early too.
summary() {
  if [ ${#skipped[@]} -gt 0 ]; then
    echo "== skipped (${#skipped[@]}):"
    printf '  %s\n' "${skipped[@]}"
  fi
}
trap summary EXIT
# apt_install PKG...: installs Debian packages (through sudo unless root);
# false, with apt's last line in $apt_error, when it cannot.
apt_error=""
apt_install() {
  local sudo="" log
  [ "$(id -u)" = 0 ] || sudo=sudo
  log=$(mktemp)
  if $sudo apt-get update -qq >"$log" 2>&1 &&
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >"$log" 2>&1; then
    rm -f "$log"
    return 0
  fi
  apt_error=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
  rm -f "$log"
  return 1
}
packages="${TEST_PACKAGES:-./...}"

# OpenBLAS headers and library for the `openblas` build tag.
openblas=yes
if ! ldconfig -p 2>/dev/null | grep -q 'libopenblas\.so\b'; then
  if ! apt_install libopenblas-dev; then
    openblas=""
    skip "the OpenBLAS build (go vet and go test -tags openblas)" "libopenblas-dev could not be installed (apt-get: ${apt_error:-failed})"
  fi
fi
# Chromium for the web app's browser tests (package frontend/web), Stockfish
# for the UCI match tests, Fairy-Stockfish for the engine's speed yardstick,
# XBoard under a virtual display (xvfb-run) for the XBoard games; each test
# skips without its program.
# Debian installs stockfish and xboard in /usr/games.
export PATH="$PATH:/usr/games:$(go env GOPATH)/bin"
missing=""
command -v chromium >/dev/null || missing="$missing chromium"
command -v stockfish >/dev/null || missing="$missing stockfish"
command -v fairy-stockfish >/dev/null || missing="$missing fairy-stockfish"
command -v xboard >/dev/null || missing="$missing xboard"
command -v xvfb-run >/dev/null || missing="$missing xvfb xauth"
if [ -n "$missing" ]; then
  # All at once, else one by one, so that what can be installed is.
  if ! apt_install $missing; then
    for p in $missing; do apt_install "$p" || true; done
  fi
  why="could not be installed (apt-get: ${apt_error:-it ran, but the program is not on PATH}); they skip"
  command -v chromium >/dev/null || skip "the browser tests (frontend/web)" "chromium $why"
  command -v stockfish >/dev/null || skip "the Stockfish match tests (match/external)" "stockfish $why"
  command -v fairy-stockfish >/dev/null || skip "the Fairy-Stockfish yardstick (bench engine)" "fairy-stockfish $why"
  command -v xboard >/dev/null || skip "the XBoard games (frontend/xboard)" "xboard $why"
  command -v xvfb-run >/dev/null || skip "the tests under a virtual display (XBoard)" "xvfb $why"
fi
# Start Chromium once before the tests: its first start on a fresh machine
# builds the font cache and profile, which can take longer than a test allows.
if command -v chromium >/dev/null; then
  timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom about:blank >/dev/null 2>&1 || echo "warning: chromium did not start in 120 s" >&2
fi
STATICCHECK_VERSION=v0.8.2
staticcheck=yes
if ! command -v staticcheck >/dev/null; then
  if ! err=$(GOFLAGS= go install "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}" 2>&1); then
    staticcheck=""
    skip "staticcheck" "go install honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION} failed ($(grep -v '^[[:space:]]*$' <<<"$err" | tail -n 1))"
  fi
fi
# SeaweedFS's weed, the S3 server the object-storage tests start on
# localhost (package internal/s3test); they skip without it.
if out=$(scripts/install-weed.sh 2>&1); then
  echo "$out"
else
  skip "the S3 tests (internal/s3test, internal/runstore, train's store tests)" "weed could not be installed ($(tail -n 1 <<<"$out")); they skip"
fi

# The modules the packages and their tests import: downloaded now when
# missing, or, where that fails, the packages that need a missing one are
# left out of every step.
if ! err=$(go mod download 2>&1); then
  echo "test.sh: go mod download failed ($(grep -v '^[[:space:]]*$' <<<"$err" | tail -n 1)); testing the packages whose modules are in the module cache" >&2
fi
listing=$(GOFLAGS=-mod=readonly GOPROXY=off go list -e -test -f '{{.ImportPath}} {{if or .Error .DepsErrors}}BAD{{end}}' $packages 2>/dev/null |
  awk '{n=$1; sub(/\.test$/,"",n); sub(/_test$/,"",n); if ($2=="BAD") bad[n]=1; all[n]=1}
       END {for (n in all) print (n in bad ? "BAD " : "OK ") n}' | sort -k2)
good=$(awk '$1=="OK"{printf "%s ", $2}' <<<"$listing")
for p in $(awk '$1=="BAD"{print $2}' <<<"$listing"); do
  skip "$p" "a module it or its tests import is not in the module cache and could not be downloaded"
done
if [ -z "$good" ]; then
  echo "test.sh: no package can be built: nothing to test" >&2
  exit 1
fi
# race.sh and fuzz.sh take the same package list (as import paths).
export TEST_PACKAGES_OK="$good"

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi
echo "== go vet"
go vet $good
[ -z "$openblas" ] || go vet -tags openblas $good
# release.sh builds the Windows binary; a Unix-only call outside a
# build-tagged file breaks it (macOS, being Unix, builds whenever Linux
# does). It needs every module cmd/bomberzero imports.
if GOOS=windows GOARCH=amd64 CGO_ENABLED=0 GOFLAGS=-mod=readonly GOPROXY=off go list -deps ./cmd/bomberzero >/dev/null 2>&1; then
  echo "== the Windows release binary still builds"
  GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o /dev/null ./cmd/bomberzero
else
  skip "the Windows build of cmd/bomberzero" "a module it imports is not in the module cache and could not be downloaded"
fi
if [ -n "$staticcheck" ]; then
  echo "== staticcheck"
  staticcheck $good
fi
echo "== go test (pure Go)"
go test -count=1 -timeout 30m $good
if [ -n "$openblas" ]; then
  echo "== go test (OpenBLAS build)"
  go test -count=1 -timeout 30m -tags openblas $good
fi
if [[ " $good " == *" bomberzero/nn "* ]]; then
  echo "== go test (nn and the learned evaluation with their Go kernels only, as on CPUs without AVX2)"
  go vet -tags purego ./nn/... ./engine/nnue/...
  go test -count=1 -timeout 10m -tags purego ./nn/... ./engine/nnue/...
fi
echo "== go test -race (concurrent packages, -short)"
scripts/race.sh
echo "== fuzz targets"
scripts/fuzz.sh "${FUZZTIME:-3s}"
