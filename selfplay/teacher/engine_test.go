package teacher

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/engine"
	"bomberzero/engine/nnue"
	"bomberzero/env"
	"bomberzero/selfplay"
)

// engineConfig is a quick engine teacher run: chess, 300 nodes, four
// lines, short games, two workers.
func engineConfig(t *testing.T, policy string) Config {
	c := DefaultConfig("chess")
	c.Player, c.Nodes, c.Games, c.MaxPlies, c.RandomPlies, c.Policy, c.Workers, c.FlushGames = PlayerEngine, 300, 4, 60, 4, policy, 2, 2
	c.ValueScale, c.Margin = 0.1, 30
	c.Out = t.TempDir()
	return c
}

// TestEngineTeacherWritesItsScoresAndLines replays every game of an
// engine teacher run from its record with a fresh engine of the same
// settings, searching each recorded position in the order the teacher
// did: the value column must be the engine's score of it, the policy
// target a distribution over legal moves (the engine's move alone, or a
// softmax over its lines), and the move played one of the lines within
// the margin of the best.
func TestEngineTeacherWritesItsScoresAndLines(t *testing.T) {
	for _, policy := range []string{PolicyPlayed, PolicySoftmax} {
		t.Run(policy, func(t *testing.T) {
			cfg := engineConfig(t, policy)
			sum, err := Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			games := readGames(t, cfg.Out)
			if len(games) != cfg.Games || sum.Games != cfg.Games {
				t.Fatalf("%d games on disk, summary %d, want %d", len(games), sum.Games, cfg.Games)
			}
			v, _ := env.LoadVariant("chess")
			table, err := agent.DefaultValues().Table(v)
			if err != nil {
				t.Fatal(err)
			}
			checked, drawn, researched := 0, 0, 0
			for _, g := range games {
				if g.Model != "teacher:engine:nodes=300" || !g.Teacher() {
					t.Errorf("game %s: model %q, want teacher:engine:nodes=300", g.ID, g.Model)
				}
				if err := g.Validate(); err != nil {
					t.Fatal(err)
				}
				eng, err := engine.New(v, engine.Options{HashMB: EngineHashMB, Threads: 1, Seed: cfg.Seed, MultiPV: cfg.MultiPV, Table: table})
				if err != nil {
					t.Fatal(err)
				}
				moves := recordMoves(t, filepath.Join(cfg.Out, "records", g.ID+".txt"))
				if len(moves) != g.Length {
					t.Fatalf("game %s: record has %d moves, data says %d plies", g.ID, len(moves), g.Length)
				}
				pos, next := v.NewPosition(), 0
				for ply, text := range moves {
					if next < len(g.Positions) && g.Positions[next].Ply == ply {
						p := g.Positions[next]
						if p.Position != pos.String() || p.Played != text {
							t.Fatalf("game %s ply %d: recorded %s playing %s, the replay reaches %s playing %s", g.ID, ply, p.Position, p.Played, pos, text)
						}
						res, err := selfplay.EngineSearch(context.Background(), eng, pos, cfg.Nodes)
						if err != nil {
							t.Fatal(err)
						}
						if len(res.Lines) == 0 {
							t.Fatalf("game %s ply %d: no lines in %+v", g.ID, ply, res)
						}
						if res.Nodes > cfg.Nodes {
							researched++
						}
						checkEngineTarget(t, g, p, pos, res, cfg)
						if p.Played != pos.FormatGC(res.Move) {
							drawn++
						}
						checked, next = checked+1, next+1
					} else if ply >= cfg.RandomPlies {
						t.Fatalf("game %s: the teacher's ply %d is not recorded", g.ID, ply)
					}
					m, err := pos.ParseMove(text)
					if err != nil {
						t.Fatalf("game %s ply %d: %v", g.ID, ply, err)
					}
					pos.DoMove(m)
				}
				if next != len(g.Positions) {
					t.Fatalf("game %s: %d of %d positions replayed", g.ID, next, len(g.Positions))
				}
			}
			t.Logf("%d positions checked; at %d the margin drew another line than the engine's move; %d searched again with more nodes", checked, drawn, researched)
			if drawn == 0 {
				t.Errorf("the margin of %d cp never drew another line in %d positions", cfg.Margin, checked)
			}
		})
	}
}

// checkEngineTarget checks one recorded position p against res, a
// replay's search of it.
func checkEngineTarget(t *testing.T, g datasets.GameRecord, p datasets.PositionRecord, pos *env.Position, res engine.Result, cfg Config) {
	t.Helper()
	want := math.Tanh(cfg.ValueScale * float64(res.Score) / 100)
	if engine.IsMate(res.Score) {
		want = math.Copysign(1, float64(res.Score))
	}
	if math.Abs(float64(p.Value)-want) > 1e-6 {
		t.Fatalf("game %s ply %d: value %v, want tanh(%g x %d cp) = %v", g.ID, p.Ply, p.Value, cfg.ValueScale, res.Score, want)
	}
	var buf []env.Move
	legal := map[string]bool{}
	for _, m := range pos.LegalMoves(buf) {
		legal[pos.FormatGC(m)] = true
	}
	sum := 0.0
	for i, text := range p.MoveText {
		if !legal[text] {
			t.Fatalf("game %s ply %d: policy move %s is not legal", g.ID, p.Ply, text)
		}
		sum += float64(p.Visits[i])
	}
	if math.Abs(sum-1) > 1e-5 {
		t.Errorf("game %s ply %d: policy sums to %v", g.ID, p.Ply, sum)
	}
	lines := map[string]int32{}
	for _, l := range res.Lines {
		lines[pos.FormatGC(l.PV[0])] = l.Score
	}
	switch cfg.Policy {
	case PolicyPlayed:
		if len(p.MoveText) != 1 || p.MoveText[0] != pos.FormatGC(res.Move) {
			t.Errorf("game %s ply %d: policy %v, want the engine's move %s alone", g.ID, p.Ply, p.MoveText, pos.FormatGC(res.Move))
		}
	case PolicySoftmax:
		for i, text := range p.MoveText {
			s, ok := lines[text]
			w := math.Exp(float64(s-res.Lines[0].Score) / (cfg.Temperature * 100))
			if !ok || math.Abs(float64(p.Visits[i])/float64(p.Visits[0])-w) > 1e-4 && !engine.IsMate(s) {
				t.Errorf("game %s ply %d: policy %v %v, want a softmax over the lines %v", g.ID, p.Ply, p.MoveText, p.Visits, lines)
				break
			}
		}
	}
	if p.Played != pos.FormatGC(res.Move) {
		s, ok := lines[p.Played]
		if !ok || res.Lines[0].Score-s > cfg.Margin || engine.IsMate(s) != engine.IsMate(res.Lines[0].Score) {
			t.Errorf("game %s ply %d: played %s, not a line within %d cp of the best %v", g.ID, p.Ply, p.Played, cfg.Margin, lines)
		}
	}
}

