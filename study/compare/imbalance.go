package compare

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/stats"
	"bomberzero/study/values"
)

// LichessPawnCoef is the default score-to-material scale of an imbalance
// reading: a pawn's worth in the tanh units of E[result] = tanh(β·Δ).
// Lichess's published win-chance model, 2/(1+exp(-0.00368208·cp)) - 1 =
// tanh(0.00184104·cp), gives a pawn (100 cp) β = 0.184104 in orthodox
// chess between strong players. A values fit on the variant's own games
// (ImbalanceConfig.PawnCoef from values.Report.UnitCoef) replaces it.
const LichessPawnCoef = 0.184104

// ImbalanceConfig describes an imbalance match: Player against itself,
// side A without piece X and side B without piece Y.
type ImbalanceConfig struct {
	Variant *env.Variant
	Player  match.Maker
	// WhiteWithout and BlackWithout name the pieces removed in the first
	// arrangement (White is side A there, lacking X = WhiteWithout; Black
	// is side B lacking Y = BlackWithout). In the second arrangement the
	// colours swap: Black lacks the mirror of X and White the mirror of Y.
	WhiteWithout, BlackWithout string
	// Games is the number of games, split evenly between the two
	// arrangements (the first gets the odd one).
	Games    int
	Seed     uint64
	MaxPlies int // the ply cap (eval.max_plies in the commands); negative: none
	Workers  int // 0: one per core
	// PawnCoef is the unit piece's tanh coefficient used to turn the score
	// into material (0: LichessPawnCoef); PawnSource says where it came
	// from, for the report.
	PawnCoef   float64
	PawnSource string
	// PawnReplicates are PawnCoef's bootstrap replicates (the tanh fit's
	// values.FitResult.UnitReplicates), when it was fitted: the pawns
	// reading's interval is then a joint bootstrap carrying both the
	// imbalance games' and the pawn fit's uncertainty.
	PawnReplicates []float64
	// PawnOdds, when true, plays the match a second time with a pawn taken
	// from the side that scored more, H. G. Muller's way of putting the
	// score into the player's own pawns (ImbalanceResult.PawnOdds).
	PawnOdds bool
	// Openings, when set, are the openings the games start from instead
	// of a book drawn here (Book must then be 0), game j of each
	// arrangement (and of the pawn-odds match) from opening j % len: a
	// caller playing one imbalance in several rule sets draws them once,
	// legal from every rule set's starts (compare's imbalance pairs do),
	// so that game j starts alike in each. Each must be legal from both
	// arrangements' starts, leave the game going and, with PawnOdds, leave
	// the pawn-odds pawn home; PlayImbalance refuses one that does not,
	// naming it.
	Openings []match.Opening
	// Book, when positive, starts the games from Book random openings of
	// BookPlies plies (0: DefaultBookPlies), drawn on the start position
	// with the imbalance (the pieces already gone, so that every opening
	// is legal there) and kept only where legal in both colour
	// arrangements and, with PawnOdds, in the pawn-odds positions too,
	// leaving the same pieces. Game j of each arrangement, and of the
	// pawn-odds match, starts from opening j % Book, so the two matches'
	// games pair up. A player that plays the same game from one start (an
	// outside engine at a node limit) needs a book of Games/2 openings
	// (rounded up): one opening a game of each arrangement.
	Book      int
	BookPlies int
	// Progress, when set, is called after each game with the games done
	// and the total.
	Progress func(done, total int)
}

// Arrangement is one of the two colourings of the imbalance.
type Arrangement struct {
	Start     string                  `json:"start"`     // position text
	AColor    string                  `json:"a_color"`   // "white" or "black": side A's colour
	AWithout  string                  `json:"a_without"` // the squares side A's pieces were taken from ("a1", "a1+h1")
	BWithout  string                  `json:"b_without"` // the squares side B's pieces were taken from
	Seed      uint64                  `json:"seed"`      // the match seed of this arrangement
	A         stats.WDL               `json:"a"`         // side A's results
	Reasons   map[env.Termination]int `json:"reasons"`   // how the games ended
	MeanPlies float64                 `json:"mean_plies"`
	// CPUMS is the player's CPU milliseconds a move over both sides'
	// moves (it meets itself), measured as Meter says (match.Times), over
	// CPUPlies moves; Load is the machine's load average at the
	// arrangement's start and end ("9.87, 8.12, 5.01 -> 12.3, ..."), as a
	// strength figure must state them.
	CPUMS    float64 `json:"cpu_ms_move"`
	CPUPlies int     `json:"cpu_plies"`
	Meter    string  `json:"cpu_measure,omitempty"`
	Load     string  `json:"load,omitempty"`
}

