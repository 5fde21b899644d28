#!/usr/bin/env bash
# Measures self-play workers over object storage (docs/BENCHMARKS.md,
# "Scale-out"): "bomberzero bench scaleout" against the local disk and a
# real S3 server (SeaweedFS, started on loopback; scripts/install-weed.sh),
# with 1 and 2 worker processes by default, SECONDS each (default 150).
# One JSON line per measurement on stdout.
# Usage: scripts/bench-scaleout.sh [SECONDS [PROCS]]   e.g. 300 1,2,4
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:$(go env GOPATH)/bin"
BOMBERZERO_SCALEOUT_SECONDS="${1:-150}" BOMBERZERO_SCALEOUT_PROCS="${2:-1,2}" BOMBERZERO_SCALEOUT_TAGS="${TAGS:-openblas}" \
  go test -v -count=1 -timeout 0 -run '^TestScaleoutMeasurement$' ./cmd/bomberzero/ | grep '^{'
