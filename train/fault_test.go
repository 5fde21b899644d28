package train

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/datasets"
	"bomberzero/nn"
)

// TestFaultInjectionLosesNoGame is the proof of issue 16: a small training
// run of the real binary is killed with SIGKILL at random moments, old
// chunks are deleted or damaged, chunks are copied, and a second writer is
// started on the run, all while it works; resumed to the end, every
// generation must have counted its configured games, every game played
// must have its record in games/ (none deleted), every game in the data
// must be there once, and the data must hold exactly the games the faults
// did not remove, and every generation's checkpoint must be whole. -short
// runs a few faults (under 30 s); the full test runs many more, and
// scripts/soak.sh repeats it.
func TestFaultInjectionLosesNoGame(t *testing.T) {
	bin := buildBinary(t)
	cfg := tinyConfig(t)
	gens, rounds := 3, 6
	if !testing.Short() {
		gens, rounds = 8, 30
	}
	data, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "tiny.toml")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	seed := uint64(time.Now().UnixNano())
	t.Logf("fault seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 16))
	// start runs the binary on the run; its exit status arrives on done.
	type proc struct {
		cmd  *exec.Cmd
		out  *strings.Builder
		done chan error
	}
	start := func() *proc {
		p := &proc{out: &strings.Builder{}, done: make(chan error, 1)}
		p.cmd = exec.Command(bin, "train", "--config", cfgPath, "--run", dir, "--generations", strconv.Itoa(gens), "--quiet")
		p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { p.done <- p.cmd.Wait() }()
		t.Cleanup(func() { p.cmd.Process.Kill() })
		return p
	}
	damaged := map[int]int{}        // games removed from the data by the faults, per generation
	removedIDs := map[string]bool{} // their IDs
	oldChunks := func() []datasets.ChunkInfo {
		st, err := loadState(dir)
		if err != nil {
			return nil
		}
		chunks, _, _ := datasets.List(DataDir(dir))
		var old []datasets.ChunkInfo
		for _, c := range chunks {
			if !strings.HasPrefix(c.Writer, st.GenWriter+"-w") {
				old = append(old, c)
			}
		}
		return old
	}
	remove := func(c datasets.ChunkInfo, corrupt bool) {
		ch, err := datasets.ReadChunk(c.Path)
		if err != nil {
			return // already damaged, or being moved
		}
		if corrupt {
			err = flipByte(c.Path, c.Size/2)
		} else {
			err = os.Remove(c.Path)
		}
		if err != nil {
			return
		}
		for _, g := range datasets.Games(ch.Rows) {
			if !removedIDs[g.ID] {
				removedIDs[g.ID] = true
				damaged[g.Generation]++
			}
		}
	}
	for round := 0; round < rounds; round++ {
		p := start()
		time.Sleep(time.Duration(200+rng.IntN(1500)) * time.Millisecond)
		switch fault := rng.IntN(5); fault {
		case 0, 1: // an old chunk deleted, or a byte of it flipped
			if old := oldChunks(); len(old) > 0 {
				remove(old[rng.IntN(len(old))], fault == 1)
			}
		case 2: // a chunk copied under another name
			chunks, _, _ := datasets.List(DataDir(dir))
			if len(chunks) > 0 {
				c := chunks[rng.IntN(len(chunks))]
				if b, err := os.ReadFile(c.Path); err == nil {
					os.WriteFile(filepath.Join(DataDir(dir), "copy-"+c.Name), b, 0o644)
				}
			}
		case 3: // a second writer: refused while the first runs
			second := start()
			if err := <-second.done; err == nil {
				// It got the lock, so the first must have finished.
				select {
				case err := <-p.done:
					p.done <- err
				case <-time.After(2 * time.Second):
					t.Fatalf("a second train ran on a run in use:\n%s", second.out.String())
				}
			} else if !strings.Contains(second.out.String(), "being written by another process") {
				t.Fatalf("second writer failed without naming the lock: %v\n%s", err, second.out.String())
			}
		}
		time.Sleep(time.Duration(rng.IntN(500)) * time.Millisecond)
		p.cmd.Process.Signal(syscall.SIGKILL)
		if err := <-p.done; err != nil && !strings.Contains(err.Error(), "killed") {
			t.Fatalf("round %d: run failed: %v\n%s", round, err, p.out.String())
		}
		if st, err := loadState(dir); err == nil && st.Generation >= gens {
			break
		}
	}
	final := start()
	if err := <-final.done; err != nil {
		t.Fatalf("final run: %v\n%s", err, final.out.String())
	}

	// Counted: every generation's metrics record has its configured games.
	recs := readMetrics(t, dir)
	seenGen := map[int]bool{}
	for _, r := range recs {
		if r.SelfPlay == nil || r.SelfPlay.Games != cfg.GamesIn(r.Generation) {
			t.Errorf("generation %d counted %+v, want %d games", r.Generation, r.SelfPlay, cfg.GamesIn(r.Generation))
		}
		seenGen[r.Generation] = true
	}
	if len(seenGen) != gens {
		t.Errorf("metrics for %d generations, want %d", len(seenGen), gens)
	}
	// Intact: every generation's checkpoint is there, whole and finite
	// (nn.ReadCheckpoint verifies it), never a torn write of a killed save.
	for g := 1; g <= gens; g++ {
		if _, err := nn.ReadCheckpoint(GenCheckpoint(dir, g)); err != nil {
			t.Errorf("generation %d's checkpoint: %v", g, err)
		}
	}
	// On disk: each good game once, the configured games less the removed.
	chunks, _, err := datasets.List(DataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	inData := map[string]bool{}
	per := map[int]int{}
	for _, c := range chunks {
		ch, err := datasets.ReadChunk(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range datasets.Games(ch.Rows) {
			if inData[g.ID] {
				t.Errorf("game %s in the data twice", g.ID)
			}
			inData[g.ID] = true
			per[g.Generation]++
		}
	}
	total := 0
	for g := range gens {
		total += cfg.GamesIn(g)
		if want := cfg.GamesIn(g) - damaged[g]; per[g] != want {
			t.Errorf("generation %d: %d games in the data, want %d (%d removed by faults)", g, per[g], want, damaged[g])
		}
	}
	// Records: one per game played, none deleted.
	records, _ := filepath.Glob(filepath.Join(dir, gamesDir, "*.txt"))
	have := map[string]bool{}
	for _, r := range records {
		have[strings.TrimSuffix(filepath.Base(r), ".txt")] = true
	}
	if len(records) != total {
		t.Errorf("%d records in games/, want %d (every game played)", len(records), total)
	}
	for id := range inData {
		if !have[id] {
			t.Errorf("game %s has no record", id)
		}
	}
	for id := range removedIDs {
		if !have[id] {
			t.Errorf("the record of game %s, whose chunk a fault removed, was deleted", id)
		}
	}
	t.Logf("%d generations, %d games, %d removed by faults", gens, total, len(removedIDs))
}
