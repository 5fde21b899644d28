package learn

import (
	"encoding/json"
	"path/filepath"

	"bomberzero/internal/readfile"
	"bomberzero/metrics"
)

// IsRun reports whether dir holds an nnue run: a state.json of this
// package's kind. It reads no more than a state file's bound and says
// false for anything it cannot read.
func IsRun(dir string) bool {
	data, err := readfile.Regular(filepath.Join(dir, "state.json"), 1<<20)
	if err != nil {
		return false
	}
	var st struct {
		Kind string `json:"kind"`
	}
	return json.Unmarshal(data, &st) == nil && st.Kind == stateKind
}

// Metrics is r as the training loop's metrics record, so that the same
// charts ("bomberzero plot") draw an nnue run: the self-play games, the
// net's training (its validation loss as the value loss, its training
// loss as the loss; a net has no policy) and the gate match.
func (r Record) Metrics() metrics.Record {
	m := metrics.Record{
		Version: metrics.Version, Time: r.Time, Elapsed: r.Elapsed, Generation: r.Generation, Model: r.Net,
		SelfPlay: &metrics.SelfPlay{Games: r.Games, Positions: r.Positions, Seconds: r.SelfPlaySeconds, MeanPlies: r.MeanPlies,
			WhiteWins: r.WhiteWins, Draws: r.Draws, BlackWins: r.BlackWins},
	}
	if r.SelfPlaySeconds > 0 {
		m.SelfPlay.GamesPerHour = float64(r.Games) * 3600 / r.SelfPlaySeconds
	}
	if r.Train.Samples > 0 {
		m.Train = &metrics.Train{Samples: r.Train.Samples, Seconds: r.TrainSeconds, ValueLoss: r.Train.ValidationLoss, Loss: r.Train.TrainLoss}
	}
	if g := r.Gate; g.Wins+g.Draws+g.Losses > 0 {
		m.Matches = []metrics.Match{g.Match}
	}
	return m
}

// ReadRunMetrics reads dir's metrics.jsonl as the training loop's records
// (Record.Metrics); a run with none yet has none.
func ReadRunMetrics(dir string) ([]metrics.Record, error) {
	recs, err := ReadMetrics(dir)
	if err != nil {
		return nil, err
	}
	out := make([]metrics.Record, len(recs))
	for i, r := range recs {
		out[i] = r.Metrics()
	}
	return out, nil
}
