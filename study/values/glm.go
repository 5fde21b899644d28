package values

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// design is the data of one regression: n rows of k features (row-major),
// a target in [0,1] per row, and the game each row belongs to (rows are
// weighted per game, which is how the bootstrap resamples whole games).
// Identical positions of one game (same features and target) share a row
// with a count, which makes a fit several times faster and changes nothing.
type design struct {
	k     int
	x     []float64 // n*k features
	y     []float64 // targets in [0,1]
	game  []int     // game index of each row
	count []float64 // how many identical positions of the game each row stands for
	// weight is each row's weight per position: 1, or 1/n for a game of n
	// positions when every game counts once (SampleConfig.EqualGames).
	weight []float64
	// bin is each row's phase bin and bins their number when the fit has
	// a scale per phase (Config.PhaseBins, fitPhased); bins 0 otherwise.
	bin  []int
	bins int
	// startScales, when set, start the phased fit's scales of bins 1..
	// (the point fit's, so a bootstrap replicate starts near its optimum
	// whichever worker fits it); nil starts them at 1.
	startScales []float64
	penal       []float64 // per-column ridge penalty
	// scale a sets the link: P = σ(a·x·β). a = 1 is logistic regression;
	// a = 2 makes E[2y-1] = tanh(x·β), the tanh model.
	scale float64
}

// positions returns the number of positions the rows stand for.
func (d *design) positions() int {
	n := 0.0
	for _, c := range d.count {
		n += c
	}
	return int(n)
}

// errNoData is returned by fit when the weighted rows are empty.
var errNoData = errors.New("no positions to fit")

// glmWork is the scratch memory of one fit, reused across bootstrap
// replicates so a refit allocates nothing.
type glmWork struct {
	grad, step, trial []float64
	hess              []float64 // k*k, row-major, both triangles
	// The phased fit's scratch (fitPhased), allocated on its first use:
	// the system over (β, scales), the parameters now and at the last
	// accepted step, a row's derivatives, and the fitted scales.
	phased                *glmWork
	theta, prevTheta, jac []float64
	scales                []float64
	// passes counts the sweeps over the rows (pass) made with this
	// work, so that a benchmark can count a refit's sweeps, not time them.
	passes int
}

func newGLMWork(k int) *glmWork {
	return &glmWork{grad: make([]float64, k), step: make([]float64, k), trial: make([]float64, k), hess: make([]float64, k*k)}
}

