package compare

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/mcts"
	"bomberzero/setup"
	"bomberzero/study/values"
)

// DefaultPlayer is the baseline that plays itself in each variant when no
// run and no training budget is given.
const DefaultPlayer = "alphabeta:2"

// Config describes a comparison of two or more variants.
type Config struct {
	// Variants are the variant names (with +options) compared, in report
	// order; at least two, all different.
	Variants []string
	// Runs, when given, are one run (or training-data) directory per
	// variant whose games are compared.
	Runs []string
	// Models, when given, are one trained checkpoint per variant (a
	// shipped model, a run's generation): each plays itself Games games at
	// Sims playouts from the shared book, and those games are compared;
	// the models also meet the anchors, play at each of Levels and meet
	// each other in cross-play. For the models of runs that are gone, or
	// of runs on other machines.
	Models []string
	// Budget, without Runs or Models, trains each variant for this long with its
	// embedded defaults (setup.DefaultConfig) and the same Seed, in
	// RunsDir/<variant>, and compares those runs' games.
	Budget  time.Duration
	RunsDir string
	// Player plays itself in each variant when there are neither Runs nor
	// a Budget (DefaultPlayer when empty), Games games per variant.
	Player string
	// PlayerOptions builds players (piece values, the checkpoint loader).
	PlayerOptions match.Options
	// Games is the baseline games per variant, and the games per cross-play
	// match.
	Games int
	// Sims is the playouts per move of the trained models in cross-play
	// (0: eval.sims of the training config).
	Sims int
	// MaxPlies caps baseline and cross-play games (0: eval.max_plies of
	// the training config).
	MaxPlies int
	// Search is the search the cross-play players' match search derives
	// from (agent.MatchSearch; zero: the [selfplay] search of the training
	// config).
	Search mcts.Config
	// Training returns the training config of a variant: what a --budget
	// run trains with, and (for the first variant) the source of the match
	// knobs left zero above. Nil is setup.DefaultConfig, the embedded
	// defaults.
	Training func(variant string) (setup.Config, error)
	// Anchors are the fixed players every variant's trained model meets
	// (Games games each, Sims playouts) to show the compared agents are of
	// matched strength; nil is DefaultAnchors, an empty non-nil list none.
	// Baseline games have no model and play no anchors.
	Anchors []string
	// Levels are playout counts at which each variant's trained model
	// plays Games games against itself, for a comparison at each level
	// (e.g. 64 and 512: does the verdict hold at two strengths?); empty:
	// none. Baseline games have no model and play no levels.
	Levels []int
	// RuleEffects, with trained models, also plays each variant's model
	// against itself on every other variant's rules (Games games at Sims
	// playouts, its own seed and the shared book), so that each rule-set
	// difference is also measured with the network held fixed
	// (RuleEffect).
	RuleEffects bool
	// Book, when positive, is the number of random openings of BookPlies
	// plies (DefaultBookPlies when 0) in one opening book shared by every
	// variant (match.RandomBook: each opening legal in all of them); the
	// baseline games start from its openings in turn (game i from opening
	// i mod Book), the anchor matches and the cross-play from each opening
	// with both colours, so the variants are compared from the same
	// positions. Each imbalance pair draws its own book of up to Book
	// openings of BookPlies plies on its start positions instead
	// (ImbalanceStudy.Book); 0 plays every game from the start position.
	Book      int
	BookPlies int
	// Imbalances are imbalance matches played in every variant by its
	// trained model (the baseline player where there is none),
	// ImbalanceGames games each (0: Games), read in each variant's own
	// pawns and compared variant against variant (ImbalanceStudy).
	Imbalances     []ImbalancePair
	ImbalanceGames int
	// Seed seeds the games, training, the bootstraps and the cross-play.
	Seed uint64
	// Bootstrap is the resamples behind every bootstrap interval (0:
	// values.DefaultBootstrap).
	Bootstrap int
	// NoValues skips the piece-value fits.
	NoValues bool
	// IncludeTeacher keeps the games of a search teacher found in Runs (a
	// run's generation 0 with [teacher] enabled): they are left out by
	// default, as they carry the teacher's piece table, not the variant's.
	IncludeTeacher bool
	Workers        int // games at once (0: one per core)
	// Log receives one line per step; Bars receives progress bars (nil:
	// none).
	Log, Bars io.Writer
	// Command is the command line to print in the report.
	Command string

	openings []match.Opening // the shared book, drawn by Run
}

