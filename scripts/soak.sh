#!/usr/bin/env bash
# The long version of the fault-injection tests (issue 34) for a user's own
# machine, repeated ROUNDS times (default 10: some 400 faults), each round
# with fresh seeds (logged; rerun a failure with its seed): train's
# TestFaultInjectionLosesNoGame without -short (8 generations, 30 faults:
# SIGKILL at random moments, damaged, deleted and copied chunks, a second
# writer), TestKillNineMidRunLosesNothingOnResume and
# TestKillNineAnywhereResumesExactly (a kill in every phase of every
# generation and at random moments; every game, checkpoint and metrics
# record byte for byte an uninterrupted run's; replay its kills with
# go test ./train -run KillNineAnywhere -killseed N). CI runs each once
# (scripts/test.sh). The exact test skips in builds whose products are not
# exact (nn.ExactRows: -tags openblas or purego, a CPU without AVX2).
# Usage: scripts/soak.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
for i in $(seq 1 "$rounds"); do
  echo "soak: round $i of $rounds"
  go test ./train/ -count=1 -timeout 60m -v \
    -run '^(TestFaultInjectionLosesNoGame|TestKillNineMidRunLosesNothingOnResume|TestKillNineAnywhereResumesExactly)$' |
    grep -E '^(=== RUN|--- |.*(fault|kill) seed|.*kills, landing|.*byte for byte|ok|FAIL|PASS)'
done
echo "soak: $rounds rounds passed"
