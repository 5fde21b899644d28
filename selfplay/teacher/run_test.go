package teacher

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/match"
)

// smallConfig is a quick run: depth 1, short games, two workers.
func smallConfig(t *testing.T, policy string) Config {
	c := DefaultConfig("fbgc")
	c.Depth, c.Games, c.MaxPlies, c.RandomPlies, c.Policy, c.Workers, c.FlushGames = 1, 6, 60, 4, policy, 2, 2
	c.Out = t.TempDir()
	return c
}

// readGames reads every game of a run's output directory.
func readGames(t *testing.T, dir string) []datasets.GameRecord {
	t.Helper()
	chunks, problems, err := datasets.List(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("listing %s: %v %v", dir, err, problems)
	}
	var out []datasets.GameRecord
	for _, c := range chunks {
		ch, err := datasets.ReadChunk(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, datasets.Games(ch.Rows)...)
	}
	return out
}

// recordMoves reads the moves of a game record file back (the numbered
// move text before the result).
func recordMoves(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(data), "\n\n")
	var moves []string
	for _, f := range strings.Fields(body) {
		if strings.HasSuffix(f, ".") || f == "1-0" || f == "0-1" || f == "1/2-1/2" {
			continue
		}
		moves = append(moves, f)
	}
	return moves
}

func TestTeacherGamesReplayFromTheirRecordsWithConsistentTargets(t *testing.T) {
	for _, policy := range []string{PolicyPlayed, PolicySoftmax} {
		t.Run(policy, func(t *testing.T) {
			cfg := smallConfig(t, policy)
			sum, err := Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			games := readGames(t, cfg.Out)
			if len(games) != cfg.Games || sum.Games != cfg.Games {
				t.Fatalf("%d games on disk, summary %d, want %d", len(games), sum.Games, cfg.Games)
			}
			v, _ := env.LoadVariant("fbgc")
			positions := 0
			for _, g := range games {
				positions += len(g.Positions)
				if !g.Teacher() || g.Model != "teacher:alphabeta:1" || g.Generation != 0 {
					t.Errorf("game %s: model %q generation %d, want a teacher:alphabeta:1 game of generation 0", g.ID, g.Model, g.Generation)
				}
				moves := recordMoves(t, filepath.Join(cfg.Out, "records", g.ID+".txt"))
				if len(moves) != g.Length {
					t.Fatalf("game %s: record has %d moves, data says %d plies", g.ID, len(moves), g.Length)
				}
				// Replay the record: every recorded position is the one the
				// moves reach, and the game ends as the data says.
				pos := v.NewPosition()
				next := 0
				for ply, text := range moves {
					if next < len(g.Positions) && g.Positions[next].Ply == ply {
						p := g.Positions[next]
						if p.Position != pos.String() || p.Played != text || p.Repetitions != pos.Repetitions() || !p.FullSearch {
							t.Fatalf("game %s ply %d: recorded %+v, replay reaches %s playing %s", g.ID, ply, p, pos, text)
						}
						checkTarget(t, g, p, policy)
						next++
					} else if ply >= cfg.RandomPlies {
						t.Fatalf("game %s: the teacher's ply %d is not recorded", g.ID, ply)
					}
					m, err := pos.ParseMove(text)
					if err != nil {
						t.Fatalf("game %s ply %d: %v", g.ID, ply, err)
					}
					pos.DoMove(m)
				}
				res, why := pos.Status()
				if res == env.Ongoing {
					res, why = env.Draw, env.LengthCap
					if g.Length != cfg.MaxPlies {
						t.Errorf("game %s: unfinished after %d plies, below the cap", g.ID, g.Length)
					}
				}
				if why != g.Termination || map[env.Result]int{env.WhiteWins: 1, env.BlackWins: -1, env.Draw: 0}[res] != g.Result {
					t.Errorf("game %s: data says %d by %s, the replay %v by %s", g.ID, g.Result, g.Termination, res, why)
				}
			}
			if positions != sum.Positions {
				t.Errorf("%d positions on disk, summary says %d", positions, sum.Positions)
			}
		})
	}
}

