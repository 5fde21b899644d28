package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"bomberzero/env"
)

// synthSamples returns n samples with random terms whose results are the
// expected results of weights w at scale k (noiseless, so a fit must
// recover w).
func synthSamples(n int, w [NumTerms]float64, k float64, seed uint64) []Sample {
	rng := rand.New(rand.NewPCG(seed, 5))
	out := make([]Sample, n)
	for i := range out {
		var x [NumTerms]float64
		x[0] = rng.NormFloat64() * 3 // material: pawns' worth
		for j := 1; j < NumTerms-1; j++ {
			x[j] = rng.NormFloat64() * 2
		}
		x[NumTerms-1] = 1 // tempo
		out[i] = Sample{X: x, Result: sigmoid(k, Dot(w, x))}
	}
	return out
}

func TestTuneRecoversKnownWeights(t *testing.T) {
	cases := []struct {
		name string
		w    Weights
		k    float64
	}{
		{"default weights, K 1", DefaultWeights(), 1},
		{"other weights, K 1.6", Weights{Material: 140, Centre: 9, PawnAdvance: 25, MobilityTenths: 45, KingShelter: 3, KingTropism: 20, KingCentre: 2, Scepter: 30, Doubled: 5, Isolated: 25, Passed: 40, Tempo: 20}, 1.6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			samples := synthSamples(4000, c.w.Vector(), c.k, 9)
			// Start from other weights: all terms at 1, material at 100.
			var start [NumTerms]float64
			for i := range start {
				start[i] = 1
			}
			start[0] = 100
			k := FitScale(samples, c.w.Vector())
			if math.Abs(k-c.k) > 0.01*c.k {
				t.Errorf("scale: got %.4f, want %.4f", k, c.k)
			}
			x, loss := FitWeights(samples, start, c.k, 200, 0)
			if got := WeightsOf(x); got != c.w {
				t.Errorf("weights:\n got %+v\nwant %+v", got, c.w)
			}
			if loss > 1e-8 {
				t.Errorf("loss %g at the fit, want about 0 on noiseless data", loss)
			}
		})
	}
}

