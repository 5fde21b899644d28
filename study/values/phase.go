package values

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"bomberzero/env"
)

// MaxPhaseBins bounds Config.PhaseBins.
const MaxPhaseBins = 8

// scaleRidge is the penalty ½λ(s−1)² on each phase scale: it keeps a
// scale finite in a phase where material decided every game, and is
// otherwise far below the data's pull.
const scaleRidge = 1e-3

// officerColumns returns the columns of pieces that count as officers (the
// letters of officers).
func officerColumns(pieces []string) []int {
	cols := []int{}
	for i, p := range pieces {
		if len(p) == 1 && strings.Contains(officers, p) {
			cols = append(cols, i)
		}
	}
	return cols
}

// The named phases of --officers, by the share of the start's officers on
// the board: piece values as Tomašev et al. and Kaufman quote them are the
// middlegame's; in the endgame the pawn, nearer promotion, weighs more
// against every piece (docs/values.md, "The middlegame fit").
const (
	PhaseMiddlegame = "middlegame" // at least half the start's officers
	PhaseEndgame    = "endgame"    // fewer than half
)

// StartOfficers returns the officers (non-pawn, non-royal pieces of the
// project's letters) on the board at the start of variant, both sides
// together: 14 in chess.
func StartOfficers(variant string) (int, error) {
	v, err := env.LoadVariant(variant)
	if err != nil {
		return 0, fmt.Errorf("values: officers at the start: %w", err)
	}
	pos := v.NewPosition()
	n := 0
	for t := 1; t < len(v.Pieces); t++ {
		if strings.IndexByte(officers, v.Pieces[t].Letter) >= 0 {
			n += pos.Count(env.White, t) + pos.Count(env.Black, t)
		}
	}
	return n, nil
}

// PhaseBounds returns the officer bounds (SampleConfig.MinOfficers and
// MaxOfficers) of the named phase of a variant whose start holds start
// officers: PhaseMiddlegame keeps the positions with at least half of them
// (rounded up: 7 of chess's 14), PhaseEndgame those with fewer. The upper
// bound of the middlegame leaves room for promoted officers.
func PhaseBounds(phase string, start int) (lo, hi int, err error) {
	if start < 2 {
		return 0, 0, fmt.Errorf("values: phase %q: the start holds %d officers, too few to split", phase, start)
	}
	half := (start + 1) / 2
	switch phase {
	case PhaseMiddlegame:
		return half, 2 * start, nil
	case PhaseEndgame:
		if half == 1 {
			return 0, 0, fmt.Errorf("values: phase %q: the start holds %d officers, too few for an endgame with fewer than half", phase, start)
		}
		return 0, half - 1, nil
	}
	return 0, 0, fmt.Errorf("values: phase %q, want %q or %q", phase, PhaseMiddlegame, PhaseEndgame)
}

// phaseBins assigns each of rows a phase bin by the officers on the board,
// bin 0 the most (the opening): the edges are the officer counts at the
// quantiles b/k of rows, ties merged, so there are at most k bins and none
// empty. It returns the bins, their number and a label per bin ("12-14").
func phaseBins(rows []sampled, cols []int, k int) ([]int, int, []string) {
	counts := make([]int, len(rows))
	for i, r := range rows {
		counts[i] = officerCount(r.pos, cols)
	}
	sorted := slices.Clone(counts)
	slices.Sort(sorted)
	slices.Reverse(sorted) // most officers first
	var edges []int        // a row with fewer officers than edges[b-1] is past bin b-1
	for b := 1; b < k; b++ {
		e := sorted[b*len(sorted)/k]
		if (len(edges) == 0 && e < sorted[0]) || (len(edges) > 0 && e < edges[len(edges)-1]) {
			edges = append(edges, e+1)
		}
	}
	bins := make([]int, len(rows))
	for i, c := range counts {
		for _, e := range edges {
			if c < e {
				bins[i]++
			}
		}
	}
	labels := make([]string, len(edges)+1)
	hi := sorted[0]
	for b := range labels {
		lo := sorted[len(sorted)-1]
		if b < len(edges) {
			lo = edges[b]
		}
		labels[b] = fmt.Sprintf("%d-%d", lo, hi)
		hi = lo - 1
	}
	return bins, len(edges) + 1, labels
}