// checkTarget checks one position's targets: the value is the game result
// for the side to move, the policy a distribution whose top move was played.
func checkTarget(t *testing.T, g datasets.GameRecord, p datasets.PositionRecord, policy string) {
	t.Helper()
	want := float32(g.Result)
	if !p.WhiteToMove {
		want = -want
	}
	if p.Value != want {
		t.Errorf("game %s ply %d: value %v, want the result %v", g.ID, p.Ply, p.Value, want)
	}
	top := slices.Max(p.Visits)
	i := slices.Index(p.MoveText, p.Played)
	switch {
	case i < 0:
		t.Errorf("game %s ply %d: played %s is not in the policy %v", g.ID, p.Ply, p.Played, p.MoveText)
	case p.Visits[i] != top:
		t.Errorf("game %s ply %d: played %s has %v, the top weight is %v", g.ID, p.Ply, p.Played, p.Visits[i], top)
	case policy == PolicyPlayed && len(p.Visits) != 1:
		t.Errorf("game %s ply %d: policy %v, want the played move alone", g.ID, p.Ply, p.MoveText)
	}
}

func TestTeacherGamesDependOnTheSeedAndGameNumberOnly(t *testing.T) {
	moves := func(workers int, seed uint64) []string {
		cfg := smallConfig(t, PolicySoftmax)
		cfg.Workers, cfg.Seed = workers, seed
		if _, err := Run(context.Background(), cfg, nil); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, g := range readGames(t, cfg.Out) {
			out = append(out, strings.Join(recordMoves(t, filepath.Join(cfg.Out, "records", g.ID+".txt")), " "))
		}
		slices.Sort(out)
		return out
	}
	one, two := moves(1, 5), moves(3, 5)
	if !slices.Equal(one, two) {
		t.Errorf("one worker and three played different games from the same seed")
	}
	if len(slices.Compact(slices.Clone(one))) != len(one) {
		t.Errorf("two games of one run are the same game: %v", one)
	}
	if other := moves(1, 6); slices.Equal(one, other) {
		t.Errorf("seeds 5 and 6 played the same games")
	}
}

