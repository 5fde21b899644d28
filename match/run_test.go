package match

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"bomberzero/env"
	"bomberzero/stats"
)

// recorder is a player that notes the colour it was given in each game.
type recorder struct {
	*Random
	name string
	mu   *sync.Mutex
	seen map[uint64]env.Color
	seed uint64
}

func (r *recorder) Name() string { return r.name }
func (r *recorder) Choose(pos *env.Position) (env.Move, error) {
	r.mu.Lock()
	if _, ok := r.seen[r.seed]; !ok {
		r.seen[r.seed] = pos.SideToMove()
	}
	r.mu.Unlock()
	return r.Random.Choose(pos)
}

func TestMatchAlternatesColoursExactly(t *testing.T) {
	v := mustVariant(t, "fbgc")
	for _, games := range []int{1, 2, 7, 12} {
		mk := func(name string) Maker {
			return Maker{Spec: name, New: func(seed uint64) (Player, error) { return NewRandom(seed), nil }}
		}
		res, err := Run(context.Background(), Config{A: mk("a"), B: mk("b"), Games: games, Variant: v, MaxPlies: 6, Workers: 3, KeepGames: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.AWhite.Games() != (games+1)/2 || res.ABlack.Games() != games/2 || res.Total.Games() != games {
			t.Fatalf("%d games: A white %d, black %d", games, res.AWhite.Games(), res.ABlack.Games())
		}
		if len(res.Records) != games {
			t.Fatalf("%d records of %d games", len(res.Records), games)
		}
		for _, g := range res.Records {
			wantWhite := "a"
			if g.Index%2 == 1 {
				wantWhite = "b"
			}
			if g.White != wantWhite || g.Termination != env.LengthCap || g.Plies != 6 || len(g.Moves) != 6 {
				t.Errorf("game %d: %+v", g.Index, g)
			}
		}
	}
}

func TestMatchSeatsPlayersOnTheColoursItReports(t *testing.T) {
	// The players themselves see which colour they move: A must move White
	// first in even games.
	v := mustVariant(t, "fbgc")
	var mu sync.Mutex
	seenA := map[uint64]env.Color{}
	mkA := Maker{Spec: "a", New: func(seed uint64) (Player, error) {
		return &recorder{Random: NewRandom(seed), name: "a", mu: &mu, seen: seenA, seed: seed}, nil
	}}
	mkB := Maker{Spec: "b", New: func(seed uint64) (Player, error) { return NewRandom(seed), nil }}
	const games = 10
	if _, err := Run(context.Background(), Config{A: mkA, B: mkB, Games: games, Variant: v, MaxPlies: 4, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < games; i++ {
		c, ok := seenA[gameSeed(5, i, 1)]
		want := env.White
		if !AWhiteIn(i) {
			want = env.Black
		}
		if !ok || c != want {
			t.Errorf("game %d: A moved %v (seen %v), want %v", i, c, ok, want)
		}
	}
}

func TestMatchIsReproducibleFromItsSeed(t *testing.T) {
	v := mustVariant(t, "fbgc")
	mk, _ := Parse("random", v, Options{})
	run := func(workers int) *Result {
		res, err := Run(context.Background(), Config{A: mk, B: mk, Games: 6, Variant: v, MaxPlies: 40, Seed: 9, Workers: workers, KeepGames: true})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(1), run(3)
	if a.Total != b.Total || a.MeanPlies != b.MeanPlies {
		t.Fatalf("workers change the result: %+v vs %+v", a.Total, b.Total)
	}
	// The records too, game for game and in game order: a values fit
	// samples positions by a game's place in them.
	if len(a.Records) != 6 || len(b.Records) != 6 {
		t.Fatalf("%d and %d records, want 6", len(a.Records), len(b.Records))
	}
	for i := range a.Records {
		ra, rb := a.Records[i], b.Records[i]
		if ra.Index != i || rb.Index != i || !slices.Equal(ra.Moves, rb.Moves) {
			t.Errorf("record %d: game %d (%d moves) with 1 worker, game %d (%d moves) with 3", i, ra.Index, len(ra.Moves), rb.Index, len(rb.Moves))
		}
	}
}

func TestAlphaBetaTwoBeatsRandomByAWideMargin(t *testing.T) {
	v := mustVariant(t, "fbgc")
	ab, err := Parse("alphabeta:2", v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rnd, _ := Parse("random", v, Options{})
	games := 8
	if testing.Short() {
		games = 4
	}
	res, err := Run(context.Background(), Config{A: ab, B: rnd, Games: games, Variant: v, MaxPlies: 300, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// A depth-2 material search wins nearly every game against random
	// moves; an honest bar: at least 80% of the points and no loss.
	if res.Est.Score < 0.8 || res.Total.Losses > 0 {
		t.Fatalf("alphabeta:2 against random: %+v (reasons %v), want >= 80%% and no loss", res.Total, res.Reasons)
	}
	t.Logf("alphabeta:2 vs random: %+v, mean %.0f plies, %v", res.Total, res.MeanPlies, res.Reasons)
}

func TestSPRTStopsAMatchEarly(t *testing.T) {
	v := mustVariant(t, "fbgc")
	ab, _ := Parse("alphabeta:1", v, Options{})
	rnd, _ := Parse("random", v, Options{})
	s := &stats.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	res, err := Run(context.Background(), Config{A: ab, B: rnd, Games: 200, Variant: v, MaxPlies: 300, Seed: 3, SPRT: s, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != stats.AcceptH1.String() || res.Total.Games() >= 200 {
		t.Fatalf("SPRT after %d games: %s (LLR %.2f)", res.Total.Games(), res.Decision, res.LLR)
	}
}

func TestMatchRejectsAFinishedStartAndBadConfigs(t *testing.T) {
	v := mustVariant(t, "fbgc")
	rnd, _ := Parse("random", v, Options{})
	over := mustPosition(t, v, "k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1")
	over.DoMove(mustMove(t, over, "e1e10"))
	cases := []struct {
		c    Config
		want string
	}{
		{Config{A: rnd, B: rnd, Games: 2, Start: over, MaxPlies: 10}, "already over"},
		{Config{A: rnd, B: rnd, Games: 0, Variant: v, MaxPlies: 10}, "0 games"},
		{Config{A: rnd, Games: 2, Variant: v, MaxPlies: 10}, "both players"},
		{Config{A: rnd, B: rnd, Games: 2, MaxPlies: 10}, "neither a start position nor a variant"},
		{Config{A: rnd, B: rnd, Games: 2, Variant: v, MaxPlies: 10, SPRT: &stats.SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}}, "elo"},
		{Config{A: rnd, B: rnd, Games: 2, Variant: v}, "no ply cap"},
	}
	for i, c := range cases {
		if _, err := Run(context.Background(), c.c); err == nil || !strings.Contains(strings.ToLower(err.Error()), c.want) {
			t.Errorf("case %d: error %v, want one mentioning %q", i, err, c.want)
		}
	}
}

func TestResultReasonsMarshalAsTerminationTextAndReadBack(t *testing.T) {
	in := Result{A: "a", B: "b", Reasons: map[env.Termination]int{env.Checkmate: 3, env.LengthCap: 1, env.Repetition: 2}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `"reasons":{"checkmate":3,"` + env.LengthCap.String() + `":1,"repetition":2}`
	if !strings.Contains(string(b), want) {
		t.Fatalf("JSON %s, want it to hold %s", b, want)
	}
	var out Result
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(out.Reasons, in.Reasons) {
		t.Fatalf("read back %v, want %v", out.Reasons, in.Reasons)
	}
}
