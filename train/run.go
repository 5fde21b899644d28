package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/internal/atomicfile"
	"bomberzero/internal/dirlock"
	"bomberzero/internal/runstore"
	"bomberzero/metrics"
	"bomberzero/metrics/plot"
	"bomberzero/nn"
	"bomberzero/setup"
)

// Options say where a run lives, what it is and how long it may go.
type Options struct {
	// Dir is the run directory: an existing run (with state.json) is
	// resumed with its own config.toml; otherwise a new run starts there.
	Dir string
	// Config is a new run's configuration (ignored when resuming).
	Config setup.Config
	// Sets are "key=value" overrides (Config.Set) applied to a resumed
	// run's config.toml before it is validated, and saved into it: the way
	// to repair a run whose saved config is no longer valid, or to change a
	// knob (say train.learning_rate) from now on. The variant, the net
	// table and train.optimizer cannot change. Ignored for a new run.
	Sets []string
	// MemoryLimit is the estimated memory (Config.MemoryBytes) a run may
	// need, in bytes; 0 means MemoryLimit(), half the machine's memory.
	MemoryLimit int64
	// Budget stops the run cleanly after this much time in this call
	// (0: no limit): the phase in progress is checkpointed and left for a
	// resume.
	Budget time.Duration
	// Generations, when positive, overrides the config's: the run stops
	// once this many generations are done in total.
	Generations int
	// Out receives one summary line per generation (nil: none).
	Out io.Writer
	// Progress receives the progress bars (nil: none).
	Progress io.Writer
	// Log receives the warnings and notices for the user: chunks and
	// records quarantined, the lease waited for, a torn metrics line
	// (nil: Progress, or Out when that is nil too). The command sets it
	// to stderr, --quiet or not, so that no warning lands in the output.
	Log io.Writer

	// Store, when not nil, is where the run lives (an object store): Dir
	// is then this machine's working copy of it, pulled from the store
	// when Run starts and pushed to it after every save, and the run is
	// held by a lease in the store (one process at a time).
	Store *runstore.Store
	// Role is RoleAll (also ""): self-play, training and evaluation here;
	// or RoleTrainer (Store needed): training only, on the games that
	// self-play workers (Follow) land in the store, publishing each
	// generation's model for them.
	Role string
	// LeaseTTL is how long the run's lease outlives its holder's last
	// heartbeat (0: DefaultLeaseTTL). A trainer restarted after a kill
	// waits up to twice this for the dead holder's lease to expire.
	LeaseTTL time.Duration
}

// Report is what a call to Run did.
type Report struct {
	Dir         string
	Resumed     bool
	Generations int    // generations done in the run so far
	Steps       int64  // trainer steps so far
	Model       string // the newest generation checkpoint ("" before the first)
	// Stopped says why Run returned: "generations", "budget" or "cancelled".
	Stopped string
	// Store is the run's store location ("" for a run kept only in Dir);
	// Model is then the newest model's key there.
	Store  string
	Ladder []metrics.Rating // the newest Elo ladder
}

// IsRun reports whether dir holds a run that Run would resume.
func IsRun(dir string) bool {
	_, err := os.Stat(statePath(dir))
	return err == nil
}

// Paths of a run directory.
const (
	configName  = "config.toml"
	metricsName = "metrics.jsonl"
	dataDir     = "data"
	gamesDir    = "games"
	ckptDir     = "checkpoints"
	plotsDir    = "plots"
)

// GenCheckpoint returns the path of the checkpoint generation gen produced
// in run dir (gen 1 is the first trained model; gen 0 the initial one).
func GenCheckpoint(dir string, gen int) string {
	return filepath.Join(dir, ckptDir, genName(gen)+".safetensors")
}

// DataDir returns the directory of a run's training data chunks.
func DataDir(dir string) string { return filepath.Join(dir, dataDir) }

func genName(gen int) string { return fmt.Sprintf("gen-%04d", gen) }

// errStop is returned by a phase that stopped because its context ended.
var errStop = errors.New("stopped")

