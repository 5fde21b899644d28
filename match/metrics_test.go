package match

import (
	"math"
	"testing"

	"bomberzero/stats"
)

func TestMatchResultsFeedTheLadderAndMetrics(t *testing.T) {
	r := &Result{A: "net", B: "random", Total: stats.WDL{Wins: 60, Losses: 40}, Est: stats.NewEstimate(60, 0, 40)}
	m := r.Metrics()
	if m.A != "net" || m.Wins != 60 || m.Losses != 40 || !near(m.Elo, 70.4365, 1e-3) {
		t.Fatalf("metrics %+v", m)
	}
	l, err := stats.Ladder([]stats.Pairing{r.Pairing()}, "random", 0)
	if err != nil {
		t.Fatal(err)
	}
	ml := MetricsLadder(l)
	if len(ml) != 2 || ml[0].Player != "net" || !near(ml[0].Elo, m.Elo, 1e-4) || ml[0].Low != l[0].Low {
		t.Fatalf("ladder %+v", ml)
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