// fitPhased fits the phased model: the linear predictor is
// β_0 + β_1·c + s_b·Σ_j β_j·d_j for a row of phase bin b, one set of piece
// coefficients and a scale s_b per bin (s_0 = 1), so material may decide
// games more surely in one phase than another while the pieces keep their
// ratios. The parameters (β, s_1..) are fitted together by Fisher scoring
// (Newton's method with the expected information, which the bilinear
// predictor needs: its exact Hessian need not be positive definite) with
// step halving, by the plain fit's loop (newton); the scales are left in
// work.scales.
func (d *design) fitPhased(beta, gw []float64, work *glmWork) error {
	k, nb := d.k, d.bins
	np := k + nb - 1
	if work.phased == nil || len(work.phased.grad) != np {
		work.phased = newGLMWork(np)
		work.theta, work.prevTheta = make([]float64, np), make([]float64, np)
		work.jac = make([]float64, np)
		work.scales = make([]float64, nb)
	}
	theta := work.theta
	if d.totalWeight(gw) == 0 {
		return errNoData
	}
	copy(theta, beta)
	for b := k; b < np; b++ {
		theta[b] = 1
	}
	if d.startScales != nil {
		copy(theta[k:], d.startScales)
	}
	if err := newton(theta, work.prevTheta, work.phased, 400, func(theta []float64) float64 { return d.phasedPass(theta, gw, work) }); err != nil {
		return fmt.Errorf("values: phased fit: %w", err)
	}
	copy(beta, theta[:k])
	work.scales[0] = 1
	copy(work.scales[1:], theta[k:])
	return nil
}

// phasedPass returns the phased model's penalised objective at theta (β,
// then the scales of bins 1..) and leaves its gradient and expected
// information in work.phased, in one sweep over the rows.
func (d *design) phasedPass(theta, gw []float64, work *glmWork) float64 {
	k, a := d.k, d.scale
	pw, jac := work.phased, work.jac
	np := len(theta)
	g, h := pw.grad, pw.hess
	obj := 0.0
	clear(h)
	for j := 0; j < np; j++ {
		pen, c := scaleRidge, theta[j]-1
		if j < k {
			pen, c = d.penal[j], theta[j]
		}
		g[j] = pen * c
		obj += 0.5 * pen * c * c
		h[j*np+j] = pen
	}
	for i := range d.y {
		w := gw[d.game[i]] * d.count[i] * d.weight[i]
		if w == 0 {
			continue
		}
		xi := d.x[i*k : (i+1)*k]
		b := d.bin[i]
		s := 1.0
		if b > 0 {
			s = theta[k+b-1]
		}
		m := dot(xi[nFixed:], theta[nFixed:k])
		clear(jac)
		copy(jac[:nFixed], xi[:nFixed])
		for j := nFixed; j < k; j++ {
			jac[j] = s * xi[j]
		}
		if b > 0 {
			jac[k+b-1] = m
		}
		obj += addRow(g, h, jac, a, dot(xi[:nFixed], theta[:nFixed])+s*m, d.y[i], w)
	}
	mirrorLower(h, np)
	return obj
}

// PhaseScale is one phase bin's scale on the material term in the phased
// model (Config.PhaseBins): how much more surely material decides games
// in that phase than in the opening bin, whose scale is 1.
type PhaseScale struct {
	// Officers are the bin's officer counts, both sides together ("10-14").
	Officers string `json:"officers"`
	// Positions are the fit's positions in the bin; Imbalanced those of
	// them with a material difference (the ones that fit the scale).
	Positions  int     `json:"positions"`
	Imbalanced int     `json:"imbalanced"`
	Scale      float64 `json:"scale"`
}

