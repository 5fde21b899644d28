package metrics

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestReadRunMergesTheEvaluatorsRecordsIntoTheModelsTheyRate(t *testing.T) {
	dir := t.TempDir()
	w, err := OpenWriter(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for g, m := range []string{"gen-0001", "gen-0002"} {
		if err := w.Append(Record{Generation: g, Model: m, Train: &Train{Steps: 8}}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	os.MkdirAll(filepath.Join(dir, EvalDir), 0o755)
	eval := Record{Version: Version, Generation: 1, Model: "gen-0002",
		Matches: []Match{{A: "gen-0002", B: "random", Wins: 2}},
		Ladder:  []Rating{{Player: "gen-0002", Elo: 300}}}
	data, _ := json.Marshal(eval)
	os.WriteFile(filepath.Join(dir, EvalDir, "gen-0002.json"), append(data, '\n'), 0o644)
	// A rating of a model the trainer's record does not have yet is kept
	// out, not an error.
	late, _ := json.Marshal(Record{Version: Version, Generation: 2, Model: "gen-0003"})
	os.WriteFile(filepath.Join(dir, EvalDir, "gen-0003.json"), append(late, '\n'), 0o644)

	recs, torn, err := ReadRun(dir)
	if err != nil || torn {
		t.Fatal(err, torn)
	}
	if len(recs) != 2 || len(recs[0].Matches) != 0 || len(recs[1].Matches) != 1 || recs[1].Ladder[0].Elo != 300 || recs[1].Train.Steps != 8 {
		t.Errorf("records %+v: want gen-0002's matches and ladder from the evaluator, its training kept", recs)
	}
	os.WriteFile(filepath.Join(dir, EvalDir, "gen-0004.json"), []byte("{bad\n"), 0o644)
	if _, _, err := ReadRun(dir); err == nil {
		t.Error("a damaged evaluation record was accepted")
	}
}
