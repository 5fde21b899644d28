package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/internal/runstore"
	"bomberzero/internal/s3test"
)

// TestTrainerAndWorkersOverS3SurviveKills is issue 14's proof, with the
// real binary against a real S3 server (SeaweedFS, started on loopback): a
// trainer and two self-play worker processes on one run; one worker is
// killed with SIGKILL mid-game and the trainer mid-step, and both are
// restarted. Afterwards every landed chunk verifies, no game is landed
// twice, no finished game is lost (the killed worker's spool is landed by
// its successor), and the trainer's metrics and state agree with the
// chunks it collected.
func TestTrainerAndWorkersOverS3SurviveKills(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an S3 server and five processes")
	}
	srv := s3test.Start(t)
	bin := buildBinary(t)
	url := srv.URL(srv.NewBucket(t), "runs/tiny")
	cfg := tinyConfig(t)
	cfg.SelfPlay.Workers = 1
	cfg.Train.MaxSteps, cfg.Train.CheckpointSteps = 120, 5
	const gens = 3
	data, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cfgPath := filepath.Join(tmp, "tiny.toml")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), srv.Env()...)
	logs := map[string]*strings.Builder{}
	start := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		if logs[name] == nil {
			logs[name] = &strings.Builder{}
		}
		cmd.Stdout, cmd.Stderr = logs[name], logs[name]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	defer func() {
		if t.Failed() {
			for name, l := range logs {
				t.Logf("--- %s:\n%s", name, l.String())
			}
		}
	}()
	trainer := func() *exec.Cmd {
		return start("trainer", "train", "--run", url, "--role", "trainer", "--config", cfgPath, "--generations", fmt.Sprint(gens),
			"--cache", filepath.Join(tmp, "trainer"), "--lease-ttl", "2s", "--quiet")
	}
	worker := func(i int) *exec.Cmd {
		return start(fmt.Sprint("worker", i), "selfplay", "--run", url, "--follow", "--workers", "1", "--batch-games", "2",
			"--cache", filepath.Join(tmp, fmt.Sprint("worker", i)), "--quiet")
	}
	kill := func(cmd *exec.Cmd) {
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
	}
	srv.Setenv(t)
	ctx := context.Background()
	s, err := runstore.Open(ctx, url, runstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storeState := func() *state {
		raw, err := s.Read(ctx, "state.json", 1<<20)
		if err != nil {
			return nil
		}
		var f stateFile
		var st state
		if json.Unmarshal(raw, &f) != nil || json.Unmarshal(f.State, &st) != nil {
			return nil
		}
		return &st
	}
	waitUntil := func(limit time.Duration, what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(limit)
		for time.Now().Before(deadline) {
			if cond() {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("never reached %s within %s", what, limit)
	}

	tr := trainer()
	w0, w1 := worker(0), worker(1)
	// Kill worker 0 while it plays: once it has landed games (it always
	// has a game in progress then).
	waitUntil(3*time.Minute, "worker 0's landed games", func() bool {
		objs, _ := s.List(ctx, manifestDir+"/")
		return len(objs) >= 4
	})
	kill(w0)
	w0 = worker(0) // same scratch folder: it lands what the killed one left
	// Kill the trainer mid-step: generation 1's training, past a checkpoint.
	waitUntil(3*time.Minute, "generation 1 training", func() bool {
		st := storeState()
		return st != nil && st.Generation == 1 && st.Phase == phaseTrain && st.Gen.Steps >= cfg.Train.CheckpointSteps
	})
	kill(tr)
	tr = trainer() // waits for the dead trainer's lease to lapse
	if err := waitExit(tr, 5*time.Minute); err != nil {
		t.Fatalf("trainer: %v", err)
	}
	// Stop the workers as a scheduler would: they land what they finished.
	for _, w := range []*exec.Cmd{w0, w1} {
		w.Process.Signal(syscall.SIGTERM)
	}
	for _, w := range []*exec.Cmd{w0, w1} {
		if err := waitExit(w, time.Minute); err != nil && !isExit130(err) {
			t.Errorf("worker: %v", err)
		}
	}

	// Every landed chunk verifies, each game once, each with its record.
	landed, ids, entries := storeGames(t, s)
	for id, n := range ids {
		if n > 1 {
			t.Errorf("game %s landed %d times", id, n)
		}
	}
	// No finished game was lost: nothing is left in any spool.
	left, _ := filepath.Glob(filepath.Join(tmp, "worker*", "slot-*", "spool", "*.parquet"))
	if len(left) > 0 {
		t.Errorf("finished games never landed: %q", left)
	}
	// The trainer's counters agree with the chunks it collected.
	run := t.TempDir()
	m := &runstore.Mirror{Store: s, Dir: run}
	if _, err := m.Pull(ctx); err != nil {
		t.Fatal(err)
	}
	recs := readMetrics(t, run)
	if len(recs) != gens {
		t.Fatalf("%d metrics records, want %d", len(recs), gens)
	}
	for i, r := range recs {
		if r.Generation != i || r.SelfPlay == nil || r.SelfPlay.Games < cfg.GamesIn(i) {
			t.Errorf("record %d: generation %d, self-play %+v", i, r.Generation, r.SelfPlay)
		}
		if r.Train == nil || r.Train.TotalSteps != (i+1)*cfg.Train.MaxSteps {
			t.Errorf("generation %d: train %+v, want %d steps in all", i, r.Train, (i+1)*cfg.Train.MaxSteps)
		}
	}
	// The pulled copy holds every landed chunk; the trainer's lists name
	// the ones it collected, each once, its records counting their own.
	collected := checkCollected(t, run, recs, false)
	if collected > landed {
		t.Errorf("the trainer collected %d games, the store holds %d (in %d chunks)", collected, landed, entries)
	}
	t.Logf("%d games landed in %d chunks; the trainer collected %d over %d generations", landed, entries, collected, gens)
}

// waitExit waits for cmd to end, killing it after limit.
func waitExit(cmd *exec.Cmd, limit time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		return fmt.Errorf("did not end within %s", limit)
	}
}

// isExit130 reports whether err is a process's exit with status 130 (an
// interrupted long command).
func isExit130(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == 130
}
