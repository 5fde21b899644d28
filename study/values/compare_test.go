package values

import (
	"bomberzero/env"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outcomeModel generates games with known rates: White wins with chance
// white, draws with chance draw; lengths uniform on [minLen, maxLen]; each
// of the first plies chooses uniformly among moves moves.
type outcomeModel struct {
	white, draw    float64
	minLen, maxLen int
	moves          int
}

func (m outcomeModel) games(name string, n int, seed uint64) *Dataset {
	rng := rand.New(rand.NewPCG(seed, 3))
	ds := &Dataset{Pieces: []string{"P"}}
	for i := 0; i < n; i++ {
		g := Game{ID: fmt.Sprintf("%s%d", name, i), Variant: name, Length: m.minLen + rng.IntN(m.maxLen-m.minLen+1)}
		switch u := rng.Float64(); {
		case u < m.white:
			g.Result, g.Termination = 1, env.Checkmate
		case u < m.white+m.draw:
			g.Result, g.Termination = 0, env.Repetition
		default:
			g.Result, g.Termination = -1, env.Checkmate
		}
		if g.Result != 0 && rng.IntN(4) == 0 {
			g.Termination = env.Scepter
		}
		for ply := 0; ply < min(g.Length, 6); ply++ {
			g.Positions = append(g.Positions, Position{Ply: ply, WhiteToMove: ply%2 == 0, Text: "t",
				Played: fmt.Sprintf("m%d", rng.IntN(m.moves)), White: []int32{8}, Black: []int32{8}})
		}
		ds.Games = append(ds.Games, g)
	}
	return ds
}

func TestWilsonMatchesPublishedIntervals(t *testing.T) {
	// Wilson intervals as published: 81/263 and 0/10 are examples of
	// Newcombe (1998), Statistics in Medicine 17:857; 5/10 and 10/10 are
	// the symmetric and boundary cases of the same formula.
	for _, tc := range []struct {
		x, n, lo, hi float64
	}{
		{0, 10, 0, 0.2775},
		{5, 10, 0.2366, 0.7634},
		{81, 263, 0.2553, 0.3662},
		{10, 10, 0.7225, 1},
	} {
		e := Wilson(tc.x, tc.n)
		if math.Abs(e.Lo-tc.lo) > 5e-4 || math.Abs(e.Hi-tc.hi) > 5e-4 {
			t.Errorf("Wilson(%g/%g) = [%.4f, %.4f], want [%.4f, %.4f]", tc.x, tc.n, e.Lo, e.Hi, tc.lo, tc.hi)
		}
	}
}

// TestWilsonCoversAtTheNominalRate: 2000 binomial samples (n=60, p=0.15);
// coverage below 93% has probability under 0.1% for a true 95% interval.
func TestWilsonCoversAtTheNominalRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	covered := 0
	for r := 0; r < 2000; r++ {
		x := 0
		for i := 0; i < 60; i++ {
			if rng.Float64() < 0.15 {
				x++
			}
		}
		if Wilson(float64(x), 60).Contains(0.15) {
			covered++
		}
	}
	if covered < 1860 {
		t.Errorf("Wilson covered p in %d of 2000 samples, want >= 1860 (93%%)", covered)
	}
}

