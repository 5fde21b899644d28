#!/usr/bin/env bash
# Installs SeaweedFS's `weed` binary, the S3-compatible server that the
# object-storage tests (package internal/s3test) start on localhost, unless it
# is already on PATH or in $(go env GOPATH)/bin. Prints one line saying what
# it did (and the go command's output only when it fails). Idempotent; the
# tests that need weed skip without it.
# Usage: scripts/install-weed.sh   (WEED_VERSION overrides the pinned version)
set -euo pipefail

WEED_VERSION="${WEED_VERSION:-v0.0.0-20261109003541-7506e5f91cd6}" # weed 4.53
gobin="$(go env GOBIN)"
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"

if path=$(command -v weed); then
  echo "install-weed: weed already installed at $path"
  exit 0
elif [ -x "$gobin/weed" ]; then
  echo "install-weed: weed already installed at $gobin/weed"
  exit 0
fi

start=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# `go install module/weed@version` refuses this module because its go.mod has
# a replace directive, so download the module and build ./weed as the main
# module, which honours the replace. weed is big (about 1700 packages from
# 475 MB of module downloads): -N -l (no optimisation or inlining) cuts the
# compile's CPU time by about 30% and the tests run no slower; -s -w leaves
# out the symbol tables. Its optional backends are behind build tags, off
# by default.
mod=github.com/seaweedfs/seaweedfs
if ! json=$(GOFLAGS= GOWORK=off go mod download -json "${mod}@${WEED_VERSION}" 2>"$log"); then
  cat "$log" >&2
  echo "$json" >&2
  echo "install-weed: go mod download ${mod}@${WEED_VERSION} failed" >&2
  exit 1
fi
dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' <<<"$json")
if [ -z "$dir" ]; then
  echo "$json" >&2
  echo "install-weed: go mod download ${mod}@${WEED_VERSION} named no directory" >&2
  exit 1
fi
if ! (cd "$dir" && GOFLAGS= GOWORK=off GOBIN="$gobin" \
  go install -trimpath -gcflags=all="-N -l" -ldflags="-s -w" ./weed) >"$log" 2>&1; then
  tail -n 50 "$log" >&2
  echo "install-weed: building weed ${WEED_VERSION} failed" >&2
  exit 1
fi
echo "install-weed: built weed ${WEED_VERSION} into $gobin/weed in $(( $(date +%s) - start ))s"
