#!/usr/bin/env bash
# Runs the race detector over the packages that run goroutines together
# (self-play workers, the search's batching, the chunk writers and window,
# the trainer, matches, the metrics writer, compare, the XBoard engine's
# searches beside its command loop). Heavy tests run in
# their -short form: the race detector makes code 5-10x slower.
# TEST_PACKAGES_OK (import paths, set by scripts/test.sh) limits it to the
# packages that can be built here.
# Usage: scripts/race.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=$(go list -e -f '{{.ImportPath}}' ./selfplay/... ./mcts/... ./datasets/... ./train/... ./match/... ./metrics/... ./study/compare/... ./internal/runstore/... ./frontend/xboard/... 2>/dev/null)
if [ -n "${TEST_PACKAGES_OK:-}" ]; then
  keep=""
  for p in $pkgs; do
    [[ " $TEST_PACKAGES_OK " == *" $p "* ]] && keep="$keep $p"
  done
  pkgs=$keep
fi
if [ -z "${pkgs// /}" ]; then
  echo "race: none of its packages is among those being tested"
  exit 0
fi
go test -race -short -count=1 -timeout 15m $pkgs
