package compare

import (
	"context"
	"testing"

	"bomberzero/env"
	"bomberzero/match"
)

// Records of real games replay to the same piece counts and endings: the
// first position is the start's, every move is the one played, and the
// final position's status agrees with the ending recorded.
func TestDatasetReplaysMatchGamesFaithfully(t *testing.T) {
	v := load(t, "fbgc")
	p, err := match.Parse("greedy", v, match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := v.NewPosition()
	r, err := match.Run(context.Background(), match.Config{A: p, B: p, Games: 6, Start: start, Variant: v, MaxPlies: 120, Seed: 3, KeepGames: true})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Dataset("t", start, r.Records)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Games) != 6 {
		t.Fatalf("%d games, want 6", len(ds.Games))
	}
	col := map[string]int{}
	for i, l := range ds.Pieces {
		col[l] = i
	}
	for gi, g := range ds.Games {
		rec := r.Records[gi]
		if g.Length != rec.Plies || len(g.Positions) != rec.Plies {
			t.Fatalf("game %s: length %d with %d positions, want %d", g.ID, g.Length, len(g.Positions), rec.Plies)
		}
		pos := start.Clone()
		for i, q := range g.Positions {
			if q.Ply != i || q.Text != pos.String() || q.Played != rec.Moves[i] || q.WhiteToMove != (pos.SideToMove() == env.White) {
				t.Fatalf("game %s ply %d: recorded %+v, want the position %s before %s", g.ID, i, q, pos, rec.Moves[i])
			}
			for ti := 1; ti < len(v.Pieces); ti++ {
				c := col[string(v.Pieces[ti].Letter)]
				if int(q.White[c]) != pos.Count(env.White, ti) || int(q.Black[c]) != pos.Count(env.Black, ti) {
					t.Fatalf("game %s ply %d: %c counts %d/%d, board has %d/%d", g.ID, i, v.Pieces[ti].Letter,
						q.White[c], q.Black[c], pos.Count(env.White, ti), pos.Count(env.Black, ti))
				}
			}
			m, err := pos.ParseMove(rec.Moves[i])
			if err != nil {
				t.Fatal(err)
			}
			pos.DoMove(m)
		}
		res, why := pos.Status()
		wantResult := map[env.Result]int{env.WhiteWins: 1, env.BlackWins: -1, env.Draw: 0}[rec.Result]
		if g.Result != wantResult {
			t.Errorf("game %s: result %d, match says %v", g.ID, g.Result, rec.Result)
		}
		switch {
		case rec.Termination == env.LengthCap:
			if res != env.Ongoing || g.Termination != env.LengthCap {
				t.Errorf("game %s: capped game ends %v by %q", g.ID, res, g.Termination)
			}
		default:
			if res != rec.Result || g.Termination != why {
				t.Errorf("game %s: recorded %q, the final position says %v by %v", g.ID, g.Termination, res, why)
			}
		}
	}
}

func TestRecordRefusesInconsistentGames(t *testing.T) {
	start := load(t, "fbgc").NewPosition()
	for name, g := range map[string]match.Game{
		"no result":     {Termination: env.Checkmate, Plies: 1, Moves: []string{"e2-e4"}},
		"no ending":     {Result: env.Draw, Plies: 1, Moves: []string{"e2-e4"}},
		"moves missing": {Result: env.Draw, Termination: env.LengthCap, Plies: 2, Moves: []string{"e2-e4"}},
		"illegal move":  {Result: env.Draw, Termination: env.LengthCap, Plies: 1, Moves: []string{"e2-e9"}},
	} {
		if _, err := Record("x", start, &g); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestSelfPlayTakesTheBooksOpeningsInTurn: self-play from a book starts
// game i from opening i mod N, one game an opening in turn, not each
// opening twice with the colours swapped (a player meeting itself would
// replay the same game), so N openings give N different starts.
func TestSelfPlayTakesTheBooksOpeningsInTurn(t *testing.T) {
	v := load(t, "fbgc")
	p, err := match.Parse("alphabeta:1", v, match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ob, err := match.RandomBook([]*env.Variant{v}, 3, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	book, err := match.BookPositions(v, ob)
	if err != nil {
		t.Fatal(err)
	}
	_, recs, err := SelfPlayGames(context.Background(), v, p, 6, 6, 1, 2, book, "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("%d games, want 6", len(recs))
	}
	for i, rec := range recs {
		if got, want := rec.Positions[0].Position, book[i%3].String(); got != want {
			t.Errorf("game %d starts from %q, want opening %d %q", i, got, i%3, want)
		}
	}
}
