#!/usr/bin/env bash
# Runs the race detector over the packages that run goroutines together
# (self-play workers, the search's batching, the chunk writers and window,
# the trainer, matches, the metrics writer, compare, the XBoard engine's
# searches beside its command loop). Heavy tests run in
# their -short form: the race detector makes code 5-10x slower.
# Usage: scripts/race.sh
set -euo pipefail
cd "$(dirname "$0")/.."
go test -race -short -count=1 -timeout 15m ./selfplay/... ./mcts/... ./datasets/... ./train/... ./match/... ./metrics/... ./study/compare/... ./internal/runstore/... ./frontend/xboard/...
