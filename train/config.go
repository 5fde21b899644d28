package train

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"bomberzero/agent"
	"bomberzero/configs"
	"bomberzero/mcts"
	"bomberzero/nn"
	"bomberzero/selfplay"
)

// Config is everything a training run is made of, as written to its
// config.toml. One name per knob from the file to the metrics.
type Config struct {
	// Variant is the variant name with options, or a variant file path.
	Variant string `toml:"variant"`
	// Seed seeds the network, self-play, training batches and matches.
	Seed uint64 `toml:"seed"`
	// Generations stops the run after this many generations (0: only the
	// budget stops it).
	Generations int `toml:"generations"`

	Net      NetConfig      `toml:"net"`
	SelfPlay SelfPlayConfig `toml:"selfplay"`
	Train    TrainConfig    `toml:"train"`
	Eval     EvalConfig     `toml:"eval"`
	Teacher  TeacherConfig  `toml:"teacher"`
}

// NetConfig is the network's tower and heads (its input and policy shapes
// come from the variant).
type NetConfig struct {
	Blocks        int `toml:"blocks"`
	Filters       int `toml:"filters"`
	PolicyFilters int `toml:"policy_filters"`
	ValueFilters  int `toml:"value_filters"`
	ValueHidden   int `toml:"value_hidden"`
}

// SelfPlayConfig is one generation's self-play: the self-play settings of
// package selfplay (games per generation, workers, slots, the length cap,
// resignation and every search knob of mcts.Config, all keys of this table)
// and what plays generation 0.
type SelfPlayConfig struct {
	selfplay.Settings
	// FirstGames, when positive, replaces Games in generation 0 (the
	// network-free first model plays fast, so it can seed more data).
	FirstGames int `toml:"first_games"`
	// FirstModel is what plays generation 0: a network-free model spec of
	// package agent ("material", "uniform", "rollout") or "net" (the
	// randomly initialised network).
	FirstModel string `toml:"first_model"`
}

// TrainConfig is one generation's training.
type TrainConfig struct {
	Batch int `toml:"batch"`
	// Window is the number of newest positions sampled from.
	Window int `toml:"window"`
	// SampleRatio caps the samples drawn over the run at SampleRatio per
	// position that ever arrived, so no data is re-trained on more than
	// that on average.
	SampleRatio float64 `toml:"sample_ratio"`
	// MaxSteps caps the steps of one generation.
	MaxSteps int `toml:"max_steps"`
	// MinPositions is the positions the data must hold before training.
	MinPositions int `toml:"min_positions"`
	// CheckpointSteps saves the trainer (and the run's state) every this
	// many steps, bounding what a kill loses.
	CheckpointSteps int     `toml:"checkpoint_steps"`
	Optimizer       string  `toml:"optimizer"`
	LearningRate    float64 `toml:"learning_rate"`
	Momentum        float64 `toml:"momentum"`
	L2              float64 `toml:"l2"`
	// ValueMix blends the search value into the value target:
	// target = (1-ValueMix)*result + ValueMix*search value.
	ValueMix float64 `toml:"value_mix"`
	// MovesLeftWeight is the moves-left head's loss weight (0: the head is
	// not trained); nn.DefaultMovesLeftWeight when the file does not set it.
	MovesLeftWeight float64 `toml:"moves_left_weight"`
	// Threads is the BLAS threads one product may use.
	Threads int `toml:"threads"`
}

// EvalConfig is the matches each new model plays.
type EvalConfig struct {
	// Games is the games against each opponent (colours alternate).
	Games int `toml:"games"`
	// Sims is the new model's playouts per move.
	Sims int `toml:"sims"`
	// Previous plays the previous generation's model too.
	Previous bool `toml:"previous"`
	// Baselines are match player specs ("random", "greedy", "alphabeta:1").
	Baselines []string `toml:"baselines"`
	MaxPlies  int      `toml:"max_plies"`
	Workers   int      `toml:"workers"`
}

// gamesIn returns the self-play games of generation gen.
func (c SelfPlayConfig) gamesIn(gen int) int {
	if gen == 0 && c.FirstGames > 0 {
		return c.FirstGames
	}
	return c.Games
}

// baseConfig is what a config file is read over when nothing else is: the
// search defaults of mcts.DefaultConfig for the search keys a file leaves
// out (a run's config.toml written before the search keys were in it
// leaves them all out), zero for the rest.
func baseConfig() Config {
	var c Config
	c.SelfPlay.Search = mcts.DefaultConfig()
	c.Train.MovesLeftWeight = nn.DefaultMovesLeftWeight
	return c
}

