package teacher

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"time"

	"bomberzero/datasets"
	"bomberzero/engine"
	"bomberzero/match"
)

// The teachers a Config can name.
const (
	// PlayerAlphaBeta is match.AlphaBeta at Config.Depth: a material
	// searcher, the default.
	PlayerAlphaBeta = "alphabeta"
	// PlayerEngine is package engine at Config.Nodes nodes a move, one
	// thread, Config.MultiPV lines.
	PlayerEngine = "engine"
)

// EngineHashMB is the transposition table of each engine teacher game (one
// engine per game in progress, so per worker): ample for the node limits
// a teacher searches, small enough for many workers.
const EngineHashMB = 4

// MaxMargin bounds Config.Margin (centipawns).
const MaxMargin = 1000

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
	// Player is the teacher: PlayerAlphaBeta ("" means it too, as in a
	// config made before there was a choice) or PlayerEngine.
	Player string
	// Depth is the alpha-beta teacher's search depth in plies (1 to
	// match.MaxDepth).
	Depth int
	// Nodes is the engine teacher's node limit a move (1 to
	// engine.MaxNodes); with one thread its searches are deterministic.
	Nodes int64
	// Eval is the engine teacher's evaluation: "" the classical one, or
	// the path of a learned net file (engine/nnue, as eval=FILE of an
	// engine spec).
	Eval string
	// MultiPV is the number of best lines the engine teacher scores at
	// every position (1 to engine.MaxMultiPV): the softmax policy target
	// spreads over them, and the move played is drawn among those within
	// Margin of the best.
	MultiPV int
	// Margin is how many centipawns below the best line a line of the
	// engine teacher may score and still be played (0 to MaxMargin; 0
	// plays the best line, or one of equal score). A move is drawn
	// uniformly among such lines, for diversity; when the best line is a
	// forced game end only lines of that exact score are.
	Margin int32
	// Games is the number of games to finish.
	Games int
	// MaxPlies ends a game as a draw (env.LengthCap) once this many plies
	// have been played; it must exceed RandomPlies.
	MaxPlies int
	// RandomPlies is the number of uniformly random opening plies before
	// the teacher plays (so games differ); those positions are not
	// recorded. A game the random plies end is replayed with another draw.
	RandomPlies int
	// Policy is PolicyPlayed or PolicySoftmax. With the engine, "played"
	// is its best move (which the Margin draw may pass over) and the
	// softmax spreads over its MultiPV lines.
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
	// teacher's tie-breaks from (Seed, k) alone, whichever worker plays it,
	// and its ID is selfplay.GameID(Seed, k).
	Seed uint64
	// SkipGames are game numbers not to play: a resumed run's games already
	// on disk. The run plays Games games, numbered from 0, leaving these
	// out, so that a resume plays the very games an uninterrupted run
	// plays.
	SkipGames map[int]bool
}

// DefaultConfig returns the defaults for variant: alphabeta:2 at a 400-ply
// cap after 8 random plies, the played move as the policy target (at depth
// 2 a softmax target costs 5-7 times the CPU per position:
// docs/training.md), and half a pawn should softmax be chosen. Should
// the engine be chosen: 2,000 nodes, 4 lines, a move drawn among those
// within 20 centipawns of the best.
func DefaultConfig(variant string) Config {
	return Config{Variant: variant, Player: PlayerAlphaBeta, Depth: 2, Nodes: 2000, MultiPV: 4, Margin: 20,
		Games: 64, MaxPlies: 400, RandomPlies: 8,
		Policy: PolicyPlayed, Temperature: 0.5, Out: "teacher-data", FlushGames: 16, FlushEvery: 10 * time.Second, Seed: 1}
}

// isEngine reports whether the teacher is the engine.
func (c *Config) isEngine() bool { return c.Player == PlayerEngine }

// Validate reports the first setting out of range, naming its field.
func (c *Config) Validate() error {
	switch {
	case c.Variant == "":
		return fmt.Errorf("teacher: no variant given")
	case c.Player != "" && c.Player != PlayerAlphaBeta && c.Player != PlayerEngine:
		return fmt.Errorf("teacher: Player %q, want %q or %q", c.Player, PlayerAlphaBeta, PlayerEngine)
	case !c.isEngine() && (c.Depth < 1 || c.Depth > match.MaxDepth):
		return fmt.Errorf("teacher: Depth %d, want 1 to %d", c.Depth, match.MaxDepth)
	case c.isEngine() && (c.Nodes < 1 || c.Nodes > engine.MaxNodes):
		return fmt.Errorf("teacher: Nodes %d, want 1 to %d", c.Nodes, engine.MaxNodes)
	case c.isEngine() && (c.MultiPV < 1 || c.MultiPV > engine.MaxMultiPV):
		return fmt.Errorf("teacher: MultiPV %d, want 1 to %d", c.MultiPV, engine.MaxMultiPV)
	case c.isEngine() && (c.Margin < 0 || c.Margin > MaxMargin):
		return fmt.Errorf("teacher: Margin %d, want 0 to %d centipawns", c.Margin, MaxMargin)
	case !c.isEngine() && c.Eval != "":
		return fmt.Errorf("teacher: Eval %q is the engine teacher's; the alpha-beta teacher counts material", c.Eval)
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

// Name names the teacher as a player: "alphabeta:D", or
// "engine:nodes=N" with ":eval=BASE" (the net file's base name) for a
// learned evaluation.
func (c *Config) Name() string {
	if !c.isEngine() {
		return fmt.Sprintf("alphabeta:%d", c.Depth)
	}
	name := fmt.Sprintf("engine:nodes=%d", c.Nodes)
	if c.Eval != "" {
		name += ":eval=" + filepath.Base(c.Eval)
	}
	return name
}

// Model returns the model column of the games: datasets.TeacherPrefix
// and Name, as "teacher:alphabeta:2" or "teacher:engine:nodes=2000".
func (c *Config) Model() string { return datasets.TeacherPrefix + c.Name() }

// minWeight is the smallest softmax weight (relative to the best move's)
// a policy target keeps; the teacher's root search scores exactly only the
// moves that can reach it.
const minWeight = 1e-3

// margin is the RootScores margin in centipawns beyond which a move's
// softmax weight is under minWeight.
func (c *Config) margin() int32 {
	return int32(math.Ceil(c.Temperature * 100 * math.Log(1/minWeight)))
}
