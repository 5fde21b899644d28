package compare

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"bomberzero/datasets"
	"bomberzero/match"
	"bomberzero/mcts"
	"bomberzero/selfplay/teacher"
	"bomberzero/setup"
	"bomberzero/study/values"
)

// writeGames plays n greedy games of variant and writes them as training
// data chunks to a new directory.
func writeGames(t *testing.T, variant string, n int) string {
	t.Helper()
	v := load(t, variant)
	p, err := match.Parse("greedy", v, match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := v.NewPosition()
	r, err := match.Run(context.Background(), match.Config{A: p, B: p, Games: n, Start: start, Variant: v, MaxPlies: 80, Seed: 9, KeepGames: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Records {
		rec, err := Record(datasets.NewGameID(), start, &r.Records[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := w.AddGame(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRunComparesTheGamesOfGivenRuns(t *testing.T) {
	a, b := writeGames(t, "fbgc", 8), writeGames(t, "fbgc-superpower", 6)
	res, err := Run(context.Background(), Config{Variants: []string{"fbgc", "fbgc-superpower"}, Runs: []string{a, b}, Games: 1,
		Seed: 2, Bootstrap: 20, NoValues: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sources) != 2 || res.Sources[0].Kind != "run" || res.Sources[0].Games != 8 || res.Sources[1].Games != 6 {
		t.Errorf("sources %+v, want 8 and 6 games from the two runs", res.Sources)
	}
	if c := res.Comparison.Variants; c[0].Games != 8 || c[1].Games != 6 {
		t.Errorf("compared %d and %d games, want 8 and 6", c[0].Games, c[1].Games)
	}
	if len(res.Cross) != 0 || !strings.Contains(res.CrossNote, "without a trained model") {
		t.Errorf("cross-play %v, note %q; want none, saying the data have no model", res.Cross, res.CrossNote)
	}
}

// Given models play themselves in their own variants; the models then
// meet each other in cross-play, as a run's newest models would.
func TestRunPlaysEachGivenModelAgainstItself(t *testing.T) {
	dir := t.TempDir()
	models := []string{saveNet(t, dir, "fbgc", 1), saveNet(t, dir, "fbgc-superpower", 2)}
	res, err := Run(context.Background(), Config{Variants: []string{"fbgc", "fbgc-superpower"}, Models: models, Games: 2, Sims: 2,
		MaxPlies: 10, Search: mcts.DefaultConfig(), Seed: 5, Bootstrap: 20, NoValues: true, Anchors: []string{}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range res.Sources {
		if s.Kind != "model" || s.Model != models[i] || s.Games != 2 || s.Seed != 5 || !strings.HasSuffix(s.Player, ":2") {
			t.Errorf("source %d: %+v, want 2 games of %s at 2 playouts", i, s, models[i])
		}
		if got := res.Comparison.Variants[i].Games; got != 2 {
			t.Errorf("variant %d: %d games compared, want 2", i, got)
		}
	}
	if len(res.Cross) != 2 || res.CrossNote != "" {
		t.Errorf("cross-play %d matches, note %q; want the models to meet on both rule sets", len(res.Cross), res.CrossNote)
	}
}

func TestValidateRefusesModelsThatCannotWork(t *testing.T) {
	dir := t.TempDir()
	m := saveNet(t, dir, "fbgc", 1)
	vs := []string{"fbgc", "fbgc-superpower"}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Variants: vs, Models: []string{m}, Games: 1}, "1 checkpoints for 2 variants"},
		{Config{Variants: vs, Models: []string{m, filepath.Join(dir, "missing.safetensors")}, Games: 1}, "missing.safetensors\" is not a checkpoint file"},
		{Config{Variants: vs, Models: []string{m, dir}, Games: 1}, "is not a checkpoint file"},
		{Config{Variants: vs, Models: []string{m, m}, Runs: []string{dir, dir}, Games: 1}, "choose one"},
		{Config{Variants: vs, Models: []string{m, m}, Budget: time.Minute, Games: 1}, "cannot go with --models"},
	} {
		if err := c.cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.cfg, err, c.want)
		}
	}
}

func TestRunRefusesARunOfAnotherVariant(t *testing.T) {
	a := writeGames(t, "fbgc", 2)
	_, err := Run(context.Background(), Config{Variants: []string{"fbgc-superpower", "fbgc"}, Runs: []string{a, a}, Games: 1, NoValues: true})
	if err == nil || !strings.Contains(err.Error(), "[fbgc], none of variant fbgc-superpower") {
		t.Errorf("error %v, want one listing the variants the data hold", err)
	}
}

func TestRunPlaysTheBaselineInEachVariant(t *testing.T) {
	res, err := Run(context.Background(), Config{Variants: []string{"fbgc", "chess"}, Player: "greedy", Games: 4, MaxPlies: 30,
		Seed: 3, Bootstrap: 20, NoValues: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range res.Sources {
		if s.Kind != "baseline" || s.Player != "greedy" || s.Games != 4 || s.Seed != 3 {
			t.Errorf("source %d: %+v", i, s)
		}
	}
	if res.Comparison.Variants[1].Length.Max > 30 {
		t.Errorf("a chess game ran past the 30-ply cap: %+v", res.Comparison.Variants[1].Length)
	}
}

// A baseline's games are played with one seed in every variant, so they
// pair game by game and are compared within pairs; a run's self-play games
// pair with nothing.
func TestBaselineGamesArePaired(t *testing.T) {
	res, err := Run(context.Background(), Config{Variants: []string{"fbgc", "fbgc-superpower"}, Player: "alphabeta:1", Games: 6, MaxPlies: 30,
		Seed: 4, Bootstrap: 20, NoValues: true, Anchors: []string{}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.PairedGames != 6 {
		t.Errorf("%d paired games, want 6", res.PairedGames)
	}
	// Within 30 plies alphabeta mostly plays the same game in both rule
	// sets (its ties follow the moves, not the list): the agreement counts
	// say so, and they are counts of pairs.
	if len(res.PairAgreement) != 1 {
		t.Fatalf("pair agreement %+v, want one row", res.PairAgreement)
	}
	pa := res.PairAgreement[0]
	if pa.A != "fbgc" || pa.B != "fbgc-superpower" || pa.Pairs != 6 || pa.SameGame < 1 || pa.SameGame > pa.SameResult || pa.SameResult > 6 {
		t.Errorf("pair agreement %+v: want 6 pairs, some the same game, each of those with the same result", pa)
	}
	var b strings.Builder
	writeSources(&b, res)
	if !strings.Contains(b.String(), "The variants' games are 6 pairs") {
		t.Errorf("the report does not say the games are paired:\n%s", b.String())
	}
	runs := []Source{{Kind: "run", Games: 6, Seed: 4}, {Kind: "run", Games: 6, Seed: 4}}
	if n := pairedGames(runs); n != 0 {
		t.Errorf("runs' self-play games paired as %d; want none", n)
	}
	mixed := []Source{{Kind: "model", Games: 6, Seed: 4}, {Kind: "model", Games: 6, Seed: 5}}
	if n := pairedGames(mixed); n != 0 {
		t.Errorf("games of two seeds paired as %d; want none", n)
	}
}

func TestRunLeavesOutTeacherGamesUnlessAsked(t *testing.T) {
	a, b := writeGames(t, "fbgc", 8), writeGames(t, "fbgc-superpower", 6)
	tc := teacher.DefaultConfig("fbgc")
	tc.Depth, tc.Games, tc.MaxPlies, tc.Workers, tc.Out = 1, 4, 40, 1, a
	if _, err := teacher.Run(context.Background(), tc, nil); err != nil {
		t.Fatal(err)
	}
	for _, include := range []bool{false, true} {
		res, err := Run(context.Background(), Config{Variants: []string{"fbgc", "fbgc-superpower"}, Runs: []string{a, b}, Games: 1,
			Seed: 2, Bootstrap: 20, NoValues: true, IncludeTeacher: include})
		if err != nil {
			t.Fatal(err)
		}
		want, left := 8, 4
		if include {
			want, left = 12, 0
		}
		if s := res.Sources[0]; s.Games != want || s.TeacherGames != left || res.Comparison.Variants[0].Games != want {
			t.Errorf("include teacher %v: source %+v, compared %d games; want %d games, %d left out", include, s, res.Comparison.Variants[0].Games, want, left)
		}
	}
}

func TestMatchKnobsLeftZeroComeFromTheTrainingConfig(t *testing.T) {
	def, err := setup.DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Variants: []string{"fbgc", "chess"}}
	if err := cfg.fillMatchKnobs(); err != nil {
		t.Fatal(err)
	}
	if cfg.Sims != def.Eval.Sims || cfg.MaxPlies != def.Eval.MaxPlies || cfg.Search != def.PlayerSearch() {
		t.Errorf("embedded defaults: sims %d, max plies %d, search %+v; want %d, %d, %+v",
			cfg.Sims, cfg.MaxPlies, cfg.Search, def.Eval.Sims, def.Eval.MaxPlies, def.PlayerSearch())
	}
	var asked string
	cfg = Config{Variants: []string{"fbgc", "chess"}, MaxPlies: 33, Training: func(v string) (setup.Config, error) {
		asked = v
		c := def
		c.Eval.Sims, c.Eval.MaxPlies, c.SelfPlay.Search.CPUCTInit = 9, 77, 2.5
		return c, nil
	}}
	if err := cfg.fillMatchKnobs(); err != nil {
		t.Fatal(err)
	}
	if asked != "fbgc" || cfg.Sims != 9 || cfg.MaxPlies != 33 || cfg.Search.CPUCTInit != 2.5 {
		t.Errorf("a given training config: asked for %q, sims %d, max plies %d (set: 33), cpuct_init %v", asked, cfg.Sims, cfg.MaxPlies, cfg.Search.CPUCTInit)
	}
}

func TestRunStartsEveryVariantsGamesFromOneSharedBook(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Variants: []string{"fbgc", "fbgc-superpower"}, Player: "greedy", Games: 6, MaxPlies: 20,
		Seed: 3, Bootstrap: 20, NoValues: true, Book: 3, BookPlies: 4}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Book) != 3 || res.BookNote != "" {
		t.Fatalf("book %v, note %q; want 3 openings", res.Book, res.BookNote)
	}
	// Every game starts from one of the book's openings, in both
	// variants: the openings (the position after 4 plies, the book's
	// length) are three at most.
	for i, v := range res.Comparison.Variants {
		if v.Openings.Distinct > 3 || v.Openings.Known != 6 {
			t.Errorf("%s: %d distinct openings from a book of 3", cfg.Variants[i], v.Openings.Distinct)
		}
	}
	if err := Write(dir, res); err != nil {
		t.Fatal(err)
	}
	// Variants on different boards share no opening: the report says so.
	res, err = Run(context.Background(), Config{Variants: []string{"fbgc", "chess"}, Player: "greedy", Games: 2, MaxPlies: 10,
		Seed: 3, Bootstrap: 20, NoValues: true, Book: 3})
	if err != nil || len(res.Book) != 0 || res.BookNote == "" {
		t.Errorf("fbgc and chess: %v, book %v, note %q; want no book and a note", err, res.Book, res.BookNote)
	}
}

func TestSampleGamesShowADecisiveAndADrawnGameOfEachVariant(t *testing.T) {
	game := func(id string, result int, played ...string) values.Game {
		g := values.Game{ID: id, Result: result}
		for i, m := range played {
			g.Positions = append(g.Positions, values.Position{Ply: i, Text: "pos" + id, Played: m})
		}
		return g
	}
	a := &values.Dataset{Games: []values.Game{game("1", 0, "e2-e4", "e7-e5"), game("2", 0, "d2-d4"), game("3", 1, "c2-c4", ""), game("4", -1, "f2-f3", "e7-e5")}}
	b := &values.Dataset{Games: []values.Game{game("5", 1, "a2-a3"), game("6", 1, "b2-b3")}}
	got := sampleGames([]string{"x", "y"}, []*values.Dataset{a, b})
	var ids []string
	for _, g := range got {
		ids = append(ids, g.Variant+":"+g.ID)
	}
	// x: game 3 has an unrecorded move; the first decisive complete game is 4, the first drawn 1.
	// y: no draw, so its first two games.
	if want := []string{"x:4", "x:1", "y:5", "y:6"}; !slices.Equal(ids, want) {
		t.Errorf("samples %v, want %v", ids, want)
	}
	if got[0].Moves[1] != "e7-e5" || got[0].Start != "pos4" {
		t.Errorf("sample %+v", got[0])
	}
}

func TestPairAgreementCountsTheSameGameAndTheSameResult(t *testing.T) {
	game := func(index, result int, start string, moves ...string) values.Game {
		g := values.Game{Index: index, Result: result}
		for _, m := range moves {
			g.Positions = append(g.Positions, values.Position{Text: start, Played: m})
		}
		return g
	}
	a := &values.Dataset{Games: []values.Game{
		game(0, 1, "s", "e2-e4", "e7-e5"),
		game(1, 0, "s", "d2-d4", "d7-d5"),
		game(2, -1, "s", "c2-c4"),
		game(3, 1, "s", "f2-f3"),
	}}
	b := &values.Dataset{Games: []values.Game{
		game(3, 1, "t", "f2-f3"), // another start: not the same game
		game(2, -1, "s", "c2-c4"),
		game(1, 0, "s", "d2-d4", "d7-d6"),
		game(0, -1, "s", "e2-e4", "e7-e5"), // same moves, another result (a rule ended it otherwise)
	}}
	got := pairAgreement([]string{"A", "B"}, []*values.Dataset{a, b})
	want := PairAgreement{A: "A", B: "B", Pairs: 4, SameGame: 2, SameResult: 3}
	if len(got) != 1 || got[0] != want {
		t.Errorf("pair agreement %+v, want %+v", got, want)
	}
}
