package stats

import (
	"math"
	"strings"
	"testing"
)

func TestLadderOfTwoPlayersIsTheirPairwiseElo(t *testing.T) {
	r, err := Ladder([]Pairing{{A: "x", B: "random", WDL: WDL{60, 0, 40}}}, "random", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r) != 2 || r[0].Player != "x" || r[1].Player != "random" || r[1].Elo != 0 {
		t.Fatalf("ladder %+v", r)
	}
	// Hand-computed: Elo 70.4365; Fisher information (ln10/400)^2 * 100 *
	// 0.24, so the half-width is 1.96 * (400/ln10)/sqrt(24) = 69.50.
	half := Z95 * 400 / math.Ln10 / math.Sqrt(24)
	if !near(r[0].Elo, 70.4365036, 1e-5) || !near(r[0].High-r[0].Elo, half, 1e-5) || !near(r[0].Elo-r[0].Low, half, 1e-5) {
		t.Fatalf("x: %+v, want 70.4365 +- %.4f", r[0], half)
	}
	if r[0].Games != 100 || r[1].Games != 100 {
		t.Errorf("games %d %d, want 100", r[0].Games, r[1].Games)
	}
}

// exactPairing returns n games whose points are n*ScoreFromElo(ra-rb) to
// within half a point.
func exactPairing(a, b string, ra, rb float64, n int) Pairing {
	pts := float64(n) * ScoreFromElo(ra-rb)
	half := int(math.Round(2 * pts)) // points in half-points
	w, d := half/2, half%2
	return Pairing{A: a, B: b, WDL: WDL{w, d, n - w - d}}
}

func TestLadderRecoversPlantedRatings(t *testing.T) {
	truth := map[string]float64{"random": 0, "greedy": 150, "alphabeta:1": 320, "net": 410}
	var res []Pairing
	names := []string{"random", "greedy", "alphabeta:1", "net"}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[i] == "random" && names[j] == "net" {
				continue // not every pair needs to meet
			}
			res = append(res, exactPairing(names[j], names[i], truth[names[j]], truth[names[i]], 20000))
		}
	}
	r, err := Ladder(res, "random", 0)
	if err != nil {
		t.Fatal(err)
	}
	for k, x := range r {
		if !near(x.Elo, truth[x.Player], 0.5) {
			t.Errorf("%s: %.3f, planted %g", x.Player, x.Elo, truth[x.Player])
		}
		if x.Player != "random" && !(x.Low < x.Elo && x.Elo < x.High && x.High-x.Low < 30) {
			t.Errorf("%s: interval [%g, %g] does not bracket %g tightly", x.Player, x.Low, x.High, x.Elo)
		}
		if k > 0 && r[k-1].Elo < x.Elo {
			t.Error("ladder not sorted best first")
		}
	}
}

func TestLadderNeedsAPriorForAPerfectScore(t *testing.T) {
	res := []Pairing{{A: "net", B: "random", WDL: WDL{20, 0, 0}}}
	if _, err := Ladder(res, "random", 0); err == nil {
		t.Fatal("a perfect score without a prior gave a finite rating")
	}
	r, err := Ladder(res, "random", DefaultPrior)
	if err != nil {
		t.Fatal(err)
	}
	// With one virtual draw: 20.5 points of 21 -> Elo of 20.5/21.
	if want := EloFromScore(20.5 / 21); !near(r[0].Elo, want, 1e-6) {
		t.Fatalf("net %.4f, want %.4f", r[0].Elo, want)
	}
}

func TestLadderRejectsDisconnectedAndMissingPlayers(t *testing.T) {
	cases := []struct {
		res  []Pairing
		want string
	}{
		{nil, "no results"},
		{[]Pairing{{A: "a", B: "b", WDL: WDL{1, 1, 1}}}, "not connected"},
		{[]Pairing{{A: "a", B: "random", WDL: WDL{1, 1, 1}}, {A: "b", B: "c", WDL: WDL{1, 0, 1}}}, "not connected"},
		{[]Pairing{{A: "a", B: "a", WDL: WDL{1, 1, 1}}}, "against itself"},
	}
	for _, c := range cases {
		if _, err := Ladder(c.res, "random", 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.res, err, c.want)
		}
	}
}

func TestLadderChainsPastTheEloCap(t *testing.T) {
	// Four players, each beating the one below 40-0: with one virtual draw
	// per pair each step is EloFromScore(40.5/41) = 765 Elo, 3060 in all.
	res := []Pairing{
		{A: "a", B: "random", WDL: WDL{40, 0, 0}},
		{A: "b", B: "a", WDL: WDL{40, 0, 0}},
		{A: "c", B: "b", WDL: WDL{40, 0, 0}},
		{A: "d", B: "c", WDL: WDL{40, 0, 0}},
	}
	r, err := Ladder(res, "random", DefaultPrior)
	if err != nil {
		t.Fatal(err)
	}
	step := EloFromScore(40.5 / 41)
	if r[0].Player != "d" || !near(r[0].Elo, 4*step, 1e-4) || !(r[0].Low < r[0].Elo && r[0].High > r[0].Elo) {
		t.Fatalf("top %+v, want d at %.1f", r[0], 4*step)
	}
}
