#!/usr/bin/env bash
# Runs every fuzz target of the repository for a short time each (default
# 3s; first argument or FUZZTIME overrides), one target per invocation as
# `go test -fuzz` requires. A failure leaves its input under the package's
# testdata/fuzz/ (commit it: it becomes a regression test of `go test`).
# Usage: scripts/fuzz.sh [DURATION]
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-${FUZZTIME:-3s}}"
n=0
while IFS=: read -r file name; do
  dir="./$(dirname "$file")"
  echo "== fuzz $dir $name ($fuzztime)"
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$dir"
  n=$((n + 1))
done < <(grep -ro --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' . | sed 's/func //' | sort)
echo "== $n fuzz targets ran for $fuzztime each"
