package main

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/study/values"
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

// --fit-positions sets the match's reading beside a fit of a positions
// file: the fit's v(Y) - v(X) is the file's own (values --sums gives the
// same), the difference is the match's minus the fit's, and a bad file, a
// square or a piece the games lack is refused before any game is played.
func TestImbalanceBesideAFit(t *testing.T) {
	data := t.TempDir()
	writeValuesData(t, data, 400, "chess")
	pos := filepath.Join(t.TempDir(), "chess.positions")
	var out, errb bytes.Buffer
	if code := run([]string{"values", "--data", data, "--fits", "logistic", "--bootstrap", "2", "--write-positions", pos, "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("values --write-positions: exit %d: %s", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"values", "--positions", pos, "--fits", "logistic", "--bootstrap", "200", "--seed", "5", "--sums", "P+P+P-N", "--json", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("values --sums: exit %d: %s", code, errb.String())
	}
	var rep values.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	want := rep.Fits[0].Sums[0].Value
	out.Reset()
	code := run([]string{"imbalance", "--variant", "chess", "--player", "alphabeta:1", "--white-without", "N", "--black-without", "P+P+P",
		"--games", "20", "--seed", "5", "--workers", "2", "--fit-positions", pos, "--json", "--quiet"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res struct {
		Reading   values.Imbalance  `json:"reading"`
		BesideFit *values.BesideFit `json:"beside_fit"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	b := res.BesideFit
	if b == nil || b.Fit.Value == nil || *b.Fit.Value != *want || b.Fit.Expr != "P+P+P-N" {
		t.Fatalf("beside the fit: %+v, want the fit's P+P+P-N %+v", b, want)
	}
	if res.Reading.Units == nil || b.Imbalance == nil || *b.Imbalance != *res.Reading.Units {
		t.Errorf("the match's reading beside the fit %+v, want its pawns %+v", b.Imbalance, res.Reading.Units)
	}
	if b.Difference != nil && math.Abs(b.Difference.Point-(b.Imbalance.Point-want.Point)) > 1e-9 {
		t.Errorf("difference %+v, want the match's %.3f minus the fit's %.3f", b.Difference, b.Imbalance.Point, want.Point)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--white-without", "a1", "--black-without", "P", "--fit-positions", pos}, "squares cannot be set beside a fit"},
		{[]string{"--white-without", "Q", "--black-without", "P", "--fit-positions", pos}, "no piece Q"},
		{[]string{"--white-without", "N", "--black-without", "P", "--fit-positions", filepath.Join(data, "none.positions")}, "none.positions"},
	} {
		errb.Reset()
		args := append([]string{"imbalance", "--variant", "chess", "--player", "alphabeta:1", "--games", "2", "--quiet"}, tc.args...)
		if code := run(args, &out, &errb); code == 0 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want a refusal naming %q", tc.args, code, errb.String(), tc.want)
		}
	}
}