// runner is one call of Run.
type runner struct {
	dir   string
	cfg   setup.Config
	opt   Options
	st    *state
	start time.Time // when this call began
	base  float64   // st.Elapsed when this call began

	variant *env.Variant
	spRules *agent.Rules // self-play rules (its length cap)
	evRules *agent.Rules // match rules (its length cap)
	netCfg  nn.Config
	trainer *nn.Trainer
	pcg     *rand.PCG
	rng     *rand.Rand
	window  *datasets.Window
	canon   canonicalWindow // the window's positions in content order, for sampling
	canonOK bool            // whether canon was built from a refresh in this generation
	metrics *metrics.Writer
	remote  *remote // nil for a run kept only in dir

	gens  int     // the generations this call stops after (0: none)
	rates rates   // the plan's speeds: guesses, then measurements
	plan  []stage // the run's phases (plan.go)
	shown int     // the phase whose plan was printed last (-1: none)
}

// diskFull adds to err, when a write ran out of space (ENOSPC, EDQUOT,
// or EFBIG past a file size limit), what it means for the run: every write
// is atomic (atomicfile), so the file named in err was not replaced (a
// metrics line cut short is repaired on resume) and everything written
// before it, the last checkpoint and state.json included, is whole; a
// resume once there is space carries on from there.
func diskFull(dir string, err error) error {
	if !atomicfile.DiskFull(err) {
		return err
	}
	return fmt.Errorf("%w; the disk is full (or the file size limit is reached): the write named failed, "+
		"and nothing written before it is lost (the last checkpoint and state.json are whole); "+
		"free some space, then resume with: bomberzero train --run %s", err, dir)
}

// Run starts or resumes the run in opt.Dir and trains until its generations
// are done, the budget is spent or ctx is cancelled. Everything is on disk
// when it returns: a later Run on the same directory continues.
func Run(ctx context.Context, opt Options) (*Report, error) {
	if opt.Dir == "" {
		return nil, fmt.Errorf("train: no run directory given")
	}
	switch opt.Role {
	case "", RoleAll:
	case RoleTrainer:
		if opt.Store == nil {
			return nil, fmt.Errorf("train: role %s needs a run in an object store (--run URL), where its workers land their games", RoleTrainer)
		}
	default:
		return nil, fmt.Errorf("train: role %q: want %s or %s (the %s role is Evaluate)", opt.Role, RoleAll, RoleTrainer, RoleEvaluator)
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	lock, err := dirlock.Acquire(opt.Dir)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	defer lock.Release()
	r := &runner{dir: opt.Dir, opt: opt, start: time.Now()}
	if opt.Store != nil {
		if r.remote, err = openRemote(ctx, opt, r.logf); err != nil {
			return nil, err
		}
		defer r.remote.close(ctx)
	}
	resumed := IsRun(opt.Dir)
	if !resumed {
		if err := checkNew(opt.Dir); err != nil {
			return nil, err
		}
	}
	if err := r.open(resumed); err != nil {
		return nil, err
	}
	defer r.metrics.Close()
	if opt.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Budget)
		defer cancel()
	}
	gens := r.cfg.Generations
	if opt.Generations > 0 {
		gens = opt.Generations
	}
	rep := &Report{Dir: opt.Dir, Resumed: resumed}
	if err := r.startPlan(gens); err != nil {
		return nil, err
	}
	for err == nil {
		if gens > 0 && r.st.Generation >= gens {
			rep.Stopped = "generations"
			break
		}
		if ctx.Err() != nil {
			break
		}
		switch r.st.Phase {
		case phaseSelfPlay:
			if r.opt.Role == RoleTrainer {
				err = r.collect(ctx)
			} else {
				err = r.selfPlay(ctx)
			}
		case phaseTrain:
			err = r.trainPhase(ctx)
		case phaseEval:
			err = r.evalPhase(ctx)
		}
	}
	if err != nil && !errors.Is(err, errStop) {
		return nil, diskFull(opt.Dir, err)
	}
	if rep.Stopped == "" {
		rep.Stopped = "cancelled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			rep.Stopped = "budget"
		}
	}
	if err := r.save(); err != nil {
		return nil, diskFull(opt.Dir, err)
	}
	rep.Generations, rep.Steps = r.st.Generation, r.trainer.Steps()
	if r.st.Generation > 0 {
		rep.Model = GenCheckpoint(r.dir, r.st.Generation)
		if r.remote != nil {
			rep.Store = r.remote.store.String()
			rep.Model = filepath.ToSlash(filepath.Join(ckptDir, genName(r.st.Generation)+".safetensors"))
		}
	}
	recs, _, err := metrics.Read(filepath.Join(r.dir, metricsName))
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if len(recs) > 0 {
		rep.Ladder = recs[len(recs)-1].Ladder
	}
	return rep, nil
}

