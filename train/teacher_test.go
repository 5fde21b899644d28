package train

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"bomberzero/datasets"
	"bomberzero/setup"
)

// teacherConfig is tinyConfig with a depth-1 teacher playing generation 0
// (as many games as tinyConfig's first generation, so checkRunComplete's
// counts hold).
func teacherConfig(t *testing.T) setup.Config {
	c := tinyConfig(t)
	c.Teacher = setup.TeacherConfig{Enabled: true, Games: c.SelfPlay.FirstGames, Depth: 1, MaxPlies: 40, RandomPlies: 4,
		Policy: "softmax", Temperature: 0.5}
	return c
}

// checkTeacherGeneration checks that the teacher generations' games, and
// only theirs, were a teacher's.
func checkTeacherGeneration(t *testing.T, dir string, cfg setup.Config) {
	t.Helper()
	chunks, _, err := datasets.List(DataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range datasets.Games(c.Rows) {
			if g.Teacher() != cfg.Teacher.Teaches(g.Generation) {
				t.Errorf("game %s of generation %d has model %q", g.ID, g.Generation, g.Model)
			}
		}
	}
}

// TestTeacherRunStoppedOftenMatchesUninterruptedRun stops a run with a
// teacher generation over and over by a short budget (in the teacher
// phase, training and matches) and checks it ends with the same games and
// steps as a run straight through.
func TestTeacherRunStoppedOftenMatchesUninterruptedRun(t *testing.T) {
	t.Run("one round", func(t *testing.T) {
		cfg := teacherConfig(t)
		cfg.Teacher.Games, cfg.SelfPlay.FirstGames = 40, 40
		cfg.Teacher.TrainSteps = 0 // every generation takes train.max_steps, as checkRunComplete counts
		stopOften(t, cfg, 2)
	})
	t.Run("two rounds", func(t *testing.T) {
		// Generation 1 is the teacher's second round: its games and steps
		// are self-play's, as checkRunComplete counts them.
		cfg := teacherConfig(t)
		cfg.SelfPlay.FirstGames = 20
		cfg.Teacher.FirstGames, cfg.Teacher.Games = 20, 20+cfg.SelfPlay.Games
		cfg.Teacher.FirstSteps, cfg.Teacher.TrainSteps = cfg.Train.MaxSteps, 2*cfg.Train.MaxSteps
		stopOften(t, cfg, 3)
	})
	t.Run("three rounds", func(t *testing.T) {
		// teacher.rounds: generations 1 and 2 share the rest, each with
		// self-play's games and steps, as checkRunComplete counts them.
		cfg := teacherConfig(t)
		cfg.SelfPlay.FirstGames = 20
		cfg.Teacher.FirstGames, cfg.Teacher.Games, cfg.Teacher.RoundCount = 20, 20+2*cfg.SelfPlay.Games, 3
		cfg.Teacher.FirstSteps, cfg.Teacher.TrainSteps = cfg.Train.MaxSteps, 3*cfg.Train.MaxSteps
		stopOften(t, cfg, 4)
	})
}

// stopOften runs cfg for gens generations straight through, then again
// stopped by a short budget over and over, and checks both runs whole.
func stopOften(t *testing.T, cfg setup.Config, gens int) {
	straight := t.TempDir()
	began := time.Now()
	if _, err := Run(context.Background(), Options{Dir: straight, Config: cfg, Generations: gens}); err != nil {
		t.Fatal(err)
	}
	checkRunComplete(t, straight, cfg, gens)
	checkTeacherGeneration(t, straight, cfg)
	// The budget is a tenth of the straight run's wall clock; a straight run
	// slowed by the machine's load gives a budget too long to stop the
	// second run twice, so it is tried again, shorter, in a fresh directory.
	budget := max(time.Since(began)/10, 20*time.Millisecond)
	var stopped string
	var used time.Duration
	stops := 0
	for try := 0; try < 4 && stops < 2; try, budget = try+1, max(budget/4, 20*time.Millisecond) {
		stopped, stops, used = t.TempDir(), 0, budget
		// Each stopped call gets a quarter more than the last: a phase
		// redone from its start after a stop (the evaluation) that a load
		// spike makes longer than the budget still ends in a few calls.
		call := budget
		for calls := 1; ; calls, call = calls+1, call+call/4 {
			if calls > 500 {
				t.Fatal("no progress in 500 calls")
			}
			rep, err := Run(context.Background(), Options{Dir: stopped, Config: cfg, Generations: gens, Budget: call})
			if err != nil {
				t.Fatalf("call %d: %v", calls, err)
			}
			if rep.Stopped == "generations" {
				break
			}
			stops++
		}
	}
	if stops < 2 {
		t.Fatalf("stopped only %d times, the last budget %v", stops, used)
	}
	checkRunComplete(t, stopped, cfg, gens)
	checkTeacherGeneration(t, stopped, cfg)
}

