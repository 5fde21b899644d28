package values

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestImbalanceRecoversAPlantedDifference plays a synthetic imbalance
// match under the tanh model with a known difference (a knight against a
// pawn, 2 pawns at 0.2 tanh units a pawn) and reads it back in pawns.
func TestImbalanceRecoversAPlantedDifference(t *testing.T) {
	const beta, diff = 0.2, 2.0
	rng := rand.New(rand.NewPCG(2, 2))
	w, d, l := 0, 0, 0
	tz := math.Tanh(beta * diff)
	for i := 0; i < 4000; i++ {
		draw := 0.4 * (1 - tz)
		pw := (1 - draw + tz) / 2
		switch u := rng.Float64(); {
		case u < pw:
			w++
		case u < pw+draw:
			d++
		default:
			l++
		}
	}
	im, err := ReadImbalance(w, d, l, beta)
	if err != nil {
		t.Fatal(err)
	}
	if im.Units == nil || !im.Units.Contains(diff) || im.Units.Width() > 1 {
		t.Errorf("implied difference %+v pawns (score %+v), want an interval holding %g narrower than 1", im.Units, im.Score, diff)
	}
	if im.Tanh == nil || math.Abs(im.Tanh.Point-beta*im.Units.Point) > 1e-12 {
		t.Errorf("tanh %+v and units %+v disagree by the coefficient", im.Tanh, im.Units)
	}
}

