package setup

import (
	"fmt"

	"bomberzero/internal/keys"
	"bomberzero/match"
	"bomberzero/selfplay"
	"bomberzero/selfplay/teacher"
)

// TeacherConfig is the search-teacher warm start: when Enabled,
// generation 0 is Games games of an alpha-beta teacher (package teacher)
// instead of selfplay.first_model's, and its training may take TrainSteps
// steps instead of train.max_steps (the sampling ratio still caps them).
type TeacherConfig struct {
	// Enabled makes generation 0 the teacher's games.
	Enabled bool `toml:"enabled"`
	// Games is the number of teacher games.
	Games int `toml:"games"`
	// Depth is the teacher's search depth in plies (1 to match.MaxDepth).
	Depth int `toml:"depth"`
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
	// passes before it plays.
	TrainSteps int `toml:"train_steps"`
}

// teacherMinPlies is the fewest plies a teacher game must leave the
// teacher after its random opening: fewer cannot reach a mate from the
// start position of any variant, so every game would be a capped draw.
const teacherMinPlies = 20

// MaxTeacherGames bounds teacher.games.
const MaxTeacherGames = 10_000_000

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
	return teacher.Config{Variant: variant, Depth: c.Depth, Games: n, MaxPlies: c.MaxPlies, RandomPlies: c.RandomPlies,
		Policy: c.Policy, Temperature: c.Temperature, ValueScale: c.ValueScale, Generation: gen}
}
