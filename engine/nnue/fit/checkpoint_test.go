//go:build unix

package fit

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/engine/nnue"
)

// resumeSetup is the training the checkpoint tests run: 4 epochs of 5
// steps.
func resumeSetup(t testing.TB, ckpt string) ([]Sample, Config) {
	_, _, samples := testData(t, "chess", 111, 16, 4)
	cfg := DefaultConfig()
	cfg.Hidden, cfg.L2, cfg.Epochs, cfg.Batch, cfg.Threads = 16, 4, 4, 20, 2
	cfg.LearningRateFinal = 1e-4 // the schedule resumes at its step too
	cfg.Checkpoint = ckpt
	return samples, cfg
}

func encode(t *testing.T, n *nnue.Net) []byte {
	t.Helper()
	b, err := nnue.Encode(n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTrainResumesAfterKill9 kills a training process (SIGKILL, in its
// third epoch) and trains again with the same checkpoint: the training
// resumes after epoch 2 and ends with the net and report of an unbroken
// training.
func TestTrainResumesAfterKill9(t *testing.T) {
	v := mustVariant(t, "chess")
	if path := os.Getenv("FIT_KILL_CHECKPOINT"); path != "" {
		samples, cfg := resumeSetup(t, path)
		Train(context.Background(), v, samples, cfg, nil, func(step, total int) {
			if step == 12 { // epochs 1 and 2 (5 steps each) done
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		})
		time.Sleep(time.Minute) // the kill comes first
		return
	}
	samples, cfg := resumeSetup(t, "")
	want, wantRep, err := Train(context.Background(), v, samples, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "gen.ckpt")
	cmd := exec.Command(os.Args[0], "-test.run=^TestTrainResumesAfterKill9$", "-test.count=1")
	cmd.Env = append(os.Environ(), "FIT_KILL_CHECKPOINT="+path)
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child: %v, want killed by SIGKILL", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no checkpoint after the kill: %v", err)
	}
	_, cfg = resumeSetup(t, path)
	first := 0
	got, rep, err := Train(context.Background(), v, samples, cfg, nil, func(step, total int) {
		if first == 0 {
			first = step
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if first != 11 {
		t.Errorf("the resumed training's first step is %d; want 11 (after 2 epochs of 5)", first)
	}
	if !bytes.Equal(encode(t, got), encode(t, want)) {
		t.Error("the resumed training's net differs from the unbroken one's")
	}
	if len(rep.TrainLoss) != 4 || len(rep.ValidationLoss) != 5 {
		t.Fatalf("resumed report has %d training and %d validation losses; want 4 and 5", len(rep.TrainLoss), len(rep.ValidationLoss))
	}
	for i := range rep.TrainLoss {
		if rep.TrainLoss[i] != wantRep.TrainLoss[i] || rep.ValidationLoss[i+1] != wantRep.ValidationLoss[i+1] {
			t.Errorf("epoch %d: losses %v / %v; unbroken %v / %v", i+1, rep.TrainLoss[i], rep.ValidationLoss[i+1], wantRep.TrainLoss[i], wantRep.ValidationLoss[i+1])
		}
	}
}

func TestCheckpointOfAnotherTrainingOrDamaged(t *testing.T) {
	v := mustVariant(t, "chess")
	dir := t.TempDir()
	path := filepath.Join(dir, "gen.ckpt")
	samples, cfg := resumeSetup(t, path)
	cfg.Epochs = 2
	if _, _, err := Train(context.Background(), v, samples, cfg, nil, nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no checkpoint after epoch 1: %v", err)
	}

	// Another seed is another training: its checkpoint is not resumed.
	other := cfg
	other.Seed = 2
	steps := 0
	if _, _, err := Train(context.Background(), v, samples, other, nil, func(int, int) { steps++ }); err != nil {
		t.Fatal(err)
	}
	if steps != 10 {
		t.Errorf("another training ran %d steps; want all 10", steps)
	}

	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"flipped byte", flip(data, len(data)/2), "checksum"},
		{"not a checkpoint", []byte("hello, world, this is not a checkpoint file"), "magic"},
	} {
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := Train(context.Background(), v, samples, cfg, nil, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v; want one naming %s and %q", c.name, err, path, c.want)
		}
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x40
	return c
}
