package setup

import (
	"math"
	"strings"
	"testing"

	"bomberzero/eval"
	"bomberzero/selfplay/teacher"
)

// teacherConfig is the embedded defaults with a depth-1 teacher playing
// generation 0.
func teacherConfig(t *testing.T) Config {
	t.Helper()
	c, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	c.Teacher = TeacherConfig{Enabled: true, Games: 8, Player: "alphabeta", Depth: 1, Nodes: 2000, MultiPV: 4, Margin: 20,
		MaxPlies: 40, RandomPlies: 4, Policy: "softmax", Temperature: 0.5, ValueScale: 0.1, ValueMix: 0.5}
	return c
}

func TestTeacherConfigRefusesBadSettingsNamingTheKey(t *testing.T) {
	for _, tc := range []struct {
		key  string
		edit func(*TeacherConfig)
	}{
		{"teacher.depth", func(c *TeacherConfig) { c.Depth = -1 }},
		{"teacher.depth", func(c *TeacherConfig) { c.Depth = 0 }},
		{"teacher.depth", func(c *TeacherConfig) { c.Depth = 9 }},
		{"teacher.games", func(c *TeacherConfig) { c.Games = 0 }},
		{"teacher.games", func(c *TeacherConfig) { c.Enabled, c.Games = false, -3 }},
		{"teacher.max_plies", func(c *TeacherConfig) { c.MaxPlies = 10 }},
		{"teacher.max_plies", func(c *TeacherConfig) { c.RandomPlies, c.MaxPlies = 30, 40 }},
		{"teacher.random_plies", func(c *TeacherConfig) { c.RandomPlies = -1 }},
		{"teacher.policy", func(c *TeacherConfig) { c.Policy = "visits" }},
		{"teacher.temperature", func(c *TeacherConfig) { c.Temperature = 0 }},
		{"teacher.train_steps", func(c *TeacherConfig) { c.TrainSteps = -1 }},
		{"teacher.value_scale", func(c *TeacherConfig) { c.ValueScale = -0.1 }},
		{"teacher.value_scale", func(c *TeacherConfig) { c.ValueScale = 11 }},
		{"teacher.player", func(c *TeacherConfig) { c.Player = "mcts" }},
		{"teacher.player", func(c *TeacherConfig) { c.Enabled, c.Player = false, "Engine" }},
		{"teacher.nodes", func(c *TeacherConfig) { c.Player, c.Nodes = "engine", 0 }},
		{"teacher.nodes", func(c *TeacherConfig) { c.Player, c.Nodes = "engine", MaxTeacherNodes+1 }},
		{"teacher.nodes", func(c *TeacherConfig) { c.Nodes = -1 }},
		{"teacher.multipv", func(c *TeacherConfig) { c.Player, c.MultiPV = "engine", 0 }},
		{"teacher.multipv", func(c *TeacherConfig) { c.Player, c.MultiPV = "engine", 257 }},
		{"teacher.margin", func(c *TeacherConfig) { c.Margin = -1 }},
		{"teacher.margin", func(c *TeacherConfig) { c.Margin = 1001 }},
		{"teacher.value_mix", func(c *TeacherConfig) { c.ValueMix = -0.5 }},
		{"teacher.value_mix", func(c *TeacherConfig) { c.ValueMix = 1.5 }},
		{"teacher.value_mix", func(c *TeacherConfig) { c.ValueMix = math.NaN() }},
		{"teacher.value_mix", func(c *TeacherConfig) { c.Player, c.ValueScale, c.ValueMix = "engine", 0, 0.5 }},
		{"teacher.eval", func(c *TeacherConfig) { c.Eval = "net.bin" }}, // the alpha-beta teacher has no net
		{"teacher.eval", func(c *TeacherConfig) { c.Player, c.Eval = "engine", "/no/such/net.bin" }},
		{"teacher.first_games", func(c *TeacherConfig) { c.FirstGames = -1 }},
		{"teacher.first_steps", func(c *TeacherConfig) { c.FirstSteps = -1 }},
		// Two rounds: the first must train, and within teacher.train_steps.
		{"teacher.first_steps", func(c *TeacherConfig) { c.FirstGames, c.FirstSteps, c.TrainSteps = 3, 0, 100 }},
		{"teacher.first_steps", func(c *TeacherConfig) { c.FirstGames, c.FirstSteps, c.TrainSteps = 3, 101, 100 }},
		// Rounds: in range, and each round with a game.
		{"teacher.rounds", func(c *TeacherConfig) { c.RoundCount = -1 }},
		{"teacher.rounds", func(c *TeacherConfig) { c.RoundCount = MaxTeacherRounds + 1 }},
		{"teacher.rounds", func(c *TeacherConfig) { c.Games, c.FirstGames, c.RoundCount = 10, 3, 1 }},
		{"teacher.rounds", func(c *TeacherConfig) {
			c.Games, c.FirstGames, c.FirstSteps, c.TrainSteps, c.RoundCount = 10, 3, 1, 100, 9
		}},
		{"teacher.rounds", func(c *TeacherConfig) { c.Games, c.FirstGames, c.RoundCount = 10, 0, 11 }},
	} {
		c := teacherConfig(t)
		tc.edit(&c.Teacher)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s: Validate() = %v, want an error naming it", tc.key, err)
		}
	}
	c := teacherConfig(t)
	c.Teacher = TeacherConfig{} // a run made before the teacher existed
	if err := c.Validate(); err != nil {
		t.Errorf("no [teacher] table: %v", err)
	}
	// A run made before the engine teacher: no player, nodes, multipv,
	// margin or value_mix.
	c = teacherConfig(t)
	c.Teacher.Player, c.Teacher.Nodes, c.Teacher.MultiPV, c.Teacher.Margin, c.Teacher.ValueMix = "", 0, 0, 0, 0
	if err := c.Validate(); err != nil {
		t.Errorf("a [teacher] table without the engine's keys: %v", err)
	}
	c = teacherConfig(t)
	c.Teacher.Player = "engine"
	if err := c.Validate(); err != nil {
		t.Errorf("the engine teacher at the defaults: %v", err)
	}
	for _, variant := range []string{"fbgc", "fbgc-superpower", "chess"} {
		d, err := DefaultConfig(variant)
		if err != nil || !d.Teacher.Enabled {
			t.Errorf("%s: the embedded defaults %v, teacher %+v; want the teacher on", variant, err, d.Teacher)
		}
	}
}

