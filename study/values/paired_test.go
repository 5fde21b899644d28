package values

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// shuffled returns a copy of ds with its games in a random order; each
// game keeps its Index.
func shuffled(ds *Dataset, seed uint64) *Dataset {
	out := &Dataset{Pieces: ds.Pieces, Games: append([]Game(nil), ds.Games...)}
	rng := rand.New(rand.NewPCG(seed, 1))
	rng.Shuffle(len(out.Games), func(i, j int) { out.Games[i], out.Games[j] = out.Games[j], out.Games[i] })
	return out
}

func pairedConfig(pairs int) Config {
	c := synthConfig(4, Tanh)
	c.Pairs = pairs
	return c
}

func TestPairedBootstrapResamplesPairsNotPlaces(t *testing.T) {
	// The same games in another order: resampled by pair they give the
	// same fit in every replicate, so the paired difference is exactly 0
	// with a zero-width interval; resampled by place (no pairs), the two
	// orders draw different games and the interval is as wide as two
	// independent samples'.
	m := ChessModel(false, 1, 3, 3.3, 5, 9, 0)
	a := m.Games(3000, 1)
	b := shuffled(a, 2)
	fit := func(ds *Dataset, pairs int) *FitResult {
		rep, err := PieceValues(ds, pairedConfig(pairs))
		if err != nil {
			t.Fatal(err)
		}
		return &rep.Fits[0]
	}
	paired := ValueDifference(fit(a, 3000), fit(b, 3000), "R")
	if paired == nil || math.Abs(paired.Point) > 1e-12 || math.Abs(paired.Lo) > 1e-12 || math.Abs(paired.Hi) > 1e-12 {
		t.Errorf("the same games paired: %+v, want 0 [0, 0] (to rounding)", paired)
	}
	unpaired := ValueDifference(fit(a, 0), fit(b, 0), "R")
	if unpaired == nil || unpaired.Width() < 0.1 {
		t.Errorf("the same games in another order, unpaired: %+v, want an interval as wide as two samples give", unpaired)
	}
}

func TestPairedBootstrapIsNarrowerWhereThePairsAgree(t *testing.T) {
	if raceDetector {
		t.Skip("a statistical property of many large fits: the worker pool is raced by the smaller fits, and this would take minutes")
	}
	// Side B replays side A's games except a fifth of the pairs, which a
	// rook worth 7 instead of 5 decides: the paired interval of B − A is
	// much narrower than the one that treats the sides as independent, and
	// both are about the same point (not quite the same: unpaired, the
	// positions a game contributes are drawn by its place, not its pair).
	m5, m7 := ChessModel(false, 1, 3, 3.3, 5, 9, 0), ChessModel(false, 1, 3, 3.3, 7, 9, 0)
	const n = 6000
	a, other := m5.Games(n, 1), m7.Games(n, 2)
	b := &Dataset{Pieces: a.Pieces, Games: append([]Game(nil), a.Games...)}
	for i := 0; i < n; i += 5 {
		b.Games[i] = other.Games[i]
	}
	fit := func(ds *Dataset, pairs int) *FitResult {
		rep, err := PieceValues(ds, pairedConfig(pairs))
		if err != nil {
			t.Fatal(err)
		}
		return &rep.Fits[0]
	}
	paired := ValueDifference(fit(a, n), fit(b, n), "R")
	b = shuffled(b, 3) // so that resampling by place does not pair by accident
	unpaired := ValueDifference(fit(a, 0), fit(b, 0), "R")
	if paired == nil || unpaired == nil {
		t.Fatal("no rook difference")
	}
	if math.Abs(paired.Point-unpaired.Point) > 0.2 {
		t.Errorf("points %v (paired) and %v: the same games should give about the same point", paired.Point, unpaired.Point)
	}
	t.Logf("paired %+v, unpaired %+v", *paired, *unpaired)
	if paired.Point <= 0 || paired.Width() > 0.6*unpaired.Width() {
		t.Errorf("paired %+v (width %.3f), unpaired %+v (width %.3f): want a positive point and the paired interval well under the unpaired",
			paired, paired.Width(), unpaired, unpaired.Width())
	}
}

