//go:build unix

package learn

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"bomberzero/engine/nnue/fit"
	"bomberzero/env"
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

// killingTrainer is NNUE that kills its process (SIGKILL) at the first
// step of the training's third epoch.
type killingTrainer struct{ NNUE }

func (k killingTrainer) Train(ctx context.Context, v *env.Variant, rows []Row, init, out string, seed uint64, progress func(int, int)) (TrainStats, error) {
	return k.NNUE.Train(ctx, v, rows, init, out, seed, func(step, total int) {
		if step == total/k.Fit.Epochs*2+1 {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	})
}

// firstStep is NNUE that records the first step its training reports.
type firstStep struct {
	NNUE
	first, total int
}

func (f *firstStep) Train(ctx context.Context, v *env.Variant, rows []Row, init, out string, seed uint64, progress func(int, int)) (TrainStats, error) {
	return f.NNUE.Train(ctx, v, rows, init, out, seed, func(step, total int) {
		if f.first == 0 {
			f.first, f.total = step, total
		}
	})
}

func killTrainConfig(t *testing.T, dir string) Config {
	cfg := tinyConfig(t, dir)
	f := fit.DefaultConfig()
	f.Hidden, f.L2, f.Epochs, f.Batch, f.Threads = 8, 4, 3, 16, 2
	cfg.Trainer = NNUE{Fit: f}
	cfg.Generations, cfg.Gate.Games = 1, 2
	return cfg
}

// TestTrainingResumesAfterKill9 kills a run's process in the middle of a
// generation's training (its third epoch) and resumes it: the training
// goes on from the checkpoint of epoch 2, which is gone once the net is
// written, and the net is the one an unbroken run writes.
func TestTrainingResumesAfterKill9(t *testing.T) {
	if dir := os.Getenv("LEARN_KILL_TRAIN_DIR"); dir != "" {
		cfg := killTrainConfig(t, dir)
		cfg.Trainer = killingTrainer{cfg.Trainer.(NNUE)}
		Run(context.Background(), cfg)
		time.Sleep(time.Minute) // the kill comes first
		return
	}
	whole := t.TempDir()
	if err := Run(context.Background(), killTrainConfig(t, whole)); err != nil {
		t.Fatal(err)
	}
	killed := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestTrainingResumesAfterKill9$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LEARN_KILL_TRAIN_DIR="+killed)
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child: %v, want killed by SIGKILL", err)
	}
	ckpts, _ := filepath.Glob(filepath.Join(killed, "nets", "*.train-checkpoint"))
	if len(ckpts) != 1 {
		t.Fatalf("checkpoints after the kill: %v; want one", ckpts)
	}
	resumed := killTrainConfig(t, killed)
	first := &firstStep{NNUE: resumed.Trainer.(NNUE)}
	resumed.Trainer = first
	if err := Run(context.Background(), resumed); err != nil {
		t.Fatal(err)
	}
	if want := first.total/3*2 + 1; first.first != want {
		t.Errorf("the resumed training began at step %d of %d; want %d, after the 2 epochs done", first.first, first.total, want)
	}
	if left, _ := filepath.Glob(filepath.Join(killed, "nets", "*.train-checkpoint")); len(left) != 0 {
		t.Errorf("checkpoints left after the net was written: %v", left)
	}
	nets, _ := filepath.Glob(filepath.Join(whole, "nets", "*.nnue"))
	if len(nets) == 0 {
		t.Fatal("the unbroken run wrote no net")
	}
	for _, p := range nets {
		want, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(killed, "nets", filepath.Base(p)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the unbroken run's", filepath.Base(p))
		}
	}
}
