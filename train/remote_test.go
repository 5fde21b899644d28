package train

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/internal/runstore"
	"bomberzero/metrics"
	"bomberzero/selfplay"
)

// fileStore opens a store in a fresh local folder through the object-store
// code path (file://).
func fileStore(t *testing.T) *runstore.Store {
	t.Helper()
	s, err := runstore.Open(context.Background(), "file://"+filepath.ToSlash(filepath.Join(t.TempDir(), "bucket")),
		runstore.Options{Retry: runstore.Retry{Attempts: 3, First: 10 * time.Millisecond, Max: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// storeGames reads every landed chunk of a store through its manifest:
// the games, their IDs, and how many manifest entries there are.
func storeGames(t *testing.T, s *runstore.Store) (games int, ids map[string]int, entries int) {
	t.Helper()
	ctx := context.Background()
	objs, err := s.List(ctx, manifestDir+"/")
	if err != nil {
		t.Fatal(err)
	}
	ids = map[string]int{}
	for _, o := range objs {
		raw, err := s.Read(ctx, o.Key, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		var e ManifestEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		data, err := s.Read(ctx, e.Chunk, e.Size)
		if err != nil {
			t.Fatal(err)
		}
		c, err := datasets.ParseChunk(data, e.Chunk)
		if err != nil {
			t.Fatalf("landed chunk %s does not verify: %v", e.Chunk, err)
		}
		for _, g := range datasets.Games(c.Rows) {
			ids[g.ID]++
			if _, err := s.Stat(ctx, gamesDir+"/"+g.ID+".txt"); err != nil {
				t.Errorf("game %s of %s has no record in the store: %v", g.ID, e.Chunk, err)
			}
		}
		games += c.Info.Games
		entries++
	}
	return games, ids, entries
}

func TestRunInAStoreResumesOnAnotherMachine(t *testing.T) {
	cfg := tinyConfig(t)
	s := fileStore(t)
	ctx := context.Background()
	rep, err := Run(ctx, Options{Dir: t.TempDir(), Config: cfg, Generations: 1, Store: s})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Generations != 1 || rep.Store == "" || rep.Model != "checkpoints/gen-0001.safetensors" {
		t.Fatalf("first machine: %+v", rep)
	}
	// A second machine, with an empty working copy, carries on.
	other := t.TempDir()
	rep, err = Run(ctx, Options{Dir: other, Generations: 2, Store: s})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Resumed || rep.Generations != 2 {
		t.Fatalf("second machine: %+v", rep)
	}
	checkRunComplete(t, other, cfg, 2)
	// And the store's copy is the whole run: a third machine sees both
	// generations' records and checkpoints.
	third := t.TempDir()
	m := &runstore.Mirror{Store: s, Dir: third}
	if _, err := m.Pull(ctx); err != nil {
		t.Fatal(err)
	}
	checkRunComplete(t, third, cfg, 2)
	wo, err := ReadWorkOrder(ctx, s)
	if err != nil || wo.Generation != 2 || wo.Model != "checkpoints/gen-0002.safetensors" || len(wo.SHA256) != 64 {
		t.Errorf("work order %+v (%v), want generation 2 with gen-0002's checksum", wo, err)
	}
}

func TestSecondTrainerOfAStoreRunIsRefusedNamingTheHolder(t *testing.T) {
	cfg := tinyConfig(t)
	s := fileStore(t)
	ctx := context.Background()
	l, err := runstore.AcquireLease(ctx, s, trainerLease, "machine-a pid 7", time.Minute, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx)
	_, err = Run(ctx, Options{Dir: t.TempDir(), Config: cfg, Generations: 1, Store: s, LeaseTTL: time.Second})
	if !errors.Is(err, runstore.ErrLeaseHeld) || !strings.Contains(err.Error(), "machine-a pid 7") {
		t.Fatalf("second trainer: %v, want ErrLeaseHeld naming machine-a pid 7", err)
	}
}

// TestTrainerAndWorkersSplitARun runs a trainer, two self-play workers and
// an evaluator on one store, as separate machines would: every game the
// workers landed is counted once, the trainer's metrics agree with the
// chunks, and every published model is rated.
func TestTrainerAndWorkersSplitARun(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.SelfPlay.Workers = 1
	s := fileStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	reports := make([]*FollowReport, 2)
	errs := make([]error, 3)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], errs[i] = Follow(ctx, FollowOptions{Store: s, Dir: t.TempDir(), Games: 2})
		}()
	}
	var rated *EvaluateReport
	wg.Add(1)
	go func() {
		defer wg.Done()
		rated, errs[2] = Evaluate(ctx, EvaluateOptions{Store: s, Dir: t.TempDir()})
	}()
	dir := t.TempDir()
	rep, err := Run(ctx, Options{Dir: dir, Config: cfg, Generations: 2, Store: s, Role: RoleTrainer})
	if err != nil {
		cancel()
		wg.Wait()
		t.Fatal(err)
	}
	if rep.Generations != 2 {
		t.Errorf("trainer: %+v", rep)
	}
	// Give the evaluator time to rate both published models.
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if objs, _ := s.List(ctx, evalDir+"/"); len(objs) >= 2 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("role %d: %v", i, err)
		}
	}
	landed, ids, _ := storeGames(t, s)
	if landed != reports[0].Games+reports[1].Games {
		t.Errorf("the store holds %d games, the workers say they landed %d + %d", landed, reports[0].Games, reports[1].Games)
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("game %s landed %d times", id, n)
		}
	}
	recs := readMetrics(t, dir)
	if len(recs) != 2 {
		t.Fatalf("%d metrics records, want 2", len(recs))
	}
	for i, r := range recs {
		if r.SelfPlay == nil || r.SelfPlay.Games < cfg.GamesIn(i) {
			t.Errorf("generation %d: self-play %+v, want at least %d games", i, r.SelfPlay, cfg.GamesIn(i))
		}
		if len(r.Matches) != 0 {
			t.Errorf("generation %d: the trainer played matches %+v (the evaluator's job)", i, r.Matches)
		}
	}
	if collected := checkCollected(t, dir, recs, true); collected > landed {
		t.Errorf("the trainer collected %d games, only %d landed", collected, landed)
	}
	if rated == nil || len(rated.Rated) != 2 {
		t.Fatalf("evaluator rated %+v, want generations 1 and 2", rated)
	}
	raw, err := s.Read(ctx, evalKey(2), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var er metrics.Record
	if err := json.Unmarshal(raw, &er); err != nil {
		t.Fatal(err)
	}
	if er.Model != "gen-0002" || len(er.Matches) != 2 || len(er.Ladder) == 0 {
		t.Errorf("evaluation of gen 2: %+v, want matches against gen-0001 and random and a ladder", er)
	}
}