// TestTeacherRoundsSplitGamesAndSteps checks which generations the
// teacher plays and what each of them plays and trains.
func TestTeacherRoundsSplitGamesAndSteps(t *testing.T) {
	on := teacherConfig(t).Teacher
	on.Games, on.TrainSteps, on.FirstGames, on.FirstSteps = 8000, 12000, 1000, 2000
	type round struct{ games, steps int }
	for _, tc := range []struct {
		name string
		edit func(*TeacherConfig)
		want []round // generations 0, 1, 2
	}{
		{"two rounds", func(*TeacherConfig) {}, []round{{1000, 2000}, {7000, 10000}, {0, 0}}},
		{"no first round (a run made before the key)", func(c *TeacherConfig) { c.FirstGames, c.FirstSteps = 0, 0 }, []round{{8000, 12000}, {0, 0}, {0, 0}}},
		{"a first round of every game is the only one", func(c *TeacherConfig) { c.FirstGames = 8000 }, []round{{8000, 12000}, {0, 0}, {0, 0}}},
		{"the first round takes every step", func(c *TeacherConfig) { c.FirstSteps = 12000 }, []round{{1000, 12000}, {7000, 1}, {0, 0}}},
		{"train_steps 0: the second round keeps train.max_steps", func(c *TeacherConfig) { c.TrainSteps = 0 }, []round{{1000, 2000}, {7000, 0}, {0, 0}}},
		{"off", func(c *TeacherConfig) { c.Enabled = false }, []round{{0, 0}, {0, 0}, {0, 0}}},
		{"rounds 0 is the default: two", func(c *TeacherConfig) { c.RoundCount = 0 }, []round{{1000, 2000}, {7000, 10000}, {0, 0}}},
		{"rounds 2 as the default", func(c *TeacherConfig) { c.RoundCount = 2 }, []round{{1000, 2000}, {7000, 10000}, {0, 0}}},
		{"three rounds: the first apart, two share the rest", func(c *TeacherConfig) { c.RoundCount = 3 },
			[]round{{1000, 2000}, {3500, 5000}, {3500, 5000}, {0, 0}}},
		{"four rounds, shares that do not divide", func(c *TeacherConfig) { c.Games, c.TrainSteps, c.RoundCount = 8002, 12001, 4 },
			[]round{{1000, 2000}, {2334, 3334}, {2334, 3334}, {2334, 3333}, {0, 0}}},
		{"three even rounds without a first round apart", func(c *TeacherConfig) { c.FirstGames, c.FirstSteps, c.RoundCount = 0, 0, 3 },
			[]round{{2667, 4000}, {2667, 4000}, {2666, 4000}, {0, 0}}},
		{"one round asked", func(c *TeacherConfig) { c.FirstGames, c.FirstSteps, c.RoundCount = 0, 0, 1 }, []round{{8000, 12000}, {0, 0}}},
		{"rounds with train_steps 0: the first round's steps, then train.max_steps", func(c *TeacherConfig) { c.TrainSteps, c.RoundCount = 0, 3 },
			[]round{{1000, 2000}, {3500, 0}, {3500, 0}, {0, 0}}},
	} {
		c := on
		tc.edit(&c)
		if err := c.validate(); err != nil && c.Enabled {
			t.Errorf("%s: %v", tc.name, err)
		}
		rounds := 0
		for gen, want := range tc.want {
			got := round{c.GamesIn(gen), c.StepsIn(gen)}
			if got != want {
				t.Errorf("%s: generation %d plays and trains %+v, want %+v", tc.name, gen, got, want)
			}
			if c.Teaches(gen) != (want.games > 0) {
				t.Errorf("%s: Teaches(%d) = %v with %d games", tc.name, gen, c.Teaches(gen), want.games)
			}
			if want.games > 0 {
				rounds++
			}
		}
		if c.Rounds() != rounds {
			t.Errorf("%s: Rounds() = %d, want %d", tc.name, c.Rounds(), rounds)
		}
		if c.Enabled {
			games := 0
			for gen := range c.Rounds() {
				games += c.GamesIn(gen)
			}
			if games != c.Games {
				t.Errorf("%s: the rounds play %d games, want teacher.games = %d", tc.name, games, c.Games)
			}
		}
	}
}

