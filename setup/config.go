// Package setup is the training file's schema and what a player's search
// is made from: Config and its tables (the keys of configs/training/*.toml
// and of a run's config.toml), the embedded defaults (DefaultConfig), a
// file read over a base (LoadConfig), one "--set key=value" override
// (Config.Set), the TOML encoding, every key's range (Validate, Check) and
// the memory estimate (MemoryBytes); and the search presets of a match
// player and of an analysis derived from a config (Config.PlayerSearch,
// MatchSearch, AnalysisSearch). The trainer, the commands, the front ends
// and the studies all read their settings through it, so the front ends
// need not import the trainer. Its error messages keep the "train:"
// prefix they had when the schema was the trainer's, so the commands'
// output is unchanged.
package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"bomberzero/configs"
	"bomberzero/internal/keys"
	"bomberzero/internal/readfile"
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
	// GlobalPool, above 0, gives every residual block KataGo's global
	// pooling over that many of its channels (nn.Config.GlobalPool); 0:
	// none (every run made before the key).
	GlobalPool int `toml:"global_pool"`
	// ShortValue adds the short-term value head (nn.Config.ShortValue),
	// trained with train.short_value_weight toward the search values of
	// the next train.short_value_plies plies; false: none.
	ShortValue bool `toml:"short_value"`
	// Init, when set, is a checkpoint of the run's variant and of this
	// table's shape whose weights start the run instead of random ones (a
	// shipped model, another run's generation); the optimizer starts
	// afresh. It is read once, when the run is created. Generation 0 is
	// then played by that network (selfplay.first_model and first_games
	// are for a run from random weights), after the teacher phase if
	// teacher.enabled.
	Init string `toml:"init"`
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
	// ShortValueWeight is the short-term value head's loss weight (with
	// net.short_value; 0: the head is not trained).
	ShortValueWeight float64 `toml:"short_value_weight"`
	// ShortValuePlies is the short-term value target's horizon in plies
	// (datasets.ShortValues), with net.short_value.
	ShortValuePlies float64 `toml:"short_value_plies"`
	// Threads is the BLAS threads one product may use.
	Threads int `toml:"threads"`
	// LRDecayShare is the last share of a call's budget (--budget) over
	// which the learning rate falls linearly from LearningRate to
	// LRDecayFinal times it, so that a budgeted run ends on a settled
	// network (0: constant rate; without a budget the rate stays constant).
	LRDecayShare float64 `toml:"lr_decay_share"`
	// LRDecayFinal is the factor the learning rate reaches at the budget's end.
	LRDecayFinal float64 `toml:"lr_decay_final"`
}

// EvalConfig is the matches each new model plays.
type EvalConfig struct {
	// Every is how many generations pass between evaluations: generation
	// g's model (gen-g) plays its matches when g is a multiple of Every (1:
	// every generation). The models in between are saved but not rated.
	Every int `toml:"every"`
	// Games is the games against each opponent (colours alternate).
	Games int `toml:"games"`
	// Sims is the new model's playouts per move.
	Sims int `toml:"sims"`
	// LeafMaterialMix is the leaf_material_mix of every searching player
	// of a match (the run's evaluations, and the match, ladder, play,
	// analyse, serve, uci, xboard and compare commands): the weight of a
	// leaf's material after a capture-only search in the value the search
	// backs up (docs/search.md); self-play has its own,
	// selfplay.leaf_material_mix. See PlayerSearch.
	LeafMaterialMix float64 `toml:"leaf_material_mix"`
	// PolicyTemp is the policy softmax temperature of every searching
	// player of a match, as LeafMaterialMix is its leaf mix (self-play has
	// its own, selfplay.policy_temp): the priors are the network's
	// probabilities raised to 1/PolicyTemp (mcts.Config.PolicyTemp); 0 and
	// 1 leave them as they are. See PlayerSearch.
	PolicyTemp float64 `toml:"policy_temp"`
	// LeafEngine, when set, puts a short search of the alpha-beta engine in
	// the place of that capture-only material search for the model players
	// of the run's evaluations and the match-playing commands (not serve,
	// uci and xboard): an engine spec, "engine[:depth=D][:eval=FILE]", its
	// centipawns read as hundredths of a pawn against
	// selfplay.leaf_material_scale; "" keeps the material search
	// (agent.Rules.SetLeafEngine).
	LeafEngine string `toml:"leaf_engine"`
	// Previous plays the previous generation's model too.
	Previous bool `toml:"previous"`
	// Baselines are match player specs ("random", "greedy", "alphabeta:1").
	Baselines []string `toml:"baselines"`
	MaxPlies  int      `toml:"max_plies"`
	Workers   int      `toml:"workers"`
}

// GamesIn returns the self-play games of generation gen: games, or
// selfplay.first_games in generation 0 of a run from random weights.
func (c Config) GamesIn(gen int) int {
	if gen == 0 && c.SelfPlay.FirstGames > 0 && c.Net.Init == "" {
		return c.SelfPlay.FirstGames
	}
	return c.SelfPlay.Games
}

// NetworkFree returns the network-free model spec that plays generation
// gen's self-play, or "" when the network plays it: selfplay.first_model
// plays generation 0 unless it is "net" or net.init gives the network its
// weights.
func (c Config) NetworkFree(gen int) string {
	if gen != 0 || c.Net.Init != "" || c.SelfPlay.FirstModel == "net" {
		return ""
	}
	return c.SelfPlay.FirstModel
}

// baseConfig is what a config file is read over when nothing else is: the
// search defaults of mcts.DefaultConfig for the search keys a file leaves
// out (a run's config.toml written before the search keys were in it
// leaves them all out), zero for the rest.
func baseConfig() Config {
	var c Config
	c.SelfPlay.Search = mcts.DefaultConfig()
	c.Train.MovesLeftWeight = nn.DefaultMovesLeftWeight
	c.Train.LRDecayFinal = 1
	c.Eval.Every = 1
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
	c, err := ReadConfig(path, base)
	if err != nil {
		return Config{}, err
	}
	return c, c.Validate()
}

// MaxConfigBytes is the largest config file LoadConfig and ReadConfig
// read (the default training file is under 3 KB); a larger file, a FIFO
// or a device such as /dev/zero is refused, naming the file.
const MaxConfigBytes = 1 << 20

// ReadConfig is LoadConfig without the validation, for a caller that
// applies overrides (Config.Set) before it validates.
func ReadConfig(path string, base Config) (Config, error) {
	if base.SelfPlay.Search == (mcts.Config{}) {
		b := baseConfig()
		base.SelfPlay.Search = b.SelfPlay.Search
		base.Train.LRDecayFinal, base.Eval.Every = b.Train.LRDecayFinal, b.Eval.Every
	}
	data, err := readfile.Regular(path, MaxConfigBytes)
	if err != nil {
		return Config{}, fmt.Errorf("train: config: %w", err)
	}
	return parseConfig(path, data, base)
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
	// TOML integers are signed: a negative seed would wrap into the
	// unsigned Seed (-1 becoming 18446744073709551615).
	var signed struct {
		Seed *int64 `toml:"seed"`
	}
	if _, err := toml.Decode(string(data), &signed); err == nil && signed.Seed != nil && *signed.Seed < 0 {
		return Config{}, fmt.Errorf("train: config %s: %w", name, &keys.KeyError{Key: "seed",
			Value: strconv.FormatInt(*signed.Seed, 10), Want: fmt.Sprintf("0 to %d", int64(math.MaxInt64))})
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
	var ke *keys.KeyError
	if err != nil && !strings.Contains(err.Error(), "unknown key") && !errors.As(err, &ke) {
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