// Source says where one variant's games came from.
type Source struct {
	Variant string `json:"variant"`
	// Kind is "run", "trained", "model" or "baseline".
	Kind   string `json:"kind"`
	Dir    string `json:"dir,omitempty"`    // the run or data directory
	Player string `json:"player,omitempty"` // the baseline player
	Seed   uint64 `json:"seed"`
	Games  int    `json:"games"`
	// Model is the newest checkpoint of a run, or the given model ("" for
	// none).
	Model    string   `json:"model,omitempty"`
	Problems []string `json:"problems,omitempty"`
	// TeacherGames is the number of a search teacher's games left out.
	TeacherGames int `json:"teacher_games_left_out,omitempty"`
}

// Version is the format version of comparison.json. Version 2 added
// BookUse and the imbalance pairs' own books (ImbalanceStudy.Book): in a
// version 1 file every imbalance game started from the pair's start
// position, no book, whatever Book (the shared book) lists. A version 1
// file still reads into Result; its new fields are empty.
const Version = 2

// Result is a finished comparison.
type Result struct {
	Version    int                `json:"version"`
	Sources    []Source           `json:"sources"`
	Comparison *values.Comparison `json:"comparison"`
	// ValueNotes explain piece-value fits that could not run.
	ValueNotes []string `json:"value_notes,omitempty"`
	Cross      []Cross  `json:"cross_play,omitempty"`
	// CrossNote says why there is no cross-play, when there is none.
	CrossNote string `json:"cross_note,omitempty"`
	// Anchors are each trained model's matches against the fixed anchors,
	// and Matched the comparison of the first variant's scores with each
	// other's (empty without trained models).
	Anchors []AnchorMatch `json:"anchors,omitempty"`
	Matched []Matched     `json:"matched,omitempty"`
	// Diversity is each trained model's policy entropy in the opening.
	Diversity []PolicyDiversity `json:"policy_diversity,omitempty"`
	// Levels are the comparisons of the models' own games at each of
	// Config.Levels' playout counts.
	Levels []Level `json:"levels,omitempty"`
	// RuleEffects are each trained model's games compared across the rule
	// sets (Config.RuleEffects); RuleEffectsNote says why there are none
	// although they were asked for.
	RuleEffects     []RuleEffect `json:"rule_effects,omitempty"`
	RuleEffectsNote string       `json:"rule_effects_note,omitempty"`
	// NetworkEffects compare, on each rule set, the models' games of
	// RuleEffects with each other (the rules held fixed).
	NetworkEffects []NetworkEffect `json:"network_effects,omitempty"`
	// Decomposition is the model × rules grid of those games on each
	// primary figure, with each factor's effect averaged over the other.
	Decomposition []Decomposition `json:"decomposition,omitempty"`
	// PairedGames is the number of games a side of the paired design the
	// variants' games form (pairedGames), 0 when they are independent
	// samples: the differences and the values' bootstrap are then taken
	// within pairs (values.CompareConfig.Pairs, values.Config.Pairs).
	PairedGames int `json:"paired_games,omitempty"`
	// TestedFigures is the size of the family Holm's correction runs over
	// (correctFamily): the game-level figures, the piece values variant
	// against variant and the imbalance readings.
	TestedFigures int `json:"tested_figures,omitempty"`
	// PairAgreement says, for each later variant against the first, how
	// many of the pairs are one game move for move and how many end alike:
	// what the pairing takes out of the differences.
	PairAgreement []PairAgreement `json:"pair_agreement,omitempty"`
	// ValueDifferences are each piece's fitted value in every other
	// variant minus the first's, with intervals (the tanh fits).
	ValueDifferences []PieceDifference `json:"value_differences,omitempty"`
	// Imbalances are the imbalance matches of Config.Imbalances.
	Imbalances []ImbalanceStudy `json:"imbalances,omitempty"`
	// Samples are a few of each variant's games, move by move.
	Samples []SampleGame `json:"samples,omitempty"`
	// Book lists the shared opening book's openings (Config.Book), each as
	// its moves.
	Book []string `json:"book,omitempty"`
	// BookNote says why there is no book although one was asked for.
	BookNote string `json:"book_note,omitempty"`
	// BookUse says which book each part of the comparison started its
	// games from: the shared book (Book) or an imbalance pair's own
	// (ImbalanceStudy.Book), or none. Absent in files of version 1, whose
	// imbalance games started from the pair's start positions, no book.
	BookUse []BookUse `json:"book_use,omitempty"`
	// Utilisation says, for each variant whose rules allow moves another
	// compared variant's do not, how its games used them.
	Utilisation []*Utilisation `json:"utilisation,omitempty"`
	Config      struct {
		Games     int    `json:"games"`
		MaxPlies  int    `json:"max_plies"`
		Seed      uint64 `json:"seed"`
		Bootstrap int    `json:"bootstrap"`
		Budget    string `json:"budget,omitempty"`
		Command   string `json:"command,omitempty"`
	} `json:"config"`
}

