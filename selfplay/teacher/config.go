package teacher

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"bomberzero/datasets"
	"bomberzero/match"
)

// The policy targets a teacher can write.
const (
	// PolicyPlayed makes the move the teacher played the whole policy
	// target.
	PolicyPlayed = "played"
	// PolicySoftmax spreads the policy target over the root moves by a
	// softmax of the teacher's scores at Config.Temperature pawns.
	PolicySoftmax = "softmax"
)

// Config is one batch of teacher games. DefaultConfig fills in the
// defaults.
type Config struct {
	// Variant is the variant name with options, or a variant file path.
	Variant string
	// Depth is the alpha-beta teacher's search depth in plies (1 to
	// match.MaxDepth).
	Depth int
	// Games is the number of games to finish.
	Games int
	// MaxPlies ends a game as a draw (env.LengthCap) once this many plies
	// have been played; it must exceed RandomPlies.
	MaxPlies int
	// RandomPlies is the number of uniformly random opening plies before
	// the teacher plays (so games differ); those positions are not
	// recorded. A game the random plies end is replayed with another draw.
	RandomPlies int
	// Policy is PolicyPlayed or PolicySoftmax.
	Policy string
	// Temperature is the softmax temperature in pawns (PolicySoftmax): a
	// move one Temperature worse than the best gets e^-1 of its weight.
	Temperature float64
	// ValueScale, when above 0, makes each position's value column the
	// teacher's own score of it, tanh(ValueScale × pawns) for the side to
	// move (±1 for a mate the search sees); 0 keeps the game's result
	// there. The value head's target stays the result unless the trainer's
	// value_mix blends this search value in.
	ValueScale float64
	// Generation is the training generation the games belong to (recorded).
	Generation int
	// Out is the directory that receives the chunks; game records go to
	// its "records" subdirectory.
	Out string
	// Workers is the number of goroutines playing games (0: one per core).
	Workers int
	// FlushGames is the number of finished games a worker buffers before it
	// writes them as one chunk; a worker also writes its buffer once it is
	// FlushEvery old. Games count as finished only once written, so a kill
	// loses the games buffered and in progress, never part of a game.
	FlushGames int
	FlushEvery time.Duration
	// Writer identifies the run in its chunks' writer metadata (worker n
	// writes as Writer-wn, as self-play's workers do), so that a caller can
	// tell its chunks from others' by identity; "" means host-pid.
	Writer string
	// Seed seeds the games: game k of a run draws its random plies and the
	// teacher's tie-breaks from (Seed, k) alone, whichever worker plays it.
	Seed uint64
}

// DefaultConfig returns the defaults for variant: alphabeta:2 at a 400-ply
// cap after 8 random plies, the played move as the policy target (at depth
// 2 a softmax target costs 5-7 times the CPU per position:
// docs/training.md), and half a pawn should softmax be chosen.
func DefaultConfig(variant string) Config {
	return Config{Variant: variant, Depth: 2, Games: 64, MaxPlies: 400, RandomPlies: 8,
		Policy: PolicyPlayed, Temperature: 0.5, Out: "teacher-data", FlushGames: 16, FlushEvery: 10 * time.Second, Seed: 1}
}

// Validate reports the first setting out of range, naming its field.
func (c *Config) Validate() error {
	switch {
	case c.Variant == "":
		return fmt.Errorf("teacher: no variant given")
	case c.Depth < 1 || c.Depth > match.MaxDepth:
		return fmt.Errorf("teacher: Depth %d, want 1 to %d", c.Depth, match.MaxDepth)
	case c.Games < 1:
		return fmt.Errorf("teacher: Games %d, want >= 1", c.Games)
	case c.RandomPlies < 0:
		return fmt.Errorf("teacher: RandomPlies %d, want >= 0", c.RandomPlies)
	case c.MaxPlies <= c.RandomPlies:
		return fmt.Errorf("teacher: MaxPlies %d, want more than RandomPlies (%d), or the teacher never plays", c.MaxPlies, c.RandomPlies)
	case c.Policy != PolicyPlayed && c.Policy != PolicySoftmax:
		return fmt.Errorf("teacher: Policy %q, want %q or %q", c.Policy, PolicyPlayed, PolicySoftmax)
	case !(c.Temperature > 0 && c.Temperature <= 100):
		return fmt.Errorf("teacher: Temperature %g, want a number of pawns in (0, 100]", c.Temperature)
	case !(c.ValueScale >= 0 && c.ValueScale <= MaxValueScale):
		return fmt.Errorf("teacher: ValueScale %g, want 0 (the result) or a value per pawn in (0, %g]", c.ValueScale, float64(MaxValueScale))
	case c.Generation < 0:
		return fmt.Errorf("teacher: Generation %d, want >= 0", c.Generation)
	case c.Out == "":
		return fmt.Errorf("teacher: no output directory given")
	case c.Workers < 0:
		return fmt.Errorf("teacher: Workers %d, want >= 0 (0: one per core)", c.Workers)
	case c.FlushGames < 1:
		return fmt.Errorf("teacher: FlushGames %d, want >= 1", c.FlushGames)
	case c.FlushEvery < 0:
		return fmt.Errorf("teacher: FlushEvery %v, want >= 0", c.FlushEvery)
	}
	return nil
}

// MaxValueScale bounds Config.ValueScale: at 10 a pawn is already worth
// tanh(10) of a win.
const MaxValueScale = 10

// workers is Workers, or one per core.
func (c *Config) workers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return max(1, runtime.GOMAXPROCS(0))
}

// Model returns the model column of the games: "teacher:alphabeta:D".
func (c *Config) Model() string {
	return fmt.Sprintf("%salphabeta:%d", datasets.TeacherPrefix, c.Depth)
}

// minWeight is the smallest softmax weight (relative to the best move's)
// a policy target keeps; the teacher's root search scores exactly only the
// moves that can reach it.
const minWeight = 1e-3

// margin is the RootScores margin in centipawns beyond which a move's
// softmax weight is under minWeight.
func (c *Config) margin() int32 {
	return int32(math.Ceil(c.Temperature * 100 * math.Log(1/minWeight)))
}
