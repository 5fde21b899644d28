package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/internal/dirlock"
	"bomberzero/internal/progress"
	"bomberzero/internal/readfile"
	"bomberzero/stats"
)

// Config is a run of the loop.
type Config struct {
	Variant *env.Variant
	// Table is the piece values in centipawns by type (agent.Values.Table).
	Table []int32
	// Dir is the run directory: state.json, metrics.jsonl, data/gen-KKKK/
	// chunks, nets/gen-KKKK.nnue.
	Dir string
	// Generations is the number of generations the run has when this call
	// returns (a resumed run plays only the missing ones).
	Generations int
	// Games self-play games a generation, ChunkGames of them a chunk.
	Games, ChunkGames int
	Play              PlayConfig
	// Workers is the number of games played at once.
	Workers int
	Seed    uint64
	// Window is how many generations' chunks, the newest, the next net
	// trains on, at most MaxPositions positions (the newest).
	Window, MaxPositions int
	Gate                 GateConfig // Nodes, MaxPlies, Workers and Seed are filled in
	Trainer              Trainer
	// Progress receives the plan line and the progress bars (nil: none).
	Progress io.Writer
	// AfterChunk, if not nil, is called after each chunk is saved (tests
	// stop a run there).
	AfterChunk func(gen, chunk int)
	// AfterGame, if not nil, is called after each self-play game (tests
	// kill a run in the middle of a chunk there).
	AfterGame func(gen, game int)
}

// DefaultConfig returns settings that fit two cores (the variant, table,
// directory and trainer are left to the caller): in fbgc, four generations
// of 8,500 games at 1,500 nodes a move, each net trained on the last two
// generations' positions (the newest 2 million), a run of 1 hour 45
// minutes on the project's idle 2-core machine whose net is +176 Elo over
// the classical evaluation (docs/RESULTS.md, "Half the nodes").
func DefaultConfig() Config {
	return Config{
		Generations: 4, Games: 8500, ChunkGames: 10, Play: DefaultPlayConfig(), Workers: 2, Seed: 1,
		Window: 2, MaxPositions: 2_000_000,
		Gate: GateConfig{Games: 200, SPRT: stats.SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}, OpeningPlies: 6},
	}
}

// Validate checks the settings.
func (c *Config) Validate() error {
	switch {
	case c.Variant == nil:
		return errors.New("nnue run: no variant")
	case c.Dir == "":
		return errors.New("nnue run: no directory")
	case c.Trainer == nil:
		return errors.New("nnue run: no trainer")
	case c.Generations < 1:
		return fmt.Errorf("generations %d: want at least 1", c.Generations)
	case c.Games < 1 || c.ChunkGames < 1:
		return fmt.Errorf("games %d, chunk games %d: want at least 1", c.Games, c.ChunkGames)
	case c.Workers < 1:
		return fmt.Errorf("workers %d: want at least 1", c.Workers)
	case c.Window < 1 || c.MaxPositions < 1:
		return fmt.Errorf("window %d, max positions %d: want at least 1", c.Window, c.MaxPositions)
	case c.Gate.Games < 1:
		return fmt.Errorf("gate games %d: want at least 1", c.Gate.Games)
	}
	if err := c.Gate.SPRT.Validate(); err != nil {
		return err
	}
	return c.Play.Validate()
}

// Record is one line of the run's metrics.jsonl: one finished generation.
type Record struct {
	Generation int       `json:"generation"`
	Time       time.Time `json:"time"`
	Elapsed    float64   `json:"elapsed_s"`
	// Player is the evaluation that played the self-play games.
	Player          string      `json:"player"`
	Games           int         `json:"games"`
	Positions       int         `json:"positions"`
	WhiteWins       int         `json:"white_wins"`
	Draws           int         `json:"draws"`
	BlackWins       int         `json:"black_wins"`
	Capped          int         `json:"capped"`
	MeanPlies       float64     `json:"mean_plies"`
	SelfPlaySeconds float64     `json:"selfplay_s"`
	Train           TrainStats  `json:"train"`
	TrainSeconds    float64     `json:"train_s"`
	Net             string      `json:"net"`
	Gate            GateResult  `json:"gate"`
	GateSeconds     float64     `json:"gate_s"`
	Accepted        bool        `json:"accepted"`
	Best            string      `json:"best"`
	SPRT            *stats.SPRT `json:"sprt,omitempty"`
}

