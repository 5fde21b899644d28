package setup

import (
	"fmt"
	"os"
	"strconv"

	"bomberzero/engine"
	"bomberzero/internal/keys"
	"bomberzero/match"
	"bomberzero/selfplay"
	"bomberzero/selfplay/teacher"
)

// TeacherConfig is the search-teacher warm start: when Enabled,
// generation 0 is Games games of a search teacher (package teacher: an
// alpha-beta player on material, or the engine) instead of
// selfplay.first_model's, and its training may take TrainSteps steps
// instead of train.max_steps (the sampling ratio still caps them).
type TeacherConfig struct {
	// Enabled makes generation 0 the teacher's games.
	Enabled bool `toml:"enabled"`
	// Games is the number of teacher games.
	Games int `toml:"games"`
	// Player is the teacher: "alphabeta" (alphabeta:Depth; "" means it
	// too, as in a run made before the key) or "engine" (package engine
	// at Nodes nodes a move).
	Player string `toml:"player"`
	// Depth is the alpha-beta teacher's search depth in plies (1 to
	// match.MaxDepth).
	Depth int `toml:"depth"`
	// Nodes is the engine teacher's node limit a move.
	Nodes int `toml:"nodes"`
	// Eval is the engine teacher's evaluation: "" the classical one, or a
	// learned net file (engine/nnue).
	Eval string `toml:"eval"`
	// MultiPV is the number of best lines the engine teacher scores at
	// each position: the softmax policy target spreads over them, and the
	// move played is drawn among those within Margin of the best.
	MultiPV int `toml:"multipv"`
	// Margin is how many centipawns below the best line a line of the
	// engine teacher may score and still be played (0: the best).
	Margin int `toml:"margin"`
	// ValueMix replaces train.value_mix in generation 0 when the engine
	// teaches: its value target is (1-ValueMix) × the game's result +
	// ValueMix × the engine's score as the value column holds it
	// (ValueScale). The alpha-beta teacher's generation 0 keeps
	// train.value_mix.
	ValueMix float64 `toml:"value_mix"`
	// MaxPlies ends a teacher game as a draw at this length; it must leave
	// the teacher plies to play after RandomPlies.
	MaxPlies int `toml:"max_plies"`
	// RandomPlies is the number of random opening plies of every game (not
	// trained on), so that the games differ.
	RandomPlies int `toml:"random_plies"`
	// Policy is the policy target: "played" (the teacher's move) or
	// "softmax" (over the teacher's scores of every root move).
	Policy string `toml:"policy"`
	// Temperature is the softmax temperature in pawns.
	Temperature float64 `toml:"temperature"`
	// ValueScale, above 0, stores the teacher's own score of each position
	// in the value column as tanh(ValueScale × pawns) (±1 for a mate it
	// sees), the search value train.value_mix blends into the value
	// target; 0 stores the game's result there.
	ValueScale float64 `toml:"value_scale"`
	// TrainSteps replaces train.max_steps in generation 0 (0: keep it), so
	// that the first network can learn the teacher's games for several
	// passes before it plays. With two rounds (FirstGames) it is the
	// steps of both together.
	TrainSteps int `toml:"train_steps"`
	// FirstGames, between 1 and Games-1, splits the teacher phase in two
	// rounds, so that a playable first model comes early: generation 0
	// plays FirstGames teacher games and trains FirstSteps steps on them
	// (its checkpoint gen-0001 is the first model), generation 1 plays the
	// other Games-FirstGames and trains the rest of TrainSteps on the whole
	// window (RoundCount shares them among more rounds); self-play starts
	// after the last round. 0, or Games or more: one round (generation 0
	// alone), as in a run made before the key.
	FirstGames int `toml:"first_games"`
	// FirstSteps is the first round's training steps (1 to TrainSteps;
	// used only with two rounds or more).
	FirstSteps int `toml:"first_steps"`
	// RoundCount, 2 or more, plays the teacher's games in that many
	// generations, each ending in a checkpoint, so that a long teacher
	// phase (Fairy-Stockfish's many positions) shows its learning as it
	// goes: the first round is FirstGames games and FirstSteps steps when
	// FirstGames splits the games, else an even share of both; the other
	// rounds share the rest evenly, each training on the whole window. 0:
	// two rounds when FirstGames splits the games, else one (a run made
	// before the key); 1: one round.
	RoundCount int `toml:"rounds"`
}

// MaxTeacherRounds bounds teacher.rounds.
const MaxTeacherRounds = 10_000

// Rounds is the number of generations the teacher plays: 0 when it is
// off, RoundCount when set, else 2 when FirstGames splits its games and 1
// when it does not.
func (c TeacherConfig) Rounds() int {
	switch {
	case !c.Enabled:
		return 0
	case c.RoundCount > 0:
		return c.RoundCount
	case c.split():
		return 2
	}
	return 1
}

