package datasets

import (
	"bomberzero/env"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// update rewrites the golden chunk of the current FormatVersion under
// testdata/v<FormatVersion>/ (go test ./datasets -run Golden -update). The
// normal test run only reads the fixtures: every committed version must keep
// reading, so a format change is a decision, not an accident.
var update = flag.Bool("update", false, "write the golden chunk of the current format version under testdata/")

// goldenPositions are fbgc positions of the game e2-e4 e9-e7 c1-d3 c10-d8,
// as the rules engine writes them.
var goldenPositions = []string{
	"frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1",
	"frnbqkbnrf/pppppppppp/10/10/10/10/4P5/10/PPPP1PPPPP/FRNBQKBNRF b KQkq e3 0 1",
	"frnbqkbnrf/pppp1ppppp/10/4p5/10/10/4P5/10/PPPP1PPPPP/FRNBQKBNRF w KQkq e8 0 2",
	"frnbqkbnrf/pppp1ppppp/10/4p5/10/10/4P5/3N6/PPPP1PPPPP/FR1BQKBNRF b KQkq - 1 2",
}

// goldenGames are the games of the golden chunk of a format version: one
// per way of ending the version-1 data knows, with resignation switched off
// in one of them, cheap searches without distributions, and piece counts.
// From version 2 on, some positions carry a repetition count (a version 1
// chunk reads it as 0).
func goldenGames(version int) []*GameRecord {
	type ending struct {
		termination env.Termination
		result      int
	}
	endings := []ending{{env.Checkmate, 1}, {env.Stalemate, 0}, {env.Repetition, 0}, {env.FiftyMoves, 0}, {env.LengthCap, 0},
		{env.Resignation, -1}, {env.Scepter, -1}, {env.Checkmate, -1}}
	var games []*GameRecord
	for i, e := range endings {
		g := &GameRecord{
			ID: fmt.Sprintf("golden-%02d", i), Variant: "fbgc", Model: "gen-0003", Generation: 3,
			Result: e.result, Termination: e.termination, Length: 4 + i,
		}
		if i == len(endings)-1 {
			g.ResignDisabled, g.WouldResign = true, White
		}
		for ply, pos := range goldenPositions[:1+i%len(goldenPositions)] {
			p := PositionRecord{Ply: ply, Position: pos, WhiteToMove: ply%2 == 0,
				Value: float32(ply)/8 - 0.25, FullSearch: ply%3 != 1, Played: []string{"e2-e4", "e9-e7", "c1-d3", "c10-d8"}[ply],
				Pieces: []PieceCount{{Piece: "P", White: 10, Black: 10}, {Piece: "N", White: 2, Black: 2}}}
			if version >= 2 && ply == 3 {
				p.Repetitions = 1
			}
			if p.FullSearch {
				p.PolicyIndex = []int32{114, 213, int32(100*ply + 7)}
				p.MoveText = []string{"e2-e4", "f2-f4", "c1-d3"}
				p.Visits = []float32{0.5, 0.375, 0.125}
			}
			g.Positions = append(g.Positions, p)
		}
		games = append(games, g)
	}
	return games
}

// goldenCreated is the creation time written into the golden chunks.
var goldenCreated = time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)

// writeGolden writes the golden chunk of the current format version.
func writeGolden(t *testing.T) {
	dir := filepath.Join("testdata", fmt.Sprintf("v%d", FormatVersion))
	old, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	w, err := NewChunkWriter(dir, ChunkMeta{Writer: "golden"})
	if err != nil {
		t.Fatal(err)
	}
	w.tag, w.now = "golden", func() time.Time { return goldenCreated }
	for _, g := range goldenGames(FormatVersion) {
		if err := w.AddGame(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// goldenChunks returns the committed golden chunk of every format version,
// with the version its directory names.
func goldenChunks(t *testing.T) map[int]string {
	dirs, err := filepath.Glob(filepath.Join("testdata", "v*"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	for _, d := range dirs {
		v, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "v"))
		if err != nil {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(d, "*.parquet"))
		if len(files) != 1 {
			t.Fatalf("%s: %d chunks, want one golden chunk", d, len(files))
		}
		out[v] = files[0]
	}
	return out
}

func TestGoldenChunksOfEveryVersionStillRead(t *testing.T) {
	if *update {
		writeGolden(t)
	}
	chunks := goldenChunks(t)
	for v := 1; v <= FormatVersion; v++ {
		if chunks[v] == "" {
			t.Fatalf("no golden chunk of format version %d under testdata/v%d (write it with -update)", v, v)
		}
	}
	for v, path := range chunks {
		c, err := ReadChunk(path)
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		want := goldenGames(v)
		if c.Info.Version != v || c.Info.Writer != "golden" || !c.Info.Created.Equal(goldenCreated) || c.Info.Games != len(want) {
			t.Errorf("version %d: info %+v, want version %d, writer golden, created %v, %d games", v, c.Info, v, goldenCreated, len(want))
		}
		got := Games(c.Rows)
		if len(got) != len(want) {
			t.Fatalf("version %d: %d games, want %d", v, len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(&got[i], want[i]) {
				t.Errorf("version %d game %d:\nread %+v\nwant %+v", v, i, got[i], *want[i])
			}
		}
		info, err := Stat(path)
		if err != nil || info.Checksum != c.Info.Checksum {
			t.Errorf("version %d: Stat %+v, %v; want the checksum %s", v, info, err, c.Info.Checksum)
		}
		_, rows, err := readTrainRows(path)
		if err != nil || len(rows) != len(c.Rows) {
			t.Fatalf("version %d: training columns: %d rows, %v; want %d rows", v, len(rows), err, len(c.Rows))
		}
		for i := range rows {
			if rows[i].Repetitions != c.Rows[i].Repetitions || rows[i].Position != c.Rows[i].Position {
				t.Errorf("version %d row %d: training columns %+v disagree with the full row %+v", v, i, rows[i], c.Rows[i])
			}
		}
	}
}
