package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"bomberzero/env"
	"bomberzero/internal/progress"
	"bomberzero/match"
	"bomberzero/study/compare"
	"bomberzero/study/values"
)

// runImbalance plays a player against itself with one piece removed from
// each side and reads the score as a value difference.
func runImbalance(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("imbalance", "usage: bomberzero imbalance --white-without X --black-without Y [flags]\n\nPlays a player against itself from the start position with White's piece X and\nBlack's piece Y removed (either may name several pieces joined by +: Q against\nR+R is --white-without Q --black-without R+R), then the same with colours swapped (Black without X's\nmirror, White without Y's), and reports side A's (the side without X) score, with\nthe value difference v(Y) - v(X) it implies in Elo, tanh units and pawns.\n\nThe engine (engine:...) and outside engines (uci:...) get a book of random openings by\ndefault (--book): drawn on the position with the pieces gone, each played once in each\ncolour arrangement and again in the pawn-odds match, so that the two matches' games pair up.\nAn outside engine at a node limit plays one game from one start, so --book 0 is refused\nfor it; the engine's games from one start differ only by its seed's tie order.", stderr)
	variant := variantFlag(fs)
	player := fs.String("player", "alphabeta:2", "the player that meets itself: random, greedy, alphabeta:D, engine:nodes=N (the alpha-beta engine, as engine:nodes=3000), uci:NAME (an outside engine) or CHECKPOINT[:SIMS]")
	wx := fs.String("white-without", "", "White's missing piece (side A): a square (a1) or a piece letter (Q: the one nearest White's back rank, lowest file first), or several joined by + (R+R, B+P, a1+h1)")
	by := fs.String("black-without", "", "Black's missing piece (side B): a square (b10) or a piece letter, or several joined by +")
	games := fs.Int("games", 100, "games, half with each colour arrangement")
	seed := fs.Uint64("seed", 1, "random seed (arrangement 1 plays with it, arrangement 2 with seed+1)")
	workers := fs.Int("workers", 0, "games played at once (0: one per core)")
	vals := fs.String("values", "", "piece values for greedy and alpha-beta, e.g. G=2.5,I=8")
	pawnCoef := fs.Float64("pawn-coef", 0, "a pawn's worth in tanh units for the pawns reading (0: Lichess's scale, 0.184104)")
	valuesData := fs.String("values-data", "", "training-data or run data directory: take the pawn's tanh coefficient from a tanh fit on its games")
	pawnGames := fs.Int("pawn-games", 0, "play this many games of the player against itself from the start position and take the pawn's tanh coefficient from a tanh fit on them: the player's own pawn, its uncertainty carried by a joint bootstrap")
	pawnOdds := fs.Bool("pawn-odds", false, "also play the match again with a pawn taken from the side that scored more (H. G. Muller's way): the score's drop is a pawn's worth to this player, and the imbalance is read in those pawns with a bootstrap interval over both matches")
	book := fs.Int("book", 0, "start the games from N random openings of --book-plies plies, drawn on the position with the pieces gone, opening j starting game j of each colour arrangement and of the pawn-odds match (default: none, but for engine:... and uci:... one opening a game of each arrangement, games/2 rounded up; --book 0 is refused for uci:..., which plays one game from one start)")
	bookPlies := fs.Int("book-plies", compare.DefaultBookPlies, "with a book: the openings' length in plies")
	asJSON := fs.Bool("json", false, "write the result as JSON")
	fitPositions := fs.String("fit-positions", "", "a positions file of the same player's games (bomberzero values --write-positions, with the sampling chosen there): fit it (logistic, 200 replicates) and set its v(Y) - v(X) beside the match's reading in pawns (the pawn-odds reading with --pawn-odds), with the difference and whether the two agree")
	mf := addMatchFlags(fs, true)
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *wx == "" || *by == "":
		return fmt.Errorf("%w: imbalance needs --white-without X and --black-without Y (a square like a1, or a piece letter like Q)", errUsage)
	case *games < 2:
		return fmt.Errorf("%w: --games %d: want at least 2 (one per colour arrangement)", errUsage, *games)
	case *pawnCoef < 0:
		return fmt.Errorf("%w: --pawn-coef %v: want a positive number", errUsage, *pawnCoef)
	case *pawnGames < 0:
		return fmt.Errorf("%w: --pawn-games %d: want 0 or more", errUsage, *pawnGames)
	case btoi(*pawnCoef > 0)+btoi(*valuesData != "")+btoi(*pawnGames > 0) > 1:
		return fmt.Errorf("%w: give one of --pawn-coef, --values-data and --pawn-games", errUsage)
	case *book < 0 || *bookPlies < 1:
		return fmt.Errorf("%w: --book %d --book-plies %d: want a book of 0 or more openings of 1 or more plies", errUsage, *book, *bookPlies)
	}
	var beside *values.BesideFit
	if *fitPositions != "" {
		var err error
		if beside, err = fitBeside(*fitPositions, *wx, *by, *seed); err != nil {
			return err
		}
	}
	openings, err := imbalanceBookSize(*player, *book, *games, set(fs, "book"))
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	tc, err := mf.load(*variant)
	if err != nil {
		return usageErr(err)
	}
	v, err := env.LoadVariant(*variant)
	if err != nil {
		return fmt.Errorf("%w: --variant: %v", errUsage, err)
	}
	for _, r := range []compare.Removal{{Side: env.White, What: *wx}, {Side: env.Black, What: *by}} {
		if _, err := r.ResolveAll(v.NewPosition()); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	opt, err := playerOptions(tc, *vals)
	if err != nil {
		return fmt.Errorf("%w: --values: %v", errUsage, err)
	}
	p, err := match.Parse(*player, v, opt)
	if err != nil {
		return fmt.Errorf("%w: --player: %v", errUsage, err)
	}
	cfg := compare.ImbalanceConfig{Variant: v, Player: p, WhiteWithout: *wx, BlackWithout: *by, Games: *games, Seed: *seed,
		MaxPlies: tc.Eval.MaxPlies, Workers: *workers, PawnCoef: *pawnCoef, PawnOdds: *pawnOdds, Book: openings, BookPlies: *bookPlies}
	if w := values.WeakPlayer(*player); w != "" {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if *pawnCoef > 0 {
		cfg.PawnSource = "--pawn-coef"
	}
	ctx, stop := stopContext()
	defer stop()
	if *valuesData != "" {
		ds, _, err := values.Load(*valuesData, nil)
		if err != nil {
			return fmt.Errorf("--values-data: %w", err)
		}
		if cfg.PawnCoef, cfg.PawnReplicates, err = pawnFit(ds, *seed); err != nil {
			return fmt.Errorf("--values-data %s: %w", *valuesData, err)
		}
		cfg.PawnSource = fmt.Sprintf("the tanh fit on %d games of %s (seed %d, joint bootstrap)", len(ds.Games), *valuesData, *seed)
	}
	if *pawnGames > 0 {
		var starts []*env.Position
		if wantsBook(*player) { // the pawn games get their own openings, from the full start position
			ob, err := match.RandomBook([]*env.Variant{v}, *pawnGames, *bookPlies, *seed)
			if err != nil {
				return fmt.Errorf("--pawn-games %d: %w", *pawnGames, err)
			}
			if starts, err = match.BookPositions(v, ob); err != nil {
				return fmt.Errorf("--pawn-games %d: %w", *pawnGames, err)
			}
		}
		ds, err := compare.SelfPlayDataset(ctx, v, p, *pawnGames, tc.Eval.MaxPlies, *seed, *workers, starts, "pawn",
			progress.Func(progressTo(stderr, *quiet), "pawn games", "games", 0))
		if err != nil {
			return err
		}
		if cfg.PawnCoef, cfg.PawnReplicates, err = pawnFit(ds, *seed); err != nil {
			return fmt.Errorf("--pawn-games %d: %w", *pawnGames, err)
		}
		cfg.PawnSource = fmt.Sprintf("the tanh fit on %d games of %s against itself (seed %d, joint bootstrap)", len(ds.Games), *player, *seed)
	}
	cfg.Progress = progress.Func(progressTo(stderr, *quiet), "imbalance games", "games", 0)
	res, err := compare.PlayImbalance(ctx, cfg)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		if w != values.WeakPlayer(*player) { // printed before the games
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
	}
	if beside != nil {
		switch {
		case res.PawnOdds != nil && res.PawnOdds.Reading.Units != nil:
			beside.Imbalance, beside.Pawn = res.PawnOdds.Reading.Units, res.Player+"'s own (pawn odds)"
		case res.Reading.Units != nil:
			beside.Imbalance, beside.Pawn = res.Reading.Units, res.PawnSource
		}
		beside.Beside()
		res.BesideFit = beside
	}
	if *asJSON {
		return writeJSON(stdout, res)
	}
	return printImbalance(stdout, res)
}

// fitBeside fits the positions file path (logistic, 200 replicates) and
// returns its v(y) - v(x), for the match's reading to be set beside it.
// It runs before the games, so that a bad file or a piece the games lack
// costs no match.
func fitBeside(path, x, y string, seed uint64) (*values.BesideFit, error) {
	expr, err := values.ImbalanceSum(x, y)
	if err != nil {
		return nil, fmt.Errorf("%w: --fit-positions: %v", errUsage, err)
	}
	ds, err := values.ReadPositions(path)
	if err != nil {
		return nil, fmt.Errorf("--fit-positions: %w", err)
	}
	rep, err := values.PieceValues(ds, values.Config{Sample: values.NoFilter(), Methods: []values.Method{values.Logistic}, Seed: seed, Bootstrap: 200})
	if err != nil {
		return nil, fmt.Errorf("--fit-positions %s: %w", path, err)
	}
	f := &rep.Fits[0]
	sum, err := f.Sum(expr)
	if err != nil {
		return nil, fmt.Errorf("--fit-positions %s: %w", path, err)
	}
	return &values.BesideFit{Source: path, Method: f.Method, Games: f.Games, Fit: sum}, nil
}

// pawnFit fits the tanh piece values on ds (default sampling, 200
// bootstrap replicates) and returns the pawn's coefficient with its
// replicates.
func pawnFit(ds *values.Dataset, seed uint64) (float64, []float64, error) {
	rep, err := values.PieceValues(ds, values.Config{Sample: values.DefaultSampleConfig(), Methods: []values.Method{values.Tanh}, Seed: seed})
	if err != nil {
		return 0, nil, err
	}
	c, ok := rep.UnitCoef(values.Tanh)
	if !ok || c <= 0 {
		return 0, nil, fmt.Errorf("the tanh fit gives no positive pawn coefficient (%v); use --pawn-coef", c)
	}
	return c, rep.Fits[0].UnitReplicates, nil
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func printImbalance(w io.Writer, r *compare.ImbalanceResult) error {
	a1, a2 := r.Arrangements[0], r.Arrangements[1]
	fmt.Fprintf(w, "imbalance on %s: %s against itself, %d games, seed %d, games capped at %d plies\n", r.Variant, r.Player, r.Games, r.Seed, r.MaxPlies)
	fmt.Fprintf(w, "  side A lacks %s, side B lacks %s\n", r.X, r.Y)
	if len(r.Book) > 0 {
		which := "each arrangement"
		if r.PawnOdds != nil {
			which += " and of the pawn-odds match"
		}
		fmt.Fprintf(w, "  openings: %d random openings of %d plies drawn on the position with the pieces gone, opening j starting game j of %s (the first: %s)\n",
			len(r.Book), r.BookPlies, which, r.Book[0])
	}
	for i, a := range []compare.Arrangement{a1, a2} {
		fmt.Fprintf(w, "  arrangement %d (seed %d): A is %s without %s, B without %s: A +%d =%d -%d, mean %.1f plies; endings: %s\n",
			i+1, a.Seed, a.AColor, a.AWithout, a.BWithout, a.A.Wins, a.A.Draws, a.A.Losses, a.MeanPlies, endings(a.Reasons))
		if a.CPUPlies > 0 {
			fmt.Fprintf(w, "    CPU %.2f ms a move (both sides, %s, %d moves), load %s\n", a.CPUMS, a.Meter, a.CPUPlies, a.Load)
		}
	}
	im := r.Reading
	fmt.Fprintf(w, "  side A: +%d =%d -%d, score %.3f [%.3f, %.3f] (95%%)\n", im.Wins, im.Draws, im.Losses, im.Score.Point, im.Score.Lo, im.Score.Hi)
	if r.Elo != nil {
		fmt.Fprintf(w, "  v(%s) - v(%s) implied: %+.0f Elo [%+.0f, %+.0f]", r.Y, r.X, r.Elo.Point, r.Elo.Lo, r.Elo.Hi)
	} else {
		fmt.Fprintf(w, "  v(%s) - v(%s) implied: no finite estimate (one side won every game)", r.Y, r.X)
	}
	if im.Tanh != nil {
		fmt.Fprintf(w, ", %+.3f tanh units [%+.3f, %+.3f]", im.Tanh.Point, im.Tanh.Lo, im.Tanh.Hi)
	}
	fmt.Fprintln(w)
	if im.Units != nil {
		fmt.Fprintf(w, "  in pawns: %+.2f [%s, %s], a pawn being %.4f tanh units by %s\n", im.Units.Point, signedBound(im.Units.Lo), signedBound(im.Units.Hi), r.PawnCoef, r.PawnSource)
	}
	if im.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", im.Note)
	}
	if po := r.PawnOdds; po != nil {
		pr := po.Reading
		b1, b2 := po.Arrangements[0], po.Arrangements[1]
		fmt.Fprintf(w, "  pawn odds: side %s also without a pawn (%s in arrangement 1): A +%d =%d -%d and +%d =%d -%d, score %s\n", pr.Giver, po.Pawn,
			b1.A.Wins, b1.A.Draws, b1.A.Losses, b2.A.Wins, b2.A.Draws, b2.A.Losses, pr.Score.Format(3))
		if pr.Pawn != nil {
			fmt.Fprintf(w, "  a pawn to %s: %s tanh units\n", r.Player, pr.Pawn.Format(3))
		}
		if pr.Units != nil {
			fmt.Fprintf(w, "  v(%s) - v(%s) in %s's own pawns (pawn odds, %d bootstrap replicates over both matches): %s\n", r.Y, r.X, r.Player, pr.Replicates, signedEstimate(*pr.Units))
		}
		if pp := po.Paired; pp != nil {
			fmt.Fprintf(w, "  paired by opening (%d replicates resampling the same openings in both matches): a pawn %s tanh units", pp.Replicates, pp.Pawn.Format(3))
			if pp.Units != nil {
				fmt.Fprintf(w, ", v(%s) - v(%s) %s pawns", r.Y, r.X, signedEstimate(*pp.Units))
			}
			fmt.Fprintln(w)
		}
		if pr.Note != "" {
			fmt.Fprintf(w, "  note: %s\n", pr.Note)
		}
	}
	if b := r.BesideFit; b != nil {
		fmt.Fprintf(w, "  beside the %s fit of %s (%d games): v(%s) - v(%s) ", b.Method, b.Source, b.Games, r.Y, r.X)
		if b.Fit.Value != nil {
			fmt.Fprintf(w, "%s", signedEstimate(*b.Fit.Value))
		} else {
			fmt.Fprintf(w, "-")
		}
		if b.Difference != nil {
			verdict := "disagree"
			if *b.Agree {
				verdict = "agree"
			}
			fmt.Fprintf(w, "; the match's %s in %s pawns; match - fit %s: %s\n", signedEstimate(*b.Imbalance), b.Pawn, signedEstimate(*b.Difference), verdict)
		} else {
			fmt.Fprintf(w, "; %s\n", b.Note)
		}
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", s)
	}
	return nil
}

// signedEstimate prints a point and its interval with signs, "-inf" or
// "+inf" for an unbounded end, and "no bounded interval" when both are.
func signedEstimate(e values.Estimate) string {
	if math.IsInf(e.Lo, -1) && math.IsInf(e.Hi, 1) {
		return fmt.Sprintf("%+.2f (no bounded interval)", e.Point)
	}
	return fmt.Sprintf("%+.2f [%s, %s]", e.Point, signedBound(e.Lo), signedBound(e.Hi))
}

// signedBound prints an interval end with its sign, "-inf" or "+inf".
func signedBound(x float64) string {
	switch {
	case math.IsInf(x, -1):
		return "-inf"
	case math.IsInf(x, 1):
		return "+inf"
	}
	return fmt.Sprintf("%+.2f", x)
}

// wantsBook reports whether the player spec names an engine (engine:...,
// uci:...), which gets a book of openings by default: an outside engine
// at a node limit plays the same game from one start (playsOneGame), and
// the engine's games from one start differ only by its seed's tie order,
// so a book gives both varied openings and pairs the imbalance and
// pawn-odds games.
func wantsBook(spec string) bool {
	kind, _, _ := strings.Cut(strings.TrimSpace(spec), ":")
	return kind == "engine" || kind == "uci"
}

// playsOneGame reports whether the player spec names a player that plays
// the same game from one start whatever its seed (an outside engine, as
// Stockfish at a node limit), so that an imbalance match of it without a
// book would repeat one game.
func playsOneGame(spec string) bool {
	kind, _, _ := strings.Cut(strings.TrimSpace(spec), ":")
	return kind == "uci"
}

// imbalanceBookSize is the number of openings an imbalance match of games
// games with player spec starts from: book when it was given (set), else
// one opening a game of each colour arrangement ((games+1)/2) for an
// engine (wantsBook) and none for the others. It refuses --book 0 for a
// player that plays one game from one start (playsOneGame), whose every
// game of an arrangement would be the same game.
func imbalanceBookSize(spec string, book, games int, set bool) (int, error) {
	switch {
	case !set && wantsBook(spec):
		return (games + 1) / 2, nil
	case set && book == 0 && playsOneGame(spec):
		return 0, fmt.Errorf("--book 0 with --player %s: this player plays the same game from the same start, so every game of a colour arrangement would repeat the first "+
			"and the score would rest on two games; give a book (the default for it is one opening a game of each arrangement, --book %d)", spec, (games+1)/2)
	}
	return book, nil
}