// ImbalanceResult is what an imbalance match shows: side A's score with
// its interval, the value difference v(Y) - v(X) it implies in tanh units,
// in Elo and in pawns, and both arrangements' details.
type ImbalanceResult struct {
	Variant  string           `json:"variant"`
	Player   string           `json:"player"`
	X        string           `json:"x"` // the pieces side A lacks (letters joined by "+": "Q", "R+R")
	Y        string           `json:"y"` // the pieces side B lacks
	Games    int              `json:"games"`
	Seed     uint64           `json:"seed"`
	MaxPlies int              `json:"max_plies"`
	Reading  values.Imbalance `json:"reading"`
	// Elo is side A's Elo advantage the score implies, bound by bound;
	// nil (JSON null) for a score of 1 or 0, which has no finite estimate.
	Elo          *values.Estimate `json:"elo"`
	PawnCoef     float64          `json:"pawn_coef"`
	PawnSource   string           `json:"pawn_source"`
	Arrangements [2]Arrangement   `json:"arrangements"`
	// PawnOdds is the pawn-odds replay (ImbalanceConfig.PawnOdds), nil
	// without it.
	PawnOdds *PawnOddsMatch `json:"pawn_odds,omitempty"`
	// Book is the openings the games started from (moves in Game Courier
	// text, from arrangement 1's start; arrangement 2 and the pawn-odds
	// match play the same moves from theirs), drawn here or given
	// (ImbalanceConfig.Openings), empty without a book; BookPlies is their
	// length (the longest, for given openings of several lengths).
	Book      []string `json:"book,omitempty"`
	BookPlies int      `json:"book_plies,omitempty"`
	// Warnings say when the player is too weak for the question or the
	// reading contradicts any strong player's order of the two pieces.
	Warnings []string `json:"warnings,omitempty"`
	// BesideFit sets the reading beside a fit of the player's games
	// (bomberzero imbalance --fit-positions), nil without one.
	BesideFit *values.BesideFit `json:"beside_fit,omitempty"`

	// Scores is side A's score (1, ½, 0) in every game, the first
	// arrangement's games then the second's, each in game order: game j
	// of two variants' matches shares its start and seeds, so the lists
	// pair up (values.PairedImbalanceReplicates, PairedScoreDifference).
	// Saved so that anyone can recompute a paired comparison.
	Scores []float64 `json:"scores,omitempty"`
}

