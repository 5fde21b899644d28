package compare

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/study/values"
)

// ImbalancePair names one imbalance a comparison plays in every variant:
// side A without piece X, side B without piece Y (letters or squares, as
// `bomberzero imbalance` reads them).
type ImbalancePair struct {
	X string `json:"x"`
	Y string `json:"y"`
}

// ParseImbalancePairs reads a comma-separated list of X:Y pairs, such as
// "F:R,F:B,F:N" (the bomber against a rook, a bishop and a knight).
func ParseImbalancePairs(s string) ([]ImbalancePair, error) {
	var out []ImbalancePair
	for _, part := range strings.Split(s, ",") {
		x, y, ok := strings.Cut(strings.TrimSpace(part), ":")
		x, y = strings.TrimSpace(x), strings.TrimSpace(y)
		if !ok || x == "" || y == "" || strings.Contains(y, ":") {
			return nil, fmt.Errorf("imbalance %q: want X:Y, the piece side A lacks and the piece side B lacks (e.g. F:R)", part)
		}
		out = append(out, ImbalancePair{X: x, Y: y})
	}
	return out, nil
}

// ImbalanceStudy is one imbalance pair played in every compared variant by
// that variant's agent, and each variant's reading against the first's.
type ImbalanceStudy struct {
	Pair ImbalancePair `json:"pair"`
	// Book is the openings every variant's match of the pair started from
	// (game j of each colour arrangement from opening j mod len(Book)):
	// drawn on the pair's own start positions, the pieces already gone,
	// and kept only where legal in both colour arrangements of every
	// variant, with the comparison's seed (pairBook), so that game j
	// starts alike in every rule set. Empty with no book (Config.Book 0)
	// or when none could be drawn (BookNote says why; the games then
	// started from the pair's start positions). Compare's shared book,
	// drawn on the full start position, serves the other games.
	Book      []string `json:"book,omitempty"`
	BookPlies int      `json:"book_plies,omitempty"`
	BookNote  string   `json:"book_note,omitempty"`
	// Results are the variants' matches, in the order of Config.Variants.
	Results []*ImbalanceResult `json:"results"`
	// Differences are each later variant's v(Y) − v(X) minus the first's,
	// in each variant's own pawns.
	Differences []ImbalanceDifference `json:"differences,omitempty"`
	// ScoreDifferences are each later variant's side-A score minus the
	// first's, pair by pair (PairedScoreDifference): the reading that needs
	// no pawn fit, the confirmatory endpoint of a rule comparison.
	ScoreDifferences []PairedScore `json:"score_differences,omitempty"`
}

// PairedScore is the paired score difference of variant B's imbalance
// match against variant A's.
type PairedScore struct {
	A string `json:"a"`
	B string `json:"b"`
	ScoreDifference
}

// ImbalanceDifference is (v_B(Y) − v_B(X)) − (v_A(Y) − v_A(X)), each term
// in its variant's own pawns (the pawn of its tanh fit), with a 95%
// interval from a joint bootstrap: replicate r resamples the same games of
// both variants' imbalance matches (game j of each starts alike with the
// same seeds: a paired design) and divides each by replicate r of its
// variant's pawn fit. Where
// the rules change X and leave Y alone, its negative is v_B(X) − v_A(X):
// for F:R between fbgc and fbgc-superpower, v_SP(F) − v_lim(F).
type ImbalanceDifference struct {
	A     string          `json:"a"`
	B     string          `json:"b"`
	Delta values.Estimate `json:"delta"`
	// P is the two-sided p-value of "no difference" and PHolm it adjusted
	// over every figure the report tests (correctFamily).
	P     float64  `json:"p"`
	PHolm *float64 `json:"p_holm,omitempty"`
	// WithinNoise is true when the difference is not significant at 5%
	// after that correction, or its interval is unbounded.
	WithinNoise bool `json:"within_noise"`
}

