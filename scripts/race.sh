#!/usr/bin/env bash
# Runs the race detector over every package that runs goroutines together
# (self-play workers and the teacher, the search's batching, the network's
# parallel kernels, the chunk writers and window, the trainer, matches, the
# metrics writer, the studies, the agent's players, the front ends' searches
# beside their command loops and the web app's handlers). Heavy tests run in
# their -short form: the race detector makes code 5-10x slower.
# TEST_PACKAGES_OK (import paths, set by scripts/test.sh) limits it to the
# packages that can be built here.
# Usage: scripts/race.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=$(go list -e -f '{{.ImportPath}}' ./nn/... ./mcts/... ./datasets/... ./agent/... ./selfplay/... ./match/... ./metrics/... ./train/... ./study/... ./frontend/... ./internal/runstore/... 2>/dev/null)
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
go test -race -short -count=1 -timeout 30m $pkgs