// phaseScales returns p's bins with their fitted scales and adds a note
// for every bin the data cannot scale: one with no material difference
// (its scale is not identified, the penalty holds it at 1), a scale at
// or below 0 (material does not predict that phase's results), or one
// that makes a piece's raw coefficient in that bin separationCoef or more
// (separation: material decided every game of that phase, so the penalty,
// not the data, holds the scale finite). point is the fit's β.
func (p *problem) phaseScales(point []float64) []PhaseScale {
	if p.scales == nil {
		return nil
	}
	out := make([]PhaseScale, len(p.scales))
	for b := range out {
		out[b] = PhaseScale{Officers: p.labels[b], Scale: p.scales[b]}
	}
	k := p.d.k
	for i, b := range p.d.bin {
		n := int(p.d.count[i])
		out[b].Positions += n
		for _, v := range p.d.x[i*k+nFixed : (i+1)*k] {
			if v != 0 {
				out[b].Imbalanced += n
				break
			}
		}
	}
	for _, ps := range out {
		switch {
		case ps.Imbalanced == 0:
			p.notes = append(p.notes, fmt.Sprintf("phased model: the bin of %s officers has no position with a material difference (%d positions), so its scale is not identified and the penalty, not the data, sets it; use fewer --phase-bins or more games", ps.Officers, ps.Positions))
		case ps.Scale <= 0:
			p.notes = append(p.notes, fmt.Sprintf("phased model: the bin of %s officers has scale %.2f: material does not predict its results (%d positions with a material difference), so the values rest on the other bins", ps.Officers, ps.Scale, ps.Imbalanced))
		case ps.Scale*maxAbs(point[nFixed:]) >= separationCoef:
			p.notes = append(p.notes, fmt.Sprintf("phased model: the bin of %s officers has scale %.1f, which puts a piece's raw coefficient at %.0f, above %d: material decided (nearly) every game of that phase (separation), so the penalty, not the data, holds its scale finite", ps.Officers, ps.Scale, ps.Scale*maxAbs(point[nFixed:]), separationCoef))
		}
	}
	return out
}

// maxAbs returns the largest |v| of v, 0 for none.
func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}

// PhaseShare is the share of a fit's sampled positions in one phase of
// the game, the phase read from the officers on the board (both sides).
// A fit's values are averages over its positions' phases, and the pawn
// weighs more against the pieces in endgames than in the middlegame, so
// the mix moves every value in pawns (docs/values.md, "What the sample's
// phases do to the pawn").
type PhaseShare struct {
	Phase     string  `json:"phase"`    // "opening", "middlegame" or "endgame"
	Officers  string  `json:"officers"` // the officer counts of the phase, as "10-14"
	Positions int     `json:"positions"`
	Share     float64 `json:"share"` // of all sampled positions
}

// phaseMix splits rows into thirds of the most officers any position of ds
// holds (the start's count, for games from the start): the endgame holds
// at most a third of them, the middlegame at most two thirds, the opening
// more. It returns nil when ds has no officers or rows is empty.
func phaseMix(ds *Dataset, rows []sampled) []PhaseShare {
	cols := officerColumns(ds.Pieces)
	most := 0
	for i := range ds.Games {
		for j := range ds.Games[i].Positions {
			most = max(most, officerCount(&ds.Games[i].Positions[j], cols))
		}
	}
	if most == 0 || len(rows) == 0 {
		return nil
	}
	end, mid := most/3, 2*most/3
	mix := []PhaseShare{
		{Phase: "opening", Officers: fmt.Sprintf("%d-%d", mid+1, most)},
		{Phase: "middlegame", Officers: fmt.Sprintf("%d-%d", end+1, mid)},
		{Phase: "endgame", Officers: fmt.Sprintf("0-%d", end)},
	}
	for _, r := range rows {
		switch n := officerCount(r.pos, cols); {
		case n > mid:
			mix[0].Positions++
		case n > end:
			mix[1].Positions++
		default:
			mix[2].Positions++
		}
	}
	for i := range mix {
		mix[i].Share = float64(mix[i].Positions) / float64(len(rows))
	}
	return mix
}

// phaseMixText is the report's line on mix, "" for none.
func phaseMixText(mix []PhaseShare) string {
	if len(mix) == 0 {
		return ""
	}
	parts := make([]string, len(mix))
	for i, s := range mix {
		parts[i] = fmt.Sprintf("%s (%s officers) %.0f%%", s.Phase, s.Officers, 100*s.Share)
	}
	return "Sampled positions by phase, in thirds of the start's officers: " + strings.Join(parts, ", ") +
		"; the values are averages over this mix, and a pawn weighs more against the pieces in endgames"
}
