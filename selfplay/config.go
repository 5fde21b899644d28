package selfplay

import (
	"fmt"
	"io/fs"
	"runtime"

	"github.com/BurntSushi/toml"

	"bomberzero/agent"
	"bomberzero/configs"
	"bomberzero/internal/keys"
	"bomberzero/mcts"
)

// Search is the search configuration of self-play: mcts.Config under the
// name Settings embeds it by, so that its keys sit directly in the
// [selfplay] table of a training config ("sims", "cheap_share").
type Search = mcts.Config

// Settings are the self-play knobs, each with its one TOML name: the keys of
// the [selfplay] table of the training config (which embeds Settings) and
// the flags of "bomberzero selfplay". DefaultSettings reads their defaults
// from the embedded training defaults.
type Settings struct {
	// Games is the number of games to finish (per generation in training).
	Games int `toml:"games"`
	// Workers is the number of worker goroutines (0: one per core GOMAXPROCS lets the process use).
	Workers int `toml:"workers"`
	// Slots is the number of games each worker plays at once (its
	// searcher's slots, so its batch size).
	Slots int `toml:"slots"`
	// MaxPlies ends a game as a draw after this many plies (the length cap).
	MaxPlies int `toml:"max_plies"`
	// ResignThreshold is the search value (side to move's view) under which
	// a move counts towards resignation; ResignMoves consecutive such
	// moves of one side make it resign. ResignMoves 0 turns resignation
	// off.
	ResignThreshold float64 `toml:"resign_threshold"`
	ResignMoves     int     `toml:"resign_moves"`
	// ResignOffShare is the share of games played with resignation off,
	// where would-be resignations are recorded to measure the
	// false-resignation rate.
	ResignOffShare float64 `toml:"resign_off_share"`
	// AdjudicateMargin scores a game that reaches MaxPlies by material
	// (agent.Adjudicate over the one piece table): a side ahead by at least
	// this many pawns wins by env.Adjudication, otherwise the game is a
	// draw by the length cap. 0 turns adjudication off.
	AdjudicateMargin float64 `toml:"adjudicate_margin"`
	// LabelNodes, when above 0, has the alpha-beta engine (classical
	// evaluation, one thread) score the position of every full search at
	// this many nodes, and records that score as the position's value,
	// tanh(LabelScale × pawns) or ±1 for a mate, in place of the search's,
	// as the engine teacher's games hold its score. 0 records the search's
	// value.
	LabelNodes int `toml:"label_nodes"`
	// LabelScale is the value of a pawn in a label, as teacher.value_scale.
	LabelScale float64 `toml:"label_scale"`
	// LabelMix is the trainer's value_mix in the generations of a run that
	// labels (LabelNodes above 0): value target = (1 − LabelMix) × the
	// game's result + LabelMix × the value column, so the engine's labels
	// (and the engine teacher's scores still in the window) are learnt.
	LabelMix float64 `toml:"label_mix"`
	// Search is the search configuration (its Seed is combined with the
	// run's Seed).
	Search
}

// DefaultSettings returns the self-play defaults: the [selfplay] table of the
// embedded training defaults (configs/training/default.toml) over the search
// defaults of mcts.DefaultConfig for the keys the file leaves out.
func DefaultSettings() (Settings, error) {
	data, err := fs.ReadFile(configs.Training(), configs.DefaultTraining)
	if err != nil {
		return Settings{}, fmt.Errorf("selfplay: embedded defaults: %w", err)
	}
	var file struct {
		SelfPlay Settings `toml:"selfplay"`
	}
	file.SelfPlay.Search = mcts.DefaultConfig()
	if _, err := toml.Decode(string(data), &file); err != nil {
		return Settings{}, fmt.Errorf("selfplay: embedded defaults: %w", err)
	}
	return file.SelfPlay, nil
}

// Upper bounds of the self-play knobs (docs/training.md lists each key's
// range): far above any useful setting, low enough that a typo cannot
// exhaust memory (each worker holds Slots search trees and its cache).
const (
	MaxGames    = 100_000_000
	MaxWorkers  = 1024
	MaxSlots    = 4096
	MaxMaxPlies = 100_000
	// MaxAdjudicateMargin bounds adjudicate_margin in pawns.
	MaxAdjudicateMargin = 1000
)

