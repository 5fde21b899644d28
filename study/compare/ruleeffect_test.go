package compare

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"bomberzero/mcts"
	"bomberzero/study/values"
)

// movesOf returns every game's moves of ds, one string a game.
func movesOf(ds *values.Dataset) []string {
	var out []string
	for _, g := range ds.Games {
		var ms []string
		for _, p := range g.Positions {
			ms = append(ms, p.Played)
		}
		out = append(out, strings.Join(ms, " "))
	}
	return out
}

// Each model plays itself on both rule sets: on its own rules the games of
// the main comparison are reused, on the other's it is the same network
// (not the other variant's) from the same seed and openings.
func TestRuleEffectsHoldTheNetworkFixed(t *testing.T) {
	dir := t.TempDir()
	models := []string{saveNet(t, dir, "fbgc", 1), saveNet(t, dir, "fbgc-superpower", 2)}
	cfg := Config{Variants: []string{"fbgc", "fbgc-superpower"}, Models: models, Games: 2, Sims: 2, MaxPlies: 10, Search: mcts.DefaultConfig(),
		Seed: 5, Bootstrap: 20, NoValues: true, Anchors: []string{}, Book: 3, Workers: 1, RuleEffects: true}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RuleEffects) != 2 || res.RuleEffectsNote != "" {
		t.Fatalf("%d rule effects, note %q; want one for each model", len(res.RuleEffects), res.RuleEffectsNote)
	}
	if err := cfg.makeBook(); err != nil {
		t.Fatal(err)
	}
	for i, e := range res.RuleEffects {
		if e.Model != models[i] || e.TrainedOn != cfg.Variants[i] || e.Games != 2 || e.Sims != 2 {
			t.Errorf("rule effect %d: %+v", i, e)
		}
		vs := e.Comparison.Variants
		if len(vs) != 2 || vs[0].Variant != "fbgc" || vs[1].Variant != "fbgc-superpower" || vs[0].Games != 2 || vs[1].Games != 2 {
			t.Fatalf("model %d: compared %+v, want 2 games on each rule set in --variants order", i, vs)
		}
		home, _, err := fromModel(context.Background(), cfg.Variants[i], i, cfg) // the main comparison's games, played again
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(movesOf(e.games[i]), movesOf(home)) {
			t.Errorf("model %d on its own rules played other games than the main comparison's", i)
		}
		if !reflect.DeepEqual(vs[i], res.Comparison.Variants[i]) {
			t.Errorf("model %d on its own rules: %+v, want the main comparison's games %+v", i, vs[i], res.Comparison.Variants[i])
		}
	}

	// The network effects are the same games regrouped: on rules j, model
	// i's games are its rule effect's games on j.
	if len(res.NetworkEffects) != 2 {
		t.Fatalf("%d network effects, want one a rule set", len(res.NetworkEffects))
	}
	for j, n := range res.NetworkEffects {
		if n.Rules != cfg.Variants[j] {
			t.Errorf("network effect %d on %s, want %s", j, n.Rules, cfg.Variants[j])
		}
		for i, got := range n.Comparison.Variants {
			want := *res.RuleEffects[i].Comparison.Variants[j]
			want.Variant = cfg.Variants[i] + " model"
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("on %s, model %d: %+v, want %+v", n.Rules, i, *got, want)
			}
		}
	}
	if len(res.Decomposition) != 3 {
		t.Errorf("%d figures decomposed, want the 3 primary endpoints", len(res.Decomposition))
	}
	out := t.TempDir()
	if err := Write(out, res); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(out, values.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## The rules with the network held fixed", "| fbgc.safetensors (fbgc) | 2 | 2 | White's score | fbgc | fbgc-superpower |",
		"| fbgc-superpower.safetensors (fbgc-superpower) | 2 | 2 | mean length",
		"the rules held fixed and the network changed", "| fbgc-superpower | White's score | fbgc model | fbgc-superpower model |",
		"| White's score | on fbgc | on fbgc-superpower |", "- the rules' effect, fbgc-superpower − fbgc, mean over the models:",
		"- the networks' effect, fbgc-superpower model − fbgc model, mean over the rule sets:"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}

	// The fbgc model's games on Super Power rules, played again: by the
	// same network they repeat move for move; by the other network not.
	own, err := modelOnRules(context.Background(), res.Sources[0], "fbgc-superpower", cfg)
	if err != nil {
		t.Fatal(err)
	}
	other := res.Sources[0]
	other.Model = models[1]
	theirs, err := modelOnRules(context.Background(), other, "fbgc-superpower", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(movesOf(own), movesOf(theirs)) {
		t.Fatalf("the two networks played the same moves %v: the test cannot tell which one played", movesOf(own))
	}
	if got := movesOf(res.RuleEffects[0].games[1]); !reflect.DeepEqual(got, movesOf(own)) {
		t.Errorf("the fbgc model's games on Super Power rules:\n%q\nwant the fbgc network's from its seed:\n%q", got, movesOf(own))
	}
}

func TestRuleEffectsSayWhyNot(t *testing.T) {
	if res, note, err := ruleEffects(context.Background(), []Source{{Variant: "fbgc", Kind: "baseline", Player: "alphabeta:2"},
		{Variant: "fbgc-superpower", Kind: "baseline", Player: "alphabeta:2"}}, nil, Config{RuleEffects: true}); err != nil || res != nil || !strings.Contains(note, "without a trained model") {
		t.Errorf("baselines: %v, %q, %v", res, note, err)
	}
	dir := t.TempDir()
	res, note, err := ruleEffects(context.Background(), []Source{{Variant: "fbgc", Kind: "run", Model: saveNet(t, dir, "fbgc", 1)},
		{Variant: "chess", Kind: "run", Model: saveNet(t, dir, "chess", 1)}}, nil, Config{RuleEffects: true, Games: 2, Sims: 2, MaxPlies: 4, Search: mcts.DefaultConfig()})
	if err != nil || len(res) != 0 || !strings.Contains(note, "shape") {
		t.Errorf("a 10x10 model on 8x8 chess: %v, %q, %v; want a note about the network shape", res, note, err)
	}
}