// newtonStep solves hess·step = grad for the Newton step by a Cholesky
// factorization (gonum's LAPACK Dpotrf and two BLAS triangular solves),
// overwriting hess with the factor. The penalised Hessian is positive
// definite; it allocates nothing (mat.Cholesky would, for a condition
// number the fit does not need).
func (w *glmWork) newtonStep(k int) error {
	u, ok := lapack64.Potrf(blas64.Symmetric{N: k, Stride: k, Data: w.hess, Uplo: blas.Upper})
	if !ok {
		return errors.New("hessian not positive definite")
	}
	copy(w.step, w.grad)
	x := blas64.Vector{N: k, Inc: 1, Data: w.step}
	blas64.Trsv(blas.Trans, u, x)   // Uᵀ·y = grad
	blas64.Trsv(blas.NoTrans, u, x) // U·step = y
	return nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// fit minimises the objective by Newton's method with step halving
// (newton), starting from beta and leaving the optimum there. gw weights
// each game (bootstrap multiplicities; all ones for the plain fit). It
// returns errNoData when no row has weight, and an error when Newton fails
// to converge (which the ridge penalty makes rare: the objective is
// strictly convex). A design with phase bins is fitted by fitPhased.
func (d *design) fit(beta, gw []float64, work *glmWork) error {
	if d.bins > 1 {
		return d.fitPhased(beta, gw, work)
	}
	if d.totalWeight(gw) == 0 {
		return errNoData
	}
	if err := newton(beta, work.trial, work, 200, func(beta []float64) float64 { return d.pass(beta, gw, work) }); err != nil {
		return fmt.Errorf("values: %w", err)
	}
	return nil
}

// totalWeight returns the rows' summed weight under the game weights gw.
func (d *design) totalWeight(gw []float64) float64 {
	total := 0.0
	for i := range d.y {
		total += gw[d.game[i]] * d.count[i] * d.weight[i]
	}
	return total
}

// newton minimises a strictly convex objective by Newton's method with
// step halving, the one loop of the plain and the phased fit. It starts
// from theta and leaves the optimum there; prev (len(theta)) keeps the
// last accepted point. pass(theta) returns the objective at theta and
// leaves its gradient in w.grad and its Hessian (or expected information)
// in w.hess, both over len(theta) parameters. A step that raises the
// objective is halved from the last accepted point, and below a length of
// 1e-10 that point is the optimum; otherwise the loop stops when a full
// step lowers the objective by no more than 1e-14 relatively, or when its
// largest component is below 1e-7 (Newton converges quadratically: the
// next step would be far below any bootstrap interval's resolution). It
// fails on an objective that is not a number, on a Hessian that is not
// positive definite, and after maxIter passes.
func newton(theta, prev []float64, w *glmWork, maxIter int, pass func(theta []float64) float64) error {
	prevObj := math.Inf(1)
	t := 1.0 // the step length taken from prev
	for iter := 0; iter < maxIter; iter++ {
		obj := pass(theta)
		if math.IsNaN(obj) {
			return fmt.Errorf("the objective is not a number at iteration %d", iter)
		}
		if obj > prevObj+1e-12*(1+math.Abs(prevObj)) {
			// The full step overshot: halve it from the last accepted point.
			t /= 2
			if t < 1e-10 {
				copy(theta, prev)
				return nil
			}
			for j := range theta {
				theta[j] = prev[j] - t*w.step[j]
			}
			continue
		}
		if iter > 0 && prevObj-obj <= 1e-14*(1+math.Abs(obj)) {
			return nil
		}
		if err := w.newtonStep(len(theta)); err != nil {
			return fmt.Errorf("the Newton step: %w", err)
		}
		copy(prev, theta)
		prevObj, t = obj, 1
		maxStep := 0.0
		for j := range theta {
			theta[j] -= w.step[j]
			maxStep = max(maxStep, math.Abs(w.step[j]))
		}
		if maxStep < 1e-7 {
			return nil
		}
	}
	return fmt.Errorf("the Newton iteration did not converge in %d passes", maxIter)
}

// pass returns the objective at beta and leaves its gradient and Hessian in
// work, in one sweep over the rows.
func (d *design) pass(beta, gw []float64, work *glmWork) float64 {
	work.passes++
	k, a := d.k, d.scale
	g, h := work.grad, work.hess
	obj := 0.0
	for j := range g {
		g[j] = d.penal[j] * beta[j]
		obj += 0.5 * d.penal[j] * beta[j] * beta[j]
	}
	clear(h)
	for j := 0; j < k; j++ {
		h[j*k+j] = d.penal[j]
	}
	for i := range d.y {
		w := gw[d.game[i]] * d.count[i] * d.weight[i]
		if w == 0 {
			continue
		}
		xi := d.x[i*k : (i+1)*k]
		obj += addRow(g, h, xi, a, dot(xi, beta), d.y[i], w)
	}
	mirrorLower(h, k)
	return obj
}

// addRow adds one row's logistic loss, gradient and expected information
// to g and to the lower triangle of h (n x n, n = len(jac)): the row has
// weight w, result y, linear predictor lin before the link's scale a, and
// jac the derivatives of lin by the parameters. It returns the row's loss.
func addRow(g, h, jac []float64, a, lin, y, w float64) float64 {
	n := len(jac)
	z := a * lin
	e := math.Exp(-math.Abs(z))
	p := 1 / (1 + e)
	if z < 0 {
		p = e / (1 + e)
	}
	r := w * a * (p - y)
	c := w * a * a * p * (1 - p)
	for j, xj := range jac {
		if xj == 0 {
			continue
		}
		g[j] += r * xj
		row := h[j*n : j*n+n]
		cx := c * xj
		for l := 0; l <= j; l++ {
			row[l] += cx * jac[l]
		}
	}
	return w * (max(z, 0) + math.Log1p(e) - y*z)
}

// mirrorLower copies the lower triangle of the n x n matrix h onto its
// upper triangle.
func mirrorLower(h []float64, n int) {
	for j := 0; j < n; j++ {
		for l := 0; l < j; l++ {
			h[l*n+j] = h[j*n+l]
		}
	}
}
