package train

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// stateVersion is the version of state.json's layout.
const stateVersion = 1

// The phases of a generation, in order.
const (
	phaseSelfPlay = "selfplay"
	phaseTrain    = "train"
	phaseEval     = "eval"
)

// state is what a run needs to continue after a stop or a kill: the
// generation and phase in progress, the counters and the random state. It
// is saved atomically after every phase change and trainer checkpoint.
type state struct {
	Generation int    `json:"generation"` // the generation in progress, from 0
	Phase      string `json:"phase"`
	// Checkpoint is the trainer checkpoint (relative to the run) holding
	// the current network and optimizer state; "" before the first.
	Checkpoint string `json:"checkpoint"`
	Steps      int64  `json:"steps"` // trainer steps in Checkpoint
	// Samples is the training samples drawn over the whole run (at
	// Checkpoint's step); the loop keeps Samples <= SampleRatio * arrived.
	Samples int64 `json:"samples"`
	// RNG is the training batch generator's state (math/rand/v2 PCG).
	RNG []byte `json:"rng"`
	// Elapsed is the run's working seconds up to this save.
	Elapsed float64 `json:"elapsed_s"`

	// GenWriter is the writer identity of this generation's self-play,
	// unique to the generation (it holds a random tag): the chunks whose
	// writer metadata is GenWriter-wN are this generation's, whatever
	// happens to other chunks of the directory.
	GenWriter string `json:"gen_writer,omitempty"`
	// ChunksAtGenStart is, in a run from before GenWriter, the number of
	// data chunks when this generation's self-play began: later chunks
	// are this generation's. Used only while GenWriter is "".
	ChunksAtGenStart int `json:"chunks_at_gen_start,omitempty"`
	// GenChunks are, in the trainer role, the names of the chunks collected
	// from the workers in this generation (in the data folder); when the
	// generation ends they go to ingested/gen-NNNN.json.
	GenChunks []string `json:"gen_chunks,omitempty"`
	// SelfPlaySeconds is the self-play wall time of this generation so far.
	SelfPlaySeconds float64 `json:"selfplay_s"`
	// The training sums of this generation so far (for its metrics).
	Gen genTrain `json:"gen_train"`
}

// genTrain accumulates one generation's training figures.
type genTrain struct {
	Steps      int     `json:"steps"`
	Samples    int     `json:"samples"`
	Seconds    float64 `json:"seconds"`
	PolicyLoss float64 `json:"policy_loss_sum"`
	ValueLoss  float64 `json:"value_loss_sum"`
	MovesLeft  float64 `json:"moves_left_loss_sum,omitempty"`
	ShortValue float64 `json:"short_value_loss_sum,omitempty"`
	Loss       float64 `json:"loss_sum"`
	Arrived    int64   `json:"arrived"` // eligible positions that ever arrived, at the last refresh
}

// stateFile is state.json's on-disk envelope: a version and a checksum of
// the state's JSON.
type stateFile struct {
	Version int             `json:"version"`
	SHA256  string          `json:"sha256"`
	State   json.RawMessage `json:"state"`
}

func statePath(dir string) string { return filepath.Join(dir, "state.json") }

// saveState writes s to dir/state.json atomically.
func saveState(dir string, s *state) error {
	body, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("train: state: %w", err)
	}
	sum := sha256.Sum256(body)
	data, err := json.Marshal(stateFile{Version: stateVersion, SHA256: hex.EncodeToString(sum[:]), State: body})
	if err != nil {
		return fmt.Errorf("train: state: %w", err)
	}
	return writeAtomic(statePath(dir), append(data, '\n'))
}

// maxStateBytes is the largest state.json loadState reads (a run's state
// lists a generation's chunks: kilobytes, not megabytes).
const maxStateBytes = 64 << 20

// loadState reads dir/state.json, checking its version and checksum.
func loadState(dir string) (*state, error) {
	path := statePath(dir)
	data, err := readfile.Regular(path, maxStateBytes)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	var f stateFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("train: %s: %w", path, err)
	}
	if f.Version != stateVersion {
		return nil, fmt.Errorf("train: %s: version %d, want %d", path, f.Version, stateVersion)
	}
	sum := sha256.Sum256(f.State)
	if hex.EncodeToString(sum[:]) != f.SHA256 {
		return nil, fmt.Errorf("train: %s: field sha256: checksum mismatch (file damaged)", path)
	}
	var s state
	if err := json.Unmarshal(f.State, &s); err != nil {
		return nil, fmt.Errorf("train: %s: field state: %w", path, err)
	}
	switch s.Phase {
	case phaseSelfPlay, phaseTrain, phaseEval:
	default:
		return nil, fmt.Errorf("train: %s: field phase: %q, want selfplay, train or eval", path, s.Phase)
	}
	return &s, nil
}

// writeAtomic replaces path with data (atomicfile.WriteFile).
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}
