package compare

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/match"
	"bomberzero/mcts"
	"bomberzero/nn"
)

// saveNet writes an untrained test network for variant to dir.
func saveNet(t *testing.T, dir, variant string, seed uint64) string {
	t.Helper()
	s := agent.NewRules(load(t, variant), 0).Shape()
	net, err := nn.New(nn.TestConfig(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width)), seed)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := nn.NewTrainer(net, nn.DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, variant+".safetensors")
	if err := tr.Save(path, variant); err != nil {
		t.Fatal(err)
	}
	return path
}

// Each variant's model meets the other's on both rule sets, although a
// checkpoint player is otherwise refused outside its own variant.
func TestCrossPlayMeetsOnBothRuleSets(t *testing.T) {
	dir := t.TempDir()
	srcs := []Source{{Variant: "fbgc", Kind: "run", Model: saveNet(t, dir, "fbgc", 1)},
		{Variant: "fbgc-superpower", Kind: "run", Model: saveNet(t, dir, "fbgc-superpower", 2)}}
	if _, err := match.SearchLoader(mcts.DefaultConfig(), 2, "")(load(t, "fbgc"), agent.Spec{Path: srcs[1].Model}); err == nil {
		t.Fatal("the plain loader took a superpower model for fbgc; cross-play's own loader is then untested")
	}
	cross, note, err := crossPlay(context.Background(), srcs, Config{Games: 2, Sims: 4, MaxPlies: 12, Search: mcts.DefaultConfig(), Seed: 1, Workers: 1})
	if err != nil || note != "" {
		t.Fatalf("cross-play: %v %q", err, note)
	}
	if len(cross) != 2 || cross[0].Rules != "fbgc" || cross[1].Rules != "fbgc-superpower" {
		t.Fatalf("cross-play matches %+v, want one on each rule set", cross)
	}
	for _, c := range cross {
		if c.A != "fbgc" || c.B != "fbgc-superpower" || c.Result.Total.Games() != 2 || !strings.HasPrefix(c.Result.A, "fbgc(") {
			t.Errorf("match on %s: %+v", c.Rules, c)
		}
	}
}

func TestCrossPlaySaysWhyNot(t *testing.T) {
	cross, note, err := crossPlay(context.Background(), []Source{{Variant: "fbgc", Kind: "baseline", Player: "alphabeta:2"},
		{Variant: "chess", Kind: "baseline", Player: "alphabeta:2"}}, Config{Games: 2})
	if err != nil || cross != nil || !strings.Contains(note, "same fixed baseline (alphabeta:2)") {
		t.Errorf("baselines: %v, %q, %v", cross, note, err)
	}
	dir := t.TempDir()
	cross, note, err = crossPlay(context.Background(), []Source{{Variant: "fbgc", Kind: "run", Model: saveNet(t, dir, "fbgc", 1)},
		{Variant: "chess", Kind: "run", Model: saveNet(t, dir, "chess", 1)}}, Config{Games: 2, Sims: 2, MaxPlies: 4, Search: mcts.DefaultConfig()})
	if err != nil || len(cross) != 0 || !strings.Contains(note, "shape") {
		t.Errorf("a 10x10 model on 8x8 chess: %v, %q, %v; want a note about the network shape", cross, note, err)
	}
}