// landGames plays n quick games into a worker's spool and lands them in
// the store as Follow does; it returns the chunk names landed.
func landGames(t *testing.T, s *runstore.Store, n int) []string {
	t.Helper()
	c, err := selfplay.DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	c.Model, c.Games, c.Workers, c.Slots, c.FlushGames = agent.Material, n, 1, n, 1
	c.Sims, c.CheapSims, c.MaxPlies = 4, 2, 12
	c.Out = filepath.Join(dir, "spool")
	if _, err := selfplay.Run(context.Background(), c, nil); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(c.Out)
	for _, e := range entries {
		if datasets.IsChunkName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	f := &follower{opt: FollowOptions{Store: s, Dir: dir}, spool: c.Out, rep: &FollowReport{}}
	if err := f.land(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f.rep.Games != n || len(names) != n {
		t.Fatalf("landed %d games from %d chunks, want %d", f.rep.Games, len(names), n)
	}
	return names
}

func TestTrainerLeavesOutDamagedAndUnlistedChunksSayingWhich(t *testing.T) {
	ctx := context.Background()
	bucket := filepath.Join(t.TempDir(), "bucket")
	s, err := runstore.Open(ctx, "file://"+filepath.ToSlash(bucket), runstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	names := landGames(t, s, 6)
	// 0: truncated; 1: a flipped byte; 2: its manifest entry is not JSON;
	// 3: no manifest entry, and old; 4 and 5: good.
	data, _ := s.Read(ctx, dataDir+"/"+names[0], 1<<30)
	s.Write(ctx, dataDir+"/"+names[0], data[:len(data)/2])
	data, _ = s.Read(ctx, dataDir+"/"+names[1], 1<<30)
	data[len(data)/3] ^= 0x40
	s.Write(ctx, dataDir+"/"+names[1], data)
	s.Write(ctx, manifestKey(names[2]), []byte("{not json"))
	s.Delete(ctx, manifestKey(names[3]))
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(bucket, dataDir, names[3]), old, old)

	var log strings.Builder
	r := &runner{dir: t.TempDir(), opt: Options{Progress: &log, Role: RoleTrainer}, st: &state{}, remote: &remote{store: s}}
	os.MkdirAll(filepath.Join(r.dir, dataDir), 0o755)
	known := map[string]bool{}
	r.reportOrphans(ctx, known)
	games, err := r.collectNew(ctx, known, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	if games != 2 || len(r.st.GenChunks) != 2 || !slices.Contains(r.st.GenChunks, names[4]) || !slices.Contains(r.st.GenChunks, names[5]) {
		t.Errorf("collected %d games: %q; want the 2 good chunks", games, r.st.GenChunks)
	}
	for i, want := range []string{"bytes with SHA-256", "bytes with SHA-256", "manifest entry", "no manifest entry"} {
		found := false
		for _, line := range strings.Split(log.String(), "\n") {
			if strings.Contains(line, names[i]) && strings.Contains(line, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("chunk %d (%s): no log line saying %q in:\n%s", i, names[i], want, log.String())
		}
	}
	// A second look reports each bad chunk once, not on every poll.
	before := log.Len()
	if games, err := r.collectNew(ctx, known, map[string]bool{names[0]: true, names[1]: true, names[2]: true}); err != nil || games != 0 {
		t.Errorf("second look: %d games, %v", games, err)
	}
	if log.Len() != before {
		t.Errorf("second look logged again: %q", log.String()[before:])
	}
}

// TestWorkersPlayTheTeachersGenerationThenTheNetworks splits a run whose
// generation 0 is the search teacher's: the workers play the teacher's
// games while the work order says so, the trainer trains its first network
// on them, and the next generation's games are the network's.
func TestWorkersPlayTheTeachersGenerationThenTheNetworks(t *testing.T) {
	cfg := teacherConfig(t)
	cfg.SelfPlay.Workers = 1
	s := fileStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Follow(ctx, FollowOptions{Store: s, Dir: t.TempDir(), Games: 2})
		done <- err
	}()
	dir := t.TempDir()
	_, err := Run(ctx, Options{Dir: dir, Config: cfg, Generations: 2, Store: s, Role: RoleTrainer})
	cancel()
	if werr := <-done; werr != nil {
		t.Errorf("worker: %v", werr)
	}
	if err != nil {
		t.Fatal(err)
	}
	recs := readMetrics(t, dir)
	if len(recs) != 2 || recs[0].SelfPlay.Games < cfg.Teacher.Games {
		t.Fatalf("records %+v: want 2, the first with at least the %d teacher games", recs, cfg.Teacher.Games)
	}
	// Each generation's collected games are the model its work order named:
	// the teacher's in generation 0, the network's after it (a worker may lag
	// one batch, so a teacher game may arrive in generation 1, never the
	// reverse).
	for g := range 2 {
		var names []string
		raw, err := os.ReadFile(filepath.Join(dir, ingestedDir, genName(g)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(raw, &names)
		teacherGames, netGames := 0, 0
		for _, n := range names {
			c, err := datasets.ReadChunk(filepath.Join(DataDir(dir), n))
			if err != nil {
				t.Fatal(err)
			}
			for _, game := range datasets.Games(c.Rows) {
				if game.Teacher() {
					teacherGames++
				} else {
					netGames++
				}
			}
		}
		if g == 0 && (netGames != 0 || teacherGames < cfg.Teacher.Games) {
			t.Errorf("generation 0 collected %d teacher and %d network games", teacherGames, netGames)
		}
		if g == 1 && netGames == 0 {
			t.Errorf("generation 1 collected no network game (%d teacher games)", teacherGames)
		}
	}
}

// checkCollected checks a trainer's run directory dir against its metrics:
// each finished generation's own games (played for its work order) among
// the chunks its ingested list names are the games its record counts, and,
// when onlyListed, the chunks of all the lists are the run's data (a copy
// pulled from the store holds the chunks not collected yet too). It
// returns the games of every collected chunk.
func checkCollected(t *testing.T, dir string, recs []metrics.Record, onlyListed bool) int {
	t.Helper()
	listed := map[string]bool{}
	all := 0
	for g, rec := range recs {
		raw, err := os.ReadFile(filepath.Join(dir, ingestedDir, genName(g)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		if err := json.Unmarshal(raw, &names); err != nil {
			t.Fatal(err)
		}
		own := 0
		for _, n := range names {
			if listed[n] {
				t.Errorf("chunk %s is listed by two generations", n)
			}
			listed[n] = true
			c, err := datasets.ReadChunk(filepath.Join(DataDir(dir), n))
			if err != nil {
				t.Fatal(err)
			}
			all += c.Info.Games
			for _, game := range datasets.Games(c.Rows) {
				if game.Generation == g {
					own++
				}
			}
		}
		if rec.SelfPlay == nil || rec.SelfPlay.Games != own {
			t.Errorf("generation %d: its record counts %+v games, its chunks hold %d of its own", g, rec.SelfPlay, own)
		}
	}
	chunks, problems, err := datasets.List(DataDir(dir))
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	for _, c := range chunks {
		if onlyListed && !listed[c.Name] {
			t.Errorf("chunk %s is in the data but in no generation's list", c.Name)
		}
	}
	return all
}

func TestWorkerStopsNamingADamagedWorkOrder(t *testing.T) {
	cfg := tinyConfig(t)
	s := fileStore(t)
	ctx := context.Background()
	data, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	s.Write(ctx, configName, data)
	s.Write(ctx, latestName, []byte(`{"version": 1, "generation": -4, "model": ""}`))
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	_, err = Follow(tctx, FollowOptions{Store: s, Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), latestName) || tctx.Err() != nil {
		t.Fatalf("worker: %v, want an error naming %s at once", err, latestName)
	}
}
