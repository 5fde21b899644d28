package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestSPRTLLRMatchesHandComputedExample(t *testing.T) {
	// W60 D20 L20 against H0: 0 Elo, H1: 10 Elo. s = 0.7, var = 0.65 - 0.49 =
	// 0.16, s1 = 0.514387, LLR = 100 (s1-0.5)(1.4-0.5-s1)/(2*0.16) = 1.733713.
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if llr := s.LLR(60, 20, 20); !near(llr, 1.7337133, 1e-6) {
		t.Fatalf("LLR = %.7f, want 1.7337133", llr)
	}
	lo, hi := s.Bounds()
	if !near(lo, math.Log(0.05/0.95), 1e-12) || !near(hi, 2.9444389791664403, 1e-12) {
		t.Fatalf("bounds %g %g", lo, hi)
	}
	if s.Decide(60, 20, 20) != Continue || s.Decide(600, 200, 200) != AcceptH1 || s.Decide(200, 200, 600) != AcceptH0 {
		t.Fatal("decisions at 100 and 1000 games are wrong")
	}
}

// simulateSPRT plays simulated games with true Elo elo and draw rate 0.3 until
// the test decides (or 200000 games), and returns the decision.
func simulateSPRT(s SPRT, elo float64, rng *rand.Rand) (Decision, int) {
	const drawRate = 0.3
	score := ScoreFromElo(elo)
	pw := score - drawRate/2 // W + D/2 = score
	var w, d, l int
	for n := 1; n <= 200000; n++ {
		switch u := rng.Float64(); {
		case u < pw:
			w++
		case u < pw+drawRate:
			d++
		default:
			l++
		}
		if dec := s.Decide(w, d, l); dec != Continue {
			return dec, n
		}
	}
	return Continue, 200000
}

func TestSPRTAcceptsTheRightHypothesisOnSimulatedGames(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	runs := 200
	if testing.Short() {
		runs = 60
	}
	cases := []struct {
		elo      float64
		want     Decision
		minShare float64
	}{
		// Well above elo1 and well below elo0 the wrong decision is far
		// rarer than alpha and beta; at elo1 exactly H1 is accepted with
		// probability about 1-beta = 0.95 (allowing for the approximation and
		// sampling noise, at least 0.85); at elo0 H0 likewise.
		{60, AcceptH1, 0.97},
		{-40, AcceptH0, 0.97},
		{20, AcceptH1, 0.85},
		{0, AcceptH0, 0.85},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		right := 0
		for i := 0; i < runs; i++ {
			if d, _ := simulateSPRT(s, c.elo, rng); d == c.want {
				right++
			}
		}
		if share := float64(right) / float64(runs); share < c.minShare {
			t.Errorf("true Elo %g: %s in %d of %d runs, want a share >= %g", c.elo, c.want, right, runs, c.minShare)
		}
	}
}

func TestParseSPRTReadsFourNumbersAndRejectsNonsense(t *testing.T) {
	s, err := ParseSPRT("0, 10, 0.05,0.1")
	if err != nil || s != (SPRT{0, 10, 0.05, 0.1}) {
		t.Fatalf("got %+v, %v", s, err)
	}
	for _, bad := range []struct{ text, want string }{
		{"0,10,0.05", "elo0,elo1,alpha,beta"},
		{"0,x,0.05,0.05", "elo1 \"x\""},
		{"10,0,0.05,0.05", "below elo1"},
		{"0,10,0.6,0.05", "alpha"},
		{"0,10,0.05,0", "beta"},
		{"0,NaN,0.05,0.05", "finite"},
	} {
		if _, err := ParseSPRT(bad.text); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want one mentioning %q", bad.text, err, bad.want)
		}
	}
}
