package agent

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/eval"
	"bomberzero/mcts"
	"bomberzero/nn"
)

func TestBadModelsGetClearErrors(t *testing.T) {
	r := mustRules(t, "fbgc", 10)
	dir := t.TempDir()
	if _, err := LoadModel(filepath.Join(dir, "missing.safetensors"), r); err == nil || !strings.Contains(err.Error(), "no such checkpoint") {
		t.Fatalf("missing model: %v", err)
	}
	garbage := filepath.Join(dir, "garbage.safetensors")
	os.WriteFile(garbage, []byte("not a checkpoint"), 0o644)
	if _, err := LoadModel(garbage, r); err == nil || !strings.Contains(err.Error(), garbage) {
		t.Fatalf("garbage model: %v", err)
	}
	save := func(name, variant string, channels int) string {
		s := r.Shape()
		net, err := nn.New(nn.TestConfig(channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width)), 1)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := nn.NewTrainer(net, nn.DefaultTrainConfig())
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := tr.Save(path, variant); err != nil {
			t.Fatal(err)
		}
		return path
	}
	wrongShape := save("shape.safetensors", "fbgc", r.Shape().Channels+1)
	if _, err := LoadModel(wrongShape, r); err == nil || !strings.Contains(err.Error(), "shape") {
		t.Fatalf("wrong shape: %v", err)
	}
	wrongVariant := save("variant.safetensors", "chess", r.Shape().Channels)
	if _, err := LoadModel(wrongVariant, r); err == nil || !strings.Contains(err.Error(), `"chess"`) {
		t.Fatalf("wrong variant: %v", err)
	}
	good := save("good.safetensors", "fbgc", r.Shape().Channels)
	m, err := LoadModel(good, r)
	if err != nil || !m.HasNetwork() || m.Name != "good.safetensors" {
		t.Fatalf("good model: %v", err)
	}
}

func TestParseSpecReadsEveryKindOfModel(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Spec
		bad  bool
	}{
		{in: "none", want: Spec{Evaluator: Material}},
		{in: "material", want: Spec{Evaluator: Material}},
		{in: "uniform", want: Spec{Evaluator: Uniform}},
		{in: "rollout:30", want: Spec{Evaluator: Rollout, Sims: 30}},
		{in: "run/gen-0003.safetensors", want: Spec{Path: "run/gen-0003.safetensors"}},
		{in: "run/gen-0003.safetensors:200", want: Spec{Path: "run/gen-0003.safetensors", Sims: 200}},
		{in: "", bad: true},
		{in: ":5", bad: true},
		{in: "a.safetensors:0", bad: true},
		{in: "a.safetensors:x", bad: true},
	} {
		got, err := ParseSpec(c.in)
		if (err != nil) != c.bad || !c.bad && got != c.want {
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v (error: %v)", c.in, got, err, c.want, c.bad)
		}
	}
}

func TestNetworkFreeModelsNameThemselvesNoneInTheData(t *testing.T) {
	r := mustRules(t, "fbgc", 0)
	for _, spec := range []string{None, Material, Uniform, Rollout} {
		m, err := LoadModel(spec, r)
		if err != nil || m.HasNetwork() || m.Name != None {
			t.Fatalf("%s: model %+v, %v", spec, m, err)
		}
		value, err := m.ValueFunc()
		if err != nil {
			t.Fatal(err)
		}
		// The start position is symmetric: every network-free evaluator
		// but the random playout values it exactly even.
		x, err := value(r.Variant.NewPosition().String())
		if err != nil || spec != Rollout && x != 0 || x < -1 || x > 1 {
			t.Errorf("%s: start value %g, %v", spec, x, err)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"none", "rollout:3", "a/b.safetensors:10", ":", "x:-1", "c:\\run:5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSpec(text)
		if err != nil {
			return
		}
		if (s.Evaluator == "") == (s.Path == "") || s.Sims < 0 {
			t.Fatalf("%q parsed into %+v", text, s)
		}
		back, err := ParseSpec(s.String())
		if err != nil || back != s {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", text, s, s.String(), back, err)
		}
	})
}

