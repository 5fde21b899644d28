package train

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/internal/atomicfile"
	"bomberzero/internal/dirlock"
	"bomberzero/internal/readfile"
	"bomberzero/internal/runstore"
	"bomberzero/nn"
	"bomberzero/selfplay"
	"bomberzero/selfplay/teacher"
	"bomberzero/setup"
)

// FollowOptions configure a self-play worker of a run in a store.
type FollowOptions struct {
	// Store holds the run.
	Store *runstore.Store
	// Dir is the worker's scratch folder: its spool of finished chunks not
	// yet landed, and the model it plays. Nothing in it is needed
	// elsewhere; a worker restarted with the same Dir first lands what a
	// killed one left in its spool.
	Dir string
	// Workers overrides selfplay.workers of the run's config (0: keep it).
	Workers int
	// Games is the games played between two looks at the work order (0:
	// one per slot of every worker goroutine).
	Games int
	// Out receives a line per batch of games; Progress the waiting and
	// retry messages (nil: none).
	Out, Progress io.Writer
}

// FollowReport is what a Follow call did.
type FollowReport struct {
	Games  int // games landed in the store
	Chunks int // chunks landed
}

// Follow is the self-play worker of a run in a store: it reads the run's
// work order (latest.json), plays its model's games (or the teacher's),
// lands each finished game's chunk in the store with its game record and
// manifest entry, and reads the work order again after each batch, until
// ctx is cancelled. It keeps no state of its own: it can be started,
// killed or moved at any time, and any number can follow one run. A kill
// loses only the games in progress.
func Follow(ctx context.Context, opt FollowOptions) (*FollowReport, error) {
	if opt.Store == nil || opt.Dir == "" {
		return nil, errors.New("train: follow: a store and a scratch folder are needed")
	}
	// Workers sharing Dir each take the first free slot folder, so that a
	// restarted worker finds the spool its killed predecessor left.
	var lock *dirlock.Lock
	var slot string
	for i := 0; lock == nil; i++ {
		if i == maxSlots {
			return nil, fmt.Errorf("train: follow: %s: all %d slot folders are held by running workers", opt.Dir, maxSlots)
		}
		slot = filepath.Join(opt.Dir, fmt.Sprintf("slot-%d", i))
		if err := os.MkdirAll(filepath.Join(slot, "spool"), 0o755); err != nil {
			return nil, fmt.Errorf("train: follow: %w", err)
		}
		l, err := dirlock.Acquire(slot)
		if err == nil {
			lock = l
		} else if !errors.Is(err, dirlock.ErrLocked) {
			return nil, fmt.Errorf("train: follow: %w", err)
		}
	}
	defer lock.Release()
	opt.Dir = slot
	f := &follower{opt: opt, spool: filepath.Join(slot, "spool"), rep: &FollowReport{}}
	// A killed worker's finished games first; then its records of games
	// that never finished go.
	if err := f.land(ctx); err != nil {
		return f.rep, err
	}
	os.RemoveAll(filepath.Join(f.spool, "records"))
	cfg, err := f.waitConfig(ctx)
	if ctx.Err() != nil {
		return f.rep, nil
	}
	if err != nil {
		return f.rep, err
	}
	gen := -1
	for ctx.Err() == nil {
		wo, err := f.waitOrder(ctx)
		if err == nil && wo.Generation != gen && gen >= 0 {
			// A new generation: read the config again, which the
			// trainer's --set may have changed.
			cfg, err = f.waitConfig(ctx)
		}
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			return f.rep, err
		}
		gen = wo.Generation
		if err := f.play(ctx, cfg, wo); err != nil {
			if ctx.Err() != nil {
				break
			}
			return f.rep, err
		}
	}
	// Land what finished before the stop.
	if err := f.land(context.WithoutCancel(ctx)); err != nil {
		return f.rep, err
	}
	return f.rep, nil
}

// maxSlots bounds the worker processes sharing one scratch folder.
const maxSlots = 256

// follower is one Follow call.
type follower struct {
	opt   FollowOptions
	spool string
	rep   *FollowReport

	mu       sync.Mutex // serialises land
	model    *agent.Model
	modelKey string
	rules    *agent.Rules
}

func (f *follower) logf(format string, args ...any) {
	if f.opt.Progress != nil {
		fmt.Fprintf(f.opt.Progress, format+"\n", args...)
	}
}

