package compare

import (
	"context"
	"math"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/study/values"
)

func imbalanceConfig(t *testing.T, variant, player, wx, by string, games int) ImbalanceConfig {
	t.Helper()
	v := load(t, variant)
	p, err := match.Parse(player, v, match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ImbalanceConfig{Variant: v, Player: p, WhiteWithout: wx, BlackWithout: by, Games: games, Seed: 1, MaxPlies: 200, Workers: 2}
}

// A queen is worth far more than a pawn: the side without its queen must
// lose clearly, whichever colour it has, and the implied difference
// v(P) - v(Q) must be negative in every unit.
func TestImbalanceQueenAgainstPawnFavoursTheQueenSide(t *testing.T) {
	cfg := imbalanceConfig(t, "fbgc", "alphabeta:2", "Q", "P", 20)
	r, err := PlayImbalance(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	im := r.Reading
	if im.Games != 20 || im.Wins+im.Draws+im.Losses != 20 {
		t.Fatalf("counted %d games (%d/%d/%d), want 20", im.Games, im.Wins, im.Draws, im.Losses)
	}
	if im.Score.Hi >= 0.4 {
		t.Errorf("side without the queen scores %.3f [%.3f, %.3f]; want the interval clearly below 1/2", im.Score.Point, im.Score.Lo, im.Score.Hi)
	}
	if r.Elo.Hi >= 0 || im.Units == nil || im.Units.Hi >= 0 {
		t.Errorf("implied v(P) - v(Q): Elo %+v, pawns %+v; want both intervals below zero", r.Elo, im.Units)
	}
	a1, a2 := r.Arrangements[0], r.Arrangements[1]
	if a1.AColor != "white" || a2.AColor != "black" || a1.AWithout != "e1" || a1.BWithout != "a9" || a2.AWithout != "e10" || a2.BWithout != "a2" {
		t.Errorf("arrangements %+v / %+v: want A White without e1 (B without a9), then A Black without e10 (B without a2)", a1, a2)
	}
	if a1.A.Games() != 10 || a2.A.Games() != 10 {
		t.Errorf("arrangements played %d and %d games, want 10 each", a1.A.Games(), a2.A.Games())
	}
	// Both arrangements lose: the colour swap is real, not a White effect.
	if a1.A.Wins >= a1.A.Losses || a2.A.Wins >= a2.A.Losses {
		t.Errorf("the queenless side won as often as it lost in an arrangement: %+v, %+v", a1.A, a2.A)
	}
	// The per-game scores a paired comparison resamples are the tally's,
	// arrangement by arrangement.
	if len(r.Scores) != 20 {
		t.Fatalf("%d per-game scores, want 20", len(r.Scores))
	}
	for k, a := range r.Arrangements {
		sum := 0.0
		for _, s := range r.Scores[10*k : 10*k+10] {
			sum += s
		}
		if want := float64(a.A.Wins) + float64(a.A.Draws)/2; sum != want {
			t.Errorf("arrangement %d: per-game scores sum to %v, the tally %+v to %v", k+1, sum, a.A, want)
		}
	}
}

// The same piece taken from both sides leaves a symmetric position: the
// reading must contain "no difference".
func TestImbalanceOfEqualPiecesIsWithinNoise(t *testing.T) {
	cfg := imbalanceConfig(t, "fbgc", "alphabeta:1", "N", "N", 21)
	r, err := PlayImbalance(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Arrangements[0].A.Games() != 11 || r.Arrangements[1].A.Games() != 10 {
		t.Errorf("21 games split %d/%d, want 11/10", r.Arrangements[0].A.Games(), r.Arrangements[1].A.Games())
	}
	if !r.Reading.Score.Contains(0.5) || !r.Elo.Contains(0) {
		t.Errorf("N against N: score %+v, Elo %+v; want both to contain no difference", r.Reading.Score, r.Elo)
	}
}

func TestImbalancePawnReadingUsesTheGivenScale(t *testing.T) {
	cfg := imbalanceConfig(t, "chess", "random", "N", "B", 4)
	cfg.PawnCoef, cfg.PawnSource = 0.5, "test"
	r, err := PlayImbalance(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	im := r.Reading
	if im.Tanh == nil || im.Units == nil {
		t.Fatalf("no reading: %+v", im)
	}
	if math.Abs(im.Units.Point-im.Tanh.Point/0.5) > 1e-12 || r.PawnCoef != 0.5 {
		t.Errorf("pawns %v, tanh %v: want pawns = tanh / 0.5", im.Units.Point, im.Tanh.Point)
	}
	def := imbalanceConfig(t, "chess", "random", "N", "B", 2)
	r, err = PlayImbalance(context.Background(), def)
	if err != nil {
		t.Fatal(err)
	}
	if r.PawnCoef != LichessPawnCoef || r.PawnSource == "" {
		t.Errorf("default scale %v (%q), want the Lichess coefficient with its source", r.PawnCoef, r.PawnSource)
	}
}

func TestImbalanceRefusesBadSettings(t *testing.T) {
	for name, mod := range map[string]func(*ImbalanceConfig){
		"one game":       func(c *ImbalanceConfig) { c.Games = 1 },
		"negative scale": func(c *ImbalanceConfig) { c.PawnCoef = -1 },
		"NaN scale":      func(c *ImbalanceConfig) { c.PawnCoef = math.NaN() },
		"royal":          func(c *ImbalanceConfig) { c.WhiteWithout = "K" },
		"empty square":   func(c *ImbalanceConfig) { c.BlackWithout = "e5" },
		"no player":      func(c *ImbalanceConfig) { c.Player = match.Maker{} },
	} {
		cfg := imbalanceConfig(t, "fbgc", "random", "Q", "P", 4)
		mod(&cfg)
		if _, err := PlayImbalance(context.Background(), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// --pawn-odds replays the match with a pawn taken from the side that scored
// more, in both colour arrangements, with the same seeds, and reads the two
// together; a weak player is named in a warning.
func TestPawnOddsReplaysTheMatchWithoutTheWinnersPawn(t *testing.T) {
	cfg := imbalanceConfig(t, "chess", "alphabeta:1", "N", "Q", 6)
	cfg.PawnOdds = true
	var last, total int
	cfg.Progress = func(done, n int) { last, total = done, n }
	r, err := PlayImbalance(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	po := r.PawnOdds
	if po == nil {
		t.Fatal("no pawn-odds match")
	}
	if last != 12 || total != 12 {
		t.Errorf("progress ended at %d of %d, want 12 of 12", last, total)
	}
	// Side A lacks the knight and B the queen: A scores more and gives the
	// pawn, a2 as White in the first arrangement, a7 as Black in the second.
	if r.Reading.Score.Point < 0.5 {
		t.Skipf("side A (a knight down, a queen up) scored %.3f with alphabeta:1", r.Reading.Score.Point)
	}
	b1, b2 := po.Arrangements[0], po.Arrangements[1]
	if po.Reading.Giver != "A" || po.Pawn != "a2" || !strings.Contains(b1.Start, "P") || b1.A.Games()+b2.A.Games() != 6 {
		t.Errorf("pawn odds %+v: want side A giving a2, 6 games", po)
	}
	for k, a := range po.Arrangements {
		if a.Seed != r.Arrangements[k].Seed || a.Start == r.Arrangements[k].Start {
			t.Errorf("arrangement %d: seed %d (imbalance %d), start %q: want the same seed and a start without the pawn", k+1, a.Seed, r.Arrangements[k].Seed, a.Start)
		}
	}
	if len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "alphabeta:1 is too weak") {
		t.Errorf("warnings %q, want alphabeta:1 named as too weak", r.Warnings)
	}
}

// A reading no strong player would give is named: the order of the two
// pieces reversed, or a queen less than a pawn above a pawn.
func TestImbalanceWarningsNameImplausibleReadings(t *testing.T) {
	u := func(x float64) *values.Estimate { return &values.Estimate{Point: x, Lo: x - 0.3, Hi: x + 0.3} }
	cases := []struct {
		name   string
		r      ImbalanceResult
		want   []string
		wantNo bool
	}{
		{"queen odds read as less than a pawn (alphabeta:1)", ImbalanceResult{Player: "alphabeta:1", X: "Q", Y: "P",
			Reading: values.Imbalance{Score: values.Estimate{Point: 0.44}, Units: u(-0.65)}},
			[]string{"alphabeta:1 is too weak", "Q only 0.65 pawns above P", "at least 2.5 above", "engine:nodes="}, false},
		{"an officer below a pawn", ImbalanceResult{Player: "engine:nodes=50", X: "N", Y: "P", Reading: values.Imbalance{Score: values.Estimate{Point: 0.6, Lo: 0.5, Hi: 0.7}}},
			[]string{"call N worth no more than P (side A's score 0.600 [0.500, 0.700])"}, false},
		{"a queen below a rook", ImbalanceResult{Player: "engine:nodes=50", X: "R", Y: "Q", Reading: values.Imbalance{Score: values.Estimate{Point: 0.3}}},
			[]string{"call Q worth no more than R"}, false},
		{"the pawn-odds reading is the one judged", ImbalanceResult{Player: "engine:nodes=50", X: "Q", Y: "P", Reading: values.Imbalance{Score: values.Estimate{Point: 0.2}, Units: u(-8)},
			PawnOdds: &PawnOddsMatch{Reading: values.PawnOddsReading{Units: u(-1.5)}}},
			[]string{"Q only 1.50 pawns above P (by the pawn-odds match)"}, false},
		{"two bishops against two knights are not judged", ImbalanceResult{Player: "engine:nodes=3000", X: "B+B", Y: "N+N", Reading: values.Imbalance{Score: values.Estimate{Point: 0.55}, Units: u(0.3)}}, nil, true},
		{"a plausible exchange", ImbalanceResult{Player: "engine:nodes=3000", X: "R", Y: "B+P", Reading: values.Imbalance{Score: values.Estimate{Point: 0.4}, Units: u(-0.4)}}, nil, true},
		{"order reversed", ImbalanceResult{Player: "models/x.safetensors", X: "R", Y: "N", Reading: values.Imbalance{Score: values.Estimate{Point: 0.55}}},
			[]string{"call R worth no more than N"}, false},
		{"plausible", ImbalanceResult{Player: "engine:nodes=2000", X: "Q", Y: "P", Reading: values.Imbalance{Score: values.Estimate{Point: 0.1}, Units: u(-8)}}, nil, true},
		{"near pieces are not judged", ImbalanceResult{Player: "engine:nodes=2000", X: "N", Y: "B", Reading: values.Imbalance{Score: values.Estimate{Point: 0.5}}}, nil, true},
	}
	for _, c := range cases {
		got := strings.Join(imbalanceWarnings(&c.r), "\n")
		if c.wantNo && got != "" {
			t.Errorf("%s: warnings %q, want none", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: warnings %q, want %q", c.name, got, w)
			}
		}
	}
}

// An imbalance of several pieces a side (H. G. Muller's Q against R+R)
// removes all of them, mirrored in the second arrangement, and names them.
func TestImbalanceOfSeveralPiecesRemovesThemAll(t *testing.T) {
	cfg := imbalanceConfig(t, "chess", "random", "Q", "R+R", 2)
	r, err := PlayImbalance(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	a1, a2 := r.Arrangements[0], r.Arrangements[1]
	if r.X != "Q" || r.Y != "R+R" || a1.AWithout != "d1" || a1.BWithout != "a8+h8" || a2.AWithout != "d8" || a2.BWithout != "a1+h1" {
		t.Errorf("X %q Y %q, arrangements without %s/%s and %s/%s; want Q, R+R, d1/a8+h8, d8/a1+h1", r.X, r.Y, a1.AWithout, a1.BWithout, a2.AWithout, a2.BWithout)
	}
	for k, want := range []string{"1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBN1"} {
		if got := r.Arrangements[k].Start; !strings.HasPrefix(got, want+" ") {
			t.Errorf("arrangement %d starts from %q, want the board %s", k+1, got, want)
		}
	}
	if r.Reading.Games != 2 {
		t.Errorf("read %d games, want 2", r.Reading.Games)
	}
}

// An imbalance that one side won every game of has no finite reading: the
// warning says so, gives the one-sided bound, the handicap and the games
// that would fix it, and prints no infinity.
func TestImbalanceWonEveryGameSaysWhatWouldBoundIt(t *testing.T) {
	for _, c := range []struct {
		name  string
		w, l  int
		wants []string
	}{
		{"side A won all", 40, 0, []string{"side A won all 40 games", "at least +", "handicap side A", "--white-without Q+P", "below 3/40", "about 67 games"}},
		{"side B won all", 0, 12, []string{"side B won all 12 games", "at most -", "handicap side B", "--black-without R+R+P", "about 20 games"}},
	} {
		im, err := values.ReadImbalance(c.w, 0, c.l, LichessPawnCoef)
		if err != nil {
			t.Fatal(err)
		}
		r := ImbalanceResult{Player: "engine:nodes=100", X: "Q", Y: "R+R", Reading: im, PawnCoef: LichessPawnCoef, PawnSource: "Lichess"}
		got := strings.Join(imbalanceWarnings(&r), "\n")
		for _, w := range c.wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s: warnings %q, want %q", c.name, got, w)
			}
		}
		if strings.Contains(strings.ToLower(got), "inf") || strings.Contains(got, "NaN") {
			t.Errorf("%s: an infinity or NaN printed: %q", c.name, got)
		}
	}
	im, _ := values.ReadImbalance(5, 3, 2, LichessPawnCoef)
	if w := degenerateWarning(&ImbalanceResult{Reading: im, PawnCoef: LichessPawnCoef}); w != "" {
		t.Errorf("a score of 0.65 warned %q", w)
	}
}

// The engine at a node limit gets its openings from a book drawn on the
// imbalance's start: each opening is legal from both arrangements and both
// pawn-odds setups, leaves the pawn-odds pawn home, and starts game j of
// each arrangement of both matches, whose per-game scores pair up.
func TestImbalanceBookServesBothArrangementsAndThePawnOddsMatch(t *testing.T) {
	cfg := imbalanceConfig(t, "chess", "engine:nodes=200", "Q", "R+R", 8)
	cfg.PawnOdds, cfg.Book, cfg.BookPlies = true, 4, 3
	r, err := PlayImbalance(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Book) != 4 || r.BookPlies != 3 {
		t.Fatalf("book %q of %d plies, want 4 openings of 3", r.Book, r.BookPlies)
	}
	po := r.PawnOdds
	if po == nil || len(po.Scores) != 8 || len(r.Scores) != 8 {
		t.Fatalf("pawn odds %+v, %d imbalance scores: want 8 games each", po, len(r.Scores))
	}
	v := cfg.Variant
	for k, a := range r.Arrangements {
		if a.CPUPlies == 0 || a.CPUMS <= 0 || a.Meter == "" || !strings.Contains(a.Load, " -> ") {
			t.Errorf("arrangement %d: CPU %.3f ms a move over %d moves (%q), load %q: want the player's cost and the load stated", k+1, a.CPUMS, a.CPUPlies, a.Meter, a.Load)
		}
	}
	for k := range 2 {
		for _, start := range []string{r.Arrangements[k].Start, po.Arrangements[k].Start} {
			s, err := v.ParsePosition(start)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range r.Book {
				p, err := env.PlayMoves(s, o)
				if err != nil {
					t.Errorf("opening %q from %q: %v", o, start, err)
					continue
				}
				if p.Ply()-s.Ply() != 3 {
					t.Errorf("opening %q from %q: %d plies", o, start, p.Ply()-s.Ply())
				}
			}
		}
	}
	pawn, err := v.Geo.ParseSquare(po.Pawn)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range r.Book {
		if strings.Contains(o, po.Pawn) || strings.Contains(o, v.Geo.Name(mirror(v.Geo, pawn))) {
			t.Errorf("opening %q touches the pawn-odds pawn's square %s or its mirror", o, po.Pawn)
		}
	}
	bad := cfg
	bad.Book = -1
	if _, err := PlayImbalance(context.Background(), bad); err == nil {
		t.Error("a book of -1 openings accepted")
	}
}

// The paired pawn-odds reading keeps the unpaired points and, where a
// pair's games are alike (the pawn-odds game is the imbalance game with a
// few results turned), gives a narrower pawn interval than resampling the
// matches independently; lists that do not pair, or a one-sided match,
// give none.
func TestPairedPawnOddsNarrowsTheIntervalOfAlikePairs(t *testing.T) {
	const n = 200
	scores, odds := make([]float64, n), make([]float64, n)
	for i := range n {
		if i%5 < 3 { // side A scores 0.6
			scores[i] = 1
		}
		odds[i] = scores[i]
		if i%5 == 0 { // without its pawn it loses a fifth of the games it won: 0.4
			odds[i] = 0
		}
	}
	un, err := values.ReadPawnOdds(scores, odds, true, 2000, 3)
	if err != nil {
		t.Fatal(err)
	}
	p := pairedPawnOdds(scores, odds, true, 2000, 3)
	if p == nil || p.Units == nil || un.Pawn == nil || un.Units == nil {
		t.Fatalf("paired %+v, unpaired %+v: want both readings", p, un)
	}
	if math.Abs(p.Pawn.Point-un.Pawn.Point) > 1e-12 || math.Abs(p.Units.Point-un.Units.Point) > 1e-12 {
		t.Errorf("paired points %v, %v differ from the unpaired %v, %v", p.Pawn.Point, p.Units.Point, un.Pawn.Point, un.Units.Point)
	}
	if !p.Pawn.Contains(p.Pawn.Point) || p.Pawn.Width() >= 0.7*un.Pawn.Width() {
		t.Errorf("paired pawn %+v, unpaired %+v: want the paired interval around its point and clearly narrower", p.Pawn, *un.Pawn)
	}
	if p.Unbounded != 0 || !p.Units.Bounded() {
		t.Errorf("paired units %+v with %d unbounded replicates, want a bounded interval", p.Units, p.Unbounded)
	}
	if pairedPawnOdds(scores, odds[:n-1], true, 100, 1) != nil {
		t.Error("lists of different lengths were paired")
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	if pairedPawnOdds(ones, odds, true, 100, 1) != nil {
		t.Error("a one-sided imbalance match gave a paired reading")
	}
}
