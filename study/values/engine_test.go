package values

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/engine/learn"
	"bomberzero/env"
)

// engineGames plays n short engine self-play games of chess as the nnue
// loop does and returns their rows, in game order, and each game's stats.
func engineGames(t *testing.T, n int) ([]learn.Row, []learn.GameStats) {
	t.Helper()
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	table := make([]int32, len(v.Pieces))
	for i := range table {
		table[i] = 300
	}
	table[v.KingType()] = 0
	cfg := learn.DefaultPlayConfig()
	cfg.Nodes, cfg.MaxPlies = 100, 120
	var rows []learn.Row
	var st []learn.GameStats
	for g := 0; g < n; g++ {
		r, s, err := learn.PlayGame(context.Background(), v, table, nil, cfg, uint64(7+g), g)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r...)
		st = append(st, s)
	}
	return rows, st
}

func writeEngineChunk(t *testing.T, path string, rows []learn.Row) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := learn.WriteChunk(path, learn.ChunkMeta{Variant: "chess", Generation: 4}, rows); err != nil {
		t.Fatal(err)
	}
}

// TestLoadEngineReadsTheLoopsGames: every game of a chunk becomes one game
// whose positions are the rows' positions, with piece counts read from
// the position text by the rules engine, its result from White's view
// (the rows carry it for the side to move), the player named; a corrupt
// chunk beside it is skipped and reported.
func TestLoadEngineReadsTheLoopsGames(t *testing.T) {
	rows, stats := engineGames(t, 4)
	dir := t.TempDir()
	writeEngineChunk(t, filepath.Join(dir, "gen-0004", "chunk-0000.parquet"), rows)
	if err := os.WriteFile(filepath.Join(dir, "gen-0004", "chunk-0001.parquet"), []byte("not a chunk"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, rep, err := LoadEngine(dir, "engine:nodes=100", nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Chunks != 1 || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "chunk-0001.parquet") {
		t.Fatalf("report %+v: want one chunk read and chunk-0001 reported", rep)
	}
	perGame := map[int32]int{}
	for _, r := range rows {
		perGame[r.Game]++
	}
	if len(ds.Games) != len(perGame) {
		t.Fatalf("%d games, want %d (the games with rows)", len(ds.Games), len(perGame))
	}
	v, _ := env.LoadVariant("chess")
	col := map[string]int{}
	for i, p := range ds.Pieces {
		col[p] = i
	}
	k := 0
	for _, g := range ds.Games {
		var n int32
		if _, err := fmt.Sscanf(g.ID[strings.LastIndexByte(g.ID, '#')+1:], "%d", &n); err != nil {
			t.Fatalf("game ID %q: %v", g.ID, err)
		}
		if want := stats[n].Result; g.Result != want.For(env.White) {
			t.Errorf("game %s: result %d, want %d (White's view of %v)", g.ID, g.Result, want.For(env.White), want)
		}
		if g.Player != "engine:nodes=100" || g.Variant != "chess" {
			t.Errorf("game %s: player %q variant %q", g.ID, g.Player, g.Variant)
		}
		if len(g.Positions) != perGame[n] {
			t.Errorf("game %s: %d positions, want %d", g.ID, len(g.Positions), perGame[n])
		}
		for _, p := range g.Positions {
			r := rows[k]
			k++
			pos, err := v.ParsePosition(r.FEN)
			if err != nil {
				t.Fatal(err)
			}
			if p.Text != r.FEN || p.Ply != int(r.Ply) || p.WhiteToMove != (pos.SideToMove() == env.White) {
				t.Fatalf("game %s: position %+v from row %+v", g.ID, p, r)
			}
			for ti := 1; ti < len(v.Pieces); ti++ {
				c := col[string(v.Pieces[ti].Letter)]
				if p.White[c] != int32(pos.Count(env.White, ti)) || p.Black[c] != int32(pos.Count(env.Black, ti)) {
					t.Fatalf("game %s ply %d: counts %v/%v for %s", g.ID, p.Ply, p.White, p.Black, r.FEN)
				}
			}
			if p.CaptureAvailable != CaptureAvailable(pos, nil) {
				t.Fatalf("game %s ply %d: CaptureAvailable %v", g.ID, p.Ply, p.CaptureAvailable)
			}
		}
	}
}

// TestLoadEngineRefusesBadRows: rows that cannot come from the loop are
// an error naming the chunk and the row, never a silent fit; a directory
// without a usable chunk is an error too.
func TestLoadEngineRefusesBadRows(t *testing.T) {
	rows, _ := engineGames(t, 2)
	var first, second []learn.Row
	for _, r := range rows {
		if r.Game == 0 {
			first = append(first, r)
		} else {
			second = append(second, r)
		}
	}
	if len(first) < 2 || len(second) < 1 {
		t.Skip("the games recorded too few positions")
	}
	split := append(append(append([]learn.Row{}, first[:1]...), second...), first[1:]...)
	badResult := append([]learn.Row{}, first...)
	badResult[0].Result = 0.25
	disagree := append([]learn.Row{}, first...)
	disagree[1].Result = 1 - disagree[1].Result
	if disagree[1].Result == 0.5 {
		disagree[1].Result = 1
	}
	backwards := append([]learn.Row{}, first...)
	backwards[1].Ply = backwards[0].Ply
	badFEN := append([]learn.Row{}, first...)
	badFEN[0].FEN = "rnbqkbnr/pppppppp/8"
	for _, tc := range []struct {
		name string
		rows []learn.Row
		want string
	}{
		{"split game", split, "are not together"},
		{"result", badResult, "want 1, 0.5 or 0"},
		{"disagreeing results", disagree, "disagree on its result"},
		{"plies", backwards, "plies do not increase"},
		{"position text", badFEN, "row 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeEngineChunk(t, filepath.Join(dir, "chunk-0000.parquet"), tc.rows)
			_, _, err := LoadEngine(dir, "", nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "chunk-0000.parquet") {
				t.Fatalf("error %v, want one naming the chunk and %q", err, tc.want)
			}
		})
	}
	_, _, err := LoadEngine(t.TempDir(), "", nil)
	if err == nil || !strings.Contains(err.Error(), "no usable engine self-play chunk") {
		t.Fatalf("empty directory: error %v", err)
	}
}
