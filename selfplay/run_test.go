package selfplay

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/mcts"
	"bomberzero/nn"
)

// mustRules returns the rules of the named variant with games capped at
// maxPlies plies.
func mustRules(t testing.TB, name string, maxPlies int) *agent.Rules {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return agent.NewRules(v, maxPlies)
}

// mustDefault returns DefaultConfig(variant).
func mustDefault(t testing.TB, variant string) Config {
	t.Helper()
	c, err := DefaultConfig(variant)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// smallConfig is a quick self-play run: few playouts, short games.
func smallConfig(t *testing.T, variant string, games int) Config {
	cfg := mustDefault(t, variant)
	cfg.Games = games
	cfg.Out = t.TempDir()
	cfg.Workers = 2
	cfg.Slots = 3
	cfg.MaxPlies = 40
	cfg.FlushGames = 2
	cfg.ResignThreshold, cfg.ResignMoves, cfg.ResignOffShare = -0.9, 4, 0.1
	cfg.Search = mcts.DefaultConfig()
	cfg.Search.Sims = 12
	cfg.Search.CheapSims = 4
	cfg.Search.CheapShare = 0.5
	cfg.Search.TempPlies = 10
	cfg.Search.CacheEntries = 1 << 10
	return cfg
}

// readRun reads every chunk of dir, failing on any unusable one.
func readRun(t *testing.T, dir string) []datasets.GameRecord {
	t.Helper()
	chunks, problems, err := datasets.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Fatalf("unusable chunks: %v", problems)
	}
	var games []datasets.GameRecord
	for _, c := range chunks {
		ch, err := datasets.ReadChunk(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, datasets.Games(ch.Rows)...)
	}
	return games
}

// checkRun checks a run's data against the rules: every position's visit
// distribution sums to 1 over legal moves, the result agrees with how the
// game ended, and the game record replays to the position the data ends in.
func checkRun(t *testing.T, r *agent.Rules, cfg Config, sum *Summary) []datasets.GameRecord {
	t.Helper()
	games := readRun(t, cfg.Out)
	if len(games) != cfg.Games || sum.Games != cfg.Games {
		t.Fatalf("%d games on disk, %d reported, want %d", len(games), sum.Games, cfg.Games)
	}
	v := r.Variant
	var buf [env.MaxMoves]env.Move
	for _, g := range games {
		if g.Variant != v.Name {
			t.Fatalf("game %s: variant %q", g.ID, g.Variant)
		}
		for _, pr := range g.Positions {
			p, err := v.ParsePosition(pr.Position)
			if err != nil {
				t.Fatalf("game %s ply %d: %v", g.ID, pr.Ply, err)
			}
			total := 0.0
			for k, idx := range pr.PolicyIndex {
				m, ok := r.Index.Legal(p, int(idx), buf[:])
				if !ok {
					t.Fatalf("game %s ply %d: policy index %d (%s) is no legal move", g.ID, pr.Ply, idx, pr.MoveText[k])
				}
				if got := p.FormatGC(m); got != pr.MoveText[k] {
					t.Fatalf("game %s ply %d: index %d is %s, text says %s", g.ID, pr.Ply, idx, got, pr.MoveText[k])
				}
				total += float64(pr.Visits[k])
			}
			if math.Abs(total-1) > 1e-4 {
				t.Fatalf("game %s ply %d: visits sum to %v", g.ID, pr.Ply, total)
			}
		}
		// The record replays, and ends where the data ends.
		text, err := os.ReadFile(filepath.Join(cfg.Out, "records", g.ID+".txt"))
		if err != nil {
			t.Fatalf("game %s: record: %v", g.ID, err)
		}
		start := v.NewPosition()
		if cfg.Start != "" {
			if !strings.Contains(string(text), `[FEN "`+cfg.Start+`"]`) {
				t.Fatalf("game %s: record lacks the start position tag", g.ID)
			}
			start, _ = v.ParsePosition(cfg.Start)
		}
		final, err := env.Replay(start, string(text))
		if err != nil {
			t.Fatalf("game %s: record does not replay: %v\n%s", g.ID, err, text)
		}
		last := g.Positions[len(g.Positions)-1]
		lp, _ := v.ParsePosition(last.Position)
		want, err := env.PlayMoves(lp, last.Played)
		if err != nil {
			t.Fatal(err)
		}
		if g.Termination == env.Resignation {
			want = lp // the resigning side's position was not recorded; the record stops before it
			if final.Ply() != g.Length {
				t.Fatalf("game %s: record has %d plies, length %d", g.ID, final.Ply(), g.Length)
			}
		}
		if final.Ply() != g.Length || g.Termination != env.Resignation && final.String() != want.String() {
			t.Fatalf("game %s: record ends at ply %d in %s; data: length %d, last position played out %s",
				g.ID, final.Ply(), final, g.Length, want)
		}
		if !strings.Contains(string(text), `[Result "`+map[int]string{1: "1-0", 0: "1/2-1/2", -1: "0-1"}[g.Result]+`"]`) {
			t.Fatalf("game %s: record result tag disagrees with %d", g.ID, g.Result)
		}
		// The result agrees with the final position.
		res, why := final.Status()
		switch g.Termination {
		case env.LengthCap:
			if res != env.Ongoing || g.Length != cfg.MaxPlies || g.Result != 0 {
				t.Fatalf("game %s: length-cap draw at %d plies, status %v", g.ID, g.Length, res)
			}
		case env.Adjudication:
			// Won on material at the cap: the winner leads by the margin.
			m := r.NewGame(final).Material() // side to move's view
			if final.SideToMove() == env.Black {
				m = -m
			}
			if res != env.Ongoing || g.Length != cfg.MaxPlies || g.Result == 0 || float64(g.Result)*m < cfg.AdjudicateMargin {
				t.Fatalf("game %s: adjudicated %d at %d plies with White %+.1f pawns, status %v", g.ID, g.Result, g.Length, m, res)
			}
		case env.Resignation:
			loser := final.SideToMove()
			if res != env.Ongoing || (loser == env.White) != (g.Result == -1) {
				t.Fatalf("game %s: resigned with result %d, %v to move", g.ID, g.Result, loser)
			}
		default:
			wantRes := map[int]env.Result{1: env.WhiteWins, 0: env.Draw, -1: env.BlackWins}[g.Result]
			if res != wantRes || why != g.Termination {
				t.Fatalf("game %s: data says %d by %s, final position %v by %v", g.ID, g.Result, g.Termination, res, why)
			}
		}
	}
	return games
}

