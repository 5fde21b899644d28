#!/usr/bin/env bash
# Samples the resident memory (VmRSS, every 5 s) of `bomberzero uci` under
# `go infinite` with the material model (issue 34: go infinite runs in
# memory bounded by selfplay.tree_memory_mb), then stops it and prints the
# peak (VmHWM), the info lines, the tree-full notice and the bestmove.
# Usage: scripts/uci-rss.sh BINARY SECONDS [--set selfplay.tree_memory_mb=N ...]
set -euo pipefail
bin=$1 secs=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/in"
"$bin" uci "$@" <"$tmp/in" >"$tmp/out" 2>&1 &
pid=$!
exec 3>"$tmp/in"
printf 'uci\nsetoption name Model value material\nposition startpos\ngo infinite\n' >&3
start=$(date +%s)
while (($(date +%s) - start < secs)); do
  echo "$(($(date +%s) - start))s $(awk '/VmRSS/ {print $2}' /proc/$pid/status) kB"
  sleep 5
done
grep -E 'VmHWM|VmRSS' /proc/$pid/status
printf 'stop\n' >&3
sleep 1
printf 'quit\n' >&3
exec 3>&-
wait "$pid"
echo "$(grep -c '^info depth' "$tmp/out") info lines"
grep -E 'tree is full|bestmove' "$tmp/out"
