package train

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/datasets"
	"bomberzero/nn"
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
// steps; then runs the same config and seed uninterrupted and holds the
// two to the same generations, games, chunks, steps, game records and
// checkpoints (compareRuns says what may differ, and why).
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

	// Kill 0: generation 0's self-play (network-free, so its games can be
	// held byte for byte to the uninterrupted run's below), once some of
	// its games are on disk.
	cmd := start()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(DataDir(dir)); err != nil {
			continue // not made yet
		}
		if per, _ := gamesPerGeneration(t, dir); per[0] > 0 {
			break
		}
	}
	kill(cmd)
	if per, _ := gamesPerGeneration(t, dir); per[0] == 0 || per[0] == cfg.GamesIn(0) {
		t.Logf("the kill in generation 0's self-play found %d of its %d games on disk", per[0], cfg.GamesIn(0))
	}

	// Kill 1: generation 1's training, after a checkpoint and before the end.
	cmd = start()
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

	// The same config and seed, uninterrupted (start runs in dir).
	killedDir := dir
	dir = filepath.Join(t.TempDir(), "uninterrupted")
	if err := start().Wait(); err != nil {
		t.Fatalf("uninterrupted run: %v", err)
	}
	checkRunComplete(t, dir, cfg, gens)
	killed, whole := summarize(t, killedDir), summarize(t, dir)
	compareRuns(t, killed, whole)
}

// runSummary is what a finished run holds, by generation: what a run
// killed and resumed must hold exactly as an uninterrupted one of the
// same seed does (compareRuns).
type runSummary struct {
	Generations int
	Games       map[int]int // games in the data
	Chunks      map[int]int // chunks, by their first game's generation
	Positions   map[int]int // positions in the data
	Steps       map[int]int // training steps (metrics)
	TotalSteps  int64       // state.json
	Records     int         // game records in games/
	Checkpoints string      // the names in checkpoints/
	Duplicates  int         // game IDs seen twice in the data
	// GameTexts holds each game, by generation and ID, as written: its
	// rows in the data (as JSON) and its game record, byte for byte.
	GameTexts map[int]map[string]string
}

// summarize reads a finished run's data, metrics, state and checkpoints,
// and fails unless every generation's positions in the data are those
// its metrics record says self-play wrote (none lost, none twice).
func summarize(t *testing.T, dir string) runSummary {
	t.Helper()
	s := runSummary{Games: map[int]int{}, Chunks: map[int]int{}, Positions: map[int]int{}, Steps: map[int]int{},
		GameTexts: map[int]map[string]string{}}
	chunks, problems, err := datasets.List(DataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Errorf("%s: unusable chunk: %v", dir, problems[0])
	}
	seen := map[string]bool{}
	gen := map[string]int{} // game ID -> generation
	for _, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			t.Fatal(err)
		}
		games := datasets.Games(c.Rows)
		if len(games) > 0 {
			s.Chunks[games[0].Generation]++
		}
		for _, g := range games {
			if seen[g.ID] {
				s.Duplicates++
			}
			seen[g.ID] = true
			s.Games[g.Generation]++
			s.Positions[g.Generation] += len(g.Positions)
			gen[g.ID] = g.Generation
		}
		for _, row := range c.Rows {
			line, err := json.Marshal(row)
			if err != nil {
				t.Fatal(err)
			}
			texts := s.GameTexts[gen[row.GameID]]
			if texts == nil {
				texts = map[string]string{}
				s.GameTexts[gen[row.GameID]] = texts
			}
			texts[row.GameID] += string(line) + "\n"
		}
	}
	for _, texts := range s.GameTexts {
		for id := range texts {
			rec, err := os.ReadFile(filepath.Join(dir, gamesDir, id+".txt"))
			if err != nil {
				t.Errorf("%s: game %s has no record: %v", dir, id, err)
			}
			texts[id] += string(rec)
		}
	}
	for _, r := range readMetrics(t, dir) {
		s.Generations++
		if r.Train != nil {
			s.Steps[r.Generation] = r.Train.Steps
		}
		if r.SelfPlay == nil || r.SelfPlay.Positions != s.Positions[r.Generation] {
			t.Errorf("%s: generation %d: metrics %+v, %d positions in the data", dir, r.Generation, r.SelfPlay, s.Positions[r.Generation])
		}
	}
	st, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.TotalSteps = st.Steps
	records, _ := filepath.Glob(filepath.Join(dir, gamesDir, "*.txt"))
	s.Records = len(records)
	ckpts, _ := filepath.Glob(filepath.Join(dir, ckptDir, "*"))
	for i := range ckpts {
		ckpts[i] = filepath.Base(ckpts[i])
	}
	s.Checkpoints = strings.Join(ckpts, " ")
	return s
}

// compareRuns fails unless a killed and resumed run holds what the
// uninterrupted one does: the generations, each generation's games,
// chunks and training steps, the step total, the game records and the
// checkpoints' names, with no game twice, and every generation's games
// byte for byte (their rows and records: each game's draws and ID come
// from its number, whichever worker plays it, before or after a kill; the
// networks that play the later ones are trained the same, and value a
// position the same in any batch). In builds whose products do not promise
// the last (nn.ExactRows false: OpenBLAS, gonum's) only generation 0's
// games are held to it, the later ones' differences logged.
func compareRuns(t *testing.T, killed, whole runSummary) {
	t.Helper()
	if killed.Duplicates+whole.Duplicates != 0 {
		t.Errorf("games written twice: %d after the kills, %d uninterrupted", killed.Duplicates, whole.Duplicates)
	}
	eq := func(what string, a, b any) {
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: %v after the kills, %v uninterrupted", what, a, b)
		}
	}
	eq("generations", killed.Generations, whole.Generations)
	eq("games by generation", killed.Games, whole.Games)
	eq("chunks by generation", killed.Chunks, whole.Chunks)
	eq("steps by generation", killed.Steps, whole.Steps)
	eq("steps in all", killed.TotalSteps, whole.TotalSteps)
	eq("game records", killed.Records, whole.Records)
	eq("checkpoints", killed.Checkpoints, whole.Checkpoints)
	t.Logf("positions by generation: %v after the kills, %v uninterrupted (equal when every game reaches the same length)", killed.Positions, whole.Positions)
	for gen, want := range whole.GameTexts {
		got := killed.GameTexts[gen]
		differ := 0
		for id, text := range want {
			if got[id] != text {
				if differ == 0 {
					gl, wl := strings.Split(got[id], "\n"), strings.Split(text, "\n")
					for i := range min(len(gl), len(wl)) {
						if gl[i] != wl[i] {
							t.Logf("generation %d, game %s, line %d:\n got %.600s\nwant %.600s", gen, id, i+1, gl[i], wl[i])
							break
						}
					}
				}
				differ++
			}
		}
		switch {
		case differ == 0 && len(got) == len(want):
			t.Logf("generation %d: its %d games are byte for byte the uninterrupted run's", gen, len(want))
		case gen > 0 && !nn.ExactRows():
			t.Logf("generation %d: %d of %d games differ from the uninterrupted run's (a trained network played them, in a build without exact rows)", gen, differ, len(want))
		default:
			t.Errorf("generation %d: %d of %d games differ from the uninterrupted run's (%d games after the kills)", gen, differ, len(want), len(got))
		}
	}
}