// open creates the run directory and its first state, or loads them.
func (r *runner) open(resume bool) error {
	changed := false
	if resume {
		st, err := loadState(r.dir)
		if err != nil {
			return err
		}
		cfg, ch, err := loadRunConfig(r.dir, r.opt.Sets, st.Generation)
		if err != nil {
			return err
		}
		r.cfg, changed, r.st = cfg, ch, st
	} else {
		r.cfg = r.opt.Config
		if err := r.cfg.Validate(); err != nil {
			return err
		}
	}
	v, err := env.LoadVariant(r.cfg.Variant)
	if err != nil {
		return fmt.Errorf("train: variant: %w", err)
	}
	r.variant = v
	limit := r.opt.MemoryLimit
	if limit <= 0 {
		limit = setup.MemoryLimit()
	}
	if err := r.cfg.Check(v, limit); err != nil {
		if resume {
			return repairHint(r.dir, err)
		}
		return err
	}
	if r.opt.Progress != nil {
		fmt.Fprintf(r.opt.Progress, "train: estimated peak memory %s\n", r.cfg.MemoryBytes(agent.NewRules(v, r.cfg.SelfPlay.MaxPlies).Shape()))
	}
	if changed {
		data, err := r.cfg.Encode()
		if err != nil {
			return err
		}
		if err := writeAtomic(filepath.Join(r.dir, configName), data); err != nil {
			return err
		}
		r.logf("train: %s: saved with %s", filepath.Join(r.dir, configName), strings.Join(r.opt.Sets, ", "))
	}
	r.spRules = agent.NewRules(v, r.cfg.SelfPlay.MaxPlies)
	r.evRules = agent.NewRules(v, r.cfg.Eval.MaxPlies)
	if err := r.evRules.SetLeafEngine(r.cfg.Eval.LeafEngine); err != nil {
		return fmt.Errorf("train: eval.leaf_engine: %w", err)
	}
	r.netCfg = netConfig(r.spRules, r.cfg.Net)
	threads := r.cfg.Train.Threads
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	nn.SetBLASThreads(threads)
	for _, d := range []string{dataDir, gamesDir, ckptDir, plotsDir} {
		if err := os.MkdirAll(filepath.Join(r.dir, d), 0o755); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	if err := r.removeTemps(); err != nil {
		return err
	}
	if resume {
		if err := r.load(); err != nil {
			return err
		}
	} else if err := r.create(); err != nil {
		return err
	}
	r.base = r.st.Elapsed
	if r.metrics, err = metrics.OpenWriter(filepath.Join(r.dir, metricsName)); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if t := r.metrics.Torn(); t != nil {
		if err := r.repairTorn(t); err != nil {
			return err
		}
	}
	if r.window, err = datasets.NewWindow(filepath.Join(r.dir, dataDir), datasets.WindowConfig{Size: r.cfg.Train.Window, Variant: v.Name,
		ShortHorizon: r.shortHorizon()}); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// removeTemps deletes the temporary files that writes killed before their
// rename left in the run directory and the folders where atomic writes
// happen: the run is locked, so no live writer owns one.
func (r *runner) removeTemps() error {
	var all []string
	for _, d := range []string{"", dataDir, filepath.Join(dataDir, "records"), gamesDir, ckptDir, plotsDir} {
		removed, err := datasets.RemoveStaleTemps(filepath.Join(r.dir, d), 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("train: %s: %w", r.dir, err)
		}
		all = append(all, removed...)
	}
	if len(all) > 0 {
		r.logf("train: removed %d temporary files of writes killed before they finished: %s", len(all), strings.Join(all, ", "))
	}
	return nil
}

// repairTorn reports the torn last line of metrics.jsonl that the writer
// cut off (a kill in the middle of a record) and repairs what it can: the
// record of a generation whose evaluation is being replayed is written
// again by the replay; that of a finished generation is rebuilt from its
// checkpoint (its model and time: the figures of its games, training and
// matches are lost with the line) and appended.
func (r *runner) repairTorn(t *metrics.Torn) error {
	msg := "train: warning: " + t.Warning()
	recs, _, err := metrics.Read(t.Path)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	gen, ok := t.Generation()
	if !ok { // cut before its generation: records come in order
		gen = 0
		if n := len(recs); n > 0 {
			gen = recs[n-1].Generation + 1
		}
	}
	if n := len(recs); n > 0 && recs[n-1].Generation >= gen {
		r.logf("%s; generation %d's record is whole on the line before", msg, gen)
		return nil
	}
	if gen >= r.st.Generation {
		r.logf("%s; generation %d's record is written again when its evaluation is replayed", msg, gen)
		return nil
	}
	ckpt := GenCheckpoint(r.dir, gen+1)
	info, err := os.Stat(ckpt)
	if err != nil {
		r.logf("%s; generation %d's record is lost (%v)", msg, gen, err)
		return nil
	}
	rec := metrics.Record{Time: info.ModTime().UTC(), Generation: gen, Model: genName(gen + 1)}
	if n := len(recs); n > 0 {
		rec.Elapsed = recs[n-1].Elapsed
	}
	if err := r.metrics.Append(rec); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	r.logf("%s; generation %d's record rebuilt from its checkpoint %s (its model and time; its games', training's and matches' figures were on the lost line)",
		msg, gen, ckpt)
	return nil
}

// netConfig is the network of table n for the rules' input and policy shape.
func netConfig(rules *agent.Rules, n setup.NetConfig) nn.Config {
	s := rules.Shape()
	return nn.Config{Channels: s.Channels, Height: s.Height, Width: s.Width, PolicyPlanes: s.PolicySize / (s.Height * s.Width),
		Blocks: n.Blocks, Filters: n.Filters, PolicyFilters: n.PolicyFilters, ValueFilters: n.ValueFilters, ValueHidden: n.ValueHidden,
		GlobalPool: n.GlobalPool, ShortValue: n.ShortValue}
}

// creatingDir is where a new run's first files are written before they
// are moved into the run directory, state.json last.
const creatingDir = ".creating"

// checkNew refuses to start a new run in dir when dir holds parts of a run
// without its state.json (a run killed while being created, or a deleted
// state file): starting afresh would overwrite its config, checkpoints or
// data. What a killed creation left in dir/.creating is removed.
func checkNew(dir string) error {
	if err := os.RemoveAll(filepath.Join(dir, creatingDir)); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	var found []string
	for _, name := range []string{configName, metricsName} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			found = append(found, name)
		}
	}
	for _, sub := range []string{dataDir, gamesDir, ckptDir, plotsDir} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		n := 0
		for _, e := range entries {
			if e.Name() != dirlock.Name {
				n++
			}
		}
		if err == nil && n > 0 {
			found = append(found, fmt.Sprintf("%s/ (%d entries)", sub, n))
		}
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("train: %s is an incomplete run: it has %s but no state.json (the run was stopped while being created, "+
		"or its state.json was removed); nothing was changed. To start a new run there, move those away "+
		"(or choose another --run directory); to keep training on its data, restore its state.json",
		dir, strings.Join(found, ", "))
}

