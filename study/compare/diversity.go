package compare

import (
	"fmt"
	"io"
	"math"

	"bomberzero/env"
)

// PolicyDiversity is how many moves a trained model's own policy spreads
// over in the opening, read from the network itself rather than from games
// of a player that breaks ties at random: the entropy in bits of its
// policy at the start position and, averaged, at each opening of the
// shared book, with 2^entropy as the effective number of moves.
type PolicyDiversity struct {
	Variant      string  `json:"variant"`
	Model        string  `json:"model"`
	StartEntropy float64 `json:"start_entropy"`
	StartMoves   float64 `json:"start_effective_moves"`
	StartTop     string  `json:"start_top"` // the policy's favourite first move
	StartTopProb float64 `json:"start_top_prob"`
	// BookPositions is the book openings read (0 without a book), and
	// BookEntropy the mean entropy over them.
	BookPositions int     `json:"book_positions"`
	BookEntropy   float64 `json:"book_entropy"`
	BookMoves     float64 `json:"book_effective_moves"`
}

// policyDiversity reads every source's model's policy at the start
// position and the book's openings (nil without trained models).
func policyDiversity(srcs []Source, cfg Config) ([]PolicyDiversity, error) {
	for _, s := range srcs {
		if s.Model == "" {
			return nil, nil
		}
	}
	var out []PolicyDiversity
	for _, s := range srcs {
		v, err := env.LoadVariant(s.Variant)
		if err != nil {
			return nil, fmt.Errorf("compare: policy diversity: %w", err)
		}
		model, _, err := neutralModel(v, s.Model)
		if err != nil {
			return nil, fmt.Errorf("compare: policy diversity: %w", err)
		}
		priors, err := model.PriorFunc()
		if err != nil {
			return nil, fmt.Errorf("compare: policy diversity: %w", err)
		}
		d := PolicyDiversity{Variant: s.Variant, Model: s.Model}
		start := v.NewPosition()
		moves, probs, err := priors(start)
		if err != nil {
			return nil, err
		}
		d.StartEntropy = entropyBits(probs)
		d.StartMoves = math.Exp2(d.StartEntropy)
		top := 0
		for i := range probs {
			if probs[i] > probs[top] {
				top = i
			}
		}
		d.StartTop, d.StartTopProb = start.FormatGC(moves[top]), float64(probs[top])
		book, err := cfg.bookFor(v)
		if err != nil {
			return nil, err
		}
		for _, p := range book {
			_, probs, err := priors(p)
			if err != nil {
				return nil, err
			}
			d.BookEntropy += entropyBits(probs)
			d.BookPositions++
		}
		if d.BookPositions > 0 {
			d.BookEntropy /= float64(d.BookPositions)
			d.BookMoves = math.Exp2(d.BookEntropy)
		}
		out = append(out, d)
	}
	return out, nil
}

// entropyBits is the entropy in bits of the distribution probs (which sums
// to 1 up to rounding; zeros contribute nothing).
func entropyBits(probs []float32) float64 {
	h := 0.0
	for _, p := range probs {
		if p > 0 {
			h -= float64(p) * math.Log2(float64(p))
		}
	}
	return h
}

// writeDiversity adds the models' policy diversity to the report.
func writeDiversity(w io.Writer, res *Result) {
	if len(res.Diversity) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Opening diversity of the models' own policies\n\n")
	fmt.Fprintf(w, "The entropy of each network's policy (no search), in bits, and 2^entropy, the effective number of moves it considers: at the start position, and averaged over the shared book's openings.\n\n")
	fmt.Fprintf(w, "| variant | at the start: entropy (effective moves) | favourite first move | over the book: mean entropy (effective moves) |\n|---|---|---|---|\n")
	for _, d := range res.Diversity {
		book := "-"
		if d.BookPositions > 0 {
			book = fmt.Sprintf("%.2f (%.1f) over %d openings", d.BookEntropy, d.BookMoves, d.BookPositions)
		}
		fmt.Fprintf(w, "| %s | %.2f (%.1f) | %s (%.0f%%) | %s |\n", d.Variant, d.StartEntropy, d.StartMoves, d.StartTop, 100*d.StartTopProb, book)
	}
}
