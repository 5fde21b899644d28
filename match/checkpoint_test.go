package match

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/mcts"
	"bomberzero/nn"
)

func TestCheckpointPlayerPlaysLegalGamesAndShowsItsVisits(t *testing.T) {
	v := mustVariant(t, "fbgc")
	r := agent.NewRules(v, 0)
	s := r.Shape()
	net, err := nn.New(nn.TestConfig(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width)), 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := nn.NewTrainer(net, nn.DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "gen-0001.safetensors")
	if err := tr.Save(path, "fbgc"); err != nil {
		t.Fatal(err)
	}
	mk, err := Parse(path+":16", v, Options{Models: SearchLoader(mcts.DefaultConfig(), 100, "")})
	if err != nil {
		t.Fatal(err)
	}
	rnd, _ := Parse("random", v, Options{})
	res, err := Run(context.Background(), Config{A: mk, B: rnd, Games: 2, Variant: v, MaxPlies: 16, Seed: 1, KeepGames: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total.Games() != 2 || res.A != path+":16" {
		t.Fatalf("result %+v", res)
	}
	p, err := mk.New(3)
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.(Analyzer).Analyze(v.NewPosition(), 5)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i, x := range c {
		total += x.Visits
		if i > 0 && x.Visits > c[i-1].Visits {
			t.Error("candidates not sorted by visits")
		}
	}
	if len(c) != 5 || total < 1 || total > 16 || !strings.Contains(c[0].Note, "visits") {
		t.Fatalf("analysis %+v", c)
	}
	if _, err := Parse(filepath.Join(t.TempDir(), "missing.safetensors"), v, Options{Models: SearchLoader(mcts.DefaultConfig(), 100, "")}); err == nil || !strings.Contains(err.Error(), "no such checkpoint") {
		t.Fatalf("missing checkpoint: %v", err)
	}
}

func TestSearchPlayerFindsMateInOneAndWinsTheBomberCapture(t *testing.T) {
	v := mustVariant(t, "fbgc")
	r := agent.NewRules(v, 0)
	model, err := agent.LoadModel(agent.Material, r)
	if err != nil {
		t.Fatal(err)
	}
	cfg := agent.MatchSearch(mcts.DefaultConfig(), 200)
	cfg.TempPlies = 0 // always the most visited move
	mk, err := NewSearchMaker("mcts-material:200", r, model, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ fen, move string }{{mateIn1, "e1e10"}, {bomberWinsRook, "d4d8"}} {
		pos := mustPosition(t, v, c.fen)
		for seed := uint64(0); seed < 3; seed++ {
			p, err := mk.New(seed)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.Choose(pos)
			if err != nil {
				t.Fatal(err)
			}
			if got := pos.FormatMove(m); got != c.move {
				t.Errorf("%s seed %d: chose %s, want %s", c.fen, seed, got, c.move)
			}
		}
	}
}

func TestNetworkFreeSearchPlayersSearchTheLoadersPlayoutsUnlessTheSpecGivesThem(t *testing.T) {
	v := mustVariant(t, "fbgc")
	opt := Options{Models: SearchLoader(mcts.DefaultConfig(), 7, "")}
	for _, c := range []struct {
		spec, name string
		sims       int
	}{
		{"material", "material:7", 7},
		{"material:5", "material:5", 5},
		{"uniform", "uniform:7", 7},
		{"rollout:3", "rollout:3", 3},
	} {
		mk, err := Parse(c.spec, v, opt)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		p, err := mk.New(1)
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := p.(*Search).search(v.NewPosition())
		if err != nil {
			t.Fatal(err)
		}
		if p.Name() != c.name || mk.Spec != c.name || r.Sims != c.sims {
			t.Errorf("%s: name %q, spec %q, %d playouts; want %q and %d playouts", c.spec, p.Name(), mk.Spec, r.Sims, c.name, c.sims)
		}
	}
	if _, err := Parse("material", v, Options{}); err == nil || !strings.Contains(err.Error(), "no model loader") {
		t.Errorf("material without a loader: error %v", err)
	}
}
