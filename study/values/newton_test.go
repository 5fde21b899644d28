package values

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// referenceFit is the plain fit's own Newton loop as it stood before the
// one loop (newton) served both fits, kept to prove the refactoring
// changed no number.
func (d *design) referenceFit(beta, gw []float64, work *glmWork) error {
	prev := work.trial
	prevObj := math.Inf(1)
	t := 1.0
	for iter := 0; iter < 200; iter++ {
		obj := d.pass(beta, gw, work)
		if obj > prevObj+1e-12*(1+math.Abs(prevObj)) {
			t /= 2
			if t < 1e-10 {
				copy(beta, prev)
				return nil
			}
			for j := range beta {
				beta[j] = prev[j] - t*work.step[j]
			}
			continue
		}
		if iter > 0 && prevObj-obj <= 1e-14*(1+math.Abs(obj)) {
			return nil
		}
		if err := work.newtonStep(d.k); err != nil {
			return err
		}
		copy(prev, beta)
		prevObj, t = obj, 1
		maxStep := 0.0
		for j := range beta {
			beta[j] -= work.step[j]
			maxStep = max(maxStep, math.Abs(work.step[j]))
		}
		if maxStep < 1e-7 {
			return nil
		}
	}
	return fmt.Errorf("did not converge")
}

// referenceFitPhased is the phased fit's own loop as it stood before the
// one loop served both fits.
func (d *design) referenceFitPhased(beta, gw []float64, work *glmWork) error {
	k, nb := d.k, d.bins
	np := k + nb - 1
	if work.phased == nil || len(work.phased.grad) != np {
		work.phased = newGLMWork(np)
		work.theta, work.prevTheta = make([]float64, np), make([]float64, np)
		work.jac = make([]float64, np)
		work.scales = make([]float64, nb)
	}
	pw, theta, prev := work.phased, work.theta, work.prevTheta
	copy(theta, beta)
	for b := k; b < np; b++ {
		theta[b] = 1
	}
	if d.startScales != nil {
		copy(theta[k:], d.startScales)
	}
	prevObj := math.Inf(1)
	t := 1.0
	converged := false
	for iter := 0; iter < 400 && !converged; iter++ {
		obj := d.phasedPass(theta, gw, work)
		if obj > prevObj+1e-12*(1+math.Abs(prevObj)) {
			t /= 2
			if t < 1e-10 {
				copy(theta, prev)
				converged = true
				continue
			}
			for j := range theta {
				theta[j] = prev[j] - t*pw.step[j]
			}
			continue
		}
		if iter > 0 && prevObj-obj <= 1e-14*(1+math.Abs(obj)) {
			converged = true
			continue
		}
		if err := pw.newtonStep(np); err != nil {
			return err
		}
		copy(prev, theta)
		prevObj, t = obj, 1
		maxStep := 0.0
		for j := range theta {
			theta[j] -= pw.step[j]
			maxStep = max(maxStep, math.Abs(pw.step[j]))
		}
		converged = maxStep < 1e-7
	}
	if !converged {
		return fmt.Errorf("did not converge")
	}
	copy(beta, theta[:k])
	work.scales[0] = 1
	copy(work.scales[1:], theta[k:])
	return nil
}

// The one Newton loop gives the very numbers, bit for bit, that each
// fit's own loop gave: the plain logistic and tanh fits and the phased
// fit, on the whole data and on bootstrap resamples (warm-started at the
// plain fit, as the bootstrap does), on fixed data sets.
func TestOneNewtonLoopGivesTheNumbersOfTheTwoItReplaced(t *testing.T) {
	tanhModel, logisticModel := ChessModel(false), ChessModel(true)
	sets := map[string]*Dataset{"tanh model": tanhModel.Games(800, 11), "logistic model": logisticModel.Games(800, 12)}
	for name, ds := range sets {
		for _, bins := range []int{0, 3} {
			for _, m := range []Method{Logistic, Tanh} {
				t.Run(fmt.Sprintf("%s/%s/%d bins", name, m, bins), func(t *testing.T) {
					cfg, err := Config{Sample: DefaultSampleConfig(), Methods: []Method{m}, PhaseBins: bins, Seed: 1}.withDefaults()
					if err != nil {
						t.Fatal(err)
					}
					cfg.Sample.NoCaptures = false // the synthetic positions cannot be read by the rules
					p, err := buildProblem(ds, cfg.Sample.sample(ds, false), m, cfg, slices.Index(ds.Pieces, "P"))
					if err != nil {
						t.Fatal(err)
					}
					if bins > 1 && p.d.bins < 2 {
						t.Fatalf("%d phase bins, want several", p.d.bins)
					}
					gw := make([]float64, len(ds.Games))
					for i := range gw {
						gw[i] = 1
					}
					src := rand.NewPCG(0, 0)
					rng := rand.New(src)
					var start []float64
					for r := -1; r < 5; r++ {
						if r >= 0 {
							resample(gw, src, rng, 7, r)
						}
						got, want := make([]float64, p.d.k), make([]float64, p.d.k)
						copy(got, start)
						copy(want, start)
						wg, ww := newGLMWork(p.d.k), newGLMWork(p.d.k)
						errGot := p.d.fit(got, gw, wg)
						refFit := p.d.referenceFit
						if p.d.bins > 1 {
							refFit = p.d.referenceFitPhased
						}
						errWant := refFit(want, gw, ww)
						if (errGot == nil) != (errWant == nil) {
							t.Fatalf("replicate %d: error %v, the old loop's %v", r, errGot, errWant)
						}
						if !slices.Equal(got, want) {
							t.Errorf("replicate %d: coefficients %v, the old loop's %v", r, got, want)
						}
						if p.d.bins > 1 && !slices.Equal(wg.scales, ww.scales) {
							t.Errorf("replicate %d: scales %v, the old loop's %v", r, wg.scales, ww.scales)
						}
						if r < 0 {
							start = got // the bootstrap's warm start
							if p.d.bins > 1 {
								p.d.startScales = slices.Clone(wg.scales[1:])
							}
						}
					}
				})
			}
		}
	}
}