// Validate reports the first setting that cannot work, naming its flag.
func (c *Config) Validate() error {
	if len(c.Variants) < 2 {
		return fmt.Errorf("compare: --variants %v: want two or more variants", c.Variants)
	}
	for i, v := range c.Variants {
		if slices.Contains(c.Variants[:i], v) {
			return fmt.Errorf("compare: --variants: %q given twice", v)
		}
		if _, err := env.LoadVariant(v); err != nil {
			return fmt.Errorf("compare: --variants: %w", err)
		}
	}
	if len(c.Runs) > 0 && len(c.Runs) != len(c.Variants) {
		return fmt.Errorf("compare: --runs has %d directories for %d variants: want one per variant, in the same order", len(c.Runs), len(c.Variants))
	}
	for _, r := range c.Runs {
		if st, err := os.Stat(r); err != nil || !st.IsDir() {
			return fmt.Errorf("compare: --runs: %q is not a directory", r)
		}
	}
	if len(c.Models) > 0 && len(c.Models) != len(c.Variants) {
		return fmt.Errorf("compare: --models has %d checkpoints for %d variants: want one per variant, in the same order", len(c.Models), len(c.Variants))
	}
	for _, m := range c.Models {
		if st, err := os.Stat(m); err != nil || st.IsDir() {
			return fmt.Errorf("compare: --models: %q is not a checkpoint file", m)
		}
	}
	switch {
	case len(c.Models) > 0 && len(c.Runs) > 0:
		return fmt.Errorf("compare: --models and --runs both give each variant's games: choose one")
	case len(c.Models) > 0 && c.Budget > 0:
		return fmt.Errorf("compare: --budget trains new runs; it cannot go with --models")
	case c.Budget < 0:
		return fmt.Errorf("compare: --budget %v: want a positive duration", c.Budget)
	case c.Budget > 0 && len(c.Runs) > 0:
		return fmt.Errorf("compare: --budget trains new runs; it cannot go with --runs")
	case c.Games < 1:
		return fmt.Errorf("compare: --games %d: want at least 1", c.Games)
	case slices.ContainsFunc(c.Levels, func(n int) bool { return n < 1 || n > mcts.MaxSims }):
		return fmt.Errorf("compare: --levels %v: want playout counts from 1 to %d", c.Levels, mcts.MaxSims)
	case c.Book < 0 || c.Book > 100000:
		return fmt.Errorf("compare: --book %d: want 0 to 100000 openings", c.Book)
	case c.BookPlies < 0 || c.BookPlies > 40:
		return fmt.Errorf("compare: --book-plies %d: want 1 to 40 (0 for the default %d)", c.BookPlies, DefaultBookPlies)
	case c.Bootstrap < 0:
		return fmt.Errorf("compare: --bootstrap %d: want a positive number (0 for the default)", c.Bootstrap)
	case c.Sims < 0:
		return fmt.Errorf("compare: --sims %d: want a positive number (0 for the default)", c.Sims)
	case c.ImbalanceGames < 0 || c.ImbalanceGames == 1:
		return fmt.Errorf("compare: --imbalance-games %d: want at least 2, one per colour arrangement (0: --games)", c.ImbalanceGames)
	case len(c.Imbalances) > 0 && c.ImbalanceGames == 0 && c.Games < 2:
		return fmt.Errorf("compare: --imbalance plays --games games a match (now %d): want at least 2, or set --imbalance-games", c.Games)
	}
	return c.checkImbalances()
}

// checkImbalances resolves every imbalance pair's pieces in every variant's
// start position, so that a piece a variant lacks is an error before any
// game is played.
func (c *Config) checkImbalances() error {
	for _, name := range c.Variants {
		if len(c.Imbalances) == 0 {
			break
		}
		v, err := env.LoadVariant(name)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		start := v.NewPosition()
		for _, p := range c.Imbalances {
			if _, err := (Removal{env.White, p.X}).ResolveAll(start); err != nil {
				return fmt.Errorf("compare: --imbalance %s:%s in %s: %w", p.X, p.Y, name, err)
			}
			if _, err := (Removal{env.Black, p.Y}).ResolveAll(start); err != nil {
				return fmt.Errorf("compare: --imbalance %s:%s in %s: %w", p.X, p.Y, name, err)
			}
		}
	}
	return nil
}