// MetricsPath returns the metrics file of run directory dir.
func MetricsPath(dir string) string { return filepath.Join(dir, "metrics.jsonl") }

// ReadMetrics returns the records of dir's metrics.jsonl, leaving out a
// torn last line.
func ReadMetrics(dir string) ([]Record, error) {
	_, recs, err := readMetrics(dir)
	return recs, err
}

// readMetrics reads dir's metrics.jsonl once: its bytes (nil when there is
// no file) and its records, a torn last line left out.
func readMetrics(dir string) ([]byte, []Record, error) {
	path := MetricsPath(dir)
	data, err := readfile.Regular(path, 64<<20)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("metrics %s: %w", path, err)
	}
	var out []Record
	for i, line := range splitLines(data) {
		var r Record
		if err := json.Unmarshal(line.text, &r); err != nil {
			if !line.complete {
				break // torn by a kill
			}
			return nil, nil, fmt.Errorf("metrics %s line %d: %w", path, i+1, err)
		}
		out = append(out, r)
	}
	return data, out, nil
}

type line struct {
	text     []byte
	complete bool
}

func splitLines(data []byte) []line {
	var out []line
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' {
			i++
		}
		out = append(out, line{data[:i], i < len(data)})
		data = data[min(i+1, len(data)):]
	}
	return out
}

