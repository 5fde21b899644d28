package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/match/external"
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

func TestFairyMovegenCountsItsPerftsGenerations(t *testing.T) {
	path, err := external.LookPath("fairy-stockfish")
	if err != nil {
		t.Skipf("no fairy-stockfish (scripts/test.sh installs it): %v", err)
	}
	rate, err := fairyMovegen(path, 5)
	if err != nil {
		t.Fatal(err)
	}
	if rate <= 0 {
		t.Errorf("rate %v, want > 0", rate)
	}
	if _, err := fairyMovegen(path, 0); err == nil {
		t.Error("depth 0: no error, want one (a perft of no plies generates nothing to time)")
	}
}

func TestFairyMovegenRefusesAnEngineThatCountsAnotherGame(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-engine")
	script := "#!/bin/sh\nwhile read -r line; do case \"$line\" in \"go perft\"*) echo 'Nodes searched: 12345';; quit) exit 0;; esac; done\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := fairyMovegen(fake, 3)
	if err == nil || !strings.Contains(err.Error(), "12345") || !strings.Contains(err.Error(), "8902") {
		t.Errorf("error %v, want one naming its count 12345 and env's 8902", err)
	}
}
