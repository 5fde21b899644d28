#!/usr/bin/env bash
# Runs the race detector over every package that runs goroutines together
# (self-play workers and the teacher, the search's batching, the network's
# parallel kernels, the chunk writers and window, the trainer, matches, the
# metrics writer, the studies, the agent's players, the front ends' searches
# beside their command loops and the web app's handlers). Heavy tests run in
# their -short form: the race detector makes code 5-10x slower.
# Usage: scripts/race.sh
set -euo pipefail
cd "$(dirname "$0")/.."
go test -race -short -count=1 -timeout 15m ./nn/... ./mcts/... ./datasets/... ./agent/... ./selfplay/... ./match/... ./metrics/... ./train/... ./study/... ./frontend/... ./internal/runstore/...