func TestDescribeRecoversKnownRates(t *testing.T) {
	m := outcomeModel{white: 0.4, draw: 0.35, minLen: 20, maxLen: 100, moves: 3}
	s, err := Describe("v", m.games("v", 3000, 1), CompareConfig{Seed: 1, OpeningPlies: 4})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, e Estimate, want float64) {
		t.Helper()
		if !e.Contains(want) {
			t.Errorf("%s = %.4g [%.4g, %.4g], want %.4g inside", what, e.Point, e.Lo, e.Hi, want)
		}
	}
	check("White's score", s.WhiteScore, 0.4+0.35/2)
	check("draw rate", s.DrawRate, 0.35)
	check("decisive rate", s.DecisiveRate, 0.65)
	check("mean length", s.Length.Mean, 60)
	check("median length", s.Length.Median, 60)
	check("lower quartile", s.Length.Q1, 40)
	check("upper quartile", s.Length.Q3, 80)
	// Three equally likely first moves: log2(3) bits, the maximum, so the
	// plug-in estimate can only fall short of it, by a hair.
	if h := s.Openings.FirstMoveEntropy.Point; math.Abs(h-math.Log2(3)) > 0.005 {
		t.Errorf("first-move entropy %.4f bits, want log2(3) = %.4f", h, math.Log2(3))
	}
	for _, sh := range s.Terminations {
		want := map[string]float64{"repetition": 0.35, "checkmate": 0.65 * 0.75, "scepter": 0.65 * 0.25}[sh.Reason]
		check("share of "+sh.Reason, sh.Share, want)
	}
	if s.Openings.Distinct != 81 || s.Openings.Known != 3000 {
		t.Errorf("openings: %d distinct of %d known, want 81 of 3000", s.Openings.Distinct, s.Openings.Known)
	}
	// 81 equally likely sequences: log2(81) bits.
	check("opening entropy", s.Openings.Entropy, math.Log2(81))
}

func TestOpeningFallsBackOnThePositionReached(t *testing.T) {
	g := &Game{Length: 10}
	for ply := 0; ply < 10; ply++ {
		g.Positions = append(g.Positions, Position{Ply: ply, Text: fmt.Sprint("pos", ply)})
	}
	g.Positions[0].Played = "e4"
	key, first, ok := openingOf(g, 4)
	if !ok || key != "position:pos4" || first != "e4" {
		t.Errorf("opening %q first %q ok %v; want the position after 4 plies and e4", key, first, ok)
	}
	if _, _, ok := openingOf(&Game{Length: 10, Positions: g.Positions[:3]}, 4); ok {
		t.Errorf("a game with neither moves nor the position after the opening counted as known")
	}
}