// PlayImbalance plays the imbalance match of cfg.
func PlayImbalance(ctx context.Context, cfg ImbalanceConfig) (*ImbalanceResult, error) {
	if cfg.Variant == nil || cfg.Player.New == nil {
		return nil, fmt.Errorf("compare: imbalance needs a variant and a player")
	}
	if cfg.Games < 2 {
		return nil, fmt.Errorf("compare: imbalance games %d: want at least 2 (one per colour arrangement)", cfg.Games)
	}
	if cfg.PawnCoef < 0 || math.IsNaN(cfg.PawnCoef) || math.IsInf(cfg.PawnCoef, 0) {
		return nil, fmt.Errorf("compare: pawn coefficient %v: want a positive number (0 for the default)", cfg.PawnCoef)
	}
	if cfg.PawnCoef == 0 {
		cfg.PawnCoef, cfg.PawnSource = LichessPawnCoef, "Lichess's win-chance model, tanh(0.00184104·centipawns)"
	}
	if cfg.MaxPlies == 0 {
		return nil, fmt.Errorf("compare: imbalance: no ply cap given (MaxPlies 0; negative is no cap)")
	}
	if cfg.Book < 0 || cfg.BookPlies < 0 {
		return nil, fmt.Errorf("compare: imbalance book of %d openings of %d plies: want 0 or more of each", cfg.Book, cfg.BookPlies)
	}
	if len(cfg.Openings) > 0 && cfg.Book > 0 {
		return nil, fmt.Errorf("compare: imbalance: both a book to draw (Book %d) and given openings (%d): want one", cfg.Book, len(cfg.Openings))
	}
	v := cfg.Variant
	set, err := newImbalanceSetup(v, cfg.WhiteWithout, cfg.BlackWithout)
	if err != nil {
		return nil, err
	}
	start, xs, ys, mx, my := set.start, set.xs, set.ys, set.mx, set.my
	res := &ImbalanceResult{Variant: v.Name, Player: cfg.Player.Spec, Games: cfg.Games, Seed: cfg.Seed, MaxPlies: cfg.MaxPlies,
		X: letters(start, xs), Y: letters(start, ys), PawnCoef: cfg.PawnCoef, PawnSource: cfg.PawnSource}
	total := cfg.Games
	if cfg.PawnOdds {
		total *= 2
	}
	// The pawn-odds setups of both givers (the giver is known only after
	// the first match), so that a book can be drawn legal in all of them.
	var odds [2]*oddsSetup // [0]: side A gives, [1]: side B gives
	var oddsErr [2]error
	if cfg.PawnOdds {
		for i, aGives := range []bool{true, false} {
			odds[i], oddsErr[i] = newOddsSetup(v, start, xs, ys, mx, my, aGives)
			if oddsErr[i] != nil && (cfg.Book > 0 || len(cfg.Openings) > 0) {
				return nil, oddsErr[i]
			}
		}
	}
	var book []match.Opening
	switch {
	case len(cfg.Openings) > 0:
		if err := checkOpenings(v, set.starts, odds, cfg.Openings); err != nil {
			return nil, err
		}
		book = cfg.Openings
		for _, o := range book {
			res.BookPlies = max(res.BookPlies, len(o))
		}
	case cfg.Book > 0:
		if book, err = imbalanceBook(cfg, set.starts, odds); err != nil {
			return nil, err
		}
		res.BookPlies = bookPlies(cfg)
	}
	for _, o := range book {
		res.Book = append(res.Book, o.String())
	}
	squares := [2][2][]env.Square{{xs, ys}, {mx, my}}
	arr, wdl, scores, err := playArrangements(ctx, cfg, set.starts, book, squares, 0, total)
	if err != nil {
		return nil, err
	}
	res.Arrangements, res.Scores = arr, scores
	res.Reading, err = values.ReadImbalanceJoint(wdl.Wins, wdl.Draws, wdl.Losses, cfg.PawnCoef, cfg.PawnReplicates, cfg.Seed)
	if err != nil {
		return nil, err
	}
	if s := res.Reading.Score; s.Point > 0 && s.Point < 1 {
		res.Elo = &values.Estimate{Point: eloOf(s.Point), Lo: eloOf(s.Lo), Hi: eloOf(s.Hi)}
	}
	if cfg.PawnOdds {
		aGives := res.Reading.Score.Point >= 0.5
		giver := 1
		if aGives {
			giver = 0
		}
		if oddsErr[giver] != nil {
			return nil, oddsErr[giver]
		}
		if res.PawnOdds, err = playPawnOdds(ctx, cfg, odds[giver], book, squares, aGives, res.Scores, total); err != nil {
			return nil, err
		}
	}
	res.Warnings = imbalanceWarnings(res)
	return res, nil
}

// imbalanceSetup is an imbalance resolved on a variant's start position:
// the squares side A's pieces (xs) and side B's (ys) leave in the first
// colour arrangement, their mirrors (mx, my) in the second, and the two
// arrangements' start positions.
type imbalanceSetup struct {
	start          *env.Position
	xs, ys, mx, my []env.Square
	starts         [2]*env.Position
}

// newImbalanceSetup resolves White's pieces whiteWithout (side A's X) and
// Black's blackWithout (side B's Y) on v's start position, checks that the
// position is symmetric at them (the colours swap in the second
// arrangement) and builds both arrangements' start positions.
func newImbalanceSetup(v *env.Variant, whiteWithout, blackWithout string) (*imbalanceSetup, error) {
	start := v.NewPosition()
	xs, err := Removal{env.White, whiteWithout}.ResolveAll(start)
	if err != nil {
		return nil, err
	}
	ys, err := Removal{env.Black, blackWithout}.ResolveAll(start)
	if err != nil {
		return nil, err
	}
	mx, my := mirrorAll(v.Geo, xs), mirrorAll(v.Geo, ys)
	// The swap needs the mirrored squares to hold the same pieces in the
	// other colour.
	all, mall := append(slices.Clone(xs), ys...), append(slices.Clone(mx), my...)
	for i, s := range all {
		m := mall[i]
		p, q := start.At(s), start.At(m)
		if q == env.NoPiece || q.Type() != p.Type() || q.Color() == p.Color() {
			return nil, fmt.Errorf("compare: the start position is not symmetric at %s/%s, so the colours cannot be swapped",
				v.Geo.Name(s), v.Geo.Name(m))
		}
	}
	first, err := Without(start, all...)
	if err != nil {
		return nil, err
	}
	second, err := Without(start, append(slices.Clone(my), mx...)...)
	if err != nil {
		return nil, err
	}
	return &imbalanceSetup{start: start, xs: xs, ys: ys, mx: mx, my: my, starts: [2]*env.Position{first, second}}, nil
}