func TestSelfPlayWithoutNetworkWritesConsistentData(t *testing.T) {
	cfg := smallConfig(t, "fbgc", 6)
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, mustRules(t, "fbgc", cfg.MaxPlies), cfg, sum)
}

func TestSelfPlayWithGumbelRootInAVariantWithHoles(t *testing.T) {
	// Claustrophobia (holes, scepter) with the Gumbel root, whose target is
	// its completed-Q policy over the legal moves.
	cfg := smallConfig(t, "claustrophobia", 8)
	cfg.MaxPlies = 120
	cfg.ResignMoves = 0
	cfg.Search.Gumbel = true
	cfg.Search.GumbelM = 4
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	games := checkRun(t, mustRules(t, "claustrophobia", cfg.MaxPlies), cfg, sum)
	ends := map[env.Termination]int{}
	for _, g := range games {
		ends[g.Termination]++
	}
	t.Logf("endings %v", ends)
}

func TestSelfPlayWithATinyNetwork(t *testing.T) {
	r := mustRules(t, "fbgc", 24)
	s := r.Shape()
	net, err := nn.New(nn.TestConfig(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width)), 3)
	if err != nil {
		t.Fatal(err)
	}
	m, err := agent.NewNetModel("tiny", net.Fold(), r)
	if err != nil {
		t.Fatal(err)
	}
	cfg := smallConfig(t, "fbgc", 2)
	cfg.MaxPlies = 24
	cfg.Search.Sims = 8
	cfg.Slots = 2
	sum, err := RunModel(context.Background(), cfg, r, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range checkRun(t, r, cfg, sum) {
		if g.Model != "tiny" {
			t.Fatalf("game %s: model %q", g.ID, g.Model)
		}
	}
}