// imbalanceStudies plays every pair of cfg.Imbalances in every variant
// (cfg.ImbalanceGames games each, the same seeds and the pair's own book
// in every variant) with the variant's trained model, or the baseline
// player where there is none, and reads each in the pawns of the variant's
// tanh fit (Lichess's scale where the variant has none).
func imbalanceStudies(ctx context.Context, srcs []Source, reps []*values.Report, cfg Config) ([]ImbalanceStudy, error) {
	var out []ImbalanceStudy
	for _, pair := range cfg.Imbalances {
		st := ImbalanceStudy{Pair: pair}
		book, err := pairBook(pair, srcs, cfg)
		var noBook *noBookError
		switch {
		case errors.As(err, &noBook):
			st.BookNote = err.Error() + "; its games started from the pair's start positions"
			logf(cfg.Log, "%s", st.BookNote)
		case err != nil:
			return nil, err
		}
		for _, o := range book {
			st.Book = append(st.Book, o.String())
			st.BookPlies = max(st.BookPlies, len(o))
		}
		var repl [][]float64
		for i, s := range srcs {
			var rep *values.Report
			if i < len(reps) {
				rep = reps[i]
			}
			r, rr, err := playImbalance(ctx, s, rep, pair, book, cfg)
			if err != nil {
				return nil, err
			}
			st.Results, repl = append(st.Results, r), append(repl, rr)
		}
		for i := 1; i < len(st.Results); i++ {
			if d, err := PairedScoreDifference(st.Results[0].Scores, st.Results[i].Scores); err == nil {
				st.ScoreDifferences = append(st.ScoreDifferences, PairedScore{A: srcs[0].Variant, B: srcs[i].Variant, ScoreDifference: *d})
			}
			a, b := st.Results[0].Reading.Units, st.Results[i].Reading.Units
			if a == nil || b == nil {
				continue
			}
			if d := values.ReplicateDifference(a.Point, b.Point, repl[0], repl[i]); d != nil {
				st.Differences = append(st.Differences, ImbalanceDifference{A: srcs[0].Variant, B: srcs[i].Variant, Delta: *d,
					P: intervalP(*d), WithinNoise: d.Contains(0) || math.IsInf(d.Lo, 0) || math.IsInf(d.Hi, 0)})
			}
		}
		out = append(out, st)
	}
	return out, nil
}

// noBookError says that no imbalance book could be drawn: the pair's
// games are then played from its start positions, with a note.
type noBookError struct{ err error }

func (e *noBookError) Error() string { return e.err.Error() }
func (e *noBookError) Unwrap() error { return e.err }

// pairBook draws the book that pair's matches start from in every variant
// of the comparison: min(cfg.Book, cfg.ImbalanceGames/2 rounded up)
// openings (one a game of each colour arrangement at most, none with
// cfg.Book 0) of cfg.BookPlies plies (DefaultBookPlies when 0), drawn as
// `bomberzero imbalance` draws its book, on the position with the pieces
// gone (the first variant's first arrangement) with cfg.Seed, and kept
// only where legal in both colour arrangements of every variant and
// leaving the game going there. One book for every variant keeps the
// pairs paired: game j starts from the same opening with the same seeds
// in each rule set. A *noBookError says that no such book exists (rule
// sets on different boards, say).
func pairBook(pair ImbalancePair, srcs []Source, cfg Config) ([]match.Opening, error) {
	n := min(cfg.Book, (cfg.ImbalanceGames+1)/2)
	if n <= 0 || len(srcs) == 0 {
		return nil, nil
	}
	plies := cfg.openingPlies()
	var starts []*env.Position
	for _, s := range srcs {
		v, err := env.LoadVariant(s.Variant)
		if err != nil {
			return nil, fmt.Errorf("compare: imbalance %s:%s book: %w", pair.X, pair.Y, err)
		}
		set, err := newImbalanceSetup(v, pair.X, pair.Y)
		if err != nil {
			return nil, fmt.Errorf("compare: imbalance %s:%s book in %s: %w", pair.X, pair.Y, s.Variant, err)
		}
		starts = append(starts, set.starts[0], set.starts[1])
	}
	book, err := match.RandomBookFrom(starts, n, plies, cfg.Seed, nil)
	if err != nil {
		return nil, &noBookError{fmt.Errorf("no book for the imbalance %s:%s (%d openings of %d plies, legal in both colour arrangements of every variant): %w", pair.X, pair.Y, n, plies, err)}
	}
	return book, nil
}

// playImbalance plays one pair in one variant from book (the pair's own,
// pairBook; none when empty) and returns the match with the bootstrap
// replicates of its pawns reading: every variant's games are resampled by
// index with the same seed, so replicate r draws the same pairs of games
// in each.
func playImbalance(ctx context.Context, s Source, rep *values.Report, pair ImbalancePair, book []match.Opening, cfg Config) (*ImbalanceResult, []float64, error) {
	v, err := env.LoadVariant(s.Variant)
	if err != nil {
		return nil, nil, fmt.Errorf("compare: imbalance: %w", err)
	}
	var p match.Maker
	if s.Model != "" {
		p, err = neutralPlayer(v, s.Model, cfg.Search, cfg.Sims)
	} else {
		p, err = match.Parse(cfg.Player, v, cfg.PlayerOptions)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("compare: imbalance player in %s: %w", s.Variant, err)
	}
	ic := ImbalanceConfig{Variant: v, Player: p, WhiteWithout: pair.X, BlackWithout: pair.Y, Games: cfg.ImbalanceGames,
		Seed: cfg.Seed, MaxPlies: cfg.MaxPlies, Workers: cfg.Workers, Openings: book,
		Progress: bar(cfg.Bars, fmt.Sprintf("%s: without %s against without %s", s.Variant, pair.X, pair.Y), "games")}
	var coefReps []float64
	if coef, ok := rep.UnitCoef(values.Tanh); ok && coef > 0 {
		coefReps = fitOf(rep, values.Tanh).UnitReplicates
		ic.PawnCoef, ic.PawnReplicates = coef, coefReps
		ic.PawnSource = fmt.Sprintf("the tanh fit on this comparison's games of %s", s.Variant)
	}
	r, err := PlayImbalance(ctx, ic)
	if err != nil {
		return nil, nil, fmt.Errorf("compare: imbalance %s:%s in %s: %w", pair.X, pair.Y, s.Variant, err)
	}
	if coefReps == nil {
		coefReps = make([]float64, max(cfg.Bootstrap, 1))
		for k := range coefReps {
			coefReps[k] = r.PawnCoef
		}
	}
	return r, values.PairedImbalanceReplicates(r.Scores, coefReps, cfg.Seed), nil
}