// training returns the training config of variant (Config.Training).
func (c *Config) training(variant string) (setup.Config, error) {
	if c.Training != nil {
		return c.Training(variant)
	}
	return setup.DefaultConfig(variant)
}

// fillMatchKnobs sets the match knobs left zero (Sims, MaxPlies, Search)
// from the first variant's training config, so that they have one default:
// eval.sims, eval.max_plies and the [selfplay] search.
func (c *Config) fillMatchKnobs() error {
	if c.Sims != 0 && c.MaxPlies != 0 && c.Search != (mcts.Config{}) {
		return nil
	}
	tc, err := c.training(c.Variants[0])
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if c.Sims == 0 {
		c.Sims = tc.Eval.Sims
	}
	if c.MaxPlies == 0 {
		c.MaxPlies = tc.Eval.MaxPlies
	}
	if c.Search == (mcts.Config{}) {
		c.Search = tc.PlayerSearch()
	}
	return nil
}

// Run gathers each variant's games, compares them, fits piece values,
// plays cross-play where it makes sense, and returns the result (Write
// turns it into a report folder).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Player == "" {
		cfg.Player = DefaultPlayer
	}
	if err := cfg.fillMatchKnobs(); err != nil {
		return nil, err
	}
	if cfg.Bootstrap == 0 {
		cfg.Bootstrap = values.DefaultBootstrap
	}
	res := &Result{Version: Version}
	if err := cfg.makeBook(); err != nil {
		// Variants of different boards share no opening: compare from
		// their own start positions, and say so.
		res.BookNote = fmt.Sprintf("no shared opening book: %v", err)
		logf(cfg.Log, "%s", res.BookNote)
	}
	for _, o := range cfg.openings {
		res.Book = append(res.Book, o.String())
	}
	res.Config.Games, res.Config.MaxPlies, res.Config.Seed, res.Config.Bootstrap = cfg.Games, cfg.MaxPlies, cfg.Seed, cfg.Bootstrap
	res.Config.Command = cfg.Command
	if cfg.Budget > 0 {
		res.Config.Budget = cfg.Budget.String()
	}
	var sets []*values.Dataset
	for i, name := range cfg.Variants {
		var (
			ds  *values.Dataset
			src Source
			err error
		)
		switch {
		case len(cfg.Runs) > 0:
			ds, src, err = fromRun(name, cfg.Runs[i], "run", cfg)
		case len(cfg.Models) > 0:
			ds, src, err = fromModel(ctx, name, i, cfg)
		case cfg.Budget > 0:
			ds, src, err = trainVariant(ctx, name, cfg)
		default:
			ds, src, err = baseline(ctx, name, cfg)
		}
		if err != nil {
			return nil, err
		}
		logf(cfg.Log, "%s: %d games (%s)", name, len(ds.Games), src.Kind)
		sets, res.Sources = append(sets, ds), append(res.Sources, src)
	}
	if err := analyze(res, cfg, sets); err != nil {
		return nil, err
	}
	var err error
	if cfg.Anchors == nil {
		cfg.Anchors = DefaultAnchors
	}
	if res.Anchors, res.Matched, err = anchorLadder(ctx, res.Sources, cfg); err != nil {
		return nil, err
	}
	if res.Diversity, err = policyDiversity(res.Sources, cfg); err != nil {
		return nil, err
	}
	if res.Levels, err = levels(ctx, res.Sources, cfg); err != nil {
		return nil, err
	}
	if res.RuleEffects, res.RuleEffectsNote, err = ruleEffects(ctx, res.Sources, sets, cfg); err != nil {
		return nil, err
	}
	if len(res.RuleEffects) == len(cfg.Variants) {
		if res.NetworkEffects, err = networkEffects(cfg.Variants, res.RuleEffects, cfg); err != nil {
			return nil, err
		}
		res.Decomposition = decompose(cfg.Variants, res.RuleEffects)
	}
	res.Cross, res.CrossNote, err = crossPlay(ctx, res.Sources, cfg)
	if err != nil {
		return nil, err
	}
	if cfg.ImbalanceGames == 0 {
		cfg.ImbalanceGames = cfg.Games
	}
	if res.Imbalances, err = imbalanceStudies(ctx, res.Sources, res.Comparison.Values, cfg); err != nil {
		return nil, err
	}
	res.BookUse = bookUses(res, cfg)
	res.TestedFigures = correctFamily(res)
	return res, nil
}

