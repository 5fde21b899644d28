package train

import (
	"path/filepath"
	"testing"

	"bomberzero/datasets"
	"bomberzero/metrics"
	"bomberzero/nn"
	"bomberzero/setup"
)

// tinyConfig is fbgc with a one-block network, few short games, few steps
// and tiny matches: a whole generation takes a second or two, so tests can
// run several and interrupt them.
func tinyConfig(t *testing.T) setup.Config {
	t.Helper()
	c, err := setup.DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	c.Net = setup.NetConfig{Blocks: 1, Filters: 8, PolicyFilters: 2, ValueFilters: 1, ValueHidden: 8}
	c.SelfPlay.Games, c.SelfPlay.FirstGames, c.SelfPlay.Slots, c.SelfPlay.Workers = 6, 8, 2, 2
	c.SelfPlay.Sims, c.SelfPlay.CheapSims, c.SelfPlay.CheapShare, c.SelfPlay.MaxPlies = 8, 4, 0.5, 30
	c.Train.Batch, c.Train.MaxSteps, c.Train.MinPositions, c.Train.CheckpointSteps = 16, 8, 10, 2
	c.Train.SampleRatio = 1000 // every generation takes setup.MaxSteps steps, so step counts are exact
	c.Eval = setup.EvalConfig{Every: 1, Games: 2, Sims: 2, Previous: true, Baselines: []string{"random"}, MaxPlies: 20, Workers: 2}
	c.Teacher.Enabled = false // generation 0 by selfplay.first_model; teacher_test.go enables it
	return c
}

// readMetrics returns a run's metrics records.
func readMetrics(t *testing.T, dir string) []metrics.Record {
	t.Helper()
	recs, torn, err := metrics.Read(filepath.Join(dir, metricsName))
	if err != nil {
		t.Fatal(err)
	}
	if torn {
		t.Errorf("%s: torn last line", dir)
	}
	return recs
}

// gamesPerGeneration reads a run's data back: games per generation, and the
// number of game IDs seen more than once.
func gamesPerGeneration(t *testing.T, dir string) (map[int]int, int) {
	t.Helper()
	chunks, problems, err := datasets.List(DataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Errorf("unusable chunks: %v", problems[0])
	}
	per := map[int]int{}
	seen := map[string]bool{}
	dups := 0
	for _, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range datasets.Games(c.Rows) {
			if seen[g.ID] {
				dups++
			}
			seen[g.ID] = true
			per[g.Generation]++
		}
	}
	return per, dups
}

// checkRunComplete asserts what every finished run of cfg with gens
// generations holds: one metrics record per generation in order, the
// configured games and steps in each, exact step totals, no game lost or
// written twice, and a game record per game.
func checkRunComplete(t *testing.T, dir string, cfg setup.Config, gens int) {
	t.Helper()
	recs := readMetrics(t, dir)
	if len(recs) != gens {
		t.Fatalf("%d metrics records, want %d", len(recs), gens)
	}
	total := 0
	for i, r := range recs {
		if r.Generation != i || r.Model != genName(i+1) {
			t.Errorf("record %d: generation %d model %q, want %d %q", i, r.Generation, r.Model, i, genName(i+1))
		}
		if r.SelfPlay == nil || r.SelfPlay.Games != cfg.GamesIn(i) {
			t.Errorf("generation %d: self-play %+v, want %d games", i, r.SelfPlay, cfg.GamesIn(i))
		}
		total += cfg.Train.MaxSteps
		if r.Train == nil || r.Train.Steps != cfg.Train.MaxSteps || r.Train.TotalSteps != total {
			t.Errorf("generation %d: train %+v, want %d steps, %d in total", i, r.Train, cfg.Train.MaxSteps, total)
		}
		if r.Train != nil && cfg.Train.MaxSteps > 0 && !(r.Train.MovesLeftLoss > 0) {
			t.Errorf("generation %d: moves_left_loss %v, want the moves-left head's (positive) loss", i, r.Train.MovesLeftLoss)
		}
		if len(r.Ladder) == 0 {
			t.Errorf("generation %d: no ladder", i)
		}
	}
	per, dups := gamesPerGeneration(t, dir)
	if dups != 0 {
		t.Errorf("%d games written twice", dups)
	}
	games := 0
	for g := range gens {
		if per[g] != cfg.GamesIn(g) {
			t.Errorf("generation %d: %d games on disk, want %d", g, per[g], cfg.GamesIn(g))
		}
		games += per[g]
	}
	records, _ := filepath.Glob(filepath.Join(dir, gamesDir, "*.txt"))
	if len(records) != games {
		t.Errorf("%d game records in games/, want %d", len(records), games)
	}
	st, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Generation != gens || st.Steps != int64(total) {
		t.Errorf("state: generation %d steps %d, want %d and %d", st.Generation, st.Steps, gens, total)
	}
	for g := 0; g <= gens; g++ {
		if _, err := loadCheckpointSteps(GenCheckpoint(dir, g)); err != nil {
			t.Errorf("generation checkpoint %d: %v", g, err)
		}
	}
}

// loadCheckpointSteps returns the training steps a checkpoint holds.
func loadCheckpointSteps(path string) (int64, error) {
	c, err := nn.ReadCheckpoint(path)
	if err != nil {
		return 0, err
	}
	return c.Step, nil
}

// skipUnderRace skips a test whose subject is a result (what a model
// learns, what a config says), not concurrency: the race detector makes
// it 5-10x slower and finds nothing in it that the tests it keeps do not
// exercise (scripts/race.sh).
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("a result test, not a concurrency test: skipped under the race detector")
	}
}