// appendMetrics appends r to dir's metrics.jsonl unless it already holds a
// record of r's generation (a run killed after the append and before the
// state save), syncing the file.
func appendMetrics(dir string, r Record) error {
	old, recs, err := readMetrics(dir)
	if err != nil {
		return err
	}
	for _, x := range recs {
		if x.Generation == r.Generation {
			return nil
		}
	}
	path := MetricsPath(dir)
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	// A torn last line left by a kill is cut off (the record it began is
	// written whole below).
	if len(old) > 0 && old[len(old)-1] != '\n' {
		keep := bytes.LastIndexByte(old, '\n') + 1
		if err := f.Truncate(int64(keep)); err != nil {
			f.Close()
			return err
		}
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// GenDir returns the chunk directory of generation gen.
func GenDir(dir string, gen int) string {
	return filepath.Join(dir, "data", fmt.Sprintf("gen-%04d", gen))
}

// ChunkPath returns the path of chunk c of generation gen.
func ChunkPath(dir string, gen, c int) string {
	return chunkIn(GenDir(dir, gen), c)
}

// NetPath returns the net file generation gen trains (relative to the run).
func NetPath(gen int) string { return filepath.Join("nets", fmt.Sprintf("gen-%04d.nnue", gen)) }

// Run runs the loop in cfg.Dir until it has cfg.Generations generations,
// starting or resuming the run there. A cancelled ctx stops it; the
// finished chunks, nets and generations stay and a later Run continues.
func Run(ctx context.Context, cfg Config) (err error) {
	if err := cfg.Validate(); err != nil {
		return err
	}
	lock, err := dirlock.Acquire(cfg.Dir)
	if err != nil {
		return err
	}
	defer lock.Release()
	st, ok, err := LoadState(cfg.Dir)
	if err != nil {
		return err
	}
	net := cfg.NetSettings()
	if !ok {
		st = &State{Kind: stateKind, Version: stateVersion, Variant: cfg.Variant.Name, Seed: cfg.Seed, Games: cfg.Games,
			ChunkGames: cfg.ChunkGames, Nodes: cfg.Play.Nodes, Table: slices.Clone(cfg.Table), Net: &net, Phase: PhaseSelfPlay, BestGeneration: -1}
		if err := saveState(cfg.Dir, st); err != nil {
			return err
		}
	}
	if err := st.matches(cfg); err != nil {
		return err
	}
	if st.Table == nil {
		// A state from before the table was recorded: the run's games so
		// far were played with an unrecorded table; from here on it is
		// this call's.
		st.Table = slices.Clone(cfg.Table)
		if err := saveState(cfg.Dir, st); err != nil {
			return err
		}
	}
	if st.Net == nil {
		// A version-1 state: the run's nets so far were trained with
		// unrecorded settings; from here on they are this call's.
		st.Version, st.Net = stateVersion, &net
		if err := saveState(cfg.Dir, st); err != nil {
			return err
		}
	}
	r := &runner{cfg: cfg, st: st, out: cfg.Progress}
	if r.out == nil {
		r.out = io.Discard
	}
	if st.Generation >= cfg.Generations {
		fmt.Fprintf(r.out, "nnue run %s: already has %d generations (best %s)\n", cfg.Dir, st.Generation, bestName(st.Best))
		return nil
	}
	fmt.Fprintf(r.out, "nnue run %s: %s, generations %d to %d, each: self-play %d games at %d nodes on %d workers -> train on the last %d generations' positions -> gate up to %d games (SPRT %g,%g)\n",
		cfg.Dir, cfg.Variant.Name, st.Generation, cfg.Generations-1, cfg.Games, cfg.Play.Nodes, cfg.Workers, cfg.Window, cfg.Gate.Games, cfg.Gate.SPRT.Elo0, cfg.Gate.SPRT.Elo1)
	fmt.Fprintf(r.out, "nnue run %s: nets %s\n", cfg.Dir, st.Net)
	for st.Generation < cfg.Generations {
		if err := r.generation(ctx); err != nil {
			return err
		}
	}
	return nil
}

// matches checks that a resumed run was started with cfg's data settings
// and, when the state records them, its net settings.
func (st *State) matches(cfg Config) error {
	path := StatePath(cfg.Dir)
	switch {
	case st.Variant != cfg.Variant.Name:
		return fmt.Errorf("state %s: a run of variant %s, not %s", path, st.Variant, cfg.Variant.Name)
	case st.Seed != cfg.Seed || st.Games != cfg.Games || st.ChunkGames != cfg.ChunkGames || st.Nodes != cfg.Play.Nodes:
		return fmt.Errorf("state %s: the run was started with seed %d, %d games (%d a chunk) at %d nodes; resume it with the same settings (got seed %d, %d games (%d a chunk) at %d nodes)",
			path, st.Seed, st.Games, st.ChunkGames, st.Nodes, cfg.Seed, cfg.Games, cfg.ChunkGames, cfg.Play.Nodes)
	}
	if st.Table != nil && !slices.Equal(st.Table, cfg.Table) {
		return fmt.Errorf("state %s: the run was started with the piece table %v (centipawns by type); resume it with the same table (got %v), or start a new run in another directory",
			path, st.Table, cfg.Table)
	}
	if st.Net != nil {
		if want, got := st.Net.Diff(cfg.NetSettings()); want != "" {
			return fmt.Errorf("state %s: the run trains its nets with %s; resume it with the same settings (got %s), or start a new run in another directory",
				path, want, got)
		}
	}
	return nil
}

func bestName(best string) string {
	if best == "" {
		return "classical"
	}
	return best
}

type runner struct {
	cfg   Config
	st    *State
	out   io.Writer
	start time.Time // of this call's current save interval
}

// save writes the state, adding the working time since the last save.
func (r *runner) save() error {
	now := time.Now()
	if !r.start.IsZero() {
		r.st.Elapsed += now.Sub(r.start).Seconds()
	}
	r.start = now
	return saveState(r.cfg.Dir, r.st)
}

// evaluator returns the evaluation of net (relative to the run), nil for
// the classical one.
func (r *runner) evaluator(net string) (engine.Evaluator, error) {
	if net == "" {
		return nil, nil
	}
	return r.cfg.Trainer.Evaluator(r.cfg.Variant, r.cfg.Table, filepath.Join(r.cfg.Dir, net))
}

// generation runs the rest of the current generation.
func (r *runner) generation(ctx context.Context) error {
	r.start = time.Now()
	st, cfg := r.st, r.cfg
	gen := st.Generation
	if st.Phase == PhaseSelfPlay {
		t := time.Now()
		err := r.selfPlay(ctx, gen)
		st.SelfPlaySeconds += time.Since(t).Seconds()
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				_ = r.save()
			}
			return err
		}
		st.Phase, st.Train = PhaseTrain, nil
		if err := r.save(); err != nil {
			return err
		}
	}
	if st.Phase == PhaseTrain {
		t := time.Now()
		ts, err := r.train(ctx, gen)
		if err != nil {
			return err
		}
		st.Train, st.TrainSeconds, st.Phase = &ts, time.Since(t).Seconds(), PhaseGate
		if err := r.save(); err != nil {
			return err
		}
	}
	// The gate.
	t := time.Now()
	net := NetPath(gen)
	a, err := r.evaluator(net)
	if err != nil {
		return err
	}
	b, err := r.evaluator(st.Best)
	if err != nil {
		return err
	}
	gc := cfg.Gate
	gc.Nodes, gc.MaxPlies, gc.Workers, gc.Seed = cfg.Play.Nodes, cfg.Play.MaxPlies, cfg.Workers, gameSeed(cfg.Seed, gen, 1<<30)
	bar := progress.New(r.out, gc.Games, fmt.Sprintf("gen %d gate %s vs %s", gen, net, bestName(st.Best)), "games")
	g, err := Gate(ctx, cfg.Variant, cfg.Table, a, b, net, bestName(st.Best), gc, bar.Set)
	if err != nil {
		bar.Stop()
		return err
	}
	bar.Finish()
	fmt.Fprintf(r.out, "gen %d gate: %s +%d =%d -%d against %s, score %.3f, Elo %+.0f [%+.0f, %+.0f], %s, %.1f vs %.1f ms a move: %s\n",
		gen, net, g.Wins, g.Draws, g.Losses, bestName(st.Best), g.Score, g.Elo, g.EloLow, g.EloHigh, g.Decision, g.AMsPerMove, g.BMsPerMove, map[bool]string{true: "accepted", false: "rejected"}[g.Accepted])
	metas, err := r.chunks(gen)
	if err != nil {
		return err
	}
	rec := Record{Generation: gen, Time: time.Now().UTC(), Player: bestName(st.Best), Net: net, Gate: g, GateSeconds: time.Since(t).Seconds(),
		Accepted: g.Accepted, SelfPlaySeconds: st.SelfPlaySeconds, TrainSeconds: st.TrainSeconds, SPRT: &gc.SPRT}
	if st.Train != nil {
		rec.Train = *st.Train
	}
	plies := 0
	for _, m := range metas {
		rec.Games += m.Games
		rec.Positions += m.Positions
		rec.WhiteWins += m.WhiteWins
		rec.Draws += m.Draws
		rec.BlackWins += m.BlackWins
		rec.Capped += m.Capped
		plies += m.Plies
	}
	if rec.Games > 0 {
		rec.MeanPlies = float64(plies) / float64(rec.Games)
	}
	if g.Accepted {
		st.Best, st.BestGeneration = net, gen
	}
	rec.Best = bestName(st.Best)
	rec.Elapsed = st.Elapsed + time.Since(r.start).Seconds()
	if err := appendMetrics(cfg.Dir, rec); err != nil {
		return err
	}
	st.Generation, st.Phase, st.SelfPlaySeconds, st.Train, st.TrainSeconds = gen+1, PhaseSelfPlay, 0, nil, 0
	return r.save()
}