// PawnOddsMatch is the pawn-odds replay of an imbalance match: the same
// match with a pawn taken from the side that scored more (side A on a
// score of 0.5), read with values.ReadPawnOdds.
type PawnOddsMatch struct {
	Pawn         string                 `json:"pawn"` // the square the pawn left in the first arrangement
	Arrangements [2]Arrangement         `json:"arrangements"`
	Reading      values.PawnOddsReading `json:"reading"`
	// Scores is side A's score (1, ½, 0) in every pawn-odds game, in the
	// order of ImbalanceResult.Scores: with a book, game i of both lists
	// started from the same opening, so the two pair up.
	Scores []float64 `json:"scores,omitempty"`
	// Paired is the reading with a paired bootstrap over openings, set when
	// both matches played from the same book (ImbalanceConfig.Book), so
	// game i of each started from the same opening with the same seeds;
	// nil otherwise or when either match was one-sided.
	Paired *PairedPawnOdds `json:"paired,omitempty"`
}

// PawnOddsReplicates is the bootstrap size of the pawn-odds reading.
const PawnOddsReplicates = 2000

// oddsSetup is the pawn-odds replay's setup for one giver: the square
// the pawn leaves in each arrangement and the two start positions.
type oddsSetup struct {
	pawn   [2]env.Square
	starts [2]*env.Position
}

// newOddsSetup takes a pawn (the giver's pawn nearest its back rank,
// lowest file first, as the letter P names it, never one X or Y named)
// from side A when aGives, from side B otherwise, in both arrangements.
func newOddsSetup(v *env.Variant, start *env.Position, xs, ys, mx, my []env.Square, aGives bool) (*oddsSetup, error) {
	side := env.Black // side B is Black in the first arrangement
	if aGives {
		side = env.White
	}
	both := append(slices.Clone(xs), ys...)
	reduced, err := Without(start, both...)
	if err != nil {
		return nil, err
	}
	p1, err := Removal{side, "P"}.Resolve(reduced) // not the pawn X or Y named, if it was one
	if err != nil {
		return nil, fmt.Errorf("compare: pawn odds: %w", err)
	}
	p2 := mirror(v.Geo, p1)
	first, err := Without(start, append(both, p1)...)
	if err != nil {
		return nil, err
	}
	second, err := Without(start, append(append(slices.Clone(my), mx...), p2)...)
	if err != nil {
		return nil, err
	}
	return &oddsSetup{pawn: [2]env.Square{p1, p2}, starts: [2]*env.Position{first, second}}, nil
}

// playPawnOdds plays the imbalance of cfg again from o's positions (a
// pawn gone from side A when aGives, from side B otherwise), with the
// same seeds and the same book (squares: the squares side A's and B's
// pieces left in each arrangement), and reads the two matches together.
func playPawnOdds(ctx context.Context, cfg ImbalanceConfig, o *oddsSetup, book []match.Opening, squares [2][2][]env.Square, aGives bool, scores []float64, total int) (*PawnOddsMatch, error) {
	arr, _, odds, err := playArrangements(ctx, cfg, o.starts, book, squares, cfg.Games, total)
	if err != nil {
		return nil, fmt.Errorf("compare: pawn odds: %w", err)
	}
	m := &PawnOddsMatch{Pawn: cfg.Variant.Geo.Name(o.pawn[0]), Arrangements: arr, Scores: odds}
	if m.Reading, err = values.ReadPawnOdds(scores, odds, aGives, PawnOddsReplicates, cfg.Seed); err != nil {
		return nil, err
	}
	if len(book) > 0 {
		m.Paired = pairedPawnOdds(scores, odds, aGives, PawnOddsReplicates, cfg.Seed)
	}
	return m, nil
}

