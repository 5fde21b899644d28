package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"bomberzero/env"
)

// Sample is one position for Texel's method: its classical terms for the
// side to move and the game's result for that side (1 a win, 0.5 a draw,
// 0 a loss).
type Sample struct {
	X      [NumTerms]float64
	Result float64
}

// texelScale turns a score in centipawns into a logit: Texel's
// 1/(1+10^(-K s/400)) is the logistic function of K s ln(10)/400.
const texelScale = math.Ln10 / 400

// sigmoid is Texel's expected result of score s at scale k.
func sigmoid(k, s float64) float64 { return 1 / (1 + math.Exp(-k*texelScale*s)) }

// TexelLoss returns the mean squared error of the expected results of
// weights w at scale k against the samples' results.
func TexelLoss(samples []Sample, w [NumTerms]float64, k float64) float64 {
	if len(samples) == 0 {
		return 0
	}
	sum := 0.0
	for i := range samples {
		d := samples[i].Result - sigmoid(k, Dot(w, samples[i].X))
		sum += d * d
	}
	return sum / float64(len(samples))
}

// FitScale returns the scale K in [0.01, 10] that minimises TexelLoss for
// weights w (a golden-section search on log K; the loss is unimodal in K
// in practice).
func FitScale(samples []Sample, w [NumTerms]float64) float64 {
	lo, hi := math.Log(0.01), math.Log(10)
	f := func(x float64) float64 { return TexelLoss(samples, w, math.Exp(x)) }
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := f(a), f(b)
	for range 60 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = f(b)
		}
	}
	return math.Exp((lo + hi) / 2)
}

// FitWeights minimises TexelLoss over the weights at scale k, starting
// from w0, by Levenberg-Marquardt (Gauss-Newton steps damped toward
// gradient descent while they fail to lower the loss), plus, with ridge >
// 0, a penalty ridge * sum_a D_a (w_a - w0_a)^2 that holds the weights
// near w0, D_a being the mean square of term a times the slope of the
// expected result at an even score (so that ridge is unit-free). Terms
// whose column is zero in every sample keep their starting weight. It
// returns the weights and their penalised loss.
func FitWeights(samples []Sample, w0 [NumTerms]float64, k float64, iters int, ridge float64) ([NumTerms]float64, float64) {
	if len(samples) == 0 {
		return w0, 0
	}
	n := float64(len(samples))
	var dpen [NumTerms]float64
	slope := k * texelScale / 4
	for i := range samples {
		for a, x := range samples[i].X {
			dpen[a] += x * x * slope * slope / n
		}
	}
	objective := func(w [NumTerms]float64) float64 {
		l := TexelLoss(samples, w, k)
		for a := range w {
			l += ridge * dpen[a] * (w[a] - w0[a]) * (w[a] - w0[a])
		}
		return l
	}
	w := w0
	loss := objective(w)
	lambda := 1e-3
	for it := 0; it < iters; it++ {
		var jtj [NumTerms][NumTerms]float64
		var jtr [NumTerms]float64
		for i := range samples {
			x := &samples[i].X
			p := sigmoid(k, Dot(w, *x))
			d := p * (1 - p) * k * texelScale // dp/ds
			r := samples[i].Result - p
			for a := range NumTerms {
				ja := d * x[a]
				jtr[a] += ja * r
				for b := a; b < NumTerms; b++ {
					jtj[a][b] += ja * d * x[b]
				}
			}
		}
		for a := range NumTerms {
			for b := 0; b < a; b++ {
				jtj[a][b] = jtj[b][a]
			}
		}
		for a := range NumTerms { // per sample, with the penalty's terms
			for b := range NumTerms {
				jtj[a][b] /= n
			}
			jtr[a] = jtr[a]/n - ridge*dpen[a]*(w[a]-w0[a])
			jtj[a][a] += ridge * dpen[a]
		}
		improved := false
		for try := 0; try < 20; try++ {
			m := jtj
			for a := range NumTerms {
				m[a][a] += lambda * m[a][a]
			}
			step, ok := solve(m, jtr)
			if !ok {
				lambda *= 10
				continue
			}
			var cand [NumTerms]float64
			for a := range w {
				cand[a] = w[a] + step[a]
			}
			cand[0] = min(max(cand[0], 0), 1000)
			if l := objective(cand); l < loss {
				improved = loss-l > 1e-12*loss
				w, loss = cand, l
				lambda = max(lambda/3, 1e-9)
				break
			}
			lambda *= 4
		}
		if !improved {
			break
		}
	}
	return w, loss
}

