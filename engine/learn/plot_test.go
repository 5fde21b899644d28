package learn

import (
	"os"
	"path/filepath"
	"testing"

	"bomberzero/metrics"
)

// IsRun tells an nnue run from a training run and from nothing; its
// records read as the trainer's with every figure in its place.
func TestAnNNUERunPlotsAsTheTrainersRecords(t *testing.T) {
	dir := t.TempDir()
	if IsRun(dir) {
		t.Error("an empty folder is an nnue run")
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "state.json"), []byte(`{"generation": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if IsRun(other) {
		t.Error("a training run's state is an nnue run's")
	}
	if err := saveState(dir, &State{Kind: stateKind, Version: stateVersion, Variant: "chess", Phase: PhaseSelfPlay, BestGeneration: -1}); err != nil {
		t.Fatal(err)
	}
	if !IsRun(dir) {
		t.Fatal("an nnue run's state is not recognised")
	}
	r := Record{Generation: 2, Elapsed: 90, Games: 10, Positions: 700, WhiteWins: 4, Draws: 3, BlackWins: 3, MeanPlies: 80, SelfPlaySeconds: 36,
		Train: TrainStats{Samples: 600, TrainLoss: 0.002, ValidationLoss: 0.003}, TrainSeconds: 5, Net: "nets/gen-0002.nnue",
		Gate: GateResult{Match: metrics.Match{A: "nets/gen-0002.nnue", B: "classical", Wins: 5, Draws: 2, Losses: 3, Score: 0.6, Elo: 70, EloLow: -100, EloHigh: 240}}}
	if err := appendMetrics(dir, r); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRunMetrics(dir)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v; want 1", len(recs), err)
	}
	m := recs[0]
	if m.Generation != 2 || m.Model != r.Net || m.SelfPlay == nil || m.SelfPlay.Games != 10 || m.SelfPlay.GamesPerHour != 1000 ||
		m.SelfPlay.WhiteWins != 4 || m.SelfPlay.Draws != 3 || m.SelfPlay.BlackWins != 3 || m.SelfPlay.MeanPlies != 80 {
		t.Errorf("self-play: %+v %+v", m, m.SelfPlay)
	}
	if m.Train == nil || m.Train.Samples != 600 || m.Train.ValueLoss != 0.003 || m.Train.Loss != 0.002 || m.Train.PolicyLoss != 0 {
		t.Errorf("training: %+v", m.Train)
	}
	if len(m.Matches) != 1 || m.Matches[0].B != "classical" || m.Matches[0].Wins != 5 || m.Matches[0].Elo != 70 {
		t.Errorf("gate: %+v", m.Matches)
	}
}
