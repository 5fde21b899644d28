package metrics

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"bomberzero/internal/readfile"
)

// EvalDir is the folder of a run, split over machines, where the
// evaluator role keeps one record per rated model (eval/gen-NNNN.json).
const EvalDir = "eval"

// ReadRun returns the records of the run directory dir: its metrics.jsonl,
// with the evaluator's records (EvalDir) merged into the records of the
// models they rate (their matches, held-out score and ladder), so that a
// run whose trainer played no matches plots like any other. torn is as
// for Read.
func ReadRun(dir string) (recs []Record, torn bool, err error) {
	recs, torn, err = Read(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		return nil, false, err
	}
	files, err := filepath.Glob(filepath.Join(dir, EvalDir, "gen-*.json"))
	if err != nil {
		return nil, false, fmt.Errorf("metrics: %w", err)
	}
	sort.Strings(files)
	byModel := map[string]int{}
	for i, r := range recs {
		byModel[r.Model] = i
	}
	for _, f := range files {
		data, err := readfile.Regular(f, MaxFileBytes)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, false, fmt.Errorf("metrics: %w", err)
		}
		evals, _, err := Decode(bytes.NewReader(data), f)
		if err != nil {
			return nil, false, err
		}
		for _, e := range evals {
			i, ok := byModel[e.Model]
			if !ok {
				continue // rated before the trainer's record arrived here
			}
			r := &recs[i]
			if len(r.Matches) == 0 {
				r.Matches, r.Heldout, r.Ladder = e.Matches, e.Heldout, e.Ladder
			}
		}
	}
	return recs, torn, nil
}