// split reports whether FirstGames splits the teacher's games.
func (c TeacherConfig) split() bool { return c.FirstGames > 0 && c.FirstGames < c.Games }

// firstApart reports whether the first round is FirstGames and
// FirstSteps, the other rounds sharing the rest.
func (c TeacherConfig) firstApart() bool { return c.split() && c.Rounds() >= 2 }

// Teaches reports whether the teacher plays generation gen.
func (c TeacherConfig) Teaches(gen int) bool { return gen >= 0 && gen < c.Rounds() }

// GamesIn is the number of teacher games of generation gen (0 when the
// teacher does not play it).
func (c TeacherConfig) GamesIn(gen int) int {
	if !c.Teaches(gen) {
		return 0
	}
	return c.roundShare(gen, c.Games, c.FirstGames)
}

// StepsIn is the train.max_steps of teacher generation gen: the round's
// share of TrainSteps (0: keep train.max_steps).
func (c TeacherConfig) StepsIn(gen int) int {
	switch {
	case !c.Teaches(gen):
		return 0
	case gen == 0 && c.firstApart():
		return c.FirstSteps
	case c.TrainSteps == 0:
		return 0
	}
	// A later round may have no steps left (FirstSteps = TrainSteps): at
	// least one keeps it from meaning "train.max_steps".
	return max(1, c.roundShare(gen, c.TrainSteps, c.FirstSteps))
}

