//go:build unix

package learn

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestResumeAfterKill9 kills a run's process (SIGKILL, in the middle of a
// chunk's games) and resumes it: nothing finished is lost, nothing is
// duplicated, and the chunks are those of an unbroken run.
func TestResumeAfterKill9(t *testing.T) {
	if dir := os.Getenv("LEARN_KILL_DIR"); dir != "" {
		cfg := tinyConfig(t, dir)
		cfg.Generations, cfg.Gate.Games = 1, 2
		cfg.AfterGame = func(gen, g int) {
			if g == 5 { // chunks 0 and 1 saved, chunk 2 half played
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}
		Run(context.Background(), cfg)
		time.Sleep(time.Minute) // the kill comes first
		return
	}
	whole := t.TempDir()
	cfg := tinyConfig(t, whole)
	cfg.Generations, cfg.Gate.Games = 1, 2
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	want := chunkSums(t, whole)

	killed := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestResumeAfterKill9$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LEARN_KILL_DIR="+killed)
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child: %v, want killed by SIGKILL", err)
	}
	if n := len(chunkSums(t, killed)); n != 2 {
		t.Fatalf("%d chunks after the kill, want 2", n)
	}
	cfg.Dir = killed
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	got := chunkSums(t, killed)
	if len(got) != len(want) {
		t.Fatalf("chunks %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: checksum %s, unbroken run %s", k, got[k], v)
		}
	}
	if recs, _ := ReadMetrics(killed); len(recs) != 1 {
		t.Errorf("%d metrics records, want 1", len(recs))
	}
}