// solve solves m x = y by Gaussian elimination with partial pivoting,
// leaving at zero the unknowns whose row and column are (near) zero. It
// reports false for a singular system.
func solve(m [NumTerms][NumTerms]float64, y [NumTerms]float64) ([NumTerms]float64, bool) {
	var x [NumTerms]float64
	scale := 0.0
	for a := range NumTerms {
		scale = max(scale, math.Abs(m[a][a]))
	}
	if scale == 0 {
		return x, false
	}
	var active []int
	for a := range NumTerms {
		if math.Abs(m[a][a]) > 1e-12*scale {
			active = append(active, a)
		}
	}
	n := len(active)
	aug := make([][]float64, n)
	for i, a := range active {
		aug[i] = make([]float64, n+1)
		for j, b := range active {
			aug[i][j] = m[a][b]
		}
		aug[i][n] = y[a]
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(aug[r][c]) > math.Abs(aug[p][c]) {
				p = r
			}
		}
		if math.Abs(aug[p][c]) < 1e-14*scale {
			return x, false
		}
		aug[c], aug[p] = aug[p], aug[c]
		for r := c + 1; r < n; r++ {
			f := aug[r][c] / aug[c][c]
			for j := c; j <= n; j++ {
				aug[r][j] -= f * aug[c][j]
			}
		}
	}
	sol := make([]float64, n)
	for c := n - 1; c >= 0; c-- {
		s := aug[c][n]
		for j := c + 1; j < n; j++ {
			s -= aug[c][j] * sol[j]
		}
		sol[c] = s / aug[c][c]
	}
	for i, a := range active {
		x[a] = sol[i]
	}
	return x, true
}

// TuneConfig is how SelfPlaySamples plays and samples its games.
type TuneConfig struct {
	Games int
	// Nodes is each move's node limit.
	Nodes int64
	// RandomPlies is the number of uniformly random moves that open each
	// game (for diversity); no position among them is sampled.
	RandomPlies int
	// MaxPlies caps a game; a capped game's positions are left out (its
	// result is unknown).
	MaxPlies int
	// QuietMargin is how far, in centipawns, the quiescence score may be
	// from the static evaluation for a position to count as quiet.
	QuietMargin int32
	// Weights are the self-play engine's.
	Weights Weights
	Seed    uint64
	Workers int
}

// DefaultTuneConfig returns settings that fit two cores.
func DefaultTuneConfig() TuneConfig {
	return TuneConfig{Games: 200, Nodes: 1000, RandomPlies: 8, MaxPlies: 300, QuietMargin: 30, Weights: DefaultWeights(), Seed: 1, Workers: 1}
}

// TuneStats counts what SelfPlaySamples played and kept.
type TuneStats struct {
	Games, Capped              int
	WhiteWins, BlackWins, Draw int
	Positions, Quiet           int
}

// SelfPlaySamples plays cfg.Games engine self-play games of variant v
// over piece table table and returns the quiet positions of the games
// that ended (not in check, quiescence within cfg.QuietMargin of the
// static evaluation), in game order: the same cfg gives the same samples
// whatever cfg.Workers. done, if not nil, is called after each game with
// the number finished.
func SelfPlaySamples(ctx context.Context, v *env.Variant, table []int32, cfg TuneConfig, done func(int)) ([]Sample, TuneStats, error) {
	if cfg.Games < 1 || cfg.Nodes < 1 || cfg.RandomPlies < 0 || cfg.MaxPlies < 1 || cfg.QuietMargin < 0 {
		return nil, TuneStats{}, fmt.Errorf("tune: games %d, nodes %d, random plies %d, max plies %d, quiet margin %d: want positive (random plies and margin at least 0)", cfg.Games, cfg.Nodes, cfg.RandomPlies, cfg.MaxPlies, cfg.QuietMargin)
	}
	workers := min(max(cfg.Workers, 1), cfg.Games)
	type game struct {
		samples []Sample
		result  env.Result
		plies   int
		err     error
	}
	out := make([]game, cfg.Games)
	var mu sync.Mutex
	finished := 0
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				s, r, n, err := playTuneGame(ctx, v, table, cfg, g)
				out[g] = game{s, r, n, err}
				mu.Lock()
				finished++
				if done != nil {
					done(finished)
				}
				mu.Unlock()
			}
		}()
	}
	for g := 0; g < cfg.Games && ctx.Err() == nil; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, TuneStats{}, err
	}
	var st TuneStats
	var all []Sample
	for g := range out {
		if out[g].err != nil {
			return nil, TuneStats{}, fmt.Errorf("tune: game %d: %w", g+1, out[g].err)
		}
		st.Games++
		st.Positions += out[g].plies
		switch out[g].result {
		case env.Ongoing:
			st.Capped++
			continue
		case env.WhiteWins:
			st.WhiteWins++
		case env.BlackWins:
			st.BlackWins++
		default:
			st.Draw++
		}
		all = append(all, out[g].samples...)
	}
	st.Quiet = len(all)
	return all, st, nil
}

