package learn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// stateVersion is the layout version of state.json: 2 records the nets'
// settings (State.Net); a version-1 file, which has none, is still read and
// is written as version 2 with the resuming command's settings.
const stateVersion = 2

// stateKind tells a learn run's state.json from other runs' (train's).
const stateKind = "bomberzero-nnue-run"

// The phases of a generation, in order.
const (
	PhaseSelfPlay = "selfplay"
	PhaseTrain    = "train"
	PhaseGate     = "gate"
)

// State is what a run needs to continue after a stop or a kill. It is
// written atomically after every chunk and phase change.
type State struct {
	Kind    string `json:"kind"`
	Version int    `json:"version"`
	Variant string `json:"variant"`
	// The settings that shape the data: a resume with other values would
	// mix games of two runs, so it is refused.
	Seed       uint64 `json:"seed"`
	Games      int    `json:"games"`
	ChunkGames int    `json:"chunk_games"`
	Nodes      int64  `json:"nodes"`
	// Table is the engine's piece table in centipawns by type (Config.Table:
	// the classical evaluation, the search's order and margins, a new net's
	// material path). Nil in a state written before it was recorded, until
	// a resume records the command's.
	Table []int32 `json:"table,omitempty"`
	// Net is the settings that shape each new net: a resume with other
	// values would make the run's nets two experiments, so it is refused
	// too. It is nil only in a version-1 state, until the resume records
	// the command's settings.
	Net *NetSettings `json:"net,omitempty"`

	Generation int    `json:"generation"` // the generation in progress, from 0
	Phase      string `json:"phase"`
	// Best is the accepted net (a path relative to the run), "" for the
	// classical evaluation; BestGeneration is the generation that trained
	// it, -1 for none.
	Best           string `json:"best"`
	BestGeneration int    `json:"best_generation"`
	// SelfPlaySeconds and Train are this generation's figures so far.
	SelfPlaySeconds float64     `json:"selfplay_s"`
	Train           *TrainStats `json:"train,omitempty"`
	TrainSeconds    float64     `json:"train_s"`
	// Elapsed is the run's working seconds up to this save.
	Elapsed float64 `json:"elapsed_s"`
}

// StatePath returns the state file of run directory dir.
func StatePath(dir string) string { return filepath.Join(dir, "state.json") }

// saveState writes st to dir's state.json atomically.
func saveState(dir string, st *State) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(StatePath(dir), append(data, '\n'))
}

// LoadState reads dir's state.json; ok is false when there is none (a new
// run). A file that is not a learn run's state is an error naming it.
func LoadState(dir string) (st *State, ok bool, err error) {
	path := StatePath(dir)
	data, err := readfile.Regular(path, 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("state %s: %w", path, err)
	}
	st = new(State)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(st); err != nil {
		return nil, false, fmt.Errorf("state %s: not the state of an nnue run (%v); use another --dir", path, err)
	}
	if st.Kind != stateKind {
		return nil, false, fmt.Errorf("state %s: kind %q, not an nnue run's %q; use another --dir", path, st.Kind, stateKind)
	}
	switch {
	case st.Version < 1 || st.Version > stateVersion:
		return nil, false, fmt.Errorf("state %s: layout version %d, this build reads 1 to %d", path, st.Version, stateVersion)
	case st.Version == 1 && st.Net != nil:
		return nil, false, fmt.Errorf("state %s: layout version 1 with the nets' settings (\"net\"), which only version %d records", path, stateVersion)
	case st.Version > 1 && st.Net == nil:
		return nil, false, fmt.Errorf("state %s: layout version %d without the nets' settings (\"net\")", path, st.Version)
	}
	switch st.Phase {
	case PhaseSelfPlay, PhaseTrain, PhaseGate:
	default:
		return nil, false, fmt.Errorf("state %s: unknown phase %q", path, st.Phase)
	}
	if st.Generation < 0 || st.Best != "" && !filepath.IsLocal(st.Best) {
		return nil, false, fmt.Errorf("state %s: generation %d, best net %q: want a generation >= 0 and a net inside the run", path, st.Generation, st.Best)
	}
	return st, true, nil
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
