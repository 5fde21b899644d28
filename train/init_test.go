package train

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/nn"
	"bomberzero/setup"
)

// saveStart writes a network of cfg's shape for variant, drawn from seed,
// as a checkpoint a run can start from.
func saveStart(t *testing.T, cfg setup.Config, variant string, seed uint64) string {
	t.Helper()
	v, err := env.LoadVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	net, err := nn.New(netConfig(agent.NewRules(v, cfg.SelfPlay.MaxPlies), cfg.Net), seed)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := nn.NewTrainer(net, nn.DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), variant+".safetensors")
	if err := tr.Save(path, variant); err != nil {
		t.Fatal(err)
	}
	return path
}

// sameParams says whether the tensors checkpoints a and b both hold (the
// network's parameters, and the optimizer state of the same optimizer) are
// equal.
func sameParams(t *testing.T, a, b string) bool {
	t.Helper()
	ca, err := nn.ReadCheckpoint(a)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := nn.ReadCheckpoint(b)
	if err != nil {
		t.Fatal(err)
	}
	shared := 0
	for name, ta := range ca.Tensors {
		if tb, ok := cb.Tensors[name]; ok {
			if !slices.Equal(ta.Data, tb.Data) {
				return false
			}
			shared++
		}
	}
	return shared > 0
}

// A run whose net.init names a checkpoint starts from its weights, and that
// network, not selfplay.first_model, plays generation 0's selfplay.games.
func TestRunStartsFromTheWeightsNetInitNames(t *testing.T) {
	cfg := tinyConfig(t)
	start := saveStart(t, cfg, "fbgc", 12345)

	random := t.TempDir()
	if _, err := Run(context.Background(), Options{Dir: random, Config: cfg, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	if sameParams(t, start, GenCheckpoint(random, 0)) {
		t.Fatal("a run without net.init started from the start checkpoint's weights; the test cannot tell")
	}
	if recs := readMetrics(t, random); recs[0].SelfPlay.Games != cfg.SelfPlay.FirstGames {
		t.Fatalf("without net.init generation 0 played %d games, want first_games %d", recs[0].SelfPlay.Games, cfg.SelfPlay.FirstGames)
	}

	cfg.Net.Init = start
	dir := t.TempDir()
	if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	if !sameParams(t, start, GenCheckpoint(dir, 0)) {
		t.Error("gen-0000 of a run with net.init does not hold the start checkpoint's weights")
	}
	recs := readMetrics(t, dir)
	if len(recs) != 1 || recs[0].SelfPlay.Games != cfg.SelfPlay.Games {
		t.Errorf("generation 0 of a run with net.init: %+v, want selfplay.games (%d) games of the network", recs, cfg.SelfPlay.Games)
	}
	if recs[0].Train == nil || recs[0].Train.Steps <= 0 || sameParams(t, start, GenCheckpoint(dir, 1)) {
		t.Error("generation 0 did not train the start network")
	}
}

// A start checkpoint that cannot serve is refused with the key and what
// did not fit, and the directory can then start a run with a good one.
func TestNetInitThatDoesNotFitIsRefused(t *testing.T) {
	cfg := tinyConfig(t)
	bigger := cfg
	bigger.Net.Filters = 16
	for _, c := range []struct {
		name, init, want string
	}{
		{"missing", filepath.Join(t.TempDir(), "none.safetensors"), "none.safetensors"},
		{"other shape", saveStart(t, bigger, "fbgc", 1), "shape"},
		{"other variant", saveStart(t, cfg, "fbgc-superpower", 1), "fbgc-superpower"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := cfg
			bad.Net.Init = c.init
			dir := t.TempDir()
			_, err := Run(context.Background(), Options{Dir: dir, Config: bad, Generations: 1})
			if err == nil || !strings.Contains(err.Error(), "net.init") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one naming net.init and %q", err, c.want)
			}
			good := cfg
			good.Net.Init = saveStart(t, cfg, "fbgc", 2)
			if _, err := Run(context.Background(), Options{Dir: dir, Config: good, Generations: 1}); err != nil {
				t.Fatalf("a good net.init after a refused one: %v", err)
			}
		})
	}
}

// net.init is read when a run is created: a resume cannot change it.
func TestNetInitCannotChangeOnResume(t *testing.T) {
	cfg := tinyConfig(t)
	dir := t.TempDir()
	if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Options{Dir: dir, Generations: 2, Sets: []string{"net.init=" + saveStart(t, cfg, "fbgc", 3)}})
	if err == nil || !strings.Contains(err.Error(), "net.init") || !strings.Contains(err.Error(), "new run") {
		t.Errorf("error %v, want one saying net.init starts a new run", err)
	}
}