func TestTuneWeightsLowersTheLoss(t *testing.T) {
	truth := DefaultWeights()
	truth.Passed, truth.Centre = 60, 1
	rng := rand.New(rand.NewPCG(4, 4))
	samples := synthSamples(3000, truth.Vector(), 1.2, 3)
	for i := range samples { // draw results: noisy labels
		if rng.Float64() < samples[i].Result {
			samples[i].Result = 1
		} else {
			samples[i].Result = 0
		}
	}
	w, rep, err := TuneWeights(samples, DefaultWeights(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.LossAfter >= rep.LossBefore {
		t.Errorf("loss %.5f after, %.5f before: want lower", rep.LossAfter, rep.LossBefore)
	}
	if w.Passed < 40 {
		t.Errorf("Passed fitted at %d on data made with 60", w.Passed)
	}
	if _, _, err := TuneWeights(nil, DefaultWeights(), 0); err == nil {
		t.Errorf("no samples: no error")
	}
}

func TestSelfPlaySamplesAreDeterministic(t *testing.T) {
	v, table := mustVariant(t, "fbgc")
	cfg := DefaultTuneConfig()
	cfg.Games, cfg.Nodes, cfg.MaxPlies = 2, 200, 400
	var a, b []Sample
	var sa, sb TuneStats
	var err error
	cfg.Workers = 1
	if a, sa, err = SelfPlaySamples(context.Background(), v, table, cfg, nil); err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 2
	if b, sb, err = SelfPlaySamples(context.Background(), v, table, cfg, nil); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) || sa != sb {
		t.Errorf("one worker: %d samples %+v; two: %d samples %+v", len(a), sa, len(b), sb)
	}
	if sa.Games != 2 || sa.Quiet != len(a) || sa.Quiet > sa.Positions {
		t.Errorf("stats %+v for %d samples", sa, len(a))
	}
	for _, s := range a {
		if s.Result != 0 && s.Result != 0.5 && s.Result != 1 {
			t.Fatalf("result %v", s.Result)
		}
	}
	cfg.Games = 0
	if _, _, err := SelfPlaySamples(context.Background(), v, table, cfg, nil); err == nil || !strings.Contains(err.Error(), "games 0") {
		t.Errorf("zero games: %v", err)
	}
}

func TestWeightsFileRoundTripsAndNamesTheBadField(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.json")
	w := DefaultWeights()
	w.Passed = 33
	if err := WriteWeightsFile(path, WeightsFile{Variant: "fbgc", Weights: w, Fit: &TuneReport{K: 1.1}}); err != nil {
		t.Fatal(err)
	}
	f, err := ReadWeightsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Weights != w || f.Variant != "fbgc" || f.Version != WeightsFileVersion || f.Fit == nil || f.Fit.K != 1.1 {
		t.Errorf("read back %+v", f)
	}
	good, _ := os.ReadFile(path)
	cases := []struct{ name, text, want string }{
		{"missing weight", strings.Replace(string(good), `"Tempo": 10`, `"Tempox": 10`, 1), "weights.Tempo missing"},
		{"unknown weight", strings.Replace(string(good), `"Tempo": 10`, `"Tempo": 10, "Extra": 1`, 1), "unknown weights.Extra"},
		{"fraction", strings.Replace(string(good), `"Tempo": 10`, `"Tempo": 1.5`, 1), "weights.Tempo is 1.5"},
		{"version", strings.Replace(string(good), `"version": 1`, `"version": 9`, 1), "version 9"},
		{"no version", strings.Replace(string(good), `"version": 1,`, ``, 1), `no "version"`},
		{"material", strings.Replace(string(good), `"Material": 100`, `"Material": 5000`, 1), "weights.Material is 5000"},
		{"unknown field", strings.Replace(string(good), `"version": 1`, `"version": 1, "colour": 2`, 1), "colour"},
		{"not json", "{", "unexpected EOF"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadWeightsFile(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Base(p)) {
			t.Errorf("%s: error %v, want one naming the file and %q", c.name, err, c.want)
		}
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, make([]byte, MaxWeightsFileBytes+1), 0o644)
	if _, err := ReadWeightsFile(big); err == nil {
		t.Errorf("a file over the size limit read")
	}
}

func TestSpecWeightsKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.json")
	w := DefaultWeights()
	w.Tempo = 3
	if err := WriteWeightsFile(path, WeightsFile{Variant: "fbgc", Weights: w}); err != nil {
		t.Fatal(err)
	}
	s, err := ParseSpec("nodes=100:weights=" + path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Weights == nil || *s.Weights != w || s.Limits.Nodes != 100 {
		t.Errorf("spec %+v", s)
	}
	v, table := mustVariant(t, "fbgc")
	ev, err := s.Evaluator(v, table)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := ev.(*Classical); !ok || c.Weights() != w {
		t.Errorf("evaluator %v, want the classical one with the file's weights", ev)
	}
	if ev, err := (Spec{}).Evaluator(v, table); ev != nil || err != nil {
		t.Errorf("no weights: %v, %v; want nil, nil", ev, err)
	}
	chess, ctable := mustVariant(t, "chess")
	if _, err := s.Evaluator(chess, ctable); err == nil || !strings.Contains(err.Error(), "fbgc") {
		t.Errorf("fbgc weights for chess: %v", err)
	}
	if _, err := ParseSpec("weights=" + filepath.Join(dir, "none.json")); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("missing file: %v", err)
	}
}

// mustVariant loads a built-in variant and its test piece table.
func mustVariant(t *testing.T, name string) (*env.Variant, []int32) {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return v, testTable(v)
}

func TestRidgeHoldsTheWeightsNearTheStart(t *testing.T) {
	truth := DefaultWeights()
	truth.Passed = 80
	samples := synthSamples(2000, truth.Vector(), 1, 6)
	free, _ := FitWeights(samples, DefaultWeights().Vector(), 1, 200, 0)
	held, _ := FitWeights(samples, DefaultWeights().Vector(), 1, 200, 100)
	d := DefaultWeights().Vector()
	if math.Abs(free[10]-80) > 0.5 {
		t.Errorf("no ridge: Passed %.2f, want 80", free[10])
	}
	if !(math.Abs(held[10]-d[10]) < math.Abs(free[10]-d[10])/2) {
		t.Errorf("ridge 100: Passed %.2f, want within half the way from %v to %.2f", held[10], d[10], free[10])
	}
}
