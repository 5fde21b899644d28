package train

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/nn"
)

// killSeed replays TestKillNineAnywhereResumesExactly's kills of a failed
// run: go test ./train -run KillNineAnywhere -killseed N.
var killSeed = flag.Uint64("killseed", 0, "seed of TestKillNineAnywhereResumesExactly's kill moments (0: from the clock)")

// phaseRank orders a run's progress: generation, then phase within it.
func phaseRank(gen int, phase string) int {
	return 3*gen + strings.Index("selfplay train eval", phase)/6
}

// TestKillNineAnywhereResumesExactly is issue 34's exact resume: the real
// binary runs a tiny config with every phase (the teacher's generation 0,
// then networks in self-play on two workers of two slots, training with a
// checkpoint every 5 steps, evaluation matches) and is killed with SIGKILL
// once in each phase of each of its first three generations (of four, so
// that the last of these kills does not race the run's end; the
// failure this prevents: a fast machine finished the run during them
// and only eight kills landed), at a random moment after the
// phase begins (in training, just after a random one of its checkpoint
// saves, which come every few milliseconds, so kills land in and around
// them), then a few times more at random moments of the run, each time
// resumed. The finished run's games
// (rows and records, every generation), metrics records (less their times)
// and checkpoints must be byte for byte those of an uninterrupted run of
// the same config and seed.
//
// This holds because everything random in a run comes from its seed and
// the number of the game or step (self-play's and the teacher's game
// numbers, the sampler's state saved with each checkpoint), because the
// training batches are drawn from the window in content order, not chunk
// order (canonicalWindow), because training's parallel reductions have a
// fixed order, and because a network gives a position the same output bits
// in any batch (nn.ExactRows), so that a game does not depend on the games
// beside it or on timing. Builds whose products do not promise the last
// (OpenBLAS, gonum's) skip it; a run with a time budget decays its learning
// rate by the clock, and a window smaller than the data keeps positions by
// chunk time: neither is exact, and this test uses neither.
func TestKillNineAnywhereResumesExactly(t *testing.T) {
	skipUnderRace(t)
	if !nn.ExactRows() {
		t.Skipf("this build's products (%s) do not give a position the same bits in every batch", nn.BLASCore())
	}
	seed := *killSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("kill seed %d (replay: -killseed %d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 34))
	bin := buildBinary(t)
	cfg := teacherConfig(t)
	cfg.Train.MaxSteps, cfg.Train.CheckpointSteps = 40, 5
	// The run has one generation more than the kills aimed at phases
	// cover, so that the last aimed kill does not race the run's end.
	const gens, killGens = 4, 3
	data, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "tiny.toml")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	type proc struct {
		cmd  *exec.Cmd
		out  *strings.Builder
		done chan error
	}
	start := func(dir string) *proc {
		p := &proc{out: &strings.Builder{}, done: make(chan error, 1)}
		p.cmd = exec.Command(bin, "train", "--config", cfgPath, "--run", dir, "--generations", strconv.Itoa(gens), "--quiet")
		p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { p.done <- p.cmd.Wait() }()
		t.Cleanup(func() { p.cmd.Process.Kill() })
		return p
	}

	whole := filepath.Join(t.TempDir(), "uninterrupted")
	began := time.Now()
	if p := start(whole); <-p.done != nil {
		t.Fatalf("uninterrupted run failed:\n%s", p.out.String())
	}
	runTime := time.Since(began)
	t.Logf("the uninterrupted run took %v", runTime.Round(time.Millisecond))
	checkRunComplete(t, whole, cfg, gens)

	dir := filepath.Join(t.TempDir(), "killed")
	var landed []string // where each kill found the run (its saved state)
	finished := false
	// kill runs the binary until ready says so (or it finishes), waits a
	// random moment up to maxWait more, and kills it with SIGKILL.
	kill := func(ready func(*state) bool, maxWait time.Duration) {
		p := start(dir)
		for {
			select {
			case err := <-p.done:
				if err != nil {
					t.Fatalf("run failed: %v\n%s", err, p.out.String())
				}
				finished = true
				return
			case <-time.After(2 * time.Millisecond):
			}
			if st, err := loadState(dir); err == nil && ready(st) {
				break
			}
		}
		select {
		case err := <-p.done:
			if err != nil {
				t.Fatalf("run failed: %v\n%s", err, p.out.String())
			}
			finished = true
			return
		case <-time.After(time.Duration(rng.Int64N(int64(maxWait)))):
		}
		p.cmd.Process.Signal(syscall.SIGKILL)
		if err := <-p.done; err == nil {
			finished = true // it ended before the signal
			return
		}
		if st, err := loadState(dir); err == nil {
			landed = append(landed, fmt.Sprintf("gen %d %s (step %d)", st.Generation, st.Phase, st.Steps))
		} else {
			landed = append(landed, "before the state's first save")
		}
	}
	// Once in each phase of each generation: in self-play and evaluation
	// at a random moment of their first stretch (the uninterrupted run
	// shared among its phases, three a generation and the teacher's, so
	// about one phase's length, 20 to 300 ms, so that a fast machine
	// does not pass whole phases before the kill); in training within
	// 20 ms of a random one of its checkpoints (saved every 5 steps, a
	// few milliseconds apart), so in or around a save.
	phaseWait := min(max(runTime/(3*(gens+1)), 20*time.Millisecond), 300*time.Millisecond)
	for g := 0; g < killGens && !finished; g++ {
		for _, phase := range []string{phaseSelfPlay, phaseTrain, phaseEval} {
			want := phaseRank(g, phase)
			wait := phaseWait
			saves := 0
			if phase == phaseTrain {
				wait, saves = 20*time.Millisecond, rng.IntN(cfg.Train.MaxSteps/cfg.Train.CheckpointSteps)
			}
			kill(func(s *state) bool {
				r := phaseRank(s.Generation, s.Phase)
				return r > want || r == want && s.Gen.Steps >= saves*cfg.Train.CheckpointSteps
			}, wait)
			if finished {
				break
			}
		}
	}
	// Then at random moments of the run: at least four more, and on a
	// fast machine, where whole phases pass between two looks at the
	// state, more, each sooner, until a kill has landed for every phase
	// of every generation (a bounded number of tries: a kill that finds
	// the run before its first save still counts, as it tests the start).
	for i := 0; !finished && i < 24 && (i < 4 || len(landed) < killGens*3); i++ {
		kill(func(*state) bool { return true }, max(runTime/time.Duration(2+i), 20*time.Millisecond))
	}
	if !finished {
		if p := start(dir); <-p.done != nil {
			t.Fatalf("the last resume failed:\n%s", p.out.String())
		}
	}
	t.Logf("%d kills, landing in: %s", len(landed), strings.Join(landed, "; "))
	if len(landed) < killGens*3 {
		t.Errorf("only %d kills landed before the run finished: the test killed too late to test much", len(landed))
	}
	checkRunComplete(t, dir, cfg, gens)
	compareExact(t, exactFiles(t, dir), exactFiles(t, whole))
}
