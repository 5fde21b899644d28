#!/usr/bin/env bash
# Runs every fuzz target of the repository for a short time each (default
# 3s; first argument or FUZZTIME overrides), one target per invocation as
# `go test -fuzz` requires. A failure leaves its input under the package's
# testdata/fuzz/ (commit it: it becomes a regression test of `go test`).
#
# Go 1.26's fuzz coordinator can report a bare "context deadline exceeded"
# when -fuzztime runs out while a worker is mid-input (golang/go#75804, fixed
# in Go 1.27): no input failed and none is written. A run that fails that way
# and no other is run once more; a second such run is reported as the known
# race and does not fail the script. Any other failure, and every failure
# that writes an input, fails it.
# TEST_PACKAGES_OK (import paths, set by scripts/test.sh) limits it to the
# targets of the packages that can be built here.
# Usage: scripts/fuzz.sh [DURATION]
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-${FUZZTIME:-3s}}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# deadline_race LOG: whether LOG's only failure is the coordinator's
# deadline race (no failing input, no panic, no test error).
deadline_race() {
  grep -q 'context deadline exceeded' "$1" &&
    ! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:|fuzz: minimizing' "$1"
}

n=0
flaked=0
while IFS=: read -r file name; do
  dir="./$(dirname "$file")"
  rel=$(dirname "$file")
  if [ -n "${TEST_PACKAGES_OK:-}" ] && [[ " $TEST_PACKAGES_OK " != *" bomberzero/${rel#./} "* ]]; then
    continue
  fi
  for try in 1 2; do
    echo "== fuzz $dir $name ($fuzztime)"
    if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$dir" 2>&1 | tee "$log"; then
      break
    fi
    if ! deadline_race "$log"; then
      echo "== fuzz $dir $name FAILED"
      exit 1
    fi
    if [ "$try" = 2 ]; then
      echo "== fuzz $dir $name: Go's fuzz deadline race twice, no failing input (golang/go#75804)"
      flaked=$((flaked + 1))
    else
      echo "== fuzz $dir $name: Go's fuzz deadline race, no failing input (golang/go#75804); once more"
    fi
  done
  n=$((n + 1))
done < <(grep -ro --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' . | sed 's/func //' | sort)
echo "== $n fuzz targets ran for $fuzztime each ($flaked ended by Go's deadline race twice)"
