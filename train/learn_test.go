package train

import (
	"context"
	"testing"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/mcts"
	"bomberzero/selfplay"
	"bomberzero/setup"
	"bomberzero/stats"
)

// gardnerConfig trains Gardner's 5x5 minichess (testdata/gardner.toml) with
// a one-block network: generation 0 is played by the material search, the
// later ones by the network.
func gardnerConfig(t *testing.T) setup.Config {
	t.Helper()
	c := tinyConfig(t)
	c.Variant = "testdata/gardner.toml"
	c.Net = setup.NetConfig{Blocks: 1, Filters: 16, PolicyFilters: 4, ValueFilters: 2, ValueHidden: 16}
	search := mcts.DefaultConfig()
	search.Sims, search.CheapSims, search.CheapShare, search.TempPlies = 24, 0, 0, 6
	c.SelfPlay = setup.SelfPlayConfig{FirstGames: 100, FirstModel: "material", Settings: selfplay.Settings{
		Games: 40, Workers: 2, Slots: 10, MaxPlies: 60, ResignThreshold: -0.9, Search: search}}
	c.Train = setup.TrainConfig{Batch: 64, Window: 20000, SampleRatio: 4, MaxSteps: 60, MinPositions: 100, CheckpointSteps: 20,
		Optimizer: "sgd", LearningRate: 0.02, Momentum: 0.9, L2: 1e-4, ValueMix: 0.5, LRDecayFinal: 1}
	c.Eval = setup.EvalConfig{Every: 1, Games: 0, Sims: 16, Previous: true, Baselines: []string{"random"}, MaxPlies: 60}
	return c
}

// TestTrainedModelBeatsRandomAndItsUntrainedSelf trains Gardner minichess
// for a few generations (about a minute on two cores) and plays the trained
// network, searching 16 playouts a move, against the random mover: it must
// win clearly (the lower end of the 95% interval of its score above 0.6)
// and beat the untrained network with the same search head to head (the
// interval above 0.5; against random both win most games, so comparing
// their scores there was a coin toss). It runs in full under -short too.
func TestTrainedModelBeatsRandomAndItsUntrainedSelf(t *testing.T) {
	skipUnderRace(t)
	cfg := gardnerConfig(t)
	const gens = 3 // two are not always enough to beat the untrained network clearly
	dir := t.TempDir()
	if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: gens}); err != nil {
		t.Fatal(err)
	}
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		t.Fatal(err)
	}
	random, err := match.Parse("random", v, match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const games, sims = 40, 16
	score := func(gen int) stats.Estimate {
		m, err := match.SearchLoader(cfg.SelfPlay.Search, sims, "")(v, agent.Spec{Path: GenCheckpoint(dir, gen)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := match.Run(context.Background(), match.Config{A: m, B: random, Games: games, Variant: v, MaxPlies: 60, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s vs random: +%d =%d -%d, score %.3f [%.3f, %.3f]", genName(gen),
			res.Total.Wins, res.Total.Draws, res.Total.Losses, res.Est.Score, res.Est.ScoreLow, res.Est.ScoreHigh)
		return res.Est
	}
	if trained := score(gens); trained.ScoreLow <= 0.6 {
		t.Errorf("trained model scores %.3f [%.3f, %.3f] against random: want the interval above 0.6", trained.Score, trained.ScoreLow, trained.ScoreHigh)
	}
	// Against random both networks win most games, so their scores there
	// differ by a few games; head to head the gap is the test's signal.
	load := match.SearchLoader(cfg.SelfPlay.Search, sims, "")
	trainedNet, err := load(v, agent.Spec{Path: GenCheckpoint(dir, gens)})
	if err != nil {
		t.Fatal(err)
	}
	untrainedNet, err := load(v, agent.Spec{Path: GenCheckpoint(dir, 0)})
	if err != nil {
		t.Fatal(err)
	}
	const headToHead = 100 // the interval's half-width is about 0.08
	res, err := match.Run(context.Background(), match.Config{A: trainedNet, B: untrainedNet, Games: headToHead, Variant: v, MaxPlies: 60, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s vs %s: +%d =%d -%d, score %.3f [%.3f, %.3f]", genName(gens), genName(0),
		res.Total.Wins, res.Total.Draws, res.Total.Losses, res.Est.Score, res.Est.ScoreLow, res.Est.ScoreHigh)
	if res.Est.ScoreLow <= 0.5 {
		t.Errorf("trained model scores %.3f [%.3f, %.3f] against the untrained one: want the interval above 0.5", res.Est.Score, res.Est.ScoreLow, res.Est.ScoreHigh)
	}
}
