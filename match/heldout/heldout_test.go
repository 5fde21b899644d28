package heldout

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/match"
)

var update = flag.Bool("update", false, "regenerate the held-out sets under configs/heldout")

// variants are the variants with a held-out set.
var variants = []string{"fbgc", "fbgc-superpower"}

func mustVariant(t testing.TB, name string) *env.Variant {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// repoRoot is the repository root, seen from this package's folder.
const repoRoot = "../.."

func TestGenerateHeldOutSets(t *testing.T) {
	if !*update {
		t.Skip("run with -update to regenerate configs/heldout")
	}
	for _, name := range variants {
		v := mustVariant(t, name)
		puzzles, err := Generate(v, DefaultGenerate())
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Write(&b, name, puzzles); err != nil {
			t.Fatal(err)
		}
		path := Path(repoRoot, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d puzzles written to %s", name, len(puzzles), path)
	}
}

func TestHeldOutSetsListExactlyTheWinningMoves(t *testing.T) {
	// Each set: at least 200 distinct positions, none over, each with at
	// least one winning move but not only winning moves, and its listed
	// moves exactly the moves that win at once (found here again by the
	// rules engine, independently of the generator's bookkeeping).
	for _, name := range variants {
		v := mustVariant(t, name)
		puzzles, err := Load(Path(repoRoot, name), v)
		if err != nil {
			t.Fatal(err)
		}
		if len(puzzles) < 200 {
			t.Errorf("%s: %d puzzles, want >= 200", name, len(puzzles))
		}
		seen := map[string]bool{}
		for i, pz := range puzzles {
			key := puzzleKey(pz.Position)
			if seen[key] {
				t.Errorf("%s: puzzle %d repeats the position %s", name, i, key)
			}
			seen[key] = true
			pos, err := v.ParsePosition(pz.Position)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, m := range WinningMoves(pos) {
				want = append(want, pos.FormatGC(m))
			}
			got := slices.Clone(pz.Wins)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: puzzle %d lists %v, the winning moves are %v", name, i, got, want)
			}
			var buf [env.MaxMoves]env.Move
			if n := len(pos.LegalMoves(buf[:0])); len(want) >= n {
				t.Errorf("%s: puzzle %d: all %d moves win", name, i, n)
			}
		}
	}
}

// searchPlayer returns a search player over the uniform evaluator (no
// network: every move gets the same prior) with sims playouts.
func searchPlayer(t *testing.T, v *env.Variant, sims int, gumbel, solver bool) match.Player {
	t.Helper()
	rules := agent.NewRules(v, 0)
	model, err := agent.LoadModel(agent.Uniform, rules)
	if err != nil {
		t.Fatal(err)
	}
	cfg := agent.MatchSearch(agent.DefaultSearch(), sims)
	cfg.Gumbel, cfg.Solver = gumbel, solver
	mk, err := match.NewSearchMaker("uniform", rules, model, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := mk.New(7)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSolverFindsEveryHeldOutMateAtOnePlayout(t *testing.T) {
	// Real positions from the rules engine: with the uniform evaluator and
	// one playout, the search must play a winning move in every puzzle,
	// with PUCT and with Gumbel root search. Without the solver it does
	// not (the control, so that the test can fail).
	for _, name := range variants {
		v := mustVariant(t, name)
		puzzles, err := Load(Path(repoRoot, name), v)
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() {
			puzzles = puzzles[:60]
		}
		for _, gumbel := range []bool{false, true} {
			s, err := Evaluate(v, puzzles, searchPlayer(t, v, 1, gumbel, true))
			if err != nil {
				t.Fatal(err)
			}
			if s.Solved != s.Total {
				t.Errorf("%s, Gumbel %v: solved %d of %d at one playout (missed %v), want all", name, gumbel, s.Solved, s.Total, s.Missed)
			}
		}
		off, err := Evaluate(v, puzzles, searchPlayer(t, v, 1, false, false))
		if err != nil {
			t.Fatal(err)
		}
		if off.Share() > 0.5 {
			t.Errorf("%s: solver off solved %d of %d at one playout; the set is too easy to test the solver", name, off.Solved, off.Total)
		}
		t.Logf("%s: solver off, one playout: %.2f", name, off.Share())
	}
}

func TestGenerateIsDeterministicAndDistinct(t *testing.T) {
	v := mustVariant(t, "fbgc")
	cfg := DefaultGenerate()
	cfg.Want = 8
	a, err := Generate(v, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(v, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 8 || !slices.EqualFunc(a, b, func(x, y Puzzle) bool { return x.Position == y.Position && slices.Equal(x.Wins, y.Wins) }) {
		t.Fatalf("two runs of one seed gave %d and %d different puzzles", len(a), len(b))
	}
	cfg.Seed++
	c, err := Generate(v, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if slices.EqualFunc(a, c, func(x, y Puzzle) bool { return x.Position == y.Position }) {
		t.Error("another seed gave the same puzzles")
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	v := mustVariant(t, "fbgc")
	cfg := DefaultGenerate()
	cfg.Want = 5
	puzzles, err := Generate(v, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, "fbgc", puzzles); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&b, "buffer", v)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(puzzles, back, func(x, y Puzzle) bool { return x.Position == y.Position && slices.Equal(x.Wins, y.Wins) }) {
		t.Errorf("read back %v, wrote %v", back, puzzles)
	}
}

func TestReadRejectsBadLinesWithTheirLineNumber(t *testing.T) {
	v := mustVariant(t, "fbgc")
	start := v.NewPosition().String()
	for _, c := range []struct{ name, text string }{
		{"no move", "# c\n" + start + "\n"},
		{"bad position", "xyz w\tc1-d3\n"},
		{"illegal move", start + "\ta1-a9\n"},
		{"move that does not win", start + "\tc1-d3\n"},
	} {
		_, err := Read(bytes.NewBufferString(c.text), "f.txt", v)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if want := "f.txt:"; !bytes.Contains([]byte(err.Error()), []byte(want)) {
			t.Errorf("%s: error %q does not name the file and line", c.name, err)
		}
	}
}

func FuzzRead(f *testing.F) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(v.NewPosition().String() + "\tc1-d3\n"))
	f.Add([]byte("# comment\n\n"))
	f.Add([]byte("a\tb\tc\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		puzzles, err := Read(bytes.NewReader(data), "fuzz", v)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Write(&b, "fbgc", puzzles); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(&b, "again", v); err != nil {
			t.Fatalf("written puzzles do not read back: %v", err)
		}
	})
}

// TestLoadReadsAShippedSetAndRefusesDevicesAndFifos: Load reads a file of
// the shipped set back to the embedded puzzles, and refuses /dev/zero and a
// FIFO with no writer at once, naming the path, instead of filling memory
// or blocking.
func TestLoadReadsAShippedSetAndRefusesDevicesAndFifos(t *testing.T) {
	v := mustVariant(t, "fbgc")
	want, err := Builtin(v)
	if err != nil || len(want) == 0 {
		t.Fatalf("Builtin(fbgc) = %d puzzles, %v", len(want), err)
	}
	var b bytes.Buffer
	if err := Write(&b, "fbgc", want); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "fbgc-mate1.txt")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(file, v)
	if err != nil || len(got) != len(want) {
		t.Fatalf("Load(%s) = %d puzzles, %v; want %d", file, len(got), err, len(want))
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		done := make(chan error, 1)
		go func() { _, err := Load(path, v); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("Load(%s) = %v, want a refusal naming it as not a regular file", path, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Load(%s) did not return within 10 s", path)
		}
	}
}