func TestImbalanceWithoutAFiniteEstimateSaysSo(t *testing.T) {
	im, err := ReadImbalance(20, 0, 0, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	if im.Tanh != nil || im.Units != nil || !strings.Contains(im.Note, "every game") {
		t.Errorf("all wins: %+v, want no estimate and a note", im)
	}
	if im.Score.Point != 1 || im.Score.Lo >= 1 {
		t.Errorf("all wins: score %+v, want 1 with a lower bound under 1", im.Score)
	}
	if _, err := ReadImbalance(0, 0, 0, 0.2); err == nil {
		t.Errorf("no games accepted")
	}
	if im, _ := ReadImbalance(5, 5, 5, 0); im.Units != nil || im.Tanh == nil {
		t.Errorf("no unit coefficient: %+v, want tanh units only", im)
	}
}

func TestReportUnitCoefIsTheUnitPiecesCoefficient(t *testing.T) {
	rep := smallReport(t)
	c, ok := rep.UnitCoef(Tanh)
	if !ok || c != rep.Fits[1].Pieces[0].Coef.Point {
		t.Errorf("UnitCoef(tanh) = %v, %v; want the pawn's coefficient %v", c, ok, rep.Fits[1].Pieces[0].Coef.Point)
	}
	if _, ok := rep.UnitCoef(Value); ok {
		t.Errorf("UnitCoef of a fit that did not run reported one")
	}
}

func TestJointImbalanceCarriesThePawnFitsUncertainty(t *testing.T) {
	const w, d, l, coef = 60, 25, 35, 0.2
	plain, err := ReadImbalance(w, d, l, coef)
	if err != nil {
		t.Fatal(err)
	}
	// A coefficient known exactly: the joint interval is the games'
	// alone, close to the plain reading's.
	exact := make([]float64, 2000)
	for i := range exact {
		exact[i] = coef
	}
	sure, err := ReadImbalanceJoint(w, d, l, coef, exact, 1)
	if err != nil || !sure.Joint || sure.Units.Point != plain.Units.Point {
		t.Fatalf("joint reading %+v (%v), want the plain point %v", sure.Units, err, plain.Units.Point)
	}
	if math.Abs(sure.Units.Width()-plain.Units.Width()) > 0.15*plain.Units.Width() {
		t.Errorf("with an exact coefficient the joint interval is %.3f wide, the games' alone %.3f", sure.Units.Width(), plain.Units.Width())
	}
	// A coefficient known to ±25%: wider.
	spread := make([]float64, 2000)
	for i := range spread {
		spread[i] = coef * (0.75 + 0.5*float64(i)/float64(len(spread)-1))
	}
	unsure, err := ReadImbalanceJoint(w, d, l, coef, spread, 1)
	if err != nil || unsure.Units.Width() <= sure.Units.Width()*1.05 {
		t.Errorf("an uncertain coefficient gave %+v (%v), want wider than %+v", unsure.Units, err, sure.Units)
	}
	if !unsure.Units.Contains(unsure.Units.Point) {
		t.Errorf("point %v outside its interval %+v", unsure.Units.Point, unsure.Units)
	}
	// Replicates whose pawn is worth nothing make the interval unbounded.
	broken := slices.Clone(exact)
	for i := range 200 {
		broken[i] = -0.01
	}
	if im, _ := ReadImbalanceJoint(w, d, l, coef, broken, 1); !math.IsInf(im.Units.Hi, 1) {
		t.Errorf("10%% non-positive coefficients: interval %+v, want an unbounded upper end", im.Units)
	}
	// Without replicates it is the plain reading.
	if im, _ := ReadImbalanceJoint(w, d, l, coef, nil, 1); im.Joint || *im.Units != *plain.Units {
		t.Errorf("no replicates: %+v, want the plain %+v", im.Units, plain.Units)
	}
}

// Two imbalance matches' readings compared through their replicates: a
// planted gap (side A scoring 0.6 in one and 0.4 in the other) gives an
// interval that holds the readings' difference and not 0; the same results
// twice, resampled independently, give one that holds 0. Replicates from
// one coefficient carry the games' noise alone, and a non-positive
// coefficient replicate is unbounded.
func TestImbalanceReplicatesCompareTwoMatches(t *testing.T) {
	coef := make([]float64, 400)
	for i := range coef {
		coef[i] = 0.1
	}
	reading := func(w, d, l int) float64 {
		im, err := ReadImbalance(w, d, l, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		return im.Units.Point
	}
	a, b := ImbalanceReplicates(540, 120, 340, coef, 1), ImbalanceReplicates(340, 120, 540, coef, 2)
	d := ReplicateDifference(reading(540, 120, 340), reading(340, 120, 540), a, b)
	if d == nil || d.Contains(0) || !d.Contains(d.Point) || d.Point >= 0 {
		t.Errorf("0.4 against 0.6: %+v, want a negative difference whose interval leaves out 0", d)
	}
	same := ReplicateDifference(reading(540, 120, 340), reading(540, 120, 340), a, ImbalanceReplicates(540, 120, 340, coef, 3))
	if same == nil || !same.Contains(0) || same.Point != 0 {
		t.Errorf("the same results twice: %+v, want 0 inside the interval", same)
	}
	if r := ImbalanceReplicates(600, 0, 400, []float64{0.1, 0, -0.1}, 4); !math.IsInf(r[1], 1) || !math.IsInf(r[2], 1) || r[0] <= 0 {
		t.Errorf("replicates %v: want a finite positive one, then +Inf for the non-positive coefficients", r)
	}
	if ImbalanceReplicates(0, 0, 0, coef, 1) != nil || ReplicateDifference(0, 1, nil, a) != nil {
		t.Error("no games or no replicates should give nothing")
	}
}

// Replicates of a paired design resample the same games on both sides:
// the same scores give a difference of exactly 0 in every replicate, and
// scores that differ in a tenth of the pairs give an interval far
// narrower than resampling the two matches independently; the replicates
// scatter around the reading of the whole sample.
func TestPairedImbalanceReplicatesResampleTheSamePairs(t *testing.T) {
	coef := make([]float64, 400)
	for i := range coef {
		coef[i] = 0.1
	}
	const n = 2000
	rng := rand.New(rand.NewPCG(5, 6))
	a := make([]float64, n)
	for i := range a {
		a[i] = []float64{0, 0.5, 1}[rng.IntN(3)]
	}
	if d := ReplicateDifference(0, 0, PairedImbalanceReplicates(a, coef, 9), PairedImbalanceReplicates(slices.Clone(a), coef, 9)); d == nil || d.Lo != 0 || d.Hi != 0 {
		t.Errorf("the same games paired: %+v, want exactly [0, 0]", d)
	}
	b := slices.Clone(a)
	for i := 0; i < n; i += 10 {
		b[i] = 1 // A wins a tenth of the pairs it did not always win
	}
	units := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return math.Atanh(2*s/float64(len(xs))-1) / 0.1
	}
	ra, rb := PairedImbalanceReplicates(a, coef, 9), PairedImbalanceReplicates(b, coef, 9)
	paired := ReplicateDifference(units(a), units(b), ra, rb)
	wdl := func(xs []float64) (w, d, l int) {
		for _, x := range xs {
			switch x {
			case 1:
				w++
			case 0.5:
				d++
			default:
				l++
			}
		}
		return
	}
	wa, da, la := wdl(a)
	wb, db, lb := wdl(b)
	independent := ReplicateDifference(units(a), units(b), ImbalanceReplicates(wa, da, la, coef, 1), ImbalanceReplicates(wb, db, lb, coef, 2))
	if paired == nil || independent == nil || paired.Contains(0) || paired.Width() > independent.Width()/2 {
		t.Errorf("a tenth of the pairs changed: paired %+v (width %.3f), independent %+v (width %.3f); want the paired interval off 0 and under half as wide",
			paired, paired.Width(), independent, independent.Width())
	}
	mean := 0.0
	for _, x := range ra {
		mean += x / float64(len(ra))
	}
	if math.Abs(mean-units(a)) > 0.1*math.Abs(units(a))+0.05 {
		t.Errorf("replicates' mean %.3f, the whole sample reads %.3f", mean, units(a))
	}
	for _, r := range PairedImbalanceReplicates([]float64{1, 1, 0, 0.5}, []float64{0, -0.1}, 4) {
		if !math.IsInf(r, 0) {
			t.Errorf("replicate %v for a non-positive coefficient: want it unbounded", r)
		}
	}
	if PairedImbalanceReplicates(nil, coef, 1) != nil {
		t.Error("no games should give no replicates")
	}
}
