package selfplay

import (
	"fmt"
	"os"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/eval"
	"bomberzero/mcts"
	"bomberzero/nn"
)

// BenchConfig sets up Bench: self-play at cfg's search settings with a
// randomly initialised network of the given size.
type BenchConfig struct {
	Config         // Variant, Slots, Search, MaxPlies and the resignation settings are used
	Net     string // "default" (nn.DefaultConfig) or "test" (nn.TestConfig)
	Warmup  time.Duration
	Measure time.Duration
}

// DefaultBenchConfig returns the reference settings "bomberzero bench
// selfplay" measures at unless told otherwise, pinned so that its numbers
// stay comparable when the training defaults move: DefaultConfig with the
// search of mcts.DefaultConfig (800 playouts, a quarter of searches cheap),
// 32 slots, 400-ply games, the default network, 5 s warm-up, 30 s measured.
func DefaultBenchConfig(variant string) (BenchConfig, error) {
	c, err := DefaultConfig(variant)
	if err != nil {
		return BenchConfig{}, err
	}
	c.Search, c.Slots, c.MaxPlies = mcts.DefaultConfig(), 32, 400
	return BenchConfig{Config: c, Net: "default", Warmup: 5 * time.Second, Measure: 30 * time.Second}, nil
}

// BenchResult is what "bomberzero bench selfplay --json" prints.
type BenchResult struct {
	Variant string `json:"variant"`
	Network string `json:"network"` // blocks x filters
	BLAS    string `json:"blas"`
	Batch   int    `json:"batch"` // positions per network call (the worker's slots)
	// NetPositionsPerS is the network alone on full batches of the same
	// positions, in the same goroutine, interleaved with the self-play steps.
	NetPositionsPerS float64 `json:"net_positions_per_s"`
	// SimsPerS is the whole self-play worker's playouts per second
	// (search, rules, encoding, bookkeeping, data and record writing),
	// counted as leaves the network valued plus evaluation-cache hits
	// (playouts ending on a terminal position are not counted, so this is
	// a lower bound).
	SimsPerS float64 `json:"sims_per_s"`
	// Ratio is SimsPerS / NetPositionsPerS (target >= 0.90).
	Ratio float64 `json:"ratio"`
	// EvalsPerS is the positions the network valued per second of
	// self-play (playouts that hit the cache or a terminal position need none).
	EvalsPerS float64 `json:"evals_per_s"`
	// EvalRatio is EvalsPerS / NetPositionsPerS: the share of the worker's
	// time the network is busy (cache hits excluded, unlike Ratio).
	EvalRatio float64 `json:"eval_ratio"`
	// SimsPerMove is the mean playouts per move: measured over the searches
	// that finished, or expected from the settings (Sims, CheapSims,
	// CheapShare) when none did.
	SimsPerMove         float64 `json:"sims_per_move"`
	SimsPerMoveMeasured bool    `json:"sims_per_move_measured"`
	// GameLength is the mean plies per game: measured when games finished
	// during the run, else the length cap (so GamesPerHour is a lower bound).
	GameLength         float64 `json:"game_length"`
	GameLengthMeasured bool    `json:"game_length_measured"`
	// GamesPerHour is one worker's games per hour at these settings.
	GamesPerHour float64 `json:"games_per_hour"`
	Seconds      float64 `json:"seconds"`
}

// countingEvaluator counts the positions its evaluator values.
type countingEvaluator struct {
	eval.Evaluator
	positions int
}

func (c *countingEvaluator) Evaluate(b *eval.Batch) error {
	c.positions += b.Size
	return c.Evaluator.Evaluate(b)
}