// numChunks is the number of chunks of a generation.
func (r *runner) numChunks() int { return (r.cfg.Games + r.cfg.ChunkGames - 1) / r.cfg.ChunkGames }

// chunks reads the footers (and checks the rows) of generation gen's
// chunks.
func (r *runner) chunks(gen int) ([]ChunkMeta, error) {
	var out []ChunkMeta
	for c := range r.numChunks() {
		m, _, err := ReadChunk(ChunkPath(r.cfg.Dir, gen, c))
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// selfPlay plays the games of generation gen's chunks that are not on
// disk yet (Worker over every chunk).
func (r *runner) selfPlay(ctx context.Context, gen int) error {
	cfg := r.cfg
	net := ""
	if r.st.Best != "" {
		net = filepath.Join(cfg.Dir, r.st.Best)
	}
	bar := progress.New(r.out, cfg.Games, fmt.Sprintf("gen %d self-play (%s)", gen, bestName(r.st.Best)), "games")
	w := WorkerConfig{Variant: cfg.Variant, Table: cfg.Table, Net: net, Trainer: cfg.Trainer, Dir: GenDir(cfg.Dir, gen), Generation: gen,
		Games: cfg.Games, ChunkGames: cfg.ChunkGames, FirstChunk: 0, Chunks: r.numChunks(), Play: cfg.Play, Workers: cfg.Workers, Seed: cfg.Seed,
		Progress: bar.ResumeFunc(), AfterGame: cfg.AfterGame,
		AfterChunk: func(c int) error {
			if err := r.save(); err != nil {
				return err
			}
			if cfg.AfterChunk != nil {
				cfg.AfterChunk(gen, c)
			}
			return nil
		}}
	if err := Worker(ctx, w); err != nil {
		bar.Stop()
		return err
	}
	bar.Finish()
	return nil
}

// train trains generation gen's net on the window's positions.
func (r *runner) train(ctx context.Context, gen int) (TrainStats, error) {
	cfg := r.cfg
	var rows []Row
	// Newest generation first, its chunks newest first, up to the cap.
	for k := gen; k >= 0 && k > gen-cfg.Window && len(rows) < cfg.MaxPositions; k-- {
		paths, err := filepath.Glob(filepath.Join(GenDir(cfg.Dir, k), "chunk-*.parquet"))
		if err != nil {
			return TrainStats{}, err
		}
		SortChunkPaths(paths)
		slices.Reverse(paths)
		for _, p := range paths {
			if len(rows) >= cfg.MaxPositions {
				break
			}
			_, rs, err := ReadChunk(p)
			if err != nil {
				return TrainStats{}, err
			}
			rows = append(rows, rs[:min(len(rs), cfg.MaxPositions-len(rows))]...)
		}
	}
	if len(rows) == 0 {
		return TrainStats{}, fmt.Errorf("generation %d: no positions to train on in %s", gen, GenDir(cfg.Dir, gen))
	}
	if err := os.MkdirAll(filepath.Join(cfg.Dir, "nets"), 0o755); err != nil {
		return TrainStats{}, err
	}
	init := ""
	if r.st.Best != "" {
		init = filepath.Join(cfg.Dir, r.st.Best)
	}
	fmt.Fprintf(r.out, "gen %d train: %d positions from generations %d to %d, from %s\n", gen, len(rows), max(0, gen-cfg.Window+1), gen, bestName(r.st.Best))
	var bar *progress.Bar
	prog := func(step, total int) {
		if bar == nil {
			bar = progress.New(r.out, total, fmt.Sprintf("gen %d train", gen), "steps")
		}
		bar.Set(step)
	}
	ts, err := cfg.Trainer.Train(ctx, cfg.Variant, rows, init, filepath.Join(cfg.Dir, NetPath(gen)), gameSeed(cfg.Seed, gen, 1<<31), prog)
	if bar != nil {
		if err != nil {
			bar.Stop()
		} else {
			bar.Finish()
		}
	}
	if err != nil {
		return TrainStats{}, fmt.Errorf("generation %d training: %w", gen, err)
	}
	fmt.Fprintf(r.out, "gen %d train: loss %.5f, validation loss %.5f\n", gen, ts.TrainLoss, ts.ValidationLoss)
	return ts, nil
}