func TestSelfPlayFindsMatesAndRecordsThem(t *testing.T) {
	// From a mate in one for either colour, and from positions where the
	// loser must move first and any move allows a mate in one, the search
	// (terminal values from the rules) mates at once, and the data say so:
	// the game's result from White's view, each row's result from its
	// side to move's view (+1 for the mating side, -1 for the mated one),
	// also as a training window samples it.
	for _, c := range []struct {
		name, start string
		result      int // White's view
		length      int // plies played
	}{
		{"White mates in one", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 1, 1},
		{"Black mates in one", "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", -1, 1},
		{"Black moves, White mates", "7k/p4K1p/7B/8/8/8/8/6R1 b - - 0 1", 1, 2},
		{"White moves, Black mates", "6r1/8/8/8/8/7b/P4k1P/7K w - - 0 1", -1, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := smallConfig(t, "chess", 4)
			cfg.Start = c.start
			cfg.Search.Sims = 64
			cfg.Search.TempPlies = 0
			cfg.Search.CheapShare = 0
			cfg.Search.NoiseFraction = 0
			sum, err := Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range checkRun(t, mustRules(t, "chess", cfg.MaxPlies), cfg, sum) {
				// checkRun has checked that the final position is mate.
				if g.Termination != env.Checkmate || g.Result != c.result || g.Length != c.length {
					t.Fatalf("game %s: %s, result %d, length %d; want mate, result %d, length %d",
						g.ID, g.Termination, g.Result, g.Length, c.result, c.length)
				}
			}
			if wins := map[int]int{1: sum.WhiteWins, -1: sum.BlackWins}[c.result]; wins != cfg.Games {
				t.Fatalf("summary: +%d =%d -%d, want all %d won by the mating side", sum.WhiteWins, sum.Draws, sum.BlackWins, cfg.Games)
			}
			// The rows: result_white is the game's, result_stm the mover's.
			chunks, _, err := datasets.List(cfg.Out)
			if err != nil {
				t.Fatal(err)
			}
			rows := 0
			for _, info := range chunks {
				ch, err := datasets.ReadChunk(info.Path)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range ch.Rows {
					wantSTM := int8(c.result)
					if !r.WhiteToMove {
						wantSTM = -wantSTM
					}
					mover := r.WhiteToMove == (c.result == 1) // the mating side
					if int(r.ResultWhite) != c.result || r.ResultSTM != wantSTM || (r.ResultSTM == 1) != mover {
						t.Fatalf("row at ply %d (White to move %v, played %s): result_white %d, result_stm %d; want %d and %d",
							r.Ply, r.WhiteToMove, r.Played, r.ResultWhite, r.ResultSTM, c.result, wantSTM)
					}
					rows++
				}
			}
			// The training window: +1 where the winner moves, -1 where the loser does.
			w, err := datasets.NewWindow(cfg.Out, datasets.WindowConfig{Size: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Refresh(); err != nil {
				t.Fatal(err)
			}
			if w.Len() != rows {
				t.Fatalf("window holds %d positions, the chunks %d rows", w.Len(), rows)
			}
			v := mustRules(t, "chess", cfg.MaxPlies).Variant
			for i := 0; i < w.Len(); i++ {
				s := w.At(i)
				p, err := v.ParsePosition(s.Position)
				if err != nil {
					t.Fatal(err)
				}
				want := float32(c.result)
				if p.SideToMove() == env.Black {
					want = -want
				}
				if s.Result != want {
					t.Fatalf("sample %d (%v to move): result %v, want %v", i, p.SideToMove(), s.Result, want)
				}
			}
		})
	}
}

func TestResignationEndsGamesAndIsMeasuredWhenOff(t *testing.T) {
	// A threshold of 1 makes every search count as hopeless, so White
	// resigns on its second move unless resignation is off.
	cfg := smallConfig(t, "fbgc", 4)
	cfg.ResignThreshold = 1
	cfg.ResignMoves = 2
	cfg.ResignOffShare = 0
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := mustRules(t, "fbgc", cfg.MaxPlies)
	for _, g := range checkRun(t, r, cfg, sum) {
		if g.Termination != env.Resignation || g.Result != -1 || g.Length != 2 || g.ResignDisabled {
			t.Fatalf("game %s: %s, result %d, length %d, resign disabled %v; want White resigning at ply 2",
				g.ID, g.Termination, g.Result, g.Length, g.ResignDisabled)
		}
	}
	if sum.Resignations != cfg.Games {
		t.Fatalf("%d resignations reported, want %d", sum.Resignations, cfg.Games)
	}

	cfg.Out = t.TempDir()
	cfg.ResignOffShare = 1
	sum, err = Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range checkRun(t, r, cfg, sum) {
		if !g.ResignDisabled || g.WouldResign != datasets.White || g.Termination == env.Resignation {
			t.Fatalf("game %s: resign disabled %v, would resign %q, %s; want White recorded as would-be resigner",
				g.ID, g.ResignDisabled, g.WouldResign, g.Termination)
		}
		falseResign, measured := g.FalseResignation()
		if !measured || falseResign != (g.Result != -1) {
			t.Fatalf("game %s: false resignation %v measured %v with result %d", g.ID, falseResign, measured, g.Result)
		}
	}
	st, err := datasets.Summarize(cfg.Out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.ResignDisabled != cfg.Games || st.FalseResignMeasured != cfg.Games {
		t.Fatalf("data stats: %d resign-disabled games, %d measured; want %d", st.ResignDisabled, st.FalseResignMeasured, cfg.Games)
	}
}

func TestReportedGamesAreOnDiskAtEveryMoment(t *testing.T) {
	cfg := smallConfig(t, "fbgc", 6)
	cfg.FlushGames = 1
	checks := 0
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	progress := func(p Progress) {
		chunks, problems, err := datasets.List(cfg.Out)
		if err != nil || len(problems) > 0 {
			t.Errorf("listing during the run: %v %v", err, problems)
		}
		onDisk := 0
		for _, c := range chunks {
			if _, err := datasets.ReadChunk(c.Path); err != nil {
				t.Errorf("chunk unreadable during the run: %v", err)
			}
			onDisk += c.Games
		}
		if onDisk < p.Games {
			t.Errorf("%d games reported finished, %d on disk", p.Games, onDisk)
		}
		checks++
		if p.Games >= 2 {
			cancel() // stop early, as a killed run would
		}
	}
	sum, err := Run(ctx, cfg, progress)
	if err != nil {
		t.Fatal(err)
	}
	games := readRun(t, cfg.Out)
	if len(games) != sum.Games || sum.Games < 2 {
		t.Fatalf("after stopping: %d games on disk, %d reported", len(games), sum.Games)
	}
	if checks == 0 {
		t.Fatal("progress never called")
	}
}

func TestUnwritableOutputStopsTheRunWithAClearError(t *testing.T) {
	cfg := smallConfig(t, "fbgc", 2)
	// The records directory cannot be made: a file is in its way.
	if err := os.WriteFile(filepath.Join(cfg.Out, "records"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "records") {
		t.Fatalf("run into an unwritable records directory: %v", err)
	}
	if sum == nil || sum.Games != 0 {
		t.Fatalf("games reported finished although none could be written: %+v", sum)
	}
	if games := readRun(t, cfg.Out); len(games) != 0 {
		t.Fatalf("%d games on disk", len(games))
	}
}

func TestRunRejectsBadSettings(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"unknown variant", func(c *Config) { c.Variant = "fbgc-nonesuch" }, "fbgc-nonesuch"},
		{"missing model", func(c *Config) { c.Model = "/nonexistent/model.safetensors" }, "no such checkpoint"},
		{"no games", func(c *Config) { c.Games = 0 }, "games"},
		{"bad start", func(c *Config) { c.Start = "xyz w" }, "start position"},
		{"bad resign share", func(c *Config) { c.ResignOffShare = 2 }, "resign_off_share"},
	} {
		cfg := smallConfig(t, "fbgc", 1)
		c.edit(&cfg)
		if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

func TestGamesAtTheCapAreAdjudicatedByMaterial(t *testing.T) {
	// White has an extra queen and rook and Black cannot win them back in
	// four plies: with a margin the cap gives White the game by
	// adjudication; without one it is the cap's draw. A margin beyond the
	// material on the board adjudicates nothing.
	const start = "4k3/pppppppp/8/8/8/8/PPPPPPPP/R2QK3 w - - 0 1"
	for _, c := range []struct {
		name   string
		margin float64
		want   env.Termination
		result int
	}{
		{"margin 3", 3, env.Adjudication, 1},
		{"margin 0 is off", 0, env.LengthCap, 0},
		{"margin above the lead", 50, env.LengthCap, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := smallConfig(t, "chess", 6)
			cfg.Start, cfg.MaxPlies, cfg.AdjudicateMargin, cfg.ResignMoves = start, 4, c.margin, 0
			sum, err := Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			games := checkRun(t, mustRules(t, "chess", cfg.MaxPlies), cfg, sum)
			for _, g := range games {
				if g.Termination != c.want || g.Result != c.result {
					t.Fatalf("game %s: %s with result %d, want %s with %d", g.ID, g.Termination, g.Result, c.want, c.result)
				}
			}
			if c.want == env.Adjudication && sum.Adjudications != len(games) {
				t.Errorf("summary counts %d adjudications of %d games", sum.Adjudications, len(games))
			}
			// Replayed at the cap, the accuracy check agrees with itself:
			// the games were decided by the rule it applies.
			chk := CheckAdjudication(games, 3, c.margin, agent.DefaultValues())
			if c.want == env.Adjudication && (chk.Reached != len(games) || chk.Confirmed != len(games) || chk.Accuracy != 1) {
				t.Errorf("CheckAdjudication at ply 3 = %+v, want every game reached and confirmed", chk)
			}
		})
	}
}
