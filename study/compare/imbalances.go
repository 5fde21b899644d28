package compare

import (
	"context"
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
// (cfg.ImbalanceGames games each, the same seeds in every variant) with
// the variant's trained model, or the baseline player where there is none,
// and reads each in the pawns of the variant's tanh fit (Lichess's scale
// where the variant has none).
func imbalanceStudies(ctx context.Context, srcs []Source, reps []*values.Report, cfg Config) ([]ImbalanceStudy, error) {
	var out []ImbalanceStudy
	for _, pair := range cfg.Imbalances {
		st := ImbalanceStudy{Pair: pair}
		var repl [][]float64
		for i, s := range srcs {
			var rep *values.Report
			if i < len(reps) {
				rep = reps[i]
			}
			r, rr, err := playImbalance(ctx, s, rep, pair, cfg)
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

// playImbalance plays one pair in one variant and returns the match with
// the bootstrap replicates of its pawns reading: every variant's games are
// resampled by index with the same seed, so replicate r draws the same
// pairs of games in each.
func playImbalance(ctx context.Context, s Source, rep *values.Report, pair ImbalancePair, cfg Config) (*ImbalanceResult, []float64, error) {
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
		Seed: cfg.Seed, MaxPlies: cfg.MaxPlies, Workers: cfg.Workers,
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
