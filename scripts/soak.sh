#!/usr/bin/env bash
# The long version of the fault-injection test (issue 34) for a user's own
# machine: train's TestFaultInjectionLosesNoGame without -short (8
# generations, 30 faults: SIGKILL at random moments, damaged, deleted and
# copied chunks, a second writer) and TestKillNineMidRunLosesNothingOnResume,
# repeated ROUNDS times (default 10: some 300 kills), each round with a fresh
# fault seed (logged; rerun one with the seed in the failure). CI runs the
# -short form (scripts/test.sh) in under two minutes.
# Usage: scripts/soak.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
for i in $(seq 1 "$rounds"); do
  echo "soak: round $i of $rounds"
  go test ./train/ -count=1 -timeout 60m -v \
    -run '^(TestFaultInjectionLosesNoGame|TestKillNineMidRunLosesNothingOnResume)$' | grep -E '^(=== RUN|--- |.*fault seed|ok|FAIL|PASS)'
done
echo "soak: $rounds rounds passed"