// roundShare is round gen's part of total, first being the first round's
// when FirstGames splits the games: the first round takes first (or an
// even share), the others share the rest evenly, the earlier ones one more
// where it does not divide.
func (c TeacherConfig) roundShare(gen, total, first int) int {
	rounds := c.Rounds()
	if !c.firstApart() {
		return total/rounds + boolInt(gen < total%rounds)
	}
	if gen == 0 {
		return first
	}
	rest, later := max(total-first, 0), rounds-1
	return rest/later + boolInt(gen-1 < rest%later)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// validateRounds checks that teacher.rounds fits the games it shares:
// one round cannot keep a first round apart, and every round needs a game.
func (c TeacherConfig) validateRounds() error {
	switch games := c.Games; {
	case c.RoundCount == 1 && c.split():
		return &keys.KeyError{Key: "teacher.rounds", Value: "1", Want: fmt.Sprintf(
			"2 or more, or 0, with teacher.first_games = %d splitting teacher.games = %d into rounds (or first_games 0 for one round)", c.FirstGames, games)}
	case c.split() && games-c.FirstGames < c.RoundCount-1:
		return &keys.KeyError{Key: "teacher.rounds", Value: strconv.Itoa(c.RoundCount), Want: fmt.Sprintf(
			"at most %d: each round after the first needs one of the %d games teacher.first_games = %d leaves", games-c.FirstGames+1, games-c.FirstGames, c.FirstGames)}
	case !c.split() && games < c.RoundCount:
		return &keys.KeyError{Key: "teacher.rounds", Value: strconv.Itoa(c.RoundCount), Want: fmt.Sprintf(
			"at most teacher.games = %d: each round needs a game", games)}
	}
	return nil
}

// teacherMinPlies is the fewest plies a teacher game must leave the
// teacher after its random opening: fewer cannot reach a mate from the
// start position of any variant, so every game would be a capped draw.
const teacherMinPlies = 20

// MaxTeacherGames bounds teacher.games.
const MaxTeacherGames = 10_000_000

// MaxTeacherNodes bounds teacher.nodes: a hundred million nodes a move
// is minutes of CPU.
const MaxTeacherNodes = 100_000_000

// isEngine reports whether the engine teaches.
func (c TeacherConfig) isEngine() bool { return c.Player == teacher.PlayerEngine }

// TrainValueMix is generation 0's value_mix when train.value_mix is
// trainMix: ValueMix when the engine teaches, else trainMix.
func (c TeacherConfig) TrainValueMix(trainMix float64) float64 {
	if c.Enabled && c.isEngine() {
		return c.ValueMix
	}
	return trainMix
}

// validate reports the first teacher setting out of range, naming its key.
// A config without a [teacher] table (a run made before there was one) is
// disabled and valid.
func (c TeacherConfig) validate() error {
	// Off, a table may keep zeros (a config written before the teacher
	// existed has none of these keys).
	least := 0
	if c.Enabled {
		least = 1
	}
	errs := []error{
		keys.IntIn("teacher.games", c.Games, least, MaxTeacherGames),
		keys.IntIn("teacher.depth", c.Depth, least, match.MaxDepth),
		keys.IntIn("teacher.train_steps", c.TrainSteps, 0, MaxSteps),
		keys.FloatIn("teacher.value_scale", c.ValueScale, 0, teacher.MaxValueScale),
		keys.IntIn("teacher.margin", c.Margin, 0, teacher.MaxMargin),
		keys.FloatIn("teacher.value_mix", c.ValueMix, 0, 1),
		keys.IntIn("teacher.first_games", c.FirstGames, 0, MaxTeacherGames),
		keys.IntIn("teacher.first_steps", c.FirstSteps, 0, MaxSteps),
	}
	errs = append(errs, keys.IntIn("teacher.rounds", c.RoundCount, 0, MaxTeacherRounds))
	if c.Enabled && c.firstApart() {
		most := MaxSteps
		if c.TrainSteps > 0 {
			most = c.TrainSteps // the rounds share teacher.train_steps
		}
		errs = append(errs, keys.IntIn("teacher.first_steps", c.FirstSteps, 1, most))
	}
	if c.Enabled && c.RoundCount > 0 {
		errs = append(errs, c.validateRounds())
	}
	if c.Player != "" && c.Player != teacher.PlayerAlphaBeta && c.Player != teacher.PlayerEngine {
		errs = append(errs, fmt.Errorf("teacher.player = %q: want %q or %q", c.Player, teacher.PlayerAlphaBeta, teacher.PlayerEngine))
	}
	// The engine's keys are zero in a run made before them; they must make
	// sense once the engine teaches.
	leastEngine := 0
	if c.Enabled && c.isEngine() {
		leastEngine = 1
	}
	errs = append(errs,
		keys.IntIn("teacher.nodes", c.Nodes, leastEngine, MaxTeacherNodes),
		keys.IntIn("teacher.multipv", c.MultiPV, leastEngine, engine.MaxMultiPV))
	switch {
	case c.Eval != "" && !c.isEngine():
		errs = append(errs, &keys.KeyError{Key: "teacher.eval", Value: strconv.Quote(c.Eval),
			Want: `"" with teacher.player = "alphabeta" (a net file is the engine's evaluation)`})
	case c.Eval != "" && c.Enabled:
		if _, err := os.Stat(c.Eval); err != nil {
			errs = append(errs, &keys.KeyError{Key: "teacher.eval", Value: strconv.Quote(c.Eval),
				Want: fmt.Sprintf("a learned net file (engine/nnue), or \"\" for the classical evaluation: %v", err)})
		}
	}
	if c.Enabled && c.isEngine() && c.ValueMix > 0 && c.ValueScale == 0 {
		errs = append(errs, &keys.KeyError{Key: "teacher.value_mix", Value: strconv.FormatFloat(c.ValueMix, 'g', -1, 64),
			Want: "0 while teacher.value_scale is 0 (the value column then holds the result: there is no engine score to blend)"})
	}
	if c.Enabled {
		errs = append(errs,
			keys.IntIn("teacher.max_plies", c.MaxPlies, c.RandomPlies+teacherMinPlies, selfplay.MaxMaxPlies),
			keys.IntIn("teacher.random_plies", c.RandomPlies, 0, c.MaxPlies-teacherMinPlies),
			keys.FloatAbove("teacher.temperature", c.Temperature, 0, 100))
		if c.Policy != teacher.PolicyPlayed && c.Policy != teacher.PolicySoftmax {
			errs = append(errs, fmt.Errorf("teacher.policy = %q: want %q or %q", c.Policy, teacher.PolicyPlayed, teacher.PolicySoftmax))
		}
	} else {
		errs = append(errs,
			keys.IntIn("teacher.max_plies", c.MaxPlies, 0, selfplay.MaxMaxPlies),
			keys.IntIn("teacher.random_plies", c.RandomPlies, 0, selfplay.MaxMaxPlies),
			keys.FloatIn("teacher.temperature", c.Temperature, 0, 100))
	}
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("train: config: %w", err)
		}
	}
	return nil
}

// Settings returns the package teacher settings of n games of generation
// gen in variant that this table describes; the caller sets where they
// go, how they are written and their seed.
func (c TeacherConfig) Settings(variant string, gen, n int) teacher.Config {
	return teacher.Config{Variant: variant, Player: c.Player, Depth: c.Depth, Nodes: int64(c.Nodes), Eval: c.Eval,
		MultiPV: c.MultiPV, Margin: int32(c.Margin), Games: n, MaxPlies: c.MaxPlies, RandomPlies: c.RandomPlies,
		Policy: c.Policy, Temperature: c.Temperature, ValueScale: c.ValueScale, Generation: gen}
}
