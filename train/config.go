package train

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/BurntSushi/toml"

	"bomberzero/configs"
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

// SelfPlayConfig is one generation's self-play.
type SelfPlayConfig struct {
	// Games is the number of games per generation.
	Games int `toml:"games"`
	// FirstGames, when positive, replaces Games in generation 0 (the
	// network-free first model plays fast, so it can seed more data).
	FirstGames int `toml:"first_games"`
	// FirstModel is what plays generation 0: "material" or "uniform" (the
	// network-free evaluators of package selfplay) or "net" (the randomly
	// initialised network).
	FirstModel string `toml:"first_model"`
	// Workers is the number of self-play goroutines (0: one per core).
	Workers int `toml:"workers"`
	// Slots is the games each worker plays at once (its batch size).
	Slots      int     `toml:"slots"`
	Sims       int     `toml:"sims"`
	CheapSims  int     `toml:"cheap_sims"`
	CheapShare float64 `toml:"cheap_share"`
	Gumbel     bool    `toml:"gumbel"`
	TempPlies  int     `toml:"temp_plies"`
	MaxPlies   int     `toml:"max_plies"`
	// Resignation: ResignMoves consecutive moves under ResignThreshold
	// resign (0 moves: never); ResignOffShare of games never resign.
	ResignThreshold float64 `toml:"resign_threshold"`
	ResignMoves     int     `toml:"resign_moves"`
	ResignOffShare  float64 `toml:"resign_off_share"`
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

// DefaultConfig returns the embedded defaults for variant: the file
// configs/training/<name>.toml when there is one, else default.toml, with
// Variant set to variant.
func DefaultConfig(variant string) (Config, error) {
	tfs := configs.Training()
	data, err := fs.ReadFile(tfs, baseName(variant)+".toml")
	if errors.Is(err, fs.ErrNotExist) {
		data, err = fs.ReadFile(tfs, "default.toml")
	}
	if err != nil {
		return Config{}, fmt.Errorf("train: embedded defaults for %q: %w", variant, err)
	}
	c, err := parseConfig("embedded defaults", data, Config{})
	if err != nil {
		return Config{}, err
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
// base's values. Unknown keys are an error naming them.
func LoadConfig(path string, base Config) (Config, error) {
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
		{"selfplay.games", c.SelfPlay.Games < 1, ">= 1"},
		{"selfplay.first_games", c.SelfPlay.FirstGames < 0, ">= 0"},
		{"selfplay.first_model", c.SelfPlay.FirstModel != "material" && c.SelfPlay.FirstModel != "uniform" && c.SelfPlay.FirstModel != "net", "material, uniform or net"},
		{"selfplay.workers", c.SelfPlay.Workers < 0, ">= 0"},
		{"selfplay.slots", c.SelfPlay.Slots < 1, ">= 1"},
		{"selfplay.sims", c.SelfPlay.Sims < 1, ">= 1"},
		{"selfplay.cheap_share", c.SelfPlay.CheapShare < 0 || c.SelfPlay.CheapShare >= 1, "in [0, 1)"},
		{"selfplay.cheap_sims", c.SelfPlay.CheapShare > 0 && c.SelfPlay.CheapSims < 1, ">= 1 with cheap_share > 0"},
		{"selfplay.max_plies", c.SelfPlay.MaxPlies < 1, ">= 1"},
		{"selfplay.resign_threshold", c.SelfPlay.ResignThreshold < -1 || c.SelfPlay.ResignThreshold > 1, "in [-1, 1]"},
		{"selfplay.resign_moves", c.SelfPlay.ResignMoves < 0, ">= 0"},
		{"selfplay.resign_off_share", c.SelfPlay.ResignOffShare < 0 || c.SelfPlay.ResignOffShare > 1, "in [0, 1]"},
		{"train.batch", c.Train.Batch < 1, ">= 1"},
		{"train.window", c.Train.Window < 1, ">= 1"},
		{"train.sample_ratio", !(c.Train.SampleRatio > 0), "> 0"},
		{"train.max_steps", c.Train.MaxSteps < 0, ">= 0"},
		{"train.min_positions", c.Train.MinPositions < 0, ">= 0"},
		{"train.checkpoint_steps", c.Train.CheckpointSteps < 1, ">= 1"},
		{"train.optimizer", c.Train.Optimizer != "sgd" && c.Train.Optimizer != "adam", "sgd or adam"},
		{"train.learning_rate", !(c.Train.LearningRate > 0), "> 0"},
		{"train.value_mix", c.Train.ValueMix < 0 || c.Train.ValueMix > 1, "in [0, 1]"},
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
	return c.Teacher.validate()
}
