package mcts

import (
	"math"
	"math/rand/v2"
	"testing"
)

// moments returns the mean and its standard error of xs.
func moments(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(v / float64(len(xs)-1) / float64(len(xs)))
}

func TestDirichletMomentsMatchTheory(t *testing.T) {
	// For a symmetric Dirichlet of n components with alpha each:
	// E[x_i] = 1/n and E[x_i^2] = alpha(alpha+1) / (n alpha (n alpha + 1)).
	// Sample means must lie within 5 standard errors of these.
	const samples = 20000
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		n     int
		alpha float64
	}{{2, 1}, {5, 0.3}, {20, 0.5}, {30, 10.0 / 30}, {300, 10.0 / 300}, {4, 2.5}} {
		x := make([]float64, c.n)
		first := make([]float64, samples)
		square := make([]float64, samples)
		for s := 0; s < samples; s++ {
			dirichlet(r, c.alpha, x)
			sum := 0.0
			for _, v := range x {
				if !(v >= 0) {
					t.Fatalf("n=%d alpha=%g: component %g, want >= 0", c.n, c.alpha, v)
				}
				sum += v
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("n=%d alpha=%g: sample sums to %g, want 1", c.n, c.alpha, sum)
			}
			k := s % c.n // look at every component in turn
			first[s], square[s] = x[k], x[k]*x[k]
		}
		a0 := float64(c.n) * c.alpha
		wantMean := 1 / float64(c.n)
		wantSquare := c.alpha * (c.alpha + 1) / (a0 * (a0 + 1))
		if m, se := moments(first); math.Abs(m-wantMean) > 5*se {
			t.Errorf("n=%d alpha=%g: mean %.5f, want %.5f within 5 SE (%.5f)", c.n, c.alpha, m, wantMean, 5*se)
		}
		if m, se := moments(square); math.Abs(m-wantSquare) > 5*se {
			t.Errorf("n=%d alpha=%g: mean square %.6f, want %.6f within 5 SE (%.6f)", c.n, c.alpha, m, wantSquare, 5*se)
		}
	}
}

func TestRootNoiseConcentrationIsTotalOverLegalMoves(t *testing.T) {
	// With NoiseFraction 1 the root priors are the noise itself; with
	// DirichletTotal 10 and n moves each component has alpha = 10/n, so
	// E[p^2] = (10/n)(10/n+1) / (10*11).
	const searches = 3000
	for _, n := range []int{5, 40} {
		cfg := testConfig(1)
		cfg.NoiseFraction, cfg.DirichletTotal, cfg.CacheEntries = 1, 10, 0
		ev, err := NewUniform(pickShape(n), 1)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSearcher(cfg, ev, 1)
		if err != nil {
			t.Fatal(err)
		}
		square := make([]float64, searches)
		values := make([]float32, n)
		for i := range square {
			if err := s.Reset(0, &pick{values: values, picked: -1}); err != nil {
				t.Fatal(err)
			}
			if err := s.SearchAll(); err != nil {
				t.Fatal(err)
			}
			tr := &s.slots[0].tree
			p := float64(tr.at(tr.root().first + int32(i%n)).prior)
			square[i] = p * p
		}
		alpha := 10 / float64(n)
		want := alpha * (alpha + 1) / (10 * 11)
		if m, se := moments(square); math.Abs(m-want) > 5*se {
			t.Errorf("%d moves: mean squared prior %.5f, want %.5f within 5 SE (%.5f)", n, m, want, 5*se)
		}
	}
}

func TestNoiseOnlyInFullPUCTSearches(t *testing.T) {
	for _, c := range []struct {
		name   string
		gumbel bool
		cheap  float64
		noisy  bool
	}{{"full PUCT", false, 0, true}, {"cheap PUCT", false, 1, false}, {"full Gumbel", true, 0, false}} {
		cfg := testConfig(1)
		cfg.Gumbel, cfg.CheapShare, cfg.CheapSims, cfg.NoiseFraction = c.gumbel, c.cheap, 1, 0.25
		ev, err := NewUniform(pickShape(10), 1)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSearcher(cfg, ev, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Reset(0, &pick{values: make([]float32, 10), picked: -1}); err != nil {
			t.Fatal(err)
		}
		if err := s.SearchAll(); err != nil {
			t.Fatal(err)
		}
		tr := &s.slots[0].tree
		noisy := false
		for k := int32(0); k < tr.root().nChild; k++ {
			if math.Abs(float64(tr.at(tr.root().first+k).prior)-0.1) > 1e-6 {
				noisy = true
			}
		}
		if noisy != c.noisy {
			t.Errorf("%s: root priors noisy = %v, want %v", c.name, noisy, c.noisy)
		}
	}
}

func TestGumbelVariatesHaveTheGumbelMean(t *testing.T) {
	// A standard Gumbel variate has mean Euler's gamma 0.5772 and
	// variance pi^2/6.
	r := rand.New(rand.NewPCG(7, 8))
	xs := make([]float64, 50000)
	for i := range xs {
		xs[i] = gumbel(r)
	}
	if m, se := moments(xs); math.Abs(m-0.5772156649) > 5*se {
		t.Errorf("mean %.4f, want 0.5772 within 5 SE (%.4f)", m, 5*se)
	}
}
