#!/usr/bin/env bash
# Installs SeaweedFS's `weed` binary, the S3-compatible server that the
# object-storage tests (package internal/s3test) start on localhost, unless it
# is already on PATH or in $(go env GOPATH)/bin. Prints one line saying what
# it did. Idempotent; tests that need weed skip without it.
# Usage: scripts/install-weed.sh   (WEED_VERSION overrides the pinned version)
set -euo pipefail

WEED_VERSION="${WEED_VERSION:-v0.0.0-20261109003541-7506e5f91cd6}"
gobin="$(go env GOBIN)"
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"

if path=$(command -v weed); then
  echo "install-weed: weed already installed at $path"
elif [ -x "$gobin/weed" ]; then
  echo "install-weed: weed already installed at $gobin/weed"
else
  start=$(date +%s)
  # `go install module/weed@version` refuses this module because its go.mod
  # has a replace directive, so download the module and build it as the main
  # module, which honours the replace. -s -w leaves out the symbol table.
  mod=github.com/seaweedfs/seaweedfs
  dir=$(GOFLAGS= GOWORK=off go mod download -json "${mod}@${WEED_VERSION}" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$dir" ] || { echo "install-weed: go mod download ${mod}@${WEED_VERSION} gave no directory" >&2; exit 1; }
  (cd "$dir" && GOFLAGS= GOWORK=off GOBIN="$gobin" go install -trimpath -ldflags="-s -w" ./weed)
  echo "install-weed: installed weed ${WEED_VERSION} to $gobin/weed in $(( $(date +%s) - start ))s"
fi