// create starts a new run: its config, initial network and state, written
// in dir/.creating and moved into the run directory with state.json last,
// so that a run either has its state or is refused as incomplete.
func (r *runner) create() error {
	final := r.dir
	stage := filepath.Join(final, creatingDir)
	if err := os.MkdirAll(filepath.Join(stage, ckptDir), 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	// Nothing is pushed while the run's first files are staged: the
	// store gets them after the move, state.json last.
	rm := r.remote
	r.dir, r.remote = stage, nil
	err := r.createIn()
	r.dir, r.remote = final, rm
	if err != nil {
		return err
	}
	moves := []string{configName, GenCheckpoint("", 0), r.st.Checkpoint, "state.json"}
	for _, m := range moves {
		// Move syncs both directories, so each file is durable where it
		// landed before the next (state.json last) moves.
		if err := atomicfile.Move(filepath.Join(stage, m), filepath.Join(final, m)); err != nil {
			return fmt.Errorf("train: creating the run: %w", err)
		}
	}
	if err := os.RemoveAll(stage); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if r.remote == nil {
		return nil
	}
	if err := r.publish(); err != nil {
		return err
	}
	return r.remote.push(context.Background())
}

// createIn writes a new run's first files into r.dir.
func (r *runner) createIn() error {
	data, err := r.cfg.Encode()
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(r.dir, configName), data); err != nil {
		return err
	}
	net, err := r.initialNet()
	if err != nil {
		return err
	}
	if r.trainer, err = nn.NewTrainer(net, r.trainConfig()); err != nil {
		return fmt.Errorf("train: trainer: %w", err)
	}
	r.pcg = rand.NewPCG(r.cfg.Seed, mix(r.cfg.Seed, 0x726e67))
	r.rng = rand.New(r.pcg)
	r.st = &state{Phase: phaseSelfPlay, GenWriter: newGenWriter(0)}
	if err := r.trainer.Save(GenCheckpoint(r.dir, 0), r.variant.Name); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return r.checkpoint()
}