// TestMaterialReadsTheSameValueFromPlanesAsFromTheGame plays random games
// and checks that the material evaluator's value from a position's planes
// (a plain eval.Evaluator) is its value from the game (Material), in
// variants with and without pieces in hand.
func TestMaterialReadsTheSameValueFromPlanesAsFromTheGame(t *testing.T) {
	for _, variant := range []string{"fbgc", "chess", "birds-ninjas"} {
		r := mustRules(t, variant, 0)
		m, err := LoadModel(Material, r)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := m.NewEvaluator(1, 1)
		if err != nil {
			t.Fatal(err)
		}
		ge := ev.(mcts.GameEvaluator)
		weights := r.Encoder.MaterialWeights(r.values)
		fromPlanes, fromGame := eval.NewBatch(r.Shape(), 1), eval.NewBatch(r.Shape(), 1)
		rng := rand.New(rand.NewPCG(1, 2))
		nonzero := 0
		for game := 0; game < 4; game++ {
			g := r.NewGame(nil)
			var moves []int
			for ply := 0; ply < 120; ply++ {
				if over, _ := g.Status(); over {
					break
				}
				g.Encode(fromPlanes.Planes)
				moves = g.LegalMoves(moves[:0])
				clear(fromPlanes.Legal)
				for _, k := range moves {
					fromPlanes.Legal[k] = 1
				}
				copy(fromGame.Planes, fromPlanes.Planes)
				copy(fromGame.Legal, fromPlanes.Legal)
				if err := ev.Evaluate(fromPlanes); err != nil {
					t.Fatal(err)
				}
				if err := ge.EvaluateGames([]mcts.Game{g}, fromGame); err != nil {
					t.Fatal(err)
				}
				sum, plane := 0.0, r.Shape().Height*r.Shape().Width
				for c, w := range weights {
					for _, x := range fromPlanes.Planes[c*plane : (c+1)*plane] {
						sum += w * float64(x)
					}
				}
				if want := g.Material(); math.Abs(sum-want) > 1e-4 {
					t.Fatalf("%s game %d ply %d: material from planes %v, from the game %v", variant, game, ply, sum, want)
				}
				if g.Material() != 0 {
					nonzero++
				}
				for i := range 3 {
					if d := fromPlanes.WDL[i] - fromGame.WDL[i]; d > 1e-5 || d < -1e-5 {
						t.Fatalf("%s game %d ply %d: WDL from planes %v, from the game %v", variant, game, ply, fromPlanes.WDL, fromGame.WDL)
					}
				}
				for k := range fromPlanes.Policy {
					if fromPlanes.Policy[k] != fromGame.Policy[k] {
						t.Fatalf("%s: policies differ at %d", variant, k)
					}
				}
				g.Play(moves[rng.IntN(len(moves))])
			}
		}
		if nonzero == 0 {
			t.Errorf("%s: every position had material 0: the test checked nothing", variant)
		}
	}
}

func TestPolicyFuncPlaysTheLegalMoveItsPolicyRatesHighest(t *testing.T) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	r := NewRules(v, 400)
	s := r.Shape()
	net, err := nn.New(nn.TestConfig(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width)), 3)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewNetModel("tiny", net.Fold(), r)
	if err != nil {
		t.Fatal(err)
	}
	choose, err := m.PolicyFunc()
	if err != nil {
		t.Fatal(err)
	}
	// The same network through a batch of its own: the chosen move has the
	// largest policy value among the legal ones.
	ev, err := m.NewEvaluator(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	b := eval.NewBatch(s, 1)
	p := v.NewPosition()
	rng := rand.New(rand.NewPCG(4, 5))
	var buf [env.MaxMoves]env.Move
	for ply := 0; ply < 30; ply++ {
		before := p.String()
		mv, err := choose(p)
		if err != nil {
			t.Fatal(err)
		}
		if p.String() != before {
			t.Fatalf("PolicyFunc changed the position")
		}
		g := r.NewGame(p)
		g.Encode(b.Planes)
		clear(b.Legal)
		legal := g.LegalMoves(nil)
		for _, idx := range legal {
			b.Legal[idx] = 1
		}
		if err := ev.Evaluate(b); err != nil {
			t.Fatal(err)
		}
		chosen := r.Index.Index(mv, p.SideToMove())
		for _, idx := range legal {
			if b.Policy[idx] > b.Policy[chosen] {
				t.Fatalf("ply %d: chose %s (policy %v) over index %d (policy %v)", ply, p.FormatGC(mv), b.Policy[chosen], idx, b.Policy[idx])
			}
		}
		moves := p.LegalMoves(buf[:0])
		p.DoMove(moves[rng.IntN(len(moves))])
		if res, _ := p.Status(); res != env.Ongoing {
			break
		}
	}
}
