#!/usr/bin/env bash
# Plays a model against the fixed anchors with the protocol of
# docs/RESULTS.md (issue 11): 64 playouts a move, colours alternating,
# 400-ply cap, seed 1, and prints one JSON line per opponent.
# Usage: scripts/ladder.sh MODEL [GAMES] [OPPONENTS...]
#   MODEL      a checkpoint (models/fbgc.safetensors) or any match player
#   GAMES      games per opponent (default 200)
#   OPPONENTS  default: random greedy alphabeta:1 alphabeta:2 alphabeta:3
# BZ names the binary (default: go run ./cmd/bomberzero); VARIANT the
# variant (default fbgc); WORKERS the games played at once (default: one
# per core).
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:?usage: scripts/ladder.sh MODEL [GAMES] [OPPONENTS...]}
games=${2:-200}
shift $(( $# < 2 ? $# : 2 ))
opps=("$@")
[ ${#opps[@]} -gt 0 ] || opps=(random greedy alphabeta:1 alphabeta:2 alphabeta:3)
bz=${BZ:-go run ./cmd/bomberzero}
for opp in "${opps[@]}"; do
  $bz match --variant "${VARIANT:-fbgc}" --a "$model:64" --b "$opp" --games "$games" \
    --max-plies 400 --seed 1 --workers "${WORKERS:-0}" --games-dir "" --quiet --json
done