// initialNet is generation 0's network: net.init's weights, or random ones
// drawn from the run's seed.
func (r *runner) initialNet() (*nn.Net, error) {
	if r.cfg.Net.Init == "" {
		net, err := nn.New(r.netCfg, mix(r.cfg.Seed, 0x6e6574))
		if err != nil {
			return nil, fmt.Errorf("train: network: %w", err)
		}
		return net, nil
	}
	net, err := nn.LoadNet(r.cfg.Net.Init, r.netCfg, r.variant.Name)
	if err != nil {
		return nil, fmt.Errorf("train: config: net.init = %q: want a checkpoint of variant %s with the shape of the [net] table: %w",
			r.cfg.Net.Init, r.variant.Name, err)
	}
	r.logf("train: generation 0 starts from the weights of %s (net.init)", r.cfg.Net.Init)
	return net, nil
}

// trainConfig is the trainer's optimizer settings of the run's config.
func (r *runner) trainConfig() nn.TrainConfig {
	tc := nn.DefaultTrainConfig()
	tc.Optimizer, tc.Momentum, tc.L2 = r.cfg.Train.Optimizer, r.cfg.Train.Momentum, r.cfg.Train.L2
	tc.Schedule = nn.Schedule{Base: r.cfg.Train.LearningRate}
	tc.MovesLeftWeight, tc.ShortValueWeight = r.cfg.Train.MovesLeftWeight, r.cfg.Train.ShortValueWeight
	return tc
}

// load restores the trainer and random state of a run being resumed.
func (r *runner) load() error {
	if r.st.Checkpoint == "" {
		return fmt.Errorf("train: %s: no checkpoint recorded", statePath(r.dir))
	}
	t, err := nn.LoadTrainer(filepath.Join(r.dir, r.st.Checkpoint), r.netCfg, r.variant.Name)
	if err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if t.Steps() != r.st.Steps {
		return fmt.Errorf("train: resume: checkpoint %s has %d steps, state says %d", r.st.Checkpoint, t.Steps(), r.st.Steps)
	}
	// The config's optimizer settings win over the checkpoint's, so that
	// a resume with --set train.learning_rate=... takes effect.
	if err := t.SetConfig(r.trainConfig()); err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	r.trainer = t
	removeStaleSteps(r.dir, r.st.Checkpoint)
	r.pcg = &rand.PCG{}
	if err := r.pcg.UnmarshalBinary(r.st.RNG); err != nil {
		return fmt.Errorf("train: %s: field rng: %w", statePath(r.dir), err)
	}
	r.rng = rand.New(r.pcg)
	// A kill between the metrics record and the state that follows it
	// leaves the generation recorded but not advanced: advance it now.
	recs, _, err := metrics.Read(filepath.Join(r.dir, metricsName))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("train: resume: %w", err)
	}
	if n := len(recs); n > 0 && recs[n-1].Generation == r.st.Generation && r.st.Phase == phaseEval {
		return r.nextGeneration()
	}
	return nil
}

// elapsed is the run's working seconds now.
func (r *runner) elapsed() float64 { return r.base + time.Since(r.start).Seconds() }

// save writes the state with the current elapsed time.
func (r *runner) save() error {
	r.st.Elapsed = r.elapsed()
	rng, err := r.pcg.MarshalBinary()
	if err != nil {
		return fmt.Errorf("train: rng: %w", err)
	}
	if r.st.Steps == r.trainer.Steps() {
		r.st.RNG = rng // the random state belongs with the checkpoint's step
	}
	if err := saveState(r.dir, r.st); err != nil {
		return err
	}
	if r.remote != nil {
		return r.remote.push(context.Background())
	}
	return nil
}

