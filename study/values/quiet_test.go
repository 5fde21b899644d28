package values

import (
	"slices"
	"testing"

	"bomberzero/datasets"
	"bomberzero/env"
)

func TestCaptureAvailableFindsCapturesEnPassantAndABombersFlight(t *testing.T) {
	for _, c := range []struct {
		variant, text string
		want          bool
	}{
		{"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
		{"chess", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", true},  // exd5
		{"chess", "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1", true},  // dxe4
		{"chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", true},  // e.p. only
		{"chess", "4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1", false}, // blocked pawns
		// The bomber's flight over g4 removes the pawn (RULES.md §2):
		// no piece stands on the square it lands on.
		{"fbgc", "9k/10/10/10/10/10/5Fp3/10/10/9K w - - 0 1", true},
		{"fbgc", "9k/10/10/10/10/10/5F4/10/10/9K w - - 0 1", false},
	} {
		v, err := env.LoadVariant(c.variant)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := v.ParsePosition(c.text)
		if err != nil {
			t.Fatal(err)
		}
		before := pos.String()
		if got := CaptureAvailable(pos, make([]env.Move, 0, env.MaxMoves)); got != c.want {
			t.Errorf("%s %s: capture available %v, want %v", c.variant, c.text, got, c.want)
		}
		if pos.String() != before {
			t.Errorf("%s: position changed to %s", c.text, pos.String())
		}
	}
}

func TestNoCapturesLeavesOutPositionsWithACaptureAtLoad(t *testing.T) {
	// A chess game whose second position has a capture available: Load
	// marks it, the default sampling leaves it out and --with-captures
	// (NoCaptures false) keeps it.
	pos := func(ply int, text string) datasets.PositionRecord {
		return datasets.PositionRecord{Ply: ply, Position: text, WhiteToMove: ply%2 == 0,
			PolicyIndex: []int32{0}, MoveText: []string{"e1-e2"}, Visits: []float32{1}, FullSearch: true,
			Pieces: []datasets.PieceCount{{Piece: "P", White: 1, Black: 1}}}
	}
	g := datasets.GameRecord{ID: "g", Variant: "chess", Model: "none", Result: 1, Termination: env.Checkmate, Length: 13,
		Positions: []datasets.PositionRecord{
			pos(10, "4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1"),
			pos(11, "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1"),
			pos(12, "4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1"),
		}}
	dir := t.TempDir()
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddGame(&g); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ds, rep, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unreadable != 0 {
		t.Errorf("%d positions unreadable", rep.Unreadable)
	}
	ps := ds.Games[0].Positions
	if ps[0].CaptureAvailable || !ps[1].CaptureAvailable || ps[2].CaptureAvailable {
		t.Fatalf("capture available at plies 10-12: %v %v %v, want false true false", ps[0].CaptureAvailable, ps[1].CaptureAvailable, ps[2].CaptureAvailable)
	}
	quiet := DefaultSampleConfig()
	quiet.Spacing = 0 // neighbouring plies
	if got := quiet.Eligible(&ds.Games[0]); len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("default sampling keeps %v, want [0 2]", got)
	}
	all := quiet
	all.NoCaptures = false
	if got := all.Eligible(&ds.Games[0]); len(got) != 3 {
		t.Errorf("with captures the sampling keeps %v, want all 3", got)
	}
}

func TestSpacingKeepsPositionsAtLeastThatManyPliesApart(t *testing.T) {
	g := &Game{}
	for ply := 0; ply <= 20; ply++ {
		if ply == 9 {
			continue // a ply the data did not record
		}
		g.Positions = append(g.Positions, Position{Ply: ply})
	}
	var plies []int
	for _, i := range (SampleConfig{SkipPlies: 2, Spacing: 4}).Eligible(g) {
		plies = append(plies, g.Positions[i].Ply)
	}
	if want := []int{2, 6, 10, 14, 18}; !slices.Equal(plies, want) {
		t.Errorf("spacing 4 from ply 2 keeps plies %v, want %v", plies, want)
	}
	if err := (SampleConfig{Spacing: -1}).Validate(); err == nil {
		t.Error("negative spacing accepted")
	}
}