func TestCancelledTeacherRunWritesWholeGamesOnly(t *testing.T) {
	cfg := smallConfig(t, PolicyPlayed)
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

func TestTeacherAtDepthTwoEndsMostGamesDecisively(t *testing.T) {
	if testing.Short() {
		t.Skip("plays ten depth-2 games")
	}
	cfg := DefaultConfig("fbgc")
	cfg.Games, cfg.Policy, cfg.Out = 10, PolicyPlayed, t.TempDir()
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// docs/training.md measures about 90% at this depth; the games are
	// seeded, so this is not a matter of luck.
	if sum.Decisive() < 0.6 {
		t.Errorf("%d of %d games decisive (%v), want most", sum.WhiteWins+sum.BlackWins, sum.Games, sum.Ends)
	}
}

func TestSoftmaxWeightsFollowTheScores(t *testing.T) {
	const mate = 1 << 24
	for _, tc := range []struct {
		name   string
		scores []int32
		temp   float64
		want   []float64
	}{
		{"equal scores share evenly", []int32{0, 0, 0, 0}, 0.5, []float64{0.25, 0.25, 0.25, 0.25}},
		{"a pawn worse at one pawn is e^-1", []int32{100, 0}, 1, []float64{1 / (1 + math.Exp(-1)), math.Exp(-1) / (1 + math.Exp(-1))}},
		{"far worse moves get nothing", []int32{300, 0, -2000}, 0.5, []float64{1 / (1 + math.Exp(-6)), math.Exp(-6) / (1 + math.Exp(-6)), 0}},
		{"the fastest mates share it", []int32{mate - 1, mate - 3, mate - 1, 500}, 0.5, []float64{0.5, 0, 0.5, 0}},
		{"getting mated gets nothing", []int32{-mate + 2, 0, -100}, 1, []float64{0, 1 / (1 + math.Exp(-1)), math.Exp(-1) / (1 + math.Exp(-1))}},
		{"when every move is mated the longest lines lead", []int32{-mate + 2, -mate + 4}, 0.5, []float64{math.Exp(-0.04) / (1 + math.Exp(-0.04)), 1 / (1 + math.Exp(-0.04))}},
	} {
		best := slices.Max(tc.scores)
		got := softmax(nil, tc.scores, best, tc.temp, match.MateBound)
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-12 {
				t.Errorf("%s: weights %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

func TestConfigValidateNamesTheBadField(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"Depth", func(c *Config) { c.Depth = 0 }},
		{"Depth", func(c *Config) { c.Depth = 9 }},
		{"Games", func(c *Config) { c.Games = 0 }},
		{"RandomPlies", func(c *Config) { c.RandomPlies = -1 }},
		{"MaxPlies", func(c *Config) { c.MaxPlies = c.RandomPlies }},
		{"Policy", func(c *Config) { c.Policy = "visits" }},
		{"Temperature", func(c *Config) { c.Temperature = 0 }},
		{"Temperature", func(c *Config) { c.Temperature = math.NaN() }},
		{"ValueScale", func(c *Config) { c.ValueScale = -0.1 }},
		{"ValueScale", func(c *Config) { c.ValueScale = math.Inf(1) }},
		{"Workers", func(c *Config) { c.Workers = -1 }},
		{"FlushGames", func(c *Config) { c.FlushGames = 0 }},
		{"Player", func(c *Config) { c.Player = "mcts" }},
		{"Nodes", func(c *Config) { c.Player, c.Nodes = PlayerEngine, 0 }},
		{"MultiPV", func(c *Config) { c.Player, c.MultiPV = PlayerEngine, 0 }},
		{"MultiPV", func(c *Config) { c.Player, c.MultiPV = PlayerEngine, 257 }},
		{"Margin", func(c *Config) { c.Player, c.Margin = PlayerEngine, -1 }},
		{"Margin", func(c *Config) { c.Player, c.Margin = PlayerEngine, MaxMargin+1 }},
		{"Eval", func(c *Config) { c.Eval = "net.bin" }},
	} {
		c := DefaultConfig("fbgc")
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: Validate() = %v, want an error naming it", tc.field, err)
		}
	}
	c := DefaultConfig("fbgc")
	if err := c.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	c.Player, c.Depth = PlayerEngine, 0 // the engine has no depth
	if err := c.Validate(); err != nil {
		t.Errorf("the engine at the defaults: %v", err)
	}
	c.Player, c.Eval, c.Variant = PlayerEngine, "/no/such/net.bin", "chess"
	if _, err := Run(context.Background(), c, nil); err == nil || !strings.Contains(err.Error(), c.Eval) {
		t.Errorf("a missing net file: Run() = %v, want an error naming it", err)
	}
}

// TestValueScaleStoresTheTeachersScore checks the value column of a run
// with ValueScale against an independent search of each recorded position
// (replayed from the game's record, history included) by a fresh
// alpha-beta player: its score does not depend on the seed, only the
// choice among equal moves does. The games themselves must be the ones a
// run without ValueScale plays.
func TestValueScaleStoresTheTeachersScore(t *testing.T) {
	plain := smallConfig(t, PolicyPlayed)
	// Games long enough that a depth-1 search meets mates in one (both
	// kinds of value are checked), whatever its choices among equal moves.
	plain.Games, plain.MaxPlies = 24, 400
	scaled := plain
	scaled.Out = t.TempDir()
	scaled.ValueScale = 0.1
	for _, c := range []Config{plain, scaled} {
		if _, err := Run(context.Background(), c, nil); err != nil {
			t.Fatal(err)
		}
	}
	played := map[string]bool{}
	for _, g := range readGames(t, plain.Out) {
		played[strings.Join(recordMoves(t, filepath.Join(plain.Out, "records", g.ID+".txt")), " ")] = true
	}
	v, _ := env.LoadVariant("fbgc")
	ab, err := match.NewAlphaBeta(v, scaled.Depth, agent.DefaultValues(), 99)
	if err != nil {
		t.Fatal(err)
	}
	mates, checked := 0, 0
	for _, g := range readGames(t, scaled.Out) {
		moves := recordMoves(t, filepath.Join(scaled.Out, "records", g.ID+".txt"))
		if !played[strings.Join(moves, " ")] {
			t.Fatalf("game %s: not one of the games the run without ValueScale played", g.ID)
		}
		pos, next := v.NewPosition(), 0
		for ply, text := range moves {
			if next < len(g.Positions) && g.Positions[next].Ply == ply {
				p := g.Positions[next]
				_, score, err := ab.Best(pos)
				if err != nil {
					t.Fatal(err)
				}
				var want float64
				switch {
				case score > match.MateBound:
					want, mates = 1, mates+1
				case score < -match.MateBound:
					want, mates = -1, mates+1
				default:
					want = math.Tanh(0.1 * float64(score) / 100)
				}
				if math.Abs(float64(p.Value)-want) > 1e-6 {
					t.Fatalf("game %s ply %d: value %v, want tanh(0.1 x %d cp) = %v", g.ID, ply, p.Value, score, want)
				}
				checked, next = checked+1, next+1
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
	t.Logf("%d positions checked, %d of them mates", checked, mates)
	if mates == 0 || checked == mates {
		t.Errorf("%d positions, %d of them mates: want both mates (value ±1) and scored positions", checked, mates)
	}
}