func TestPairsThatDoNotFitAreNamed(t *testing.T) {
	m := ChessModel(false, 1, 3, 3.3, 5, 9, 0)
	ds := m.Games(50, 1)
	for _, tc := range []struct {
		name  string
		pairs int
		edit  func(*Dataset)
		want  string
	}{
		{"index past the pairs", 40, func(*Dataset) {}, "has index 40, want 0 to 39"},
		{"two games of a pair", 50, func(d *Dataset) { d.Games[3].Index = 2 }, "another game has too"},
		{"negative pairs", -1, func(*Dataset) {}, "Pairs -1"},
	} {
		d := &Dataset{Pieces: ds.Pieces, Games: append([]Game(nil), ds.Games...)}
		tc.edit(d)
		_, err := PieceValues(d, pairedConfig(tc.pairs))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// pairedStats describes games whose lengths and results are given, game i
// with Index i.
func pairedStats(t *testing.T, name string, lengths []int, results []int) *VariantStats {
	t.Helper()
	ds := &Dataset{Pieces: []string{"P"}}
	for i := range lengths {
		ds.Games = append(ds.Games, Game{ID: name + string(rune('a'+i)), Variant: name, Length: lengths[i], Result: results[i], Index: i})
	}
	s, err := Describe(name, ds, CompareConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPairedDifferencesTestTheDifferencesWithinPairs(t *testing.T) {
	// B's games are A's, two plies longer each, and one pair's result
	// turned from a White win to a draw. Within pairs the length moves by
	// exactly 2 (no variance: certain), White's score by -0.5 in one pair
	// of 8, whose standard error is that of the eight differences.
	la := []int{40, 90, 61, 130, 77, 52, 100, 66}
	ra := []int{1, -1, 0, 1, 1, -1, 0, 1}
	lb := make([]int, len(la))
	for i := range la {
		lb[i] = la[i] + 2
	}
	rb := append([]int(nil), ra...)
	rb[3] = 0
	a, b := pairedStats(t, "A", la, ra), pairedStats(t, "B", lb, rb)
	ds, err := Differences(a, b, CompareConfig{Pairs: len(la)})
	if err != nil {
		t.Fatal(err)
	}
	byMetric := map[string]Difference{}
	for _, d := range ds {
		byMetric[d.Metric] = d
	}
	length := byMetric["mean length (plies)"]
	if length.Delta.Point != 2 || length.Delta.Lo != 2 || length.Delta.Hi != 2 || length.P != 0 {
		t.Errorf("length: %+v, want exactly +2 with no variance", length)
	}
	// Eight score differences: seven 0 and one -0.5; mean -1/16, sample
	// variance (7·(1/16)² + (7/16)²)/7, standard error √(var/8).
	mean := -0.5 / 8
	v := (7*mean*mean + (-0.5-mean)*(-0.5-mean)) / 7
	se := math.Sqrt(v / 8)
	score := byMetric["White's score"]
	if math.Abs(score.Delta.Point-mean) > 1e-12 || math.Abs(score.Delta.Hi-(mean+z95*se)) > 1e-12 {
		t.Errorf("White's score: %+v, want %v ± %v", score.Delta, mean, z95*se)
	}
	// Unpaired, the same length shift is lost in the games' spread.
	unpaired, err := Differences(a, b, CompareConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range unpaired {
		if d.Metric == "mean length (plies)" && !d.Delta.Contains(0) {
			t.Errorf("unpaired length %+v: want the shift within the games' spread", d.Delta)
		}
	}
	// A side that misses a pair's game is named.
	short := pairedStats(t, "C", la[:7], ra[:7])
	if _, err := Differences(a, short, CompareConfig{Pairs: len(la)}); err == nil || !strings.Contains(err.Error(), "C has no game of pair 7") {
		t.Errorf("a missing pair: error %v", err)
	}
}
