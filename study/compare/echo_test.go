package compare

import (
	"context"
	"math"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/study/values"
)

func TestEchoRefitsThePiecePerTableValueAndComparesTheShiftWithItsHalfWidth(t *testing.T) {
	cfg := EchoConfig{Variant: "chess", Player: "alphabeta:1", Piece: 'N', Values: []float64{1, 9}, Games: 60, MaxPlies: 150,
		Seed: 5, Workers: 2, Fit: values.Config{Sample: values.DefaultSampleConfig(), Methods: []values.Method{values.Tanh}, Seed: 5, Bootstrap: 30}}
	res, err := Echo(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 || res.Runs[0].TableValue != 1 || res.Runs[1].TableValue != 9 {
		t.Fatalf("runs %+v, want one per table value", res.Runs)
	}
	for _, r := range res.Runs {
		if r.Games+r.Capped != 60 || r.Decisive > r.Games {
			t.Errorf("table %g: %d games fitted, %d capped, %d decisive", r.TableValue, r.Games, r.Capped, r.Decisive)
		}
	}
	// The player's table changes its games: the two sets differ.
	if res.Runs[0].Decisive == res.Runs[1].Decisive && res.Runs[0].Fitted[values.Tanh] != nil && res.Runs[1].Fitted[values.Tanh] != nil &&
		res.Runs[0].Fitted[values.Tanh].Point == res.Runs[1].Fitted[values.Tanh].Point {
		t.Errorf("the two table values gave the same games and fit: %+v", res.Runs)
	}
	v, ok := res.Methods[values.Tanh]
	if !ok {
		t.Fatalf("no tanh verdict: %+v", res)
	}
	a, b := res.Runs[0].Fitted[values.Tanh], res.Runs[1].Fitted[values.Tanh]
	if math.Abs(v.Shift-(b.Point-a.Point)) > 1e-12 || math.Abs(v.Echo-v.Shift/8) > 1e-12 ||
		v.HalfWidth != math.Max(a.Width(), b.Width())/2 || v.Passed != (math.Abs(v.Shift) < v.HalfWidth) {
		t.Errorf("verdict %+v inconsistent with the fits %+v and %+v", v, a, b)
	}
	var text strings.Builder
	if err := res.WriteText(&text); err != nil || !strings.Contains(text.String(), "tanh fit: moved") {
		t.Errorf("text (%v):\n%s", err, text.String())
	}
	for _, bad := range []EchoConfig{
		{Variant: "chess", Player: "random", Piece: 'N', Values: []float64{1, 9}, Games: 2, MaxPlies: 10},
		{Variant: "chess", Player: "greedy", Piece: 'Z', Values: []float64{1, 9}, Games: 2, MaxPlies: 10},
		{Variant: "chess", Player: "greedy", Piece: 'N', Values: []float64{1}, Games: 2, MaxPlies: 10},
	} {
		if _, err := Echo(context.Background(), bad); err == nil {
			t.Errorf("Echo(%+v) succeeded, want an error", bad)
		}
	}
}

func TestEchoRoundsPlayEachLaterRoundWithThePreviousRoundsFittedValues(t *testing.T) {
	cfg := EchoConfig{Variant: "chess", Player: "alphabeta:1", Piece: 'N', Values: []float64{1, 9}, Games: 40, MaxPlies: 150,
		Seed: 3, Workers: 2, Rounds: 2,
		Fit: values.Config{Sample: values.DefaultSampleConfig(), Methods: []values.Method{values.Logistic, values.Tanh}, Seed: 3, Bootstrap: 20}}
	res, err := Echo(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, run := range res.Runs {
		if len(run.Rounds) != 2 {
			t.Fatalf("start %g: %d rounds recorded, want 2", run.TableValue, len(run.Rounds))
		}
		first, err := agent.ParseValues(run.Rounds[0].Table)
		if err != nil || first['N'] != run.TableValue {
			t.Errorf("start %g: round 1 played with %q (%v), want N=%g", run.TableValue, run.Rounds[0].Table, err, run.TableValue)
		}
		// Round 2's table is round 1's logistic values, clamped to a table's range.
		second, err := agent.ParseValues(run.Rounds[1].Table)
		if err != nil {
			t.Fatal(err)
		}
		if f := run.Rounds[0].Fitted; f != nil {
			want := math.Round(min(max(f.Point, minTableValue), maxTableValue)*100) / 100
			checked++
			if math.Abs(second['N']-want) > 1e-9 {
				t.Errorf("start %g: round 2 played N=%g, want round 1's fitted %g", run.TableValue, second['N'], want)
			}
		}
		// The run's own fits are the last round's.
		if last := run.Rounds[1].Fitted; last != run.Fitted[values.Logistic] {
			t.Errorf("start %g: the run's logistic fit %+v is not its last round's %+v", run.TableValue, run.Fitted[values.Logistic], last)
		}
	}
	if checked == 0 {
		t.Fatal("no start's first round valued N: the test checked no table")
	}
	bad := cfg
	bad.FixedPoint = values.Method("value")
	if _, err := Echo(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "fixed-point fit") {
		t.Errorf("a fixed-point fit outside the fitted methods: %v, want an error naming it", err)
	}
}

func TestNextTableTakesTheFittedPointsInTheTablesPawnsAndClampsThem(t *testing.T) {
	est := func(x float64) *values.Estimate { return &values.Estimate{Point: x, Lo: x - 1, Hi: x + 1} }
	for _, tc := range []struct {
		name   string
		table  agent.Values
		fitted map[string]*values.Estimate
		unit   string
		want   agent.Values
	}{
		{"points replace the table", agent.Values{'N': 3, 'B': 4}, map[string]*values.Estimate{"N": est(2.5), "B": est(3.504)}, "",
			agent.Values{'N': 2.5, 'B': 3.5}},
		{"the unit and unvalued pieces keep theirs", agent.Values{'P': 1, 'N': 3, 'Q': 9}, map[string]*values.Estimate{"P": est(1), "N": est(2), "Q": nil}, "P",
			agent.Values{'P': 1, 'N': 2, 'Q': 9}},
		{"a value at or below zero is clamped", agent.Values{'N': 3}, map[string]*values.Estimate{"N": est(-2)}, "",
			agent.Values{'N': minTableValue}},
		{"a non-finite point is ignored", agent.Values{'N': 3}, map[string]*values.Estimate{"N": est(math.Inf(1))}, "",
			agent.Values{'N': 3}},
		{"points in units of another unit piece", agent.Values{'J': 2, 'N': 3}, map[string]*values.Estimate{"N": est(4)}, "J",
			agent.Values{'J': 2, 'N': 8}},
	} {
		got := nextTable(tc.table, tc.fitted, tc.unit)
		if got.String() != tc.want.String() {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestEchoAcceptsThePlayersThatPlayByTheTable(t *testing.T) {
	for _, spec := range []string{"greedy", "greedy:N=2", "alphabeta:2", "engine", "engine:nodes=1000", "engine:depth=3:hash=8"} {
		if err := checkEchoPlayer(spec); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
	for spec, want := range map[string]string{
		"random":            "want greedy, alphabeta:D or engine",
		"uci:/bin/sf":       "want greedy, alphabeta:D or engine",
		"material:100":      "want greedy, alphabeta:D or engine",
		"engine:nodes=zero": `nodes "zero"`,
	} {
		if err := checkEchoPlayer(spec); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), spec) {
			t.Errorf("%s: error %v, want one naming the spec and %q", spec, err, want)
		}
	}
}

func TestEchoVerdictComparesTheShiftWithTheTablesChange(t *testing.T) {
	a := &values.Estimate{Point: 3, Lo: 2.5, Hi: 3.5}
	b := &values.Estimate{Point: 3.4, Lo: 2.8, Hi: 4.2}
	v := echoVerdict(a, b, 2)
	if math.Abs(v.Shift-0.4) > 1e-12 || math.Abs(v.HalfWidth-0.7) > 1e-12 || v.Change != 2 || math.Abs(v.Echo-0.2) > 1e-12 || !v.Passed {
		t.Errorf("verdict %+v, want shift 0.4, half-width 0.7, change 2, echo 0.2, passed", v)
	}
	if v := echoVerdict(a, b, 0); v.Echo != 0 || v.Change != 0 {
		t.Errorf("unchanged piece: %+v, want echo 0 (not NaN: JSON refuses it)", v)
	}
}