// Bench measures, in one run with one network and one batch size, the
// network alone and the whole self-play worker, alternating between the two
// so that the load of a shared machine hits both alike.
func Bench(cfg BenchConfig) (*BenchResult, error) {
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		return nil, fmt.Errorf("variant %s: %w", cfg.Variant, err)
	}
	r := agent.NewRules(v, cfg.MaxPlies)
	s := r.Shape()
	newCfg := nn.DefaultConfig
	if cfg.Net == "test" {
		newCfg = nn.TestConfig
	} else if cfg.Net != "default" {
		return nil, fmt.Errorf("network %q: want default or test", cfg.Net)
	}
	ncfg := newCfg(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width))
	net, err := nn.New(ncfg, 1)
	if err != nil {
		return nil, err
	}
	m, err := agent.NewNetModel("random", net.Fold(), r)
	if err != nil {
		return nil, err
	}
	ev0, err := m.NewEvaluator(cfg.Slots, 1)
	if err != nil {
		return nil, err
	}
	if err := ev0.(*nn.Evaluator).Warm(); err != nil {
		return nil, err
	}
	ev := &countingEvaluator{Evaluator: ev0}
	dir, err := os.MkdirTemp("", "bomberzero-bench-selfplay-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	c := cfg.Config
	c.Out = dir
	w, err := newBenchPlayer(&c, r, m.Name, ev)
	if err != nil {
		return nil, err
	}
	if err := w.fill(); err != nil {
		return nil, err
	}
	// A full batch of real positions for the network alone.
	batch := eval.NewBatch(s, cfg.Slots)
	var moves []int
	for i := 0; i < cfg.Slots; i++ {
		g := w.s.Game(i)
		g.Encode(batch.Planes[i*s.InputSize() : (i+1)*s.InputSize()])
		for _, idx := range g.LegalMoves(moves) {
			batch.Legal[i*s.PolicySize+idx] = 1
		}
	}
	for t0 := time.Now(); time.Since(t0) < cfg.Warmup; {
		if err := w.step(); err != nil {
			return nil, err
		}
	}
	hits := func() int {
		if c := w.s.Cache(); c != nil {
			h, _ := c.Stats()
			return int(h)
		}
		return 0
	}
	sims0, searches0, evals0, hits0, games0, plies0 := w.sims, w.searches, ev.positions, hits(), w.games, w.plies
	var netTime, playTime time.Duration
	calls := 0
	start := time.Now()
	for time.Since(start) < cfg.Measure {
		t0 := time.Now()
		if err := ev0.Evaluate(batch); err != nil {
			return nil, err
		}
		t1 := time.Now()
		if err := w.step(); err != nil {
			return nil, err
		}
		t2 := time.Now()
		netTime += t1.Sub(t0)
		playTime += t2.Sub(t1)
		calls++
	}
	res := &BenchResult{Variant: v.Name, Network: fmt.Sprintf("%dx%d", ncfg.Blocks, ncfg.Filters), BLAS: nn.BLASName,
		Batch: cfg.Slots, Seconds: time.Since(start).Seconds()}
	res.NetPositionsPerS = float64(calls*cfg.Slots) / netTime.Seconds()
	evals := ev.positions - evals0
	res.SimsPerS = float64(evals+hits()-hits0) / playTime.Seconds()
	res.Ratio = res.SimsPerS / res.NetPositionsPerS
	res.EvalsPerS = float64(evals) / playTime.Seconds()
	res.EvalRatio = res.EvalsPerS / res.NetPositionsPerS
	sc := cfg.Search
	res.SimsPerMove = (1-sc.CheapShare)*float64(sc.Sims) + sc.CheapShare*float64(sc.CheapSims)
	if n := w.searches - searches0; n > 0 {
		res.SimsPerMove, res.SimsPerMoveMeasured = float64(w.sims-sims0)/float64(n), true
	}
	res.GameLength = float64(cfg.MaxPlies)
	if n := w.games - games0; n > 0 {
		res.GameLength, res.GameLengthMeasured = float64(w.plies-plies0)/float64(n), true
	} else if w.games > 0 {
		res.GameLength, res.GameLengthMeasured = float64(w.plies)/float64(w.games), true
	}
	if res.SimsPerMove > 0 {
		res.GamesPerHour = 3600 * res.SimsPerS / (res.SimsPerMove * res.GameLength)
	}
	return res, nil
}

// newBenchPlayer returns self-play's player of worker 0 of a run of
// endless games into cfg.Out, searching with ev, as the benchmarks drive
// it: step by step, without a Driver's pool.
func newBenchPlayer(cfg *Config, r *agent.Rules, model string, ev eval.Evaluator) (*mctsPlayer, error) {
	d := &Driver{Out: cfg.Out, Games: 1, Workers: 1, Start: cfg.Start, FlushGames: cfg.FlushGames}
	next := 0 // the endless games' numbers: each its own seed and ID
	claim := func() (int, bool) { next++; return next - 1, true }
	run, err := d.newWorker("bench", claim, func(int) {}, func([]tally) {})
	if err != nil {
		return nil, err
	}
	w, err := newMCTSPlayer(0, cfg, r, model, ev)
	if err != nil {
		return nil, err
	}
	w.run = run
	return w, nil
}