// checkpoint saves the trainer under its step number, then the state that
// points to it, then removes the previous step checkpoint.
func (r *runner) checkpoint() error {
	name := filepath.Join(ckptDir, fmt.Sprintf("step-%08d.safetensors", r.trainer.Steps()))
	if name == r.st.Checkpoint {
		return r.save()
	}
	if err := r.trainer.Save(filepath.Join(r.dir, name), r.variant.Name); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	old := r.st.Checkpoint
	r.st.Checkpoint, r.st.Steps = name, r.trainer.Steps()
	if err := r.save(); err != nil {
		return err
	}
	if old != "" {
		os.Remove(filepath.Join(r.dir, old))
	}
	return nil
}

// removeStaleSteps removes step checkpoints other than keep: a kill
// between a new step checkpoint and the state naming it leaves one behind.
func removeStaleSteps(dir, keep string) {
	matches, _ := filepath.Glob(filepath.Join(dir, ckptDir, "step-*.safetensors"))
	for _, m := range matches {
		if rel, err := filepath.Rel(dir, m); err == nil && rel != keep {
			os.Remove(m)
		}
	}
}

// collectRecords moves the game records of the generation's games from
// data/records, where self-play writes them, to games/. Self-play writes a
// game's record just before its chunk, so a kill between the two leaves a
// record of a game that is not in the data: such records are removed.
func (r *runner) collectRecords() error {
	src := filepath.Join(r.dir, dataDir, "records")
	entries, err := os.ReadDir(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	chunks, err := r.genChunks()
	if err != nil {
		return err
	}
	inData := map[string]bool{}
	for _, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			continue // an unusable chunk's games are not in the data
		}
		for _, row := range c.Rows {
			inData[row.GameID] = true
		}
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || filepath.Ext(name) != ".txt" || name[0] == '.' {
			continue
		}
		path := filepath.Join(src, name)
		if !inData[strings.TrimSuffix(name, ".txt")] {
			// A game killed between its record and its chunk, or one of
			// a damaged chunk: set aside, never deleted.
			dst := filepath.Join(r.dir, dataDir, quarantineDir, "records")
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return fmt.Errorf("train: %w", err)
			}
			if err := atomicfile.Move(path, filepath.Join(dst, name)); err != nil {
				return fmt.Errorf("train: %w", err)
			}
			r.logf("train: game record %s has no game in the data; moved to %s", name, dst)
			continue
		}
		if err := atomicfile.Move(path, filepath.Join(r.dir, gamesDir, name)); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	return nil
}

// nextGeneration closes the generation: the next one starts with
// self-play, and its data are the chunks written from now on.
func (r *runner) nextGeneration() error {
	if err := r.writeIngested(); err != nil {
		return err
	}
	r.st.Generation++
	r.st.Phase = phaseSelfPlay
	r.canonOK = false // the next generation's games are coming
	r.st.GenWriter, r.st.ChunksAtGenStart = newGenWriter(r.st.Generation), 0
	r.st.GenChunks = nil
	r.st.SelfPlaySeconds = 0
	r.st.Gen = genTrain{}
	if r.remote != nil {
		if err := r.publish(); err != nil {
			return err
		}
	}
	return r.save()
}

// redraw writes the plots of the metrics so far.
func (r *runner) redraw() error {
	recs, _, err := metrics.Read(filepath.Join(r.dir, metricsName))
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if _, err := plot.Write(filepath.Join(r.dir, plotsDir), recs, "png"); err != nil {
		return fmt.Errorf("train: plots: %w", err)
	}
	return nil
}

// mix derives a seed from a seed and a tag (splitmix64 finalizer).
func mix(seed, tag uint64) uint64 {
	z := seed ^ (tag+0x9e3779b97f4a7c15)*0xbf58476d1ce4e5b9
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// shortHorizon is the window's short-term value horizon: the config's with
// the short-term value head, else 0 (no targets computed).
func (r *runner) shortHorizon() float64 {
	if !r.cfg.Net.ShortValue {
		return 0
	}
	return r.cfg.Train.ShortValuePlies
}
