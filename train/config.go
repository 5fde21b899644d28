package train

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"bomberzero/agent"
	"bomberzero/configs"
	"bomberzero/env"
	"bomberzero/internal/keys"
	"bomberzero/match"
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
	// Previous plays the previous generation's model too.
	Previous bool `toml:"previous"`
	// Baselines are match player specs ("random", "greedy", "alphabeta:1").
	Baselines []string `toml:"baselines"`
	MaxPlies  int      `toml:"max_plies"`
	Workers   int      `toml:"workers"`
}

// gamesIn returns the self-play games of generation gen.
func (c Config) gamesIn(gen int) int {
	if gen == 0 && c.SelfPlay.FirstGames > 0 && c.Net.Init == "" {
		return c.SelfPlay.FirstGames
	}
	return c.SelfPlay.Games
}

// networkFree returns the network-free model spec that plays generation
// gen's self-play, or "" when the network plays it: selfplay.first_model
// plays generation 0 unless it is "net" or net.init gives the network its
// weights.
func (c Config) networkFree(gen int) string {
	if gen != 0 || c.Net.Init != "" || c.SelfPlay.FirstModel == "net" {
		return ""
	}
	return c.SelfPlay.FirstModel
}

// PlayerSearch returns the search settings a searching player of a match
// derives its own from (agent.MatchSearch): self-play's [selfplay] search
// with eval.leaf_material_mix in place of self-play's mix.
func (c Config) PlayerSearch() mcts.Config {
	s := c.SelfPlay.Search
	s.LeafMaterialMix = c.Eval.LeafMaterialMix
	return s
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
	c, err := readConfig(path, base)
	if err != nil {
		return Config{}, err
	}
	return c, c.Validate()
}

// readConfig is LoadConfig without the validation.
func readConfig(path string, base Config) (Config, error) {
	if base.SelfPlay.Search == (mcts.Config{}) {
		b := baseConfig()
		base.SelfPlay.Search = b.SelfPlay.Search
		base.Train.LRDecayFinal, base.Eval.Every = b.Train.LRDecayFinal, b.Eval.Every
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("train: config: %w", err)
	}
	return parseConfig(path, data, base)
}

// loadRunConfig reads the config.toml of the run in dir, applies sets
// (Options.Sets) and validates the result. It reports whether sets
// changed the config. An invalid config's error says how to repair it
// with --set; sets may not change what the run's checkpoints and data are
// made for (the variant, the net table, train.optimizer).
func loadRunConfig(dir string, sets []string) (Config, bool, error) {
	path := filepath.Join(dir, configName)
	saved, err := readConfig(path, Config{})
	if err != nil {
		return Config{}, false, err
	}
	c := saved
	c.Eval.Baselines = slices.Clone(saved.Eval.Baselines)
	for _, s := range sets {
		if err := c.Set(s); err != nil {
			return Config{}, false, err
		}
	}
	switch {
	case c.Variant != saved.Variant:
		return Config{}, false, fmt.Errorf("train: --set variant: a run's variant cannot change (its data and checkpoints are %s's)", saved.Variant)
	case c.Net.Init != saved.Net.Init:
		return Config{}, false, fmt.Errorf("train: --set net.init: a run's starting weights are read once, when it is created; to start from %q, start a new run", c.Net.Init)
	case c.Net != saved.Net:
		return Config{}, false, fmt.Errorf("train: --set net: a run's network shape cannot change (its checkpoints have the saved one)")
	case c.Train.Optimizer != saved.Train.Optimizer:
		return Config{}, false, fmt.Errorf("train: --set train.optimizer: a run's optimizer cannot change (its checkpoints hold %s's state)", saved.Train.Optimizer)
	}
	if err := c.Validate(); err != nil {
		return Config{}, false, repairHint(dir, err)
	}
	return c, !reflect.DeepEqual(c, saved), nil
}

