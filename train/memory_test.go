//go:build linux

package train

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/eval"
	"bomberzero/setup"
)

// TestMemoryEstimateMatchesPeakRSS runs the binary on a small run whose
// parts the estimate counts are all reached (a generation of games that
// fill self-play's evaluation caches and the training window, then
// training) and holds the estimate (setup.Config.MemoryBytes, the Total
// the trainer prints) within 40% of the process's peak RSS (the VmHWM
// the trainer prints at its end). docs/BENCHMARKS.md has four larger runs within 25%.
func TestMemoryEstimateMatchesPeakRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("plays and trains for half a minute")
	}
	bin := buildBinary(t)
	cfg := tinyConfig(t)
	cfg.Net.Blocks, cfg.Net.Filters, cfg.Net.PolicyFilters, cfg.Net.ValueFilters, cfg.Net.ValueHidden = 2, 16, 16, 2, 32
	cfg.SelfPlay.FirstGames, cfg.SelfPlay.MaxPlies, cfg.SelfPlay.Workers, cfg.SelfPlay.Slots = 60, 80, 2, 8
	cfg.SelfPlay.Sims, cfg.SelfPlay.CheapSims, cfg.SelfPlay.CacheEntries = 16, 16, 16384
	cfg.Train.Batch, cfg.Train.MaxSteps, cfg.Train.Window, cfg.Train.Threads = 64, 10, 4000, 2
	cfg.Eval.Games, cfg.Eval.Sims = 2, 8
	data, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "small.toml")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "train", "--config", cfgPath, "--run", filepath.Join(t.TempDir(), "run"), "--generations", "1", "--quiet")
	// The machine's cores change the runtime's share (a heap cache and
	// thread per P): measure the 2 the numbers in docs/BENCHMARKS.md had.
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("train: %v\n%s", err, out.String())
	}
	// The trainer's own VmHWM, which it prints at its end: the rusage of a
	// child (ru_maxrss) counts its parent's size at the fork, since Linux
	// keeps it across execve, and this test's process has grown by the
	// tests before it (a full go test gave 354 MiB where the trainer
	// peaked at 165).
	i := strings.LastIndex(out.String(), "peak resident memory: ")
	if i < 0 {
		t.Fatalf("no peak resident memory line in:\n%s", out.String())
	}
	var mib float64
	if _, err := fmt.Sscanf(out.String()[i:], "peak resident memory: %g MiB", &mib); err != nil {
		t.Fatalf("the peak resident memory line: %v in:\n%s", err, out.String())
	}
	peak := mib * (1 << 20)
	m := cfg.MemoryBytes(agentShape(t, cfg))
	ratio := peak / m.Total()
	t.Logf("peak RSS %.0f MiB, estimate %s: measured/estimated %.2f", peak/(1<<20), m, ratio)
	if ratio < 1/1.4 || ratio > 1.4 {
		t.Errorf("peak RSS %.0f MiB is %.2f times the estimate %.0f MiB; want within 40%%", peak/(1<<20), ratio, m.Total()/(1<<20))
	}
}

// agentShape is the network shape of cfg's variant.
func agentShape(t *testing.T, cfg setup.Config) eval.Shape {
	t.Helper()
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		t.Fatal(err)
	}
	return agent.NewRules(v, cfg.SelfPlay.MaxPlies).Shape()
}