// DefaultConfig returns the embedded defaults for variant: the file
// configs/training/default.toml, then configs/training/<name>.toml over it
// when that variant has one (a file of only the keys it changes), with
// Variant set to variant.
func DefaultConfig(variant string) (Config, error) {
	tfs := configs.Training()
	data, err := fs.ReadFile(tfs, configs.DefaultTraining)
	if err != nil {
		return Config{}, fmt.Errorf("train: embedded defaults: %w", err)
	}
	c, err := parseConfig("embedded "+configs.DefaultTraining, data, baseConfig())
	if err != nil {
		return Config{}, err
	}
	own := baseName(variant) + ".toml"
	data, err = fs.ReadFile(tfs, own)
	switch {
	case err == nil:
		if c, err = parseConfig("embedded "+own, data, c); err != nil {
			return Config{}, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return Config{}, fmt.Errorf("train: embedded defaults for %q: %w", variant, err)
	}
	c.Variant = variant
	return c, c.Validate()
}

// baseName is the variant name before any "+option".
func baseName(variant string) string {
	for i := range len(variant) {
		if variant[i] == '+' {
			return variant[:i]
		}
	}
	return variant
}

// LoadConfig reads a config file over base: the keys the file sets replace
// base's values. Unknown keys are an error naming them. A zero base reads
// the file over the search defaults (baseConfig), so that a run's
// config.toml from before the search keys were written still loads as it
// ran.
func LoadConfig(path string, base Config) (Config, error) {
	if base.SelfPlay.Search == (mcts.Config{}) {
		base.SelfPlay.Search = baseConfig().SelfPlay.Search
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("train: config: %w", err)
	}
	c, err := parseConfig(path, data, base)
	if err != nil {
		return Config{}, err
	}
	return c, c.Validate()
}

func parseConfig(name string, data []byte, base Config) (Config, error) {
	c := base
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		return Config{}, fmt.Errorf("train: config %s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return Config{}, fmt.Errorf("train: config %s: unknown key %q", name, und[0].String())
	}
	return c, nil
}

// Set applies one override "key=value" to c, as KataGo's -override-config:
// key is a config key, dotted for a table's keys ("selfplay.sims",
// "eval.baselines"), and value a TOML value ("64", "true", "[\"random\"]";
// a bare word is read as a string, so "train.optimizer=adam" works). An
// unknown key or a value of the wrong type is an error naming the key; the
// result is not validated (Validate does that once every override is in).
func (c *Config) Set(assignment string) error {
	key, value, ok := strings.Cut(assignment, "=")
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if !ok || key == "" {
		return fmt.Errorf("train: --set %q: want KEY=VALUE, as selfplay.sims=64", assignment)
	}
	for _, part := range strings.Split(key, ".") {
		if part == "" || strings.Trim(part, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
			return fmt.Errorf("train: --set %s: not a config key (lower-case words joined by '.')", key)
		}
	}
	if strings.ContainsAny(value, "\n\r") {
		return fmt.Errorf("train: --set %s: the value spans lines; give one TOML value", key)
	}
	name := "--set " + key
	next, err := parseConfig(name, []byte(key+" = "+value+"\n"), *c)
	if err != nil && !strings.Contains(err.Error(), "unknown key") {
		// A bare word: read it as a string.
		next, err = parseConfig(name, []byte(key+" = "+strconv.Quote(value)+"\n"), *c)
	}
	if err != nil {
		return err
	}
	*c = next
	return nil
}

// Encode writes c as TOML.
func (c Config) Encode() ([]byte, error) {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(c); err != nil {
		return nil, fmt.Errorf("train: encode config: %w", err)
	}
	return b.Bytes(), nil
}

// Validate reports the first setting out of range, naming its key.
func (c Config) Validate() error {
	checks := []struct {
		key  string
		bad  bool
		want string
	}{
		{"variant", c.Variant == "", "a variant name or file"},
		{"generations", c.Generations < 0, ">= 0"},
		{"net.blocks", c.Net.Blocks < 0, ">= 0"},
		{"net.filters", c.Net.Filters < 1, ">= 1"},
		{"net.policy_filters", c.Net.PolicyFilters < 1, ">= 1"},
		{"net.value_filters", c.Net.ValueFilters < 1, ">= 1"},
		{"net.value_hidden", c.Net.ValueHidden < 1, ">= 1"},
		{"selfplay.first_games", c.SelfPlay.FirstGames < 0, ">= 0"},
		{"selfplay.first_model", !firstModelOK(c.SelfPlay.FirstModel), "net or a network-free model (" + agent.Material + ", " + agent.Uniform + ", " + agent.Rollout + ")"},
		{"train.batch", c.Train.Batch < 1, ">= 1"},
		{"train.window", c.Train.Window < 1, ">= 1"},
		{"train.sample_ratio", !(c.Train.SampleRatio > 0), "> 0"},
		{"train.max_steps", c.Train.MaxSteps < 0, ">= 0"},
		{"train.min_positions", c.Train.MinPositions < 0, ">= 0"},
		{"train.checkpoint_steps", c.Train.CheckpointSteps < 1, ">= 1"},
		{"train.optimizer", c.Train.Optimizer != "sgd" && c.Train.Optimizer != "adam", "sgd or adam"},
		{"train.learning_rate", !(c.Train.LearningRate > 0), "> 0"},
		{"train.value_mix", c.Train.ValueMix < 0 || c.Train.ValueMix > 1, "in [0, 1]"},
		{"train.moves_left_weight", !(c.Train.MovesLeftWeight >= 0) || math.IsInf(c.Train.MovesLeftWeight, 0), "a finite weight >= 0"},
		{"train.threads", c.Train.Threads < 0, ">= 0"},
		{"eval.games", c.Eval.Games < 0, ">= 0"},
		{"eval.sims", c.Eval.Sims < 1, ">= 1"},
		{"eval.max_plies", c.Eval.MaxPlies < 1, ">= 1"},
		{"eval.workers", c.Eval.Workers < 0, ">= 0"},
	}
	for _, k := range checks {
		if k.bad {
			return fmt.Errorf("train: config: %s: want %s", k.key, k.want)
		}
	}
	if err := c.SelfPlay.Settings.Validate(); err != nil {
		return fmt.Errorf("train: config: selfplay.%w", err)
	}
	return c.Teacher.validate()
}

// firstModelOK says whether spec may play generation 0: "net", or a
// network-free model spec without playouts.
func firstModelOK(spec string) bool {
	if spec == "net" {
		return true
	}
	s, err := agent.ParseSpec(spec)
	return err == nil && s.Evaluator != "" && s.Sims == 0
}
