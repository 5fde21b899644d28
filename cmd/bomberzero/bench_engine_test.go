package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchEngineGivesEachVariantsRatesAndRatio(t *testing.T) {
	code, out, errs := runCmd(t, "bench", "engine", "--variants", "fbgc,claustrophobia", "--nodes", "300", "--positions", "2", "--movegen-time", "20ms", "--fairy", "", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want one per variant:\n%s", len(lines), out)
	}
	for i, line := range lines {
		var r engineBenchResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Variant != []string{"fbgc", "claustrophobia"}[i] || r.Threads != 1 || r.Positions != 2 || r.Nodes != 600 || r.CPUNPS <= 0 || r.MovegenCPURate <= 0 ||
			r.NodesPerMovegen <= 0 || r.FairyCPUNPS != 0 {
			t.Errorf("line %d: %+v", i, r)
		}
	}
	for _, bad := range [][2]string{{"--nodes", "0"}, {"--threads", "0"}} {
		if code, _, errs := runCmd(t, "bench", "engine", bad[0], bad[1]); code != 2 || !strings.Contains(errs, bad[0]) {
			t.Errorf("%s %s: exit %d, stderr %q; want a usage error naming %s", bad[0], bad[1], code, errs, bad[0])
		}
	}
}