// playArrangements plays cfg's two colour arrangements from starts (side A
// White in the first, Black in the second; squares are the squares A's and
// B's pieces left), game j from opening j of book when there is one, and
// returns them, side A's total and its score in every game, the first
// arrangement's games then the second's.
func playArrangements(ctx context.Context, cfg ImbalanceConfig, starts [2]*env.Position, book []match.Opening, squares [2][2][]env.Square, doneBefore, total int) ([2]Arrangement, stats.WDL, []float64, error) {
	v := cfg.Variant
	var arr [2]Arrangement
	var sum stats.WDL
	var scores []float64
	halves := [2]int{(cfg.Games + 1) / 2, cfg.Games / 2}
	done := doneBefore
	for k := range 2 {
		seed := cfg.Seed + uint64(k)
		mc := match.Config{A: cfg.Player, B: cfg.Player, Games: halves[k], Start: starts[k], Variant: v,
			MaxPlies: cfg.MaxPlies, Seed: seed, Workers: cfg.Workers, KeepGames: true}
		if len(book) > 0 {
			ps, err := match.OpeningPositions(starts[k], book)
			if err != nil {
				return arr, sum, nil, fmt.Errorf("compare: imbalance arrangement %d: %w", k+1, err)
			}
			mc.Starts = ps
		}
		base := done
		if cfg.Progress != nil {
			mc.Progress = func(r *match.Result) { cfg.Progress(base+r.Total.Games(), total) }
		}
		r, err := match.Run(ctx, mc)
		if err != nil {
			return arr, sum, nil, fmt.Errorf("compare: imbalance arrangement %d: %w", k+1, err)
		}
		done += halves[k]
		// The player meets itself: only the colours matter. White's
		// results are A's with White plus B's with White.
		white := stats.WDL{Wins: r.AWhite.Wins + r.ABlack.Losses, Draws: r.AWhite.Draws + r.ABlack.Draws,
			Losses: r.AWhite.Losses + r.ABlack.Wins}
		a := Arrangement{Start: starts[k].String(), AColor: "white", Seed: seed, A: white, Reasons: r.Reasons, MeanPlies: r.MeanPlies,
			AWithout: squareNames(v.Geo, squares[k][0]), BWithout: squareNames(v.Geo, squares[k][1])}
		a.CPUMS, a.CPUPlies, a.Meter = bothSides(r.ATimes, r.BTimes)
		a.Load = r.LoadStart.String() + " -> " + r.LoadEnd.String()
		if k == 1 {
			a.AColor = "black"
			a.A = stats.WDL{Wins: white.Losses, Draws: white.Draws, Losses: white.Wins}
		}
		arr[k] = a
		sum = sum.Add(a.A)
		for _, g := range r.Records {
			s := (float64(g.Result.For(env.White)) + 1) / 2 // White's score
			if k == 1 {
				s = 1 - s
			}
			scores = append(scores, s)
		}
	}
	return arr, sum, scores, nil
}

// mirrorAll mirrors every square of ss (mirror).
func mirrorAll(g *env.Geometry, ss []env.Square) []env.Square {
	out := make([]env.Square, len(ss))
	for i, s := range ss {
		out[i] = mirror(g, s)
	}
	return out
}

// letters names the pieces on ss in pos by their letters joined by "+"
// ("R+R").
func letters(pos *env.Position, ss []env.Square) string {
	v := pos.Variant()
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = string(v.Pieces[pos.At(s).Type()].Letter)
	}
	return strings.Join(names, "+")
}

// squareNames names ss joined by "+" ("a1+h1").
func squareNames(g *env.Geometry, ss []env.Square) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = g.Name(s)
	}
	return strings.Join(names, "+")
}

// tableValue is the value of pieces named as letters joins them ("R+R")
// in the plausibility table: the project's (agent.DefaultValues) with a
// bishop counted as a knight, as no strong player keeps one above the
// other (B 4 and N 3 are the author's fbgc guesses), so that "R+R" is 12
// and "B+B" and "N+N" both 6; false when a letter is not in the table.
func tableValue(pieces string) (float64, bool) {
	table := agent.DefaultValues()
	table['B'] = table['N']
	sum := 0.0
	for _, l := range strings.Split(pieces, "+") {
		v, ok := table[l[0]]
		if len(l) != 1 || !ok {
			return 0, false
		}
		sum += v
	}
	return sum, true
}

// imbalanceAdvice is the advice that ends every implausibility warning.
const imbalanceAdvice = "the player is too weak for the question; use the engine, e.g. --player engine:nodes=3000"