// writeImbalances adds the imbalance matches to the report.
func writeImbalances(w io.Writer, res *Result) {
	if len(res.Imbalances) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Imbalance matches\n\n")
	fmt.Fprintf(w, "Each variant's agent against itself, side A without X and side B without Y, half the games with each colour arrangement and the same seeds in every variant (docs/compare.md). v(Y) − v(X) is read from side A's score in the variant's own pawns (the pawn of its tanh fit, its uncertainty carried by a joint bootstrap).\n\n")
	for _, st := range res.Imbalances {
		switch {
		case len(st.Book) > 0:
			fmt.Fprintf(w, "- %s : %s: every variant's games started from the pair's own book of %d random openings of %d plies (game j of each colour arrangement from opening j mod %d), drawn on the start position without White's %s and Black's %s and legal in both colour arrangements of every variant, not from the shared book; the first: `%s` (all in `imbalances[].book`).\n",
				st.Pair.X, st.Pair.Y, len(st.Book), st.BookPlies, len(st.Book), st.Pair.X, st.Pair.Y, st.Book[0])
		case st.BookNote != "":
			fmt.Fprintf(w, "- %s : %s: %s.\n", st.Pair.X, st.Pair.Y, st.BookNote)
		default:
			fmt.Fprintf(w, "- %s : %s: no book (--book 0): every game started from the pair's start positions.\n", st.Pair.X, st.Pair.Y)
		}
	}
	fmt.Fprintf(w, "\n")
	fmt.Fprintf(w, "| X : Y | variant | player | side A +W =D −L | A's score [95%%] | v(Y) − v(X), pawns [95%%] | pawn from |\n|---|---|---|---|---|---|---|\n")
	for _, st := range res.Imbalances {
		for _, r := range st.Results {
			pawns := "–"
			if u := r.Reading.Units; u != nil {
				pawns = fmtEst(*u, 2)
			} else if r.Reading.Note != "" {
				pawns = r.Reading.Note
			}
			rd := r.Reading
			fmt.Fprintf(w, "| %s : %s | %s | %s | +%d =%d −%d | %s | %s | %s |\n", st.Pair.X, st.Pair.Y, r.Variant, r.Player,
				rd.Wins, rd.Draws, rd.Losses, fmtEst(rd.Score, 3), pawns, r.PawnSource)
		}
	}
	var any bool
	for _, st := range res.Imbalances {
		for _, d := range st.Differences {
			if !any {
				fmt.Fprintf(w, "\nBetween the variants: (v_B(Y) − v_B(X)) − (v_A(Y) − v_A(X)) in pawns; where the rules change X and not Y, its negative is v_B(X) − v_A(X).\n\n")
				fmt.Fprintf(w, "| X : Y | B − A | difference [95%%] | v_B(X) − v_A(X) if Y is unchanged | Holm p | verdict |\n|---|---|---|---|---|---|\n")
				any = true
			}
			verdict := "a real difference"
			if d.WithinNoise {
				verdict = "within noise"
			}
			neg := values.Estimate{Point: -d.Delta.Point, Lo: -d.Delta.Hi, Hi: -d.Delta.Lo}
			fmt.Fprintf(w, "| %s : %s | %s − %s | %s | %s | %s | %s |\n", st.Pair.X, st.Pair.Y, d.B, d.A, fmtEst(d.Delta, 2), fmtEst(neg, 2), holmCell(d.PHolm), verdict)
		}
	}
	writeScoreDifferences(w, res)
}

// writeScoreDifferences adds the paired differences of side A's score.
func writeScoreDifferences(w io.Writer, res *Result) {
	var any bool
	for _, st := range res.Imbalances {
		for _, d := range st.ScoreDifferences {
			if !any {
				fmt.Fprintf(w, "\nSide A's score between the variants, pair by pair (game j of both matches starts alike with the same seeds; d_j = B's score − A's; no pawn conversion; p from the paired z test, not corrected):\n\n")
				fmt.Fprintf(w, "| X : Y | B − A | pairs | mean d [95%%] | sd | A higher / same / lower in B | p |\n|---|---|---|---|---|---|---|\n")
				any = true
			}
			fmt.Fprintf(w, "| %s : %s | %s − %s | %d | %s | %.3f | %d / %d / %d | %.3g |\n", st.Pair.X, st.Pair.Y, d.B, d.A, d.Pairs,
				fmtEst(d.Mean, 3), d.SD, d.Higher, d.Same, d.Lower, d.P)
		}
	}
}
