package setup

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/internal/keys"
	"bomberzero/match"
	"bomberzero/mcts"
	"bomberzero/selfplay"
)

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
		keys.IntIn("net.global_pool", c.Net.GlobalPool, 0, min(max(c.Net.Filters, 0), MaxFilters)),
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
		keys.FloatIn("train.short_value_weight", tc.ShortValueWeight, 0, MaxMovesLeftWeight),
		shortPlies(c),
		keys.IntIn("train.threads", tc.Threads, 0, MaxThreads),
		keys.FloatIn("train.lr_decay_share", tc.LRDecayShare, 0, 1),
		keys.FloatAbove("train.lr_decay_final", tc.LRDecayFinal, 0, 1),
		keys.IntIn("eval.every", c.Eval.Every, 1, MaxGenerations),
		keys.IntIn("eval.games", c.Eval.Games, 0, MaxEvalGames),
		keys.IntIn("eval.sims", c.Eval.Sims, 1, mcts.MaxSims),
		keys.FloatIn("eval.leaf_material_mix", c.Eval.LeafMaterialMix, 0, 1),
		keys.FloatIn("eval.policy_temp", c.Eval.PolicyTemp, 0, 100),
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
	if c.Eval.LeafEngine != "" {
		if err := agent.NewRules(v, 0).SetLeafEngine(c.Eval.LeafEngine); err != nil {
			return fmt.Errorf("train: config: %w", &keys.KeyError{Key: "eval.leaf_engine", Value: strconv.Quote(c.Eval.LeafEngine),
				Want: `"" (the capture-only material search) or engine[:depth=D][:eval=FILE|classical][:weights=FILE]: ` + err.Error()})
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

// shortPlies checks train.short_value_plies: a horizon of at least one ply
// when the network has the short-term value head (a run made before the
// key has neither).
func shortPlies(c Config) error {
	if !c.Net.ShortValue {
		return keys.FloatIn("train.short_value_plies", c.Train.ShortValuePlies, 0, MaxShortValuePlies)
	}
	return keys.FloatIn("train.short_value_plies", c.Train.ShortValuePlies, 1, MaxShortValuePlies)
}

// MaxShortValuePlies bounds train.short_value_plies.
const MaxShortValuePlies = 10_000