// repairHint wraps the error of a resumed run's invalid config with the
// file and how to repair it: resume with --set KEY=VALUE.
func repairHint(dir string, err error) error {
	var ke *keys.KeyError
	if !errors.As(err, &ke) {
		return fmt.Errorf("%s: %w", filepath.Join(dir, configName), err)
	}
	key := ke.Key
	if i := strings.IndexByte(key, '['); i >= 0 {
		key = key[:i] // eval.baselines[1]: set the whole list
	}
	return fmt.Errorf("%s: %w; resume with a valid value to repair it: train --run %s --set %s=VALUE",
		filepath.Join(dir, configName), err, dir, key)
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

// Upper bounds of the training keys (docs/training.md lists every key's
// range): far above any useful setting, low enough that one typo cannot
// exhaust memory. What several keys need together is estimated and checked
// by CheckMemory.
const (
	MaxGenerations     = 1_000_000
	MaxBlocks          = 64
	MaxFilters         = 512
	MaxValueHidden     = 4096
	MaxBatch           = 8192
	MaxWindow          = 50_000_000
	MaxSampleRatio     = 1000
	MaxSteps           = 10_000_000
	MaxLearningRate    = 10
	MaxThreads         = 1024
	MaxEvalGames       = 1_000_000
	MaxMovesLeftWeight = 100
)

// Validate reports the first setting out of range as a *keys.KeyError
// naming its key ("net.filters = 100000: want 1 to 512"): every number
// must be finite and within the range docs/training.md lists. Checks that
// need the variant (eval.baselines, the memory estimate) are Check's.
func (c Config) Validate() error {
	key := func(k, v, want string) error {
		return fmt.Errorf("train: config: %w", &keys.KeyError{Key: k, Value: v, Want: want})
	}
	tc := c.Train
	checks := []error{
		keys.IntIn("generations", c.Generations, 0, MaxGenerations),
		keys.IntIn("net.blocks", c.Net.Blocks, 0, MaxBlocks),
		keys.IntIn("net.filters", c.Net.Filters, 1, MaxFilters),
		keys.IntIn("net.policy_filters", c.Net.PolicyFilters, 1, MaxFilters),
		keys.IntIn("net.value_filters", c.Net.ValueFilters, 1, MaxFilters),
		keys.IntIn("net.value_hidden", c.Net.ValueHidden, 1, MaxValueHidden),
		keys.IntIn("selfplay.first_games", c.SelfPlay.FirstGames, 0, selfplay.MaxGames),
		keys.IntIn("train.batch", tc.Batch, 1, MaxBatch),
		keys.IntIn("train.window", tc.Window, 1, MaxWindow),
		keys.FloatAbove("train.sample_ratio", tc.SampleRatio, 0, MaxSampleRatio),
		keys.IntIn("train.max_steps", tc.MaxSteps, 1, MaxSteps),
		keys.IntIn("train.min_positions", tc.MinPositions, 0, MaxWindow),
		keys.IntIn("train.checkpoint_steps", tc.CheckpointSteps, 1, MaxSteps),
		keys.FloatAbove("train.learning_rate", tc.LearningRate, 0, MaxLearningRate),
		keys.FloatIn("train.momentum", tc.Momentum, 0, 0.9999),
		keys.FloatIn("train.l2", tc.L2, 0, 1),
		keys.FloatIn("train.value_mix", tc.ValueMix, 0, 1),
		keys.FloatIn("train.moves_left_weight", tc.MovesLeftWeight, 0, MaxMovesLeftWeight),
		keys.IntIn("train.threads", tc.Threads, 0, MaxThreads),
		keys.FloatIn("train.lr_decay_share", tc.LRDecayShare, 0, 1),
		keys.FloatAbove("train.lr_decay_final", tc.LRDecayFinal, 0, 1),
		keys.IntIn("eval.every", c.Eval.Every, 1, MaxGenerations),
		keys.IntIn("eval.games", c.Eval.Games, 0, MaxEvalGames),
		keys.IntIn("eval.sims", c.Eval.Sims, 1, mcts.MaxSims),
		keys.FloatIn("eval.leaf_material_mix", c.Eval.LeafMaterialMix, 0, 1),
		keys.IntIn("eval.max_plies", c.Eval.MaxPlies, 1, selfplay.MaxMaxPlies),
		keys.IntIn("eval.workers", c.Eval.Workers, 0, selfplay.MaxWorkers),
	}
	switch {
	case c.Variant == "":
		return key("variant", `""`, "a variant name or file")
	case c.Seed > math.MaxInt64:
		return key("seed", strconv.FormatUint(c.Seed, 10), fmt.Sprintf("0 to %d", int64(math.MaxInt64)))
	case !firstModelOK(c.SelfPlay.FirstModel):
		return key("selfplay.first_model", strconv.Quote(c.SelfPlay.FirstModel),
			"net or a network-free model ("+agent.Material+", "+agent.Uniform+", "+agent.Rollout+")")
	case tc.Optimizer != "sgd" && tc.Optimizer != "adam":
		return key("train.optimizer", strconv.Quote(tc.Optimizer), "sgd or adam")
	}
	for _, err := range checks {
		if err != nil {
			return fmt.Errorf("train: config: %w", err)
		}
	}
	if need := max(tc.Batch, tc.MinPositions); tc.Window < need {
		// A window smaller than min_positions never holds enough to
		// train on; one smaller than a batch repeats positions in it.
		return key("train.window", strconv.Itoa(tc.Window),
			fmt.Sprintf("at least train.batch and train.min_positions (%d), or no generation ever trains", need))
	}
	if err := c.SelfPlay.Settings.Validate(); err != nil {
		var ke *keys.KeyError
		if errors.As(err, &ke) {
			err = &keys.KeyError{Key: "selfplay." + ke.Key, Value: ke.Value, Want: ke.Want}
		}
		return fmt.Errorf("train: config: %w", err)
	}
	for i, spec := range c.Eval.Baselines {
		if strings.TrimSpace(spec) == "" {
			return key(fmt.Sprintf("eval.baselines[%d]", i), `""`, "a match player ("+playerHelp+")")
		}
	}
	return c.Teacher.validate()
}

// playerHelp names the match players eval.baselines takes.
const playerHelp = "random, greedy, alphabeta:D or CHECKPOINT[:SIMS]"

// Check makes the checks of a valid config that need its variant v, before
// any work starts: every eval.baselines entry is a match player of v
// (match.Parse), and the estimated memory of the run (MemoryBytes) is at
// most limit bytes (MemoryLimit gives the machine's).
func (c Config) Check(v *env.Variant, limit int64) error {
	for i, spec := range c.Eval.Baselines {
		if _, err := match.Parse(spec, v, match.Options{}); err != nil {
			return fmt.Errorf("train: config: %w", &keys.KeyError{Key: fmt.Sprintf("eval.baselines[%d]", i),
				Value: strconv.Quote(spec), Want: "a match player (" + playerHelp + "): " + err.Error()})
		}
	}
	return c.CheckMemory(agent.NewRules(v, c.SelfPlay.MaxPlies).Shape(), limit)
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