// gameTexts is every game of a run's output as text: its moves, and per
// position the value and policy target, sorted (the games' order and IDs
// differ between runs).
func gameTexts(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, g := range readGames(t, dir) {
		var b strings.Builder
		b.WriteString(strings.Join(recordMoves(t, filepath.Join(dir, "records", g.ID+".txt")), " "))
		for _, p := range g.Positions {
			b.WriteString("|")
			b.WriteString(strings.Join(p.MoveText, ","))
			fmt.Fprint(&b, " ", p.Value, p.Visits) // shortest exact text of each float32
		}
		out = append(out, b.String())
	}
	slices.Sort(out)
	return out
}

func TestEngineTeacherGamesDependOnTheSeedAndGameNumberOnly(t *testing.T) {
	run := func(workers int, seed uint64) []string {
		cfg := engineConfig(t, PolicySoftmax)
		cfg.Workers, cfg.Seed = workers, seed
		if _, err := Run(context.Background(), cfg, nil); err != nil {
			t.Fatal(err)
		}
		return gameTexts(t, cfg.Out)
	}
	one, again, three := run(1, 5), run(1, 5), run(3, 5)
	if !slices.Equal(one, again) {
		t.Errorf("two runs of one seed wrote different games or targets")
	}
	if !slices.Equal(one, three) {
		t.Errorf("one worker and three wrote different games or targets from the same seed")
	}
	if len(slices.Compact(slices.Clone(one))) != len(one) {
		t.Errorf("two games of one run are the same game")
	}
	if other := run(1, 6); slices.Equal(one, other) {
		t.Errorf("seeds 5 and 6 played the same games")
	}
}

func TestCancelledEngineTeacherRunWritesWholeGamesOnly(t *testing.T) {
	cfg := engineConfig(t, PolicyPlayed)
	cfg.Games, cfg.FlushGames = 1000, 1
	ctx, cancel := context.WithCancel(context.Background())
	sum, err := Run(ctx, cfg, func(p Progress) {
		if p.Games >= 3 {
			cancel()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	games := readGames(t, cfg.Out)
	if len(games) != sum.Games || sum.Games < 3 || sum.Games >= cfg.Games {
		t.Fatalf("cancelled run: %d games on disk, summary %d, want the same, at least 3 and fewer than %d", len(games), sum.Games, cfg.Games)
	}
	for _, g := range games {
		if err := g.Validate(); err != nil {
			t.Error(err)
		}
	}
}

func TestEngineTeacherModelNamesItsSettings(t *testing.T) {
	c := DefaultConfig("fbgc")
	if got := c.Model(); got != "teacher:alphabeta:2" {
		t.Errorf("default model %q", got)
	}
	c.Player = PlayerEngine
	if got := c.Model(); got != "teacher:engine:nodes=2000" {
		t.Errorf("engine model %q", got)
	}
	c.Eval = "/some/dir/fbgc-net.bin"
	if got := c.Model(); got != "teacher:engine:nodes=2000:eval=fbgc-net.bin" {
		t.Errorf("engine model with a net %q", got)
	}
}

// TestEngineTeacherWithALearnedNet plays with a (random) net as the
// engine's evaluation: its base name is in the model column; a net of
// another variant is refused before any game, naming the file.
func TestEngineTeacherWithALearnedNet(t *testing.T) {
	dir := t.TempDir()
	for _, variant := range []string{"chess", "fbgc"} {
		v, err := env.LoadVariant(variant)
		if err != nil {
			t.Fatal(err)
		}
		if err := nnue.WriteFile(filepath.Join(dir, variant+".nnue"), nnue.NewNet(nnue.NewFeatureSet(v), 16, 8, 1)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := engineConfig(t, PolicySoftmax)
	cfg.Games, cfg.Eval = 2, filepath.Join(dir, "chess.nnue")
	if _, err := Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	games := readGames(t, cfg.Out)
	if len(games) != 2 {
		t.Fatalf("%d games, want 2", len(games))
	}
	for _, g := range games {
		if g.Model != "teacher:engine:nodes=300:eval=chess.nnue" {
			t.Errorf("game %s: model %q", g.ID, g.Model)
		}
	}
	cfg.Out, cfg.Eval = t.TempDir(), filepath.Join(dir, "fbgc.nnue")
	if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), cfg.Eval) {
		t.Errorf("a net of fbgc for chess: Run() = %v, want an error naming the file", err)
	}
}
