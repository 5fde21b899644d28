package compare

import (
	"context"
	"math"
	"strings"
	"testing"

	"bomberzero/values"
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