func TestTeacherGenerationTrainsItsOwnStepCount(t *testing.T) {
	cfg := teacherConfig(t)
	cfg.Teacher.TrainSteps = 13
	dir := t.TempDir()
	if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 2}); err != nil {
		t.Fatal(err)
	}
	recs := readMetrics(t, dir)
	if len(recs) != 2 || recs[0].Train.Steps != 13 || recs[1].Train.Steps != cfg.Train.MaxSteps {
		t.Errorf("steps per generation %d and %d, want 13 (teacher.train_steps) and %d", recs[0].Train.Steps, recs[1].Train.Steps, cfg.Train.MaxSteps)
	}
}

// TestKillNineInTheTeacherPhaseLosesNothingOnResume SIGKILLs the real
// binary while the teacher is playing (once some of its games are on
// disk), resumes it, and checks every game exactly once, for both
// teachers.
func TestKillNineInTheTeacherPhaseLosesNothingOnResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	t.Run("alphabeta", func(t *testing.T) {
		cfg := teacherConfig(t)
		// Depth 2 at a long cap: slow enough games that the kill lands among them.
		cfg.Teacher.Games, cfg.SelfPlay.FirstGames, cfg.Teacher.Depth, cfg.Teacher.MaxPlies = 120, 120, 2, 200
		killTeacherPhase(t, bin, cfg)
	})
	t.Run("engine", func(t *testing.T) {
		cfg := teacherConfig(t)
		cfg.Teacher.Player, cfg.Teacher.Nodes, cfg.Teacher.MultiPV, cfg.Teacher.Margin = "engine", 1000, 2, 20
		cfg.Teacher.ValueScale, cfg.Teacher.ValueMix = 0.1, 0.5
		cfg.Teacher.Games, cfg.SelfPlay.FirstGames, cfg.Teacher.MaxPlies = 60, 60, 120
		killTeacherPhase(t, bin, cfg)
	})
	t.Run("second round", func(t *testing.T) {
		// The kills land in generation 1, the teacher's second round;
		// its games and steps are self-play's, as checkRunComplete counts.
		cfg := teacherConfig(t)
		cfg.SelfPlay.Games, cfg.SelfPlay.FirstGames, cfg.Teacher.Depth, cfg.Teacher.MaxPlies = 120, 8, 2, 200
		cfg.Teacher.FirstGames, cfg.Teacher.Games = 8, 128
		cfg.Teacher.FirstSteps, cfg.Teacher.TrainSteps = cfg.Train.MaxSteps, 2*cfg.Train.MaxSteps
		killTeacherPhase(t, bin, cfg)
	})
}

// killTeacherPhase kills bin's run of cfg twice in its last teacher round
// and resumes it to the end of that round's generation.
func killTeacherPhase(t *testing.T, bin string, cfg setup.Config) {
	round := cfg.Teacher.Rounds() - 1
	before := 0 // the games of the rounds before
	for g := range round {
		before += cfg.Teacher.GamesIn(g)
	}
	data, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "teacher.toml")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "train", "--config", cfgPath, "--run", dir, "--generations", fmt.Sprint(round+1), "--quiet")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	landed, onDisk := 0, before
	for kill := range 2 {
		cmd := start()
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if n := teacherGamesOnDisk(dir); n > onDisk {
				onDisk = n
				break
			}
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		onDisk = teacherGamesOnDisk(dir)
		st, err := loadState(dir)
		if err == nil && st.Generation == round && st.Phase == phaseSelfPlay && before < onDisk && onDisk < cfg.Teacher.Games {
			landed++
		} else {
			t.Logf("kill %d landed after the teacher phase: %+v (%v), %d games on disk", kill, st, err, onDisk)
		}
	}
	if landed == 0 {
		t.Errorf("no kill landed in the teacher phase")
	}
	if err := start().Wait(); err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	checkRunComplete(t, dir, cfg, round+1)
	checkTeacherGeneration(t, dir, cfg)
	if left, _ := filepath.Glob(filepath.Join(dir, dataDir, "records", "*.txt")); len(left) != 0 {
		t.Errorf("%d records left in data/records", len(left))
	}
}

// teacherGamesOnDisk counts the games in a run's readable chunks (0 before
// there are any).
func teacherGamesOnDisk(dir string) int {
	chunks, _, err := datasets.List(DataDir(dir))
	if err != nil {
		return 0
	}
	n := 0
	for _, c := range chunks {
		n += c.Games
	}
	return n
}