// waitConfig reads the run's config from the store, waiting for the
// trainer to create the run.
func (f *follower) waitConfig(ctx context.Context) (setup.Config, error) {
	return waitUntilFound(ctx, f, "the trainer to create the run", func() (setup.Config, error) {
		if err := f.opt.Store.Download(ctx, configName, filepath.Join(f.opt.Dir, configName), 1<<20); err != nil {
			return setup.Config{}, err
		}
		cfg, _, err := loadRunConfig(f.opt.Dir, nil, -1)
		return cfg, err
	})
}

// waitOrder reads the run's work order, waiting for the first one.
func (f *follower) waitOrder(ctx context.Context) (WorkOrder, error) {
	return waitUntilFound(ctx, f, "the trainer's first work order", func() (WorkOrder, error) { return ReadWorkOrder(ctx, f.opt.Store) })
}

// waitUntilFound calls read until it finds what it reads (its error is not
// runstore.ErrNotFound), every pollEvery, saying once what it waits for.
func waitUntilFound[T any](ctx context.Context, f *follower, what string, read func() (T, error)) (T, error) {
	said := false
	for {
		v, err := read()
		if !errors.Is(err, runstore.ErrNotFound) {
			if err != nil {
				return v, fmt.Errorf("train: follow: %w", err)
			}
			return v, nil
		}
		if !said {
			f.logf("follow: %s: waiting for %s", f.opt.Store, what)
			said = true
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return v, err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// play plays one batch of the work order's games into the spool, landing
// them as they finish.
func (f *follower) play(ctx context.Context, cfg setup.Config, wo WorkOrder) error {
	var seed [8]byte
	rand.Read(seed[:])
	s := binary.LittleEndian.Uint64(seed[:])
	writer := strings.NewReplacer(" ", "-").Replace(runstore.Holder())
	workers := cfg.SelfPlay.WorkerCount()
	if f.opt.Workers > 0 {
		workers = f.opt.Workers
	}
	games := f.opt.Games
	if games <= 0 {
		games = workers * cfg.SelfPlay.Slots
	}
	stop := make(chan struct{})
	landed := make(chan error, 1)
	go func() { landed <- f.landEvery(ctx, stop) }()
	t0 := time.Now()
	var err error
	var n int
	if wo.Model == teacherModel {
		tc := cfg.Teacher
		if tc.Player != teacher.PlayerEngine {
			games *= 8 // alpha-beta teacher games are fast; the engine's cost about as much as self-play's
		}
		games = min(games, max(1, tc.GamesIn(wo.Generation)))
		var sum *teacher.Summary
		tcfg := tc.Settings(cfg.Variant, wo.Generation, games)
		tcfg.Out, tcfg.Workers, tcfg.FlushGames = f.spool, workers, 1
		tcfg.Writer, tcfg.Seed = writer, s
		sum, err = teacher.Run(ctx, tcfg, nil)
		if sum != nil {
			n = sum.Games
		}
	} else {
		if err = f.loadModel(ctx, cfg, wo); err != nil {
			close(stop)
			<-landed
			return err
		}
		sc := selfplay.Config{Variant: cfg.Variant, Model: f.model.Name, Generation: wo.Generation, Out: f.spool,
			FlushGames: 1, Writer: writer, Seed: s, Settings: cfg.SelfPlay.Settings}
		sc.Games, sc.Workers = games, workers
		var sum *selfplay.Summary
		sum, err = selfplay.RunModel(ctx, sc, f.rules, f.model, nil)
		if sum != nil {
			n = sum.Games
		}
	}
	close(stop)
	if lerr := <-landed; err == nil {
		err = lerr
	}
	if err != nil {
		return fmt.Errorf("train: follow: %w", err)
	}
	if f.opt.Out != nil && n > 0 {
		d := time.Since(t0)
		fmt.Fprintf(f.opt.Out, "follow: gen %d %s: %d games in %s (%.0f games/h); %d games landed in all\n",
			wo.Generation, wo.Model, n, d.Round(time.Second), float64(n)*3600/max(d.Seconds(), 1e-9), f.rep.Games)
	}
	return nil
}

// loadModel loads the work order's model unless it is the one loaded.
func (f *follower) loadModel(ctx context.Context, cfg setup.Config, wo WorkOrder) error {
	if f.model != nil && f.modelKey == wo.Model+"@"+wo.SHA256 {
		return nil
	}
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		return fmt.Errorf("train: follow: %w", err)
	}
	rules := agent.NewRules(v, cfg.SelfPlay.MaxPlies)
	var model *agent.Model
	if strings.HasPrefix(wo.Model, ckptDir+"/") {
		model, err = f.fetchNet(ctx, cfg, rules, wo)
	} else {
		model, err = agent.LoadModel(wo.Model, rules)
	}
	if err != nil {
		return fmt.Errorf("train: follow: %w", err)
	}
	f.model, f.modelKey, f.rules = model, wo.Model+"@"+wo.SHA256, rules
	f.logf("follow: %s: playing generation %d with %s", f.opt.Store, wo.Generation, wo.Model)
	return nil
}

// fetchNet reads the work order's checkpoint from the store, checks it
// against the order's SHA-256 and loads it.
func (f *follower) fetchNet(ctx context.Context, cfg setup.Config, rules *agent.Rules, wo WorkOrder) (*agent.Model, error) {
	data, err := f.opt.Store.Read(ctx, wo.Model, runstore.MaxFile)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != wo.SHA256 {
		return nil, fmt.Errorf("%s: the model's SHA-256 is not the work order's %s", wo.Model, wo.SHA256)
	}
	dst := filepath.Join(f.opt.Dir, "model.safetensors")
	if err := atomicfile.WriteFile(dst, data); err != nil {
		return nil, err
	}
	net, err := nn.LoadNet(dst, netConfig(rules, cfg.Net), rules.Variant.Name)
	if err != nil {
		return nil, err
	}
	return agent.NewNetModel(genName(wo.Generation), net.Fold(), rules)
}

// landEvery lands the spool's chunks every second until stop closes, then
// once more.
func (f *follower) landEvery(ctx context.Context, stop chan struct{}) error {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return f.land(context.WithoutCancel(ctx))
		case <-t.C:
			if err := f.land(context.WithoutCancel(ctx)); err != nil {
				return err
			}
		}
	}
}

