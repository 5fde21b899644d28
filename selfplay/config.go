package selfplay

import (
	"fmt"
	"runtime"

	"bomberzero/mcts"
)

// Config is a self-play run: what to play, with what, how much, and where
// the data goes. DefaultConfig fills in the defaults.
type Config struct {
	// Variant is the variant name with options ("fbgc", "birds-ninjas+scepter")
	// or a variant file path.
	Variant string
	// Model is a checkpoint path, or "none" for the network-free evaluator
	// named by Evaluator.
	Model string
	// Evaluator is the network-free evaluator used with Model "none":
	// "material" (uniform policy, material value), "uniform" (uniform
	// policy, drawn value) or "rollout" (random playouts).
	Evaluator string
	// Generation is the training generation the games belong to (recorded).
	Generation int
	// Start is the position text every game starts from; "" is the
	// variant's start position.
	Start string

	// Games is the number of games to finish.
	Games int
	// Out is the directory that receives the data chunks; game records go
	// to its "records" subdirectory.
	Out string

	// Workers is the number of worker goroutines (default: one per core).
	Workers int
	// Slots is the number of games each worker plays at once (its
	// searcher's slots, so its batch size).
	Slots int
	// Search is the search configuration (its Seed is combined with Seed).
	Search mcts.Config

	// MaxPlies ends a game as a draw after this many plies.
	MaxPlies int
	// ResignThreshold is the search value (side to move's view) under which
	// a move counts towards resignation; ResignMoves consecutive such
	// moves of one side make it resign. ResignMoves 0 turns resignation
	// off.
	ResignThreshold float64
	ResignMoves     int
	// ResignOffShare is the share of games played with resignation off,
	// where would-be resignations are recorded to measure the
	// false-resignation rate.
	ResignOffShare float64

	// FlushGames is the number of finished games a worker buffers before it
	// writes them as one chunk (1 writes every game at once). Games are
	// reported finished only when written.
	FlushGames int
	// Seed seeds the workers (search noise, temperature, resignation draws).
	Seed uint64
	// Writer identifies the run in its chunks' writer metadata (worker n
	// writes as Writer-wn), so that a caller can tell its chunks from
	// others' by identity; "" means host-pid.
	Writer string
}

// DefaultConfig returns the default self-play settings for variant, with
// network-free play (Model "none", material evaluator).
func DefaultConfig(variant string) Config {
	s := mcts.DefaultConfig()
	return Config{
		Variant:         variant,
		Model:           "none",
		Evaluator:       "material",
		Games:           64,
		Out:             "selfplay-data",
		Workers:         runtime.NumCPU(),
		Slots:           32,
		Search:          s,
		MaxPlies:        400,
		ResignThreshold: -0.9,
		ResignMoves:     4,
		ResignOffShare:  0.1,
		FlushGames:      4,
		Seed:            1,
	}
}

// Validate reports the first setting out of range.
func (c *Config) Validate() error {
	switch {
	case c.Variant == "":
		return fmt.Errorf("selfplay: no variant given")
	case c.Model == "":
		return fmt.Errorf("selfplay: no model given (a checkpoint path, or \"none\")")
	case c.Model == "none" && c.Evaluator != "material" && c.Evaluator != "uniform" && c.Evaluator != "rollout":
		return fmt.Errorf("selfplay: evaluator %q: want material, uniform or rollout", c.Evaluator)
	case c.Games < 1:
		return fmt.Errorf("selfplay: games %d, want >= 1", c.Games)
	case c.Out == "":
		return fmt.Errorf("selfplay: no output directory given")
	case c.Workers < 1:
		return fmt.Errorf("selfplay: workers %d, want >= 1", c.Workers)
	case c.Slots < 1:
		return fmt.Errorf("selfplay: slots %d, want >= 1", c.Slots)
	case c.MaxPlies < 1:
		return fmt.Errorf("selfplay: max plies %d, want >= 1", c.MaxPlies)
	case c.ResignThreshold < -1 || c.ResignThreshold > 1:
		return fmt.Errorf("selfplay: resign threshold %g, want in [-1, 1]", c.ResignThreshold)
	case c.ResignMoves < 0:
		return fmt.Errorf("selfplay: resign moves %d, want >= 0", c.ResignMoves)
	case c.ResignOffShare < 0 || c.ResignOffShare > 1:
		return fmt.Errorf("selfplay: resign-off share %g, want in [0, 1]", c.ResignOffShare)
	case c.FlushGames < 1:
		return fmt.Errorf("selfplay: flush games %d, want >= 1", c.FlushGames)
	}
	if err := c.Search.Validate(); err != nil {
		return fmt.Errorf("selfplay: search: %w", err)
	}
	return nil
}