// Analyze compares the given games of cfg.Variants (one data set each, in
// the same order) without playing or training anything: the statistics,
// the verdicts and, unless cfg.NoValues, the piece values. Sources may be
// nil. Write turns the result into a report folder.
func Analyze(cfg Config, srcs []Source, sets []*values.Dataset) (*Result, error) {
	if len(sets) != len(cfg.Variants) {
		return nil, fmt.Errorf("compare: %d data sets for %d variants", len(sets), len(cfg.Variants))
	}
	if cfg.Bootstrap == 0 {
		cfg.Bootstrap = values.DefaultBootstrap
	}
	res := &Result{Version: Version, Sources: srcs}
	res.Config.Games, res.Config.MaxPlies, res.Config.Seed, res.Config.Bootstrap = cfg.Games, cfg.MaxPlies, cfg.Seed, cfg.Bootstrap
	res.Config.Command = cfg.Command
	if err := analyze(res, cfg, sets); err != nil {
		return nil, err
	}
	res.TestedFigures = correctFamily(res)
	return res, nil
}

func analyze(res *Result, cfg Config, sets []*values.Dataset) error {
	res.Samples = sampleGames(cfg.Variants, sets)
	res.PairedGames = pairedGames(res.Sources)
	if res.PairedGames > 0 {
		res.PairAgreement = pairAgreement(cfg.Variants, sets)
	}
	cc := values.CompareConfig{Bootstrap: cfg.Bootstrap, Seed: cfg.Seed, Pairs: res.PairedGames}
	c, err := values.Compare(cfg.Variants, sets, cc)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	res.Comparison = c
	if err := utilisations(res, cfg.Variants, sets); err != nil {
		return err
	}
	if cfg.NoValues {
		res.ValueNotes = append(res.ValueNotes, "piece values were not fitted: --no-values was given")
	} else {
		for i, ds := range sets {
			ds, _ := ds.WithoutCapped() // censored results stay out of the fits, as in values
			vc := values.Config{Sample: values.DefaultSampleConfig(), Methods: []values.Method{values.Logistic, values.Tanh},
				Bootstrap: cfg.Bootstrap, Seed: cfg.Seed, Workers: cfg.Workers, Pairs: res.PairedGames,
				Progress: bar(cfg.Bars, "values "+cfg.Variants[i], "resamples")}
			rep, err := values.PieceValues(ds, vc)
			if errors.Is(err, values.ErrNoDecisive) {
				// No decisive game: the tanh fit still reads the draws, and
				// the section says why the logistic fit is missing.
				res.ValueNotes = append(res.ValueNotes, fmt.Sprintf("%s: no logistic fit: %s", cfg.Variants[i], values.NoFitAdvice(len(ds.Games), err)))
				vc.Methods = []values.Method{values.Tanh}
				rep, err = values.PieceValues(ds, vc)
			}
			if err != nil {
				res.ValueNotes = append(res.ValueNotes, fmt.Sprintf("%s: no piece values by the logistic and tanh fits: %s",
					cfg.Variants[i], values.NoFitAdvice(len(ds.Games), err)))
				c.Values = append(c.Values, nil)
				continue
			}
			c.Values = append(c.Values, rep)
		}
		res.ValueDifferences = valueDifferences(cfg.Variants, c.Values)
	}
	res.ValueNotes = append(res.ValueNotes, valuePlayerNotes(res.Sources)...)
	c.ValueNotes = res.ValueNotes
	return nil
}

// valuePlayerNotes names the players whose games the piece values come
// from, each with its chess calibration (values.CalibrationLine) and a
// warning when it is too weak for piece values or has not passed the chess
// check (values.UncalibratedPlayer); a run's self-play games name the run.
func valuePlayerNotes(srcs []Source) []string {
	var out, players []string
	variants := map[string][]string{}
	for _, s := range srcs {
		player := s.Player
		switch {
		case s.Kind == "model" && s.Model != "":
			player = s.Model
		case player == "" && s.Dir != "":
			player = "the self-play of " + s.Dir
		}
		if player == "" {
			continue
		}
		if variants[player] == nil {
			players = append(players, player)
		}
		variants[player] = append(variants[player], s.Variant)
	}
	for _, player := range players {
		out = append(out, fmt.Sprintf("Player: %s (the games of %s). %s", player, strings.Join(variants[player], ", "), values.CalibrationLine(player, "")))
		if w := values.UncalibratedPlayer(player, ""); w != "" {
			out = append(out, "**Warning**: "+w)
		}
	}
	if len(srcs) == 0 {
		out = append(out, values.CalibrationLine("the player of these games (not named)", ""))
	}
	return out
}

func logf(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", a...)
	}
}