// Validate reports the first knob out of range, naming its key
// ("slots = 0: want 1 to 4096"). Every number must be finite.
func (s *Settings) Validate() error {
	for _, err := range []error{
		keys.IntIn("games", s.Games, 1, MaxGames),
		keys.IntIn("workers", s.Workers, 0, MaxWorkers),
		keys.IntIn("slots", s.Slots, 1, MaxSlots),
		keys.IntIn("max_plies", s.MaxPlies, 1, MaxMaxPlies),
		keys.FloatIn("resign_threshold", s.ResignThreshold, -1, 1),
		keys.IntIn("resign_moves", s.ResignMoves, 0, MaxMaxPlies),
		keys.FloatIn("resign_off_share", s.ResignOffShare, 0, 1),
		keys.FloatIn("adjudicate_margin", s.AdjudicateMargin, 0, MaxAdjudicateMargin),
		keys.IntIn("label_nodes", s.LabelNodes, 0, MaxLabelNodes),
		keys.FloatIn("label_scale", s.LabelScale, 0, MaxLabelScale),
		keys.FloatIn("label_mix", s.LabelMix, 0, 1),
	} {
		if err != nil {
			return err
		}
	}
	if s.LabelNodes > 0 && s.LabelScale == 0 {
		return &keys.KeyError{Key: "label_scale", Value: "0", Want: "a value per pawn above 0 while label_nodes labels positions"}
	}
	return s.Search.Validate()
}

// MemoryBytes estimates the memory of self-play's searches, beside the
// network: per worker, Slots search trees (a node of about 48 bytes per
// legal move of each of up to twice Sims expanded positions, counting a
// reused subtree, with up to 128 moves each) and the evaluation cache
// (about 20 bytes plus 4 per move of CacheMoves per entry, the entries
// rounded up to a power of two), and the labelling engine's table. It is
// a float64: the product of the upper bounds overflows an int64.
func (s *Settings) MemoryBytes() float64 {
	const treeMoves, nodeBytes = 128, 48
	tree := 2 * float64(s.Search.Sims+s.Search.LeavesPerGame) * treeMoves * nodeBytes
	cache := 0.0
	if s.Search.CacheEntries > 0 {
		cache = float64(s.Search.CacheEntries) * 2 * (20 + 4*float64(s.Search.CacheMoves))
	}
	label := 0.0
	if s.LabelNodes > 0 {
		label = LabelHashMB << 20
	}
	return float64(s.WorkerCount()) * (float64(s.Slots)*tree + cache + label)
}

// WorkerCount is Workers, or one per core when Workers is 0.
func (s *Settings) WorkerCount() int {
	if s.Workers > 0 {
		return s.Workers
	}
	return max(1, runtime.GOMAXPROCS(0))
}

// Config is a self-play run: what to play, with what, how much, and where
// the data goes. DefaultConfig fills in the defaults.
type Config struct {
	// Variant is the variant name with options ("fbgc", "birds-ninjas+scepter")
	// or a variant file path.
	Variant string
	// Model is the model spec (agent.ParseSpec): a checkpoint path, or a
	// network-free evaluator: "none" or "material" (uniform policy,
	// material value), "uniform" (uniform policy, drawn value) or
	// "rollout" (random playouts).
	Model string
	// Generation is the training generation the games belong to (recorded).
	Generation int
	// Start is the position text every game starts from; "" is the
	// variant's start position.
	Start string
	// Out is the directory that receives the data chunks; game records go
	// to its "records" subdirectory.
	Out string
	// FlushGames is the number of finished games a worker buffers before it
	// writes them as one chunk (1 writes every game at once). Games are
	// reported finished only when written.
	FlushGames int
	// Seed seeds the games: game number k's search noise, temperature,
	// resignation draws and ID come from GameSeed(Seed, k) alone.
	Seed uint64
	// FirstGame is the number of the run's first game, and SkipGames the
	// numbers it leaves out (the games a resumed run has on disk): the
	// run plays the Games lowest numbers from FirstGame on that are not in
	// SkipGames (Driver.First, Driver.Skip).
	FirstGame int
	SkipGames map[int]bool
	// Writer identifies the run in its chunks' writer metadata (worker n
	// writes as Writer-wn), so that a caller can tell its chunks from
	// others' by identity; "" means host-pid.
	Writer string

	// Settings are the knobs the training config shares.
	Settings
}

// DefaultConfig returns the default self-play run for variant: the
// DefaultSettings, network-free play (Model "none", the material
// evaluator), 4 games a chunk, seed 1.
func DefaultConfig(variant string) (Config, error) {
	s, err := DefaultSettings()
	if err != nil {
		return Config{}, err
	}
	return Config{
		Variant:    variant,
		Model:      agent.None,
		Out:        "selfplay-data",
		FlushGames: 4,
		Seed:       1,
		Settings:   s,
	}, nil
}

// Validate reports the first setting out of range.
func (c *Config) Validate() error {
	switch {
	case c.Variant == "":
		return fmt.Errorf("selfplay: no variant given")
	case c.Model == "":
		return fmt.Errorf("selfplay: no model given (%s)", agent.SpecHelp)
	case c.Out == "":
		return fmt.Errorf("selfplay: no output directory given")
	}
	if c.FirstGame < 0 {
		return fmt.Errorf("selfplay: first game number %d, want >= 0", c.FirstGame)
	}
	if err := keys.IntIn("flush-games", c.FlushGames, 1, MaxGames); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	if _, err := agent.ParseSpec(c.Model); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	if err := c.Settings.Validate(); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	return nil
}