// land moves each finished chunk of the spool into the store: the chunk,
// its games' records, then its manifest entry (the chunk exists for the
// trainer from that moment), then removes it from the spool.
func (f *follower) land(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	entries, err := os.ReadDir(f.spool)
	if err != nil {
		return fmt.Errorf("train: follow: %w", err)
	}
	s := f.opt.Store
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !validChunkName(name) {
			continue
		}
		p := filepath.Join(f.spool, name)
		data, err := readfile.Regular(p, datasets.MaxChunkBytes)
		if err != nil {
			return fmt.Errorf("train: follow: %w", err)
		}
		c, err := datasets.ParseChunk(data, p)
		if err != nil { // not ours to land: a damaged spool file
			f.logf("follow: %v; moved out of the spool", err)
			// A move that fails leaves the file to the next landing: logged,
			// not fatal.
			damaged := filepath.Join(f.opt.Dir, "damaged")
			if err := os.MkdirAll(damaged, 0o755); err != nil {
				f.logf("follow: %v", err)
			} else if err := atomicfile.Move(p, filepath.Join(damaged, name)); err != nil {
				f.logf("follow: %v", err)
			}
			continue
		}
		if err := s.Write(ctx, dataDir+"/"+name, data); err != nil {
			return fmt.Errorf("train: follow: %w", err)
		}
		var records []string
		for _, g := range datasets.Games(c.Rows) {
			rp := filepath.Join(f.spool, "records", g.ID+".txt")
			rec, err := readfile.Regular(rp, 16<<20)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				return fmt.Errorf("train: follow: %w", err)
			}
			if err := s.Write(ctx, gamesDir+"/"+g.ID+".txt", rec); err != nil {
				return fmt.Errorf("train: follow: %w", err)
			}
			records = append(records, rp)
		}
		gen := 0
		if len(c.Rows) > 0 {
			gen = int(c.Rows[0].Generation)
		}
		sum := sha256.Sum256(data)
		entry, _ := json.Marshal(ManifestEntry{Version: manifestVersion, Chunk: dataDir + "/" + name, SHA256: hex.EncodeToString(sum[:]),
			Size: int64(len(data)), Games: c.Info.Games, Positions: c.Info.Positions, Generation: gen,
			Writer: c.Info.Writer, Written: time.Now().UTC()})
		if err := s.Create(ctx, manifestKey(name), entry); err != nil && !errors.Is(err, runstore.ErrExists) {
			return fmt.Errorf("train: follow: %w", err)
		}
		for _, rp := range records {
			os.Remove(rp)
		}
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("train: follow: %w", err)
		}
		f.rep.Games += c.Info.Games
		f.rep.Chunks++
	}
	return nil
}
