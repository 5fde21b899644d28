package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The engine player is accepted in imbalance and given a book of
// openings by default (one a game of each arrangement); --book 0 is
// refused, saying why, for an outside engine, which plays one game from
// one start, and allowed for the engine, whose games vary with its seed.
func TestImbalanceGivesTheEngineABookAndRefusesNone(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"imbalance", "--variant", "chess", "--player", "engine:nodes=100", "--white-without", "Q", "--black-without", "R+R",
		"--games", "6", "--workers", "2", "--json", "--quiet"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res struct {
		Book      []string `json:"book"`
		BookPlies int      `json:"book_plies"`
		Scores    []float64
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Book) != 3 || res.BookPlies != 4 || len(res.Scores) != 6 {
		t.Errorf("book %q of %d plies, %d scores: want 3 openings of 4 plies (6 games, one opening a game of each arrangement)", res.Book, res.BookPlies, len(res.Scores))
	}
	out.Reset()
	errb.Reset()
	code = run([]string{"imbalance", "--variant", "chess", "--player", "uci:stockfish", "--white-without", "Q", "--black-without", "R+R",
		"--games", "6", "--book", "0"}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "plays the same game from the same start") || !strings.Contains(errb.String(), "--book 3") {
		t.Errorf("--book 0 with an outside engine: exit %d, stderr %q; want a refusal saying why and what book to give", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	if code = run([]string{"imbalance", "--variant", "chess", "--player", "engine:nodes=100", "--white-without", "Q", "--black-without", "R+R",
		"--games", "2", "--book", "0", "--json", "--quiet"}, &out, &errb); code != 0 || strings.Contains(out.String(), `"book"`) {
		t.Errorf("--book 0 with the engine (whose seed varies its games): exit %d, stderr %q, output with a book: want it played from the start position", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	run([]string{"imbalance", "-h"}, &out, &errb)
	if help := out.String() + errb.String(); !strings.Contains(help, "engine:nodes=N") || !strings.Contains(help, "get a book of random openings") {
		t.Errorf("help does not name the engine player and its book:\n%s", help)
	}
}
