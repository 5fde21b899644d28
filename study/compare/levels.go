package compare

import (
	"context"
	"fmt"
	"io"

	"bomberzero/env"
	"bomberzero/study/values"
)

// Level is the comparison of the variants' trained models playing
// themselves at one number of playouts a move: whether a rule-set
// difference holds at more than one strength.
type Level struct {
	Sims       int                `json:"sims"`
	Games      int                `json:"games"` // per variant
	Comparison *values.Comparison `json:"comparison"`
}

// levels plays, for every playout count of cfg.Levels, cfg.Games games of
// each variant's model against itself (from the shared book, if any) and
// compares the variants' games at that level (nil without trained models).
func levels(ctx context.Context, srcs []Source, cfg Config) ([]Level, error) {
	if len(cfg.Levels) == 0 {
		return nil, nil
	}
	for _, s := range srcs {
		if s.Model == "" {
			return nil, nil
		}
	}
	var out []Level
	for _, sims := range cfg.Levels {
		sets := make([]*values.Dataset, len(srcs))
		for i, s := range srcs {
			v, err := env.LoadVariant(s.Variant)
			if err != nil {
				return nil, fmt.Errorf("compare: levels: %w", err)
			}
			p, err := neutralPlayer(v, s.Model, cfg.Search, sims)
			if err != nil {
				return nil, fmt.Errorf("compare: levels: %w", err)
			}
			book, err := cfg.bookFor(v)
			if err != nil {
				return nil, fmt.Errorf("compare: levels: %w", err)
			}
			seed := cfg.Seed + 15485863*uint64(sims) // the same seeds for every variant: paired games
			ds, err := SelfPlayDataset(ctx, v, p, cfg.Games, cfg.MaxPlies, seed, cfg.Workers, book,
				fmt.Sprintf("%s-%d", s.Variant, sims), bar(cfg.Bars, fmt.Sprintf("%s at %d playouts", s.Variant, sims), "games"))
			if err != nil {
				return nil, err
			}
			sets[i] = ds
		}
		c, err := values.Compare(cfg.Variants, sets, values.CompareConfig{Bootstrap: cfg.Bootstrap, Seed: cfg.Seed, Pairs: cfg.Games})
		if err != nil {
			return nil, fmt.Errorf("compare: at %d playouts: %w", sims, err)
		}
		out = append(out, Level{Sims: sims, Games: cfg.Games, Comparison: c})
	}
	return out, nil
}

// writeLevels adds each compute level's primary endpoints to the report.
func writeLevels(w io.Writer, res *Result) {
	if len(res.Levels) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## The models at several compute levels\n\n")
	fmt.Fprintf(w, "Each variant's model plays itself at each number of playouts a move (the same seeds and openings for every variant); the primary endpoints, Holm-corrected within each level:\n\n")
	fmt.Fprintf(w, "| playouts | games a variant | figure | A | B | value in A | value in B | B − A [95%%] | Holm p | verdict |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, l := range res.Levels {
		for _, d := range l.Comparison.Differences {
			if !d.Primary {
				continue
			}
			fmt.Fprintf(w, "| %d | %d | %s\n", l.Sims, l.Games, differenceCells(d))
		}
	}
}

// differenceCells is the end of a table row of d, the columns figure, A,
// B, value in A, value in B, B − A [95%], Holm p and verdict, each cell
// closed by "|".
func differenceCells(d values.Difference) string {
	holm := holmCell(d.PHolm)
	verdict := "within noise"
	if !d.WithinNoise {
		verdict = "**a real difference**"
	}
	return fmt.Sprintf("%s | %s | %s | %.3f | %.3f | %s | %s | %s |", d.Metric, d.A, d.B, d.ValueA, d.ValueB, fmtEst(d.Delta, 3), holm, verdict)
}
