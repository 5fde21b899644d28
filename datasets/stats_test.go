package datasets

import (
	"bomberzero/env"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStatsCountAKnownDirectory builds a directory from synthetic games
// whose figures the test counts itself, adds a corrupt chunk, and checks
// every figure of Summarize.
func TestStatsCountAKnownDirectory(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(31, 32))
	var games []*GameRecord
	for k := 0; k < 4; k++ {
		chunk := synthGames(rng, fmt.Sprintf("c%d", k), 25)
		games = append(games, chunk...)
		writeChunkAt(t, dir, t0.Add(time.Duration(k)*time.Second), chunk)
	}
	bad := writeChunkAt(t, dir, t0.Add(time.Hour), synthGames(rng, "bad", 5))
	if err := os.Truncate(bad, 50); err != nil {
		t.Fatal(err)
	}
	want := Stats{Chunks: 4, Skipped: 1, Games: len(games), Terminations: map[string]int{}, Variants: map[string]int{}}
	plies := 0
	for _, g := range games {
		plies += g.Length
		for _, p := range g.Positions {
			want.Positions++
			if p.FullSearch {
				want.FullPositions++
			}
		}
		switch g.Result {
		case 1:
			want.WhiteWins++
		case 0:
			want.Draws++
		default:
			want.BlackWins++
		}
		want.Terminations[g.Termination.String()]++
		want.Variants[g.Variant]++
		if g.Termination == env.Resignation {
			want.Resignations++
		}
		if g.Termination == env.LengthCap {
			want.LengthCapDraws++
		}
		if g.ResignDisabled {
			want.ResignDisabled++
		}
		if fr, ok := g.FalseResignation(); ok {
			want.FalseResignMeasured++
			if fr {
				want.FalseResignations++
			}
		}
	}
	calls := 0
	got, err := Summarize(dir, func(done, total int) {
		calls++
		if done != calls || total != 5 {
			t.Errorf("progress(%d, %d) on call %d; want (%d, 5): every chunk file, the bad one too", done, total, calls, calls)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	check("Chunks", got.Chunks, want.Chunks)
	check("Skipped", got.Skipped, want.Skipped)
	check("Positions", got.Positions, want.Positions)
	check("FullPositions", got.FullPositions, want.FullPositions)
	check("Games", got.Games, want.Games)
	check("WhiteWins", got.WhiteWins, want.WhiteWins)
	check("Draws", got.Draws, want.Draws)
	check("BlackWins", got.BlackWins, want.BlackWins)
	check("Resignations", got.Resignations, want.Resignations)
	check("LengthCapDraws", got.LengthCapDraws, want.LengthCapDraws)
	check("ResignDisabled", got.ResignDisabled, want.ResignDisabled)
	check("FalseResignMeasured", got.FalseResignMeasured, want.FalseResignMeasured)
	check("FalseResignations", got.FalseResignations, want.FalseResignations)
	check("DuplicateGames", got.DuplicateGames, 0)
	if want.Resignations == 0 || want.LengthCapDraws == 0 || want.FalseResignMeasured == 0 || want.FalseResignations == 0 {
		t.Fatalf("synthetic data lacks a case: %+v", want)
	}
	if wantAvg := float64(plies) / float64(len(games)); got.AverageLength != wantAvg {
		t.Errorf("AverageLength = %v, want %v", got.AverageLength, wantAvg)
	}
	if rate := float64(want.FalseResignations) / float64(want.FalseResignMeasured); got.FalseResignRate == nil || *got.FalseResignRate != rate {
		t.Errorf("FalseResignRate = %v, want %v", got.FalseResignRate, rate)
	}
	if fmt.Sprint(got.Terminations) != fmt.Sprint(want.Terminations) || fmt.Sprint(got.Variants) != fmt.Sprint(want.Variants) {
		t.Errorf("Terminations %v Variants %v; want %v %v", got.Terminations, got.Variants, want.Terminations, want.Variants)
	}
	if len(got.Problems) != 1 || !strings.Contains(got.Problems[0], bad) {
		t.Errorf("Problems = %v; want one naming %s", got.Problems, bad)
	}
	var text bytes.Buffer
	if err := got.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		fmt.Sprintf("games              %d\n", want.Games),
		fmt.Sprintf("white/draw/black   %d / %d / %d", want.WhiteWins, want.Draws, want.BlackWins),
		fmt.Sprintf("false resignations %d of %d measured", want.FalseResignations, want.FalseResignMeasured),
		"skipped: chunk " + bad,
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text output lacks %q:\n%s", line, text.String())
		}
	}
}

func TestStatsCountGamesWrittenTwice(t *testing.T) {
	dir := t.TempDir()
	games := synthGames(rand.New(rand.NewPCG(1, 5)), "g", 3)
	writeChunkAt(t, dir, t0, games)
	writeChunkAt(t, dir, t0.Add(time.Second), games[1:])
	s, err := Summarize(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The later chunk repeats two games: it is refused, not counted.
	if s.Games != 3 || s.Chunks != 1 || s.Skipped != 1 || !strings.Contains(strings.Join(s.Problems, ";"), "duplicate chunk: game g-1") {
		t.Errorf("Games %d, chunks %d read %d skipped (%v); want 3 games, 1 read, 1 skipped as a duplicate", s.Games, s.Chunks, s.Skipped, s.Problems)
	}
	var st Stats // Add alone counts what it is given
	for _, info := range mustList(t, dir) {
		c, err := ReadChunk(info.Path)
		if err != nil {
			t.Fatal(err)
		}
		st.Add(c)
	}
	if st.DuplicateGames != 2 || st.Games != 5 {
		t.Errorf("Add: DuplicateGames %d, Games %d; want 2 and 5", st.DuplicateGames, st.Games)
	}
}

// mustList lists dir's chunks, failing on any problem.
func mustList(t *testing.T, dir string) []ChunkInfo {
	t.Helper()
	chunks, problems, err := List(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("List %s: %v %v", dir, err, problems)
	}
	return chunks
}

// TestCopiedChunkIsADuplicateEverywhere is finding 2 of issue 16: a copy of
// a chunk under another name (its content hash still matches) is listed,
// summarized and windowed once, and reported as a duplicate.
func TestCopiedChunkIsADuplicateEverywhere(t *testing.T) {
	dir := t.TempDir()
	games := synthGames(rand.New(rand.NewPCG(1, 6)), "c", 3)
	path := writeChunkAt(t, dir, t0, games)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, "copy-"+filepath.Base(path))
	if err := os.WriteFile(copyPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	chunks, problems, err := List(dir)
	if err != nil || len(chunks) != 1 || len(problems) != 1 || !errors.Is(problems[0], ErrDuplicate) {
		t.Fatalf("List: %d chunks, problems %v (%v); want 1 and one duplicate", len(chunks), problems, err)
	}
	s, err := Summarize(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Games != 3 || s.Skipped != 1 {
		t.Errorf("Summarize: %d games, %d skipped; want 3 and 1", s.Games, s.Skipped)
	}
	w, err := NewWindow(dir, WindowConfig{Size: 1 << 20, IncludeCheap: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := w.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if w.Len() != chunks[0].Positions || len(rep.Problems) != 1 || !errors.Is(rep.Problems[0], ErrDuplicate) {
		t.Errorf("Window: %d positions (want %d), problems %v", w.Len(), chunks[0].Positions, rep.Problems)
	}
}

// TestIdenticalGamesUnderNewIDsAreCounted: the same game written under
// another ID (two self-play runs with one seed) is noticed.
func TestIdenticalGamesUnderNewIDsAreCounted(t *testing.T) {
	dir := t.TempDir()
	games := synthGames(rand.New(rand.NewPCG(1, 7)), "a", 3)
	again := synthGames(rand.New(rand.NewPCG(1, 7)), "b", 3)
	writeChunkAt(t, dir, t0, games)
	writeChunkAt(t, dir, t0.Add(time.Second), again)
	s, err := Summarize(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.IdenticalGames != 3 || s.Games != 6 {
		t.Errorf("IdenticalGames %d of %d games, want 3 of 6", s.IdenticalGames, s.Games)
	}
}

func TestStatsOfAnEmptyDirectorySayNothingMeasured(t *testing.T) {
	s, err := Summarize(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Games != 0 || s.AverageLength != 0 || s.FalseResignRate != nil {
		t.Errorf("empty directory: %+v", s)
	}
	if _, err := Summarize("/nonexistent/dir", nil); err == nil {
		t.Error("Summarize of a missing directory succeeded")
	}
}