// playTuneGame plays game g of SelfPlaySamples: its quiet positions with
// the result filled in, the result (Ongoing if capped) and its plies.
func playTuneGame(ctx context.Context, v *env.Variant, table []int32, cfg TuneConfig, g int) ([]Sample, env.Result, int, error) {
	seed := mix64(cfg.Seed ^ uint64(g)*0x9e3779b97f4a7c15)
	ev, err := NewClassical(v, table, cfg.Weights)
	if err != nil {
		return nil, 0, 0, err
	}
	e, err := New(v, Options{HashMB: 8, Seed: seed, Table: table, Eval: ev})
	if err != nil {
		return nil, 0, 0, err
	}
	terms, err := NewTerms(v, table)
	if err != nil {
		return nil, 0, 0, err
	}
	rng := rand.New(rand.NewPCG(seed, uint64(g)))
	pos := v.NewPosition()
	var buf [env.MaxMoves]env.Move
	var samples []Sample
	var sides []env.Color
	for ply := 0; ply < cfg.MaxPlies; ply++ {
		moves := pos.LegalMoves(buf[:0])
		if r, _ := pos.StatusOf(len(moves)); r != env.Ongoing {
			for i := range samples {
				samples[i].Result = float64(r.For(sides[i])+1) / 2
			}
			return samples, r, ply, nil
		}
		if ply < cfg.RandomPlies {
			pos.DoMove(moves[rng.IntN(len(moves))])
			continue
		}
		if !pos.InCheck() {
			if static, q, ok := e.quiet(pos); ok && q-static <= cfg.QuietMargin && static-q <= cfg.QuietMargin {
				samples = append(samples, Sample{X: terms.Of(pos)})
				sides = append(sides, pos.SideToMove())
			}
		}
		res, err := e.Search(ctx, pos, Limits{Nodes: cfg.Nodes}, nil)
		if err != nil {
			return nil, 0, 0, err
		}
		pos.DoMove(res.Move)
	}
	return nil, env.Ongoing, cfg.MaxPlies, nil
}

// quietNodes bounds the quiescence search quiet runs.
const quietNodes = 200000

// quiet returns pos's static evaluation and its quiescence score, both for
// the side to move, with ok false if the quiescence search ran out of
// nodes.
func (e *Engine) quiet(pos *env.Position) (static, q int32, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	w := e.workers[0]
	sh := &shared{ctx: context.Background(), start: time.Now(), nodeLimit: quietNodes}
	w.reset(pos, sh, MaxDepth, 0, nil)
	static = w.eval.Evaluate(w.pos)
	q = w.quiesce(-Infinite, Infinite, 0)
	return static, q, !w.stopped()
}

// errNoSamples is TuneWeights' error for an empty sample.
var errNoSamples = errors.New("tune: no quiet positions from finished games to fit")

// TuneReport is what TuneWeights found.
type TuneReport struct {
	K          float64 `json:"k"`
	LossBefore float64 `json:"loss_before"`
	LossAfter  float64 `json:"loss_after"`
	Samples    int     `json:"samples"`
	Ridge      float64 `json:"ridge,omitempty"`
}

// TuneWeights fits weights to samples by Texel's method: first the scale
// K for the starting weights w0, then the weights at that K. The weights
// are rounded to whole numbers and LossAfter is the (unpenalised) loss of
// the rounded weights. ridge holds the weights near w0 (see FitWeights).
func TuneWeights(samples []Sample, w0 Weights, ridge float64) (Weights, TuneReport, error) {
	if len(samples) == 0 {
		return Weights{}, TuneReport{}, errNoSamples
	}
	x0 := w0.Vector()
	k := FitScale(samples, x0)
	rep := TuneReport{K: k, LossBefore: TexelLoss(samples, x0, k), Samples: len(samples)}
	x, _ := FitWeights(samples, x0, k, 100, ridge)
	rep.Ridge = ridge
	w := WeightsOf(x)
	rep.LossAfter = TexelLoss(samples, w.Vector(), k)
	return w, rep, nil
}