// imbalanceWarnings warns when r's player is too weak for piece values
// (values.WeakPlayer), when its reading is one no strong player would give
// and when it has no finite value (degenerateWarning). Implausible is, for
// pieces whose plausibility-table values (tableValue) differ by 2 pawns or
// more: the score says the other way or even (an officer worth no more
// than a pawn, a queen no more than a rook), or, for 3 or more, the
// reading in pawns (the pawn-odds one when played, else the scaled one)
// puts them less than a quarter of that difference apart (a queen less
// than 2.5 pawns above a pawn).
func imbalanceWarnings(r *ImbalanceResult) []string {
	var out []string
	if w := values.WeakPlayer(r.Player); w != "" {
		out = append(out, w)
	}
	if w := degenerateWarning(r); w != "" {
		out = append(out, w)
	}
	tx, okX := tableValue(r.X)
	ty, okY := tableValue(r.Y)
	if !okX || !okY || math.Abs(ty-tx) < 2 {
		return out
	}
	s := r.Reading.Score
	big, small := r.X, r.Y
	if ty > tx {
		big, small = r.Y, r.X
	}
	units, source := r.Reading.Units, r.PawnSource
	if r.PawnOdds != nil && r.PawnOdds.Reading.Units != nil {
		units, source = r.PawnOdds.Reading.Units, "the pawn-odds match"
	}
	gap := math.Abs(ty - tx)
	switch {
	case (ty > tx && s.Point <= 0.5) || (ty < tx && s.Point >= 0.5):
		out = append(out, fmt.Sprintf("%s's games call %s worth no more than %s (side A's score %.3f [%.3f, %.3f]), where any strong player values %s well above %s: %s",
			r.Player, big, small, s.Point, s.Lo, s.Hi, big, small, imbalanceAdvice))
	case units != nil && gap >= 3 && math.Abs(units.Point) < gap/4:
		out = append(out, fmt.Sprintf("%s's games put %s only %.2f pawns above %s (by %s), where any strong player puts it at least %.1f above (the project's table, a bishop counted as a knight, says %.0f): %s",
			r.Player, big, math.Abs(units.Point), small, source, gap/4, gap, imbalanceAdvice))
	}
	return out
}

// degenerateWarning explains an imbalance that one side won every game
// of: its score of 0 or 1 puts v(Y) - v(X) beyond any finite number, so
// the tanh and pawns readings are left out (never printed as ±Inf). It
// gives the one-sided bound the score interval still allows, the handicap
// that would bound it (a pawn more from the winner, H. G. Muller's way)
// and how many games would show another result if its rate is near the
// rule of three's bound. "" when the score is strictly between 0 and 1.
func degenerateWarning(r *ImbalanceResult) string {
	s, n := r.Reading.Score, r.Reading.Games
	if n == 0 || (s.Point > 0 && s.Point < 1) {
		return ""
	}
	winner, loser, flag, more := "A", "B", "--white-without", r.X
	bound := fmt.Sprintf("at least %+.2f pawns", math.Atanh(2*s.Lo-1)/r.PawnCoef)
	if s.Point <= 0 {
		winner, loser, flag, more = "B", "A", "--black-without", r.Y
		bound = fmt.Sprintf("at most %+.2f pawns", math.Atanh(2*s.Hi-1)/r.PawnCoef)
	}
	if s.Lo <= 0 && s.Hi >= 1 { // no games can give this, but never print ±Inf
		bound = "unbounded both ways"
	}
	return fmt.Sprintf("side %s won all %d games (side %s none): v(%s) - v(%s) has no finite estimate, only a one-sided bound, %s (95%%, by %s); "+
		"to measure it, handicap side %s: take a pawn or more from it (%s %s+P, and so on) until it scores between 0.2 and 0.8, and add the handicap's worth back; "+
		"or play more games: with no other result in %d games their rate is below 3/%d (the rule of three), and at that rate about %d games would show 5",
		winner, n, loser, r.Y, r.X, bound, r.PawnSource, winner, flag, more, n, n, (5*n+2)/3)
}

// bothSides is the CPU milliseconds a move over both sides' measured
// moves (the plies-weighted mean of a and b), their number and the
// meters used.
func bothSides(a, b match.Times) (ms float64, plies int, meter string) {
	plies = a.CPUPlies + b.CPUPlies
	if plies == 0 {
		return 0, 0, ""
	}
	ms = (a.CPUMeanMS*float64(a.CPUPlies) + b.CPUMeanMS*float64(b.CPUPlies)) / float64(plies)
	meter = a.Meter
	if b.Meter != a.Meter && b.Meter != "" {
		meter = strings.Trim(a.Meter+"+"+b.Meter, "+")
	}
	return ms, plies, meter
}
