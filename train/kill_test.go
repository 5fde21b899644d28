package train

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildBinary builds cmd/bomberzero into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bomberzero")
	cmd := exec.Command("go", "build", "-o", bin, "bomberzero/cmd/bomberzero")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// waitFor polls the run's state until cond holds, or fails after limit.
func waitFor(t *testing.T, dir string, limit time.Duration, what string, cond func(*state) bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if st, err := loadState(dir); err == nil && cond(st) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("run never reached %s within %s", what, limit)
}

// TestKillNineMidRunLosesNothingOnResume starts the real binary, kills it
// with SIGKILL in the middle of training and again in the middle of
// self-play, resumes it each time, and checks that the finished run has
// every generation's metrics once, every generation's games exactly once
// (nothing lost, nothing duplicated) and the exact number of training
// steps.
func TestKillNineMidRunLosesNothingOnResume(t *testing.T) {
	bin := buildBinary(t)
	cfg := tinyConfig(t)
	// Long enough phases that the polling below catches them: seconds of
	// training, many games of self-play.
	cfg.Train.MaxSteps, cfg.Train.CheckpointSteps, cfg.SelfPlay.Games = 200, 10, 16
	data, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "tiny.toml")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	const gens = 3
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "train", "--config", cfgPath, "--run", dir, "--generations", "3", "--quiet")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	kill := func(cmd *exec.Cmd) {
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
	}

	// Kill 1: generation 1's training, after a checkpoint and before the end.
	cmd := start()
	waitFor(t, dir, 2*time.Minute, "generation 1 training", func(s *state) bool {
		return s.Generation == 1 && s.Phase == phaseTrain && s.Gen.Steps >= cfg.Train.CheckpointSteps
	})
	time.Sleep(50 * time.Millisecond)
	kill(cmd)
	before, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if before.Generation != 1 || before.Phase != phaseTrain {
		t.Logf("the first kill landed in generation %d, phase %s", before.Generation, before.Phase)
	}

	// Kill 2: generation 2's self-play, once some of its games are on disk.
	cmd = start()
	waitFor(t, dir, 2*time.Minute, "generation 2", func(s *state) bool { return s.Generation >= 2 })
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if per, _ := gamesPerGeneration(t, dir); per[2] > 0 {
			break
		}
	}
	kill(cmd)
	mid, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if mid.Generation < 2 || mid.Steps < before.Steps {
		t.Fatalf("after the second kill: generation %d steps %d (first kill at steps %d)", mid.Generation, mid.Steps, before.Steps)
	}

	cmd = start()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	checkRunComplete(t, dir, cfg, gens)
}
