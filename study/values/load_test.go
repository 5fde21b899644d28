package values

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"bomberzero/datasets"
	"bomberzero/env"
)

// records turns a synthetic Dataset into the game records a self-play
// worker hands to datasets.ChunkWriter.
func records(ds *Dataset) []datasets.GameRecord {
	var out []datasets.GameRecord
	for _, g := range ds.Games {
		r := datasets.GameRecord{ID: g.ID, Variant: g.Variant, Model: "none", Result: g.Result,
			Termination: g.Termination, Length: g.Length}
		for _, p := range g.Positions {
			pr := datasets.PositionRecord{Ply: p.Ply, Position: p.Text, WhiteToMove: p.WhiteToMove,
				PolicyIndex: []int32{0}, MoveText: []string{"a1-a2"}, Visits: []float32{1}, FullSearch: true,
				Value: float32(p.Value), Played: p.Played}
			for i, name := range ds.Pieces {
				pr.Pieces = append(pr.Pieces, datasets.PieceCount{Piece: name, White: p.White[i], Black: p.Black[i]})
			}
			r.Positions = append(r.Positions, pr)
		}
		out = append(out, r)
	}
	return out
}

// writeChunks writes ds to dir as chunks of perChunk games.
func writeChunks(t *testing.T, dir string, ds *Dataset, perChunk int) {
	t.Helper()
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "test", GamesPerChunk: perChunk})
	if err != nil {
		t.Fatal(err)
	}
	recs := records(ds)
	for i := range recs {
		if err := w.AddGame(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestPieceValuesFromParquetChunksEqualTheInMemoryFit(t *testing.T) {
	m := ChessModel(false)
	ds := m.Games(400, 12)
	dir := t.TempDir()
	writeChunks(t, dir, ds, 150)
	// A corrupt chunk is skipped and named, not fatal.
	if err := os.WriteFile(filepath.Join(dir, "zzzz-bad.parquet"), []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := 0
	loaded, rep, err := Load(dir, func(done, total int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Chunks != 3 || calls < 3 {
		t.Errorf("read %d chunks with %d progress calls, want 3 chunks", rep.Chunks, calls)
	}
	if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "zzzz-bad.parquet") {
		t.Errorf("problems %q, want the corrupt chunk named", rep.Problems)
	}
	if !reflect.DeepEqual(loaded.Pieces, ds.Pieces) || len(loaded.Games) != len(ds.Games) {
		t.Fatalf("loaded pieces %v, %d games; want %v, %d", loaded.Pieces, len(loaded.Games), ds.Pieces, len(ds.Games))
	}
	cfg := synthConfig(5, Logistic, Tanh)
	cfg.Bootstrap = 40
	a, err := PieceValues(ds, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Chunks come back in chunk order, which need not be the writing order
	// of games; sort both by ID so the bootstrap sees the same games.
	sortGames(loaded)
	b, err := PieceValues(loaded, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("fit from chunks differs from the in-memory fit:\n%s\n%s", ja, jb)
	}
}

func TestLoadNamesAnEmptyDirectory(t *testing.T) {
	_, _, err := Load(t.TempDir(), nil)
	if err == nil || !strings.Contains(err.Error(), "no usable training-data chunk") {
		t.Errorf("error %v, want 'no usable training-data chunk'", err)
	}
	if _, _, err := Load(filepath.Join(t.TempDir(), "missing"), nil); err == nil {
		t.Errorf("missing directory accepted")
	}
}

func TestFromRecordsUnitesPieceTablesAndDropsDuplicateGames(t *testing.T) {
	pos := func(ply int, pieces ...datasets.PieceCount) datasets.PositionRecord {
		return datasets.PositionRecord{Ply: ply, Position: "x", WhiteToMove: ply%2 == 0, Pieces: pieces}
	}
	recs := []datasets.GameRecord{
		{ID: "a", Variant: "v", Result: 1, Termination: env.Checkmate, Length: 2,
			Positions: []datasets.PositionRecord{pos(0, datasets.PieceCount{Piece: "P", White: 8, Black: 8}), pos(1, datasets.PieceCount{Piece: "P", White: 8, Black: 7})}},
		{ID: "b", Variant: "v", Result: 0, Termination: env.Repetition, Length: 1,
			Positions: []datasets.PositionRecord{pos(0, datasets.PieceCount{Piece: "B", White: 1, Black: 2})}},
		{ID: "a", Variant: "v", Result: -1, Termination: env.Checkmate, Length: 1,
			Positions: []datasets.PositionRecord{pos(0)}},
	}
	ds, err := FromRecords(recs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds.Pieces, []string{"P", "B"}) || len(ds.Games) != 2 || ds.Games[0].Result != 1 {
		t.Fatalf("pieces %v, %d games, first result %d; want [P B], 2 games, +1", ds.Pieces, len(ds.Games), ds.Games[0].Result)
	}
	p := ds.Games[1].Positions[0]
	if !reflect.DeepEqual(p.White, []int32{0, 1}) || !reflect.DeepEqual(p.Black, []int32{0, 2}) {
		t.Errorf("game b counts %v/%v, want [0 1]/[0 2]", p.White, p.Black)
	}
	bad := []datasets.GameRecord{{ID: "c", Variant: "v", Result: 2, Length: 1}}
	if _, err := FromRecords(bad); err == nil || !strings.Contains(err.Error(), "Result") {
		t.Errorf("invalid record: error %v, want one naming Result", err)
	}
}

func TestLoadLeavesOutTeacherGamesUnlessAsked(t *testing.T) {
	m := ChessModel(false)
	own, taught := m.Games(120, 3), m.Games(80, 4)
	dir := t.TempDir()
	writeChunks(t, dir, own, 50)
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "teacher"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range records(taught) {
		r.ID, r.Model = "t-"+r.ID, "teacher:alphabeta:2"
		if err := w.AddGame(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ds, rep, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Games) != len(own.Games) || rep.TeacherGames != len(taught.Games) {
		t.Errorf("default load: %d games, %d teacher games left out; want %d and %d", len(ds.Games), rep.TeacherGames, len(own.Games), len(taught.Games))
	}
	for _, g := range ds.Games {
		if strings.HasPrefix(g.ID, "t-") {
			t.Fatalf("teacher game %s loaded by default", g.ID)
		}
	}
	all, rep, err := LoadWith(dir, LoadOptions{IncludeTeacher: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Games) != len(own.Games)+len(taught.Games) || rep.TeacherGames != 0 {
		t.Errorf("with teacher games: %d games, %d left out; want %d and 0", len(all.Games), rep.TeacherGames, len(own.Games)+len(taught.Games))
	}
	only := t.TempDir()
	w, _ = datasets.NewChunkWriter(only, datasets.ChunkMeta{Writer: "teacher"})
	r := records(taught)[0]
	r.Model = "teacher:alphabeta:1"
	if err := w.AddGame(&r); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, _, err := Load(only, nil); err == nil || !strings.Contains(err.Error(), "teacher") {
		t.Errorf("a directory of teacher games only: %v, want an error saying so", err)
	}
}

func TestLoadLeavesOutGamesTheCapStoppedUnlessAsked(t *testing.T) {
	m := ChessModel(false)
	ds := m.Games(90, 5)
	capped := 0
	for i := range ds.Games {
		switch i % 3 {
		case 1:
			ds.Games[i].Termination, ds.Games[i].Result = env.LengthCap, 0
			capped++
		case 2:
			ds.Games[i].Termination = env.Adjudication
			capped++
		}
	}
	dir := t.TempDir()
	writeChunks(t, dir, ds, 30)
	got, rep, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Games) != len(ds.Games)-capped || rep.CappedGames != capped {
		t.Errorf("default load: %d games, %d capped left out; want %d and %d", len(got.Games), rep.CappedGames, len(ds.Games)-capped, capped)
	}
	for _, g := range got.Games {
		if g.Termination == env.LengthCap || g.Termination == env.Adjudication {
			t.Fatalf("game %s (%s) loaded by default", g.ID, g.Termination)
		}
	}
	all, rep, err := LoadWith(dir, LoadOptions{IncludeCapped: true})
	if err != nil || len(all.Games) != len(ds.Games) || rep.CappedGames != 0 {
		t.Errorf("with capped games: %v, %d games, %d left out; want %d and 0", err, len(all.Games), rep.CappedGames, len(ds.Games))
	}
	// A directory of capped games only is an error that says so.
	only := t.TempDir()
	one := &Dataset{Pieces: ds.Pieces, Games: ds.Games[1:2]}
	writeChunks(t, only, one, 1)
	if _, _, err := Load(only, nil); err == nil || !strings.Contains(err.Error(), "length cap") {
		t.Errorf("a directory of capped games only: %v, want an error saying so", err)
	}
}