func TestDifferencesTellRealFromNoise(t *testing.T) {
	same := outcomeModel{white: 0.4, draw: 0.35, minLen: 20, maxLen: 100, moves: 3}
	other := outcomeModel{white: 0.15, draw: 0.6, minLen: 40, maxLen: 140, moves: 5}
	c, err := Compare([]string{"a", "b", "c"},
		[]*Dataset{same.games("a", 1500, 1), same.games("b", 1500, 2), other.games("c", 1500, 3)}, CompareConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	find := func(a, b, metric string) Difference {
		for _, d := range c.Differences {
			if d.A == a && d.B == b && d.Metric == metric {
				return d
			}
		}
		t.Fatalf("no difference %s %s %s", a, b, metric)
		return Difference{}
	}
	for _, metric := range []string{"White's score", "draw rate", "mean length (plies)", "opening entropy (bits)"} {
		if d := find("a", "b", metric); !d.WithinNoise || !strings.Contains(d.Verdict, "within noise") {
			t.Errorf("a vs b (same model) %s: %+v, want within noise", metric, d)
		}
		if d := find("a", "c", metric); d.WithinNoise || d.P > 1e-6 || !strings.Contains(d.Verdict, "real difference") {
			t.Errorf("a vs c %s: %+v, want a clear difference", metric, d)
		}
	}
	d := find("a", "c", "draw rate")
	if !d.Delta.Contains(0.25) || d.Delta.Point <= 0 {
		t.Errorf("draw-rate difference %+v, want about +0.25", d.Delta)
	}
	if _, err := Compare([]string{"a"}, []*Dataset{same.games("a", 10, 1)}, CompareConfig{}); err == nil {
		t.Errorf("one variant accepted")
	}
	if _, err := Differences(c.Variants[0], c.Variants[1], CompareConfig{Bootstrap: -1}); err == nil {
		t.Errorf("negative bootstrap accepted")
	}
	if _, err := Differences(&VariantStats{Variant: "x", Games: 3}, c.Variants[1], CompareConfig{}); err == nil {
		t.Errorf("stats not made by Describe accepted")
	}
}

// TestSampleSizeMatchesTheTextbookAndDeliversItsPower checks the formula
// against the classical example (30% vs 50%: 93 per group, e.g. Fleiss,
// Statistical Methods for Rates and Proportions) and then by simulation:
// at that many games per variant, the test finds the difference about 80%
// of the time.
func TestSampleSizeMatchesTheTextbookAndDeliversItsPower(t *testing.T) {
	mk := func(name string, n, draws int) *VariantStats {
		s := &VariantStats{Variant: name, Games: n, Draws: draws, WhiteWins: n - draws}
		return s
	}
	d := proportionDifference("draw rate", mk("a", 40, 12), mk("b", 40, 20), 12, 20)
	if d.GamesNeeded == nil || *d.GamesNeeded != 93 || *d.MoreGames != 53 || !d.WithinNoise {
		t.Fatalf("30%% vs 50%% on 40 games each: %+v (needed %v, more %v), want within noise, 93 needed, 53 more", d, deref(d.GamesNeeded), deref(d.MoreGames))
	}
	rng := rand.New(rand.NewPCG(8, 8))
	n, hits, trials := *d.GamesNeeded, 0, 600
	for r := 0; r < trials; r++ {
		xa, xb := 0, 0
		for i := 0; i < n; i++ {
			if rng.Float64() < 0.3 {
				xa++
			}
			if rng.Float64() < 0.5 {
				xb++
			}
		}
		if !proportionDifference("draw rate", mk("a", n, xa), mk("b", n, xb), float64(xa), float64(xb)).WithinNoise {
			hits++
		}
	}
	power := float64(hits) / float64(trials)
	t.Logf("power at %d games per variant: %.3f", n, power)
	// Binomial(600, 0.8) has standard deviation 0.016: [0.74, 0.86] is
	// beyond 3.5 of them.
	if power < 0.74 || power > 0.86 {
		t.Errorf("power %.3f at the computed sample size, want about 0.80", power)
	}
	none := proportionDifference("draw rate", mk("a", 40, 12), mk("b", 40, 12), 12, 12)
	if none.GamesNeeded != nil || !strings.Contains(none.Verdict, "no difference observed") {
		t.Errorf("equal rates: %+v, want no sample size and a verdict saying so", none)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestComparisonReportIsAFolderReadableWithoutRunningAnything(t *testing.T) {
	m := outcomeModel{white: 0.4, draw: 0.35, minLen: 20, maxLen: 100, moves: 3}
	o := outcomeModel{white: 0.3, draw: 0.5, minLen: 30, maxLen: 90, moves: 2}
	c, err := Compare([]string{"fbgc", "fbgc-superpower"}, []*Dataset{m.games("a", 300, 1), o.games("b", 300, 2)}, CompareConfig{Seed: 3, Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	chess := ChessModel(false)
	cfg := synthConfig(2, Tanh)
	cfg.Bootstrap = 30
	rep, err := PieceValues(chess.Games(300, 2), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Values = []*Report{rep, nil}
	dir := filepath.Join(t.TempDir(), "report")
	if err := c.WriteReport(dir); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	text := string(md)
	for _, want := range []string{"# Variant comparison: fbgc vs fbgc-superpower", "| White's score |", "| draw rate |",
		"## How games end", "| scepter |", "## Opening diversity (first 4 plies)", "## Differences", "within noise",
		"## Piece values", "fbgc, tanh fit", "| Q |", "Sampled positions by phase, in thirds of the start's officers: opening"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, link := range []string{OutcomesChartFile, LengthsChartFile, ValuesChartFile} {
		if !strings.Contains(text, "]("+link+")") {
			t.Errorf("report does not link %s", link)
		}
		if b, err := os.ReadFile(filepath.Join(dir, link)); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
			t.Errorf("chart %s missing or not PNG: %v", link, err)
		}
	}
	if strings.Contains(strings.ToLower(text), "nan") {
		t.Errorf("report shows NaN:\n%s", text)
	}
}

func TestReportShowsUnknownOpeningsAsMissingNotZero(t *testing.T) {
	m := outcomeModel{white: 0.4, draw: 0.35, minLen: 20, maxLen: 100, moves: 3}
	a, b := m.games("a", 50, 1), m.games("b", 50, 2)
	for gi := range b.Games { // no moves and no positions past the opening
		b.Games[gi].Positions = b.Games[gi].Positions[:1]
		b.Games[gi].Positions[0].Played = ""
	}
	c, err := Compare([]string{"a", "b"}, []*Dataset{a, b}, CompareConfig{Seed: 1, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	if o := c.Variants[1].Openings; o.Known != 0 || o.FirstMoves != 0 {
		t.Fatalf("openings %+v, want none known", o)
	}
	var sb strings.Builder
	if err := c.WriteMarkdown(&sb, false); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(sb.String(), "\n") {
		if strings.HasPrefix(line, "| entropy (bits)") && !strings.HasSuffix(line, "| – |") {
			t.Errorf("entropy row %q, want – for the variant without openings", line)
		}
	}
	for _, d := range c.Differences {
		if strings.HasPrefix(d.Metric, "opening entropy") {
			t.Errorf("opening entropy compared without known openings: %+v", d)
		}
	}
}

func TestHolmCorrectsTheWholeFamilyStepDown(t *testing.T) {
	ds := []Difference{
		{Metric: "White's score", P: 0.01, Delta: Estimate{Point: 0.1, Lo: 0.02, Hi: 0.2}},
		{Metric: "draw rate", P: 0.04, Delta: Estimate{Point: 0.1, Lo: 0.01, Hi: 0.2}},
		{Metric: "ending by checkmate", P: 0.03, Delta: Estimate{Point: 0.1, Lo: 0.01, Hi: 0.2}},
		{Metric: "mean length (plies)", P: 0.5, Delta: Estimate{Point: 1, Lo: -2, Hi: 4}},
	}
	holm(ds)
	// Sorted: 0.01 x4 = 0.04; 0.03 x3 = 0.09; 0.04 x2 = 0.08, held up to
	// 0.09 (step-down is monotone); 0.5 x1 = 0.5.
	want := []float64{0.04, 0.09, 0.09, 0.5}
	noise := []bool{false, true, true, true}
	primary := []bool{true, true, false, true}
	for i, d := range ds {
		if d.PHolm == nil || math.Abs(*d.PHolm-want[i]) > 1e-12 {
			t.Errorf("%s: Holm p %v, want %v", d.Metric, d.PHolm, want[i])
		}
		if d.WithinNoise != noise[i] || d.Primary != primary[i] {
			t.Errorf("%s: within noise %v, primary %v; want %v, %v", d.Metric, d.WithinNoise, d.Primary, noise[i], primary[i])
		}
		if !strings.Contains(d.Verdict, "Holm p") {
			t.Errorf("%s: verdict %q does not give the corrected p", d.Metric, d.Verdict)
		}
	}
	// The draw rate was significant alone (p 0.04) and is not once the
	// family is corrected.
	if !ds[1].WithinNoise {
		t.Error("draw rate still significant after the correction")
	}
}

func TestHolmAdjustStepsDownOverTheFamily(t *testing.T) {
	// Sorted: 0.005 x 4 = 0.02; 0.01 x 3 = 0.03; 0.03 x 2 = 0.06; 0.04 x 1
	// = 0.04, raised to the running 0.06.
	got := HolmAdjust([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("adjusted %v, want %v", got, want)
			break
		}
	}
	if got := HolmAdjust([]float64{0.6, 0.9}); got[0] != 1 || got[1] != 1 {
		t.Errorf("adjusted %v, want both capped at 1", got)
	}
}
