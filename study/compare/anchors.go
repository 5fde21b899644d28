package compare

import (
	"context"
	"fmt"
	"math"

	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/stats"
)

// DefaultAnchors are the fixed players each variant's trained model meets
// to show that the compared agents are of matched strength.
var DefaultAnchors = []string{"random", "alphabeta:1", "alphabeta:2"}

// AnchorMatch is one variant's model against one fixed anchor, on its own
// rules.
type AnchorMatch struct {
	Variant string        `json:"variant"`
	Model   string        `json:"model"`
	Anchor  string        `json:"anchor"`
	Sims    int           `json:"sims"`
	Seed    uint64        `json:"seed"`
	Result  *match.Result `json:"result"` // from the model's side
}

// Matched compares two variants' models against one anchor: the
// difference of their scores (B − A) with its 95% interval, and whether
// it is within noise (the models are of matched strength there).
type Matched struct {
	Anchor  string  `json:"anchor"`
	A       string  `json:"a"`
	B       string  `json:"b"`
	ScoreA  float64 `json:"score_a"`
	ScoreB  float64 `json:"score_b"`
	Delta   float64 `json:"delta"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	Matched bool    `json:"matched"`
	Elo     float64 `json:"elo"` // B − A, from the two scores
	Verdict string  `json:"verdict"`
}

// anchorLadder plays every source's model against every anchor on the
// source's own rules (none when a source has no model) and compares the
// first source's scores with each other's.
func anchorLadder(ctx context.Context, srcs []Source, cfg Config) ([]AnchorMatch, []Matched, error) {
	for _, s := range srcs {
		if s.Model == "" {
			return nil, nil, nil
		}
	}
	var out []AnchorMatch
	for _, s := range srcs {
		v, err := env.LoadVariant(s.Variant)
		if err != nil {
			return nil, nil, fmt.Errorf("compare: anchors: %w", err)
		}
		me, err := neutralPlayer(v, s.Model, cfg.Search, cfg.Sims)
		if err != nil {
			return nil, nil, fmt.Errorf("compare: anchors: %w", err)
		}
		book, err := cfg.bookFor(v)
		if err != nil {
			return nil, nil, fmt.Errorf("compare: anchors: %w", err)
		}
		for k, spec := range cfg.Anchors {
			opp, err := match.Parse(spec, v, cfg.PlayerOptions)
			if err != nil {
				return nil, nil, fmt.Errorf("compare: anchor %q: %w", spec, err)
			}
			seed := cfg.Seed + 104729*uint64(1+k) // the same games' seeds for every variant
			mc := match.Config{A: me, B: opp, Games: cfg.Games, Variant: v, MaxPlies: cfg.MaxPlies, Seed: seed, Workers: cfg.Workers, Book: book}
			if p := bar(cfg.Bars, fmt.Sprintf("%s vs %s", s.Variant, spec), "games"); p != nil {
				mc.Progress = func(r *match.Result) { p(r.Total.Games(), cfg.Games) }
			}
			r, err := match.Run(ctx, mc)
			if err != nil {
				return nil, nil, fmt.Errorf("compare: %s against %s: %w", s.Variant, spec, err)
			}
			out = append(out, AnchorMatch{Variant: s.Variant, Model: s.Model, Anchor: spec, Sims: cfg.Sims, Seed: seed, Result: r})
		}
	}
	var matched []Matched
	n := len(cfg.Anchors)
	for j := 1; j < len(srcs); j++ {
		for k := range cfg.Anchors {
			matched = append(matched, matchedAt(out[k], out[j*n+k]))
		}
	}
	return out, matched, nil
}

// matchedAt compares two models' results against the same anchor: an
// unpooled z interval on the difference of their scores, with the per-game
// score variances.
func matchedAt(a, b AnchorMatch) Matched {
	ta, tb := a.Result.Total, b.Result.Total
	sa, sb := stats.Score(ta.Wins, ta.Draws, ta.Losses), stats.Score(tb.Wins, tb.Draws, tb.Losses)
	se := math.Sqrt(stats.ScoreVariance(ta.Wins, ta.Draws, ta.Losses)/float64(ta.Games()) +
		stats.ScoreVariance(tb.Wins, tb.Draws, tb.Losses)/float64(tb.Games()))
	d := sb - sa
	m := Matched{Anchor: a.Anchor, A: a.Variant, B: b.Variant, ScoreA: sa, ScoreB: sb, Delta: d,
		Low: d - 1.959963984540054*se, High: d + 1.959963984540054*se,
		Elo: eloOf(sb) - eloOf(sa)}
	m.Matched = m.Low <= 0 && 0 <= m.High
	if m.Matched {
		m.Verdict = fmt.Sprintf("matched against %s: the scores differ by %+.3f [%+.3f, %+.3f], within noise", a.Anchor, d, m.Low, m.High)
	} else {
		m.Verdict = fmt.Sprintf("NOT matched against %s: %s's model scores %+.3f [%+.3f, %+.3f] against %s's; a rule-set difference read from these agents may be a strength difference", a.Anchor, b.Variant, d, m.Low, m.High, a.Variant)
	}
	return m
}

// eloOf is the Elo a score implies, capped at ±stats.EloCap.
func eloOf(s float64) float64 { return stats.CapElo(stats.EloFromScore(s)) }
