package stats

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Pairing is the result of games between two players, from A's side.
type Pairing struct {
	A   string `json:"a"`
	B   string `json:"b"`
	WDL WDL    `json:"wdl"`
}

// Rating is one player's place on a ladder: its Elo relative to the anchor
// with a 95% interval, and the games it played. It is also the type
// metrics.jsonl records (metrics.Rating), so a ladder is written as it is
// computed; its JSON names are part of that file's schema.
type Rating struct {
	Player string  `json:"player"`
	Elo    float64 `json:"elo"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	Games  int     `json:"games"`
}

// DefaultPrior is the number of virtual draws Ladder adds to every pair that
// played, so that a perfect score gives a finite rating.
const DefaultPrior = 1.0

// Ladder rates players from pairwise results by maximum-likelihood
// Bradley-Terry on the logistic Elo scale, draws counted as half a win and
// half a loss: it maximizes
//
//	sum over pairs (i,j) of  S_ij ln p_ij + (n_ij - S_ij) ln(1 - p_ij),
//	p_ij = ScoreFromElo(r_i - r_j),
//
// with the anchor's rating fixed at 0, by Newton's method. prior virtual
// draws are added to every pair that played (DefaultPrior; 0 for the pure
// maximum-likelihood fit, which is infinite for a perfect score). The 95%
// intervals are r_i +- 1.96 sqrt((I^-1)_ii), I the Fisher information at the
// optimum: a binomial variance, slightly wide when there are draws. Ratings
// are not capped (a long chain of strong players may pass EloCap). Every
// player must be connected to the anchor by games. Ratings are returned
// best first; the anchor is among them with Elo 0.
func Ladder(results []Pairing, anchor string, prior float64) ([]Rating, error) {
	if prior < 0 || math.IsNaN(prior) {
		return nil, fmt.Errorf("ladder: prior %g, want >= 0", prior)
	}
	index := map[string]int{anchor: 0}
	names := []string{anchor}
	id := func(s string) int {
		if i, ok := index[s]; ok {
			return i
		}
		index[s] = len(names)
		names = append(names, s)
		return len(names) - 1
	}
	type pair struct {
		i, j  int
		n, sc float64 // games and i's points
	}
	var pairs []pair
	games := map[int]int{}
	for _, r := range results {
		if r.A == r.B {
			return nil, fmt.Errorf("ladder: %s against itself", r.A)
		}
		n := r.WDL.Games()
		if n == 0 {
			continue
		}
		i, j := id(r.A), id(r.B)
		games[i] += n
		games[j] += n
		pairs = append(pairs, pair{i, j, float64(n) + prior, float64(r.WDL.Wins) + float64(r.WDL.Draws)/2 + prior/2})
	}
	if len(names) == 1 {
		if len(results) == 0 {
			return nil, errors.New("ladder: no results")
		}
		return nil, fmt.Errorf("ladder: the anchor %s played no games", anchor)
	}
	// Connectivity to the anchor.
	adj := make([][]int, len(names))
	for _, p := range pairs {
		adj[p.i] = append(adj[p.i], p.j)
		adj[p.j] = append(adj[p.j], p.i)
	}
	seen := make([]bool, len(names))
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, o := range adj[k] {
			if !seen[o] {
				seen[o] = true
				stack = append(stack, o)
			}
		}
	}
	for k, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("ladder: %s is not connected to the anchor %s by games", names[k], anchor)
		}
	}

	c := math.Ln10 / 400
	m := len(names) - 1 // free parameters: players 1..m
	r := make([]float64, len(names))
	info := mat.NewSymDense(m, nil) // the Fisher information (the negated Hessian)
	var chol mat.Cholesky
	var inv mat.SymDense
	grad := make([]float64, m)
	for iter := 0; ; iter++ {
		for k := range grad {
			grad[k] = 0
		}
		info.Zero()
		for _, p := range pairs {
			q := ScoreFromElo(r[p.i] - r[p.j])
			g := c * (p.sc - p.n*q) // d logL / d r_i
			h := c * c * p.n * q * (1 - q)
			if p.i > 0 {
				grad[p.i-1] += g
				info.SetSym(p.i-1, p.i-1, info.At(p.i-1, p.i-1)+h)
			}
			if p.j > 0 {
				grad[p.j-1] -= g
				info.SetSym(p.j-1, p.j-1, info.At(p.j-1, p.j-1)+h)
			}
			if p.i > 0 && p.j > 0 {
				info.SetSym(p.i-1, p.j-1, info.At(p.i-1, p.j-1)-h)
			}
		}
		// The information matrix of a connected ladder is positive
		// definite; a perfect score with no prior drives it to singular.
		if !chol.Factorize(info) {
			return nil, errors.New("ladder: singular information matrix (a perfect score needs prior > 0)")
		}
		if err := chol.InverseTo(&inv); err != nil {
			return nil, fmt.Errorf("ladder: %w (a perfect score needs prior > 0)", err)
		}
		step := 0.0
		for a := 0; a < m; a++ {
			d := 0.0
			for b := 0; b < m; b++ {
				d += inv.At(a, b) * grad[b]
			}
			d = math.Max(-400, math.Min(400, d)) // damp: keep each Newton step within 400 Elo
			r[a+1] += d
			step = math.Max(step, math.Abs(d))
		}
		if step < 1e-7 {
			out := make([]Rating, len(names))
			for k, name := range names {
				out[k] = Rating{Player: name, Elo: r[k], Low: r[k], High: r[k], Games: games[k]}
				if k > 0 {
					h := Z95 * math.Sqrt(inv.At(k-1, k-1))
					out[k].Low, out[k].High = r[k]-h, r[k]+h
				}
			}
			sort.SliceStable(out, func(a, b int) bool { return out[a].Elo > out[b].Elo })
			return out, nil
		}
		if iter > 500 || math.Abs(r[1]) > 1e6 {
			return nil, errors.New("ladder: the fit does not converge (a perfect score needs prior > 0)")
		}
	}
}