// TestEngineTeacherSettingsReachTheTeacher checks what the keys become:
// the engine teacher's settings, generation 0's value_mix, and the memory
// of its tables.
func TestEngineTeacherSettingsReachTheTeacher(t *testing.T) {
	c := teacherConfig(t)
	if got := c.Teacher.TrainValueMix(0.25); got != 0.25 {
		t.Errorf("alphabeta teacher: generation 0's value_mix %v, want train.value_mix 0.25", got)
	}
	off := c.MemoryBytes(eval.Shape{Height: 10, Width: 10, Channels: 40, PolicySize: 5000})
	c.Teacher.Player, c.Teacher.Nodes, c.Teacher.MultiPV, c.Teacher.Margin = "engine", 300, 3, 15
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := c.Teacher.TrainValueMix(0.25); got != 0.5 {
		t.Errorf("engine teacher: generation 0's value_mix %v, want teacher.value_mix 0.5", got)
	}
	s := c.Teacher.Settings("fbgc", 0, 5)
	if s.Player != teacher.PlayerEngine || s.Nodes != 300 || s.MultiPV != 3 || s.Margin != 15 || s.Eval != "" || s.Games != 5 {
		t.Errorf("settings %+v", s)
	}
	if s.Model() != "teacher:engine:nodes=300" {
		t.Errorf("model %q", s.Model())
	}
	on := c.MemoryBytes(eval.Shape{Height: 10, Width: 10, Channels: 40, PolicySize: 5000})
	want := float64(c.SelfPlay.WorkerCount()) * teacher.EngineHashMB * (1 << 20)
	if off.Teacher != 0 || on.Teacher != want {
		t.Errorf("teacher memory %v with alphabeta, %v with the engine; want 0 and %v", off.Teacher, on.Teacher, want)
	}
}
