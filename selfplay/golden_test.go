package selfplay

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/env"
)

// update rewrites the golden game records of the current layout version
// under testdata/v<RecordVersion>/ (go test ./selfplay -run Golden -update).
// The normal run only reads them: old runs' records must keep replaying,
// so a layout change is a decision, not an accident.
var update = flag.Bool("update", false, "write the golden game records of the current layout version under testdata/")

// goldenMoves are 20 plies of fbgc in Game Courier syntax, long enough to
// wrap the move text.
var goldenMoves = []string{"a1-a3", "c9-c7", "d2-d5", "h9-h6", "i2-i3", "h10-g8", "a3-h3", "b9-b7", "a2-a4", "j9-j6",
	"j2-j3", "j10-h10", "a4-a5", "e9-e6", "b2-b4", "d9-d8", "h3-f3", "d10-f8", "a5-a6", "h10-j10"}

// goldenFinal is the position goldenMoves reach from fbgc's start.
const goldenFinal = "frn1qkb1rf/p4pp1p1/3p1bn3/1pp7/P3p2p1p/3P6/1P8/5F2PP/2P1PPPP2/1RNBQKBNRF w KQkq - 1 11"

// goldenRecords are the golden game records by file name: a length-capped
// game from the variant's start and a short one from a given position.
func goldenRecords() map[string]*GameText {
	return map[string]*GameText{
		"capped.txt": {ID: "capped", Variant: "fbgc", Model: "gen-0003", Generation: 3, Result: "1/2-1/2",
			Termination: "length-cap", Moves: goldenMoves},
		"from-fen.txt": {ID: "from-fen", Variant: "fbgc", Model: "none", Generation: 0, Result: "0-1",
			Termination: "resignation", Start: goldenFinal, Moves: []string{"b4-b5"}},
	}
}

func TestGoldenRecordsOfEveryVersionStillRead(t *testing.T) {
	if *update {
		for _, rec := range goldenRecords() {
			if _, err := WriteRecord(filepath.Join("testdata", fmt.Sprintf("v%d", RecordVersion)), rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	for version := 1; version <= RecordVersion; version++ {
		for name, rec := range goldenRecords() {
			data, err := os.ReadFile(filepath.Join("testdata", fmt.Sprintf("v%d", version), name))
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			if g := rec.Record(); version == RecordVersion && text != g.Format() {
				t.Errorf("%s: this build writes\n%s\nthe golden record of version %d is\n%s", name, g.Format(), version, text)
			}
			for _, tag := range []string{
				fmt.Sprintf("[Format \"bomberzero-record %d\"]", version),
				fmt.Sprintf("[Termination %q]", rec.Termination),
				fmt.Sprintf("[Plies \"%d\"]", len(rec.Moves)),
			} {
				if !strings.Contains(text, tag) {
					t.Errorf("%s: no tag %s", name, tag)
				}
			}
			start := v.NewPosition()
			if rec.Start != "" {
				if start, err = v.ParsePosition(rec.Start); err != nil {
					t.Fatal(err)
				}
			}
			p, err := env.Replay(start, text)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if p.Ply()-start.Ply() != len(rec.Moves) {
				t.Errorf("%s: replayed %d plies, want %d", name, p.Ply()-start.Ply(), len(rec.Moves))
			}
			if name == "capped.txt" && p.String() != goldenFinal {
				t.Errorf("%s: replay reached %s, want %s", name, p, goldenFinal)
			}
		}
	}
}
