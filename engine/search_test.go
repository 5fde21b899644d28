package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"bomberzero/env"
)

// checkMatePV plays a mate score's principal variation from pos and
// checks that it is legal and ends the game as announced, at the
// announced distance.
func checkMatePV(t *testing.T, pos *env.Position, res Result) {
	t.Helper()
	if !IsMate(res.Score) {
		return
	}
	want := MateMoves(res.Score)
	plies := 2*want - 1
	if want < 0 {
		plies = -2 * want
	}
	if len(res.PV) != plies {
		t.Errorf("%s: score %s with a PV of %d plies, want %d", pos, ScoreText(res.Score), len(res.PV), plies)
		return
	}
	p := pos.Clone()
	us := p.SideToMove()
	var buf [env.MaxMoves]env.Move
	for i, m := range res.PV {
		if !slices.Contains(p.LegalMoves(buf[:0]), m) {
			t.Errorf("%s: PV move %d (%#x) is not legal", pos, i, m)
			return
		}
		p.DoMove(m)
	}
	r, why := p.Status()
	if got := r.For(us); got != map[bool]int{true: 1, false: -1}[want > 0] {
		t.Errorf("%s: announced %s but the PV ends in %s (%s)", pos, ScoreText(res.Score), r, why)
	}
}

func TestFindsTheBackRankMateInOne(t *testing.T) {
	e, v := newTestEngine(t, "chess", 1)
	pos, err := v.ParsePosition("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Search(context.Background(), pos, Limits{Depth: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if MateMoves(res.Score) != 1 || pos.FormatMove(res.Move) != "d1d8" {
		t.Errorf("played %s with %s, want d1d8 mate 1", pos.FormatMove(res.Move), ScoreText(res.Score))
	}
	checkMatePV(t, pos, res)
}

func TestSeesTheScepterWinAsAMate(t *testing.T) {
	e, v := newTestEngine(t, "claustrophobia", 1)
	pos, err := v.ParsePosition("6*/4K2/5**/5**/5**/5**/7/k5* w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Search(context.Background(), pos, Limits{Depth: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if MateMoves(res.Score) != 1 {
		t.Errorf("played %s with %s, want a scepter win in 1", pos.FormatMove(res.Move), ScoreText(res.Score))
	}
	checkMatePV(t, pos, res)
}

func TestStalemateIsADrawInsideTheSearch(t *testing.T) {
	e, v := newTestEngine(t, "chess", 1)
	// White a queen up, but Qb6?? stalemates; every other move wins.
	pos, err := v.ParsePosition("k7/8/8/2Q5/8/8/8/K7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Search(context.Background(), pos, Limits{Depth: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mv := pos.FormatMove(res.Move); mv == "c6b6" || res.Score < 500 {
		t.Errorf("played %s with %s, want a winning move, not the stalemate c6b6", mv, ScoreText(res.Score))
	}
}

// TestEveryMoveIsLegalAndEveryMateIsRealInEveryVariant plays short games
// in every variant and option: random opening plies, then the engine at a
// small node limit for both sides.
func TestEveryMoveIsLegalAndEveryMateIsRealInEveryVariant(t *testing.T) {
	plies, nodes := 24, int64(1000)
	if testing.Short() {
		plies, nodes = 12, 600
	}
	for i, v := range variantsUnderTest(t) {
		e, err := New(v, Options{HashMB: 2, Seed: uint64(i), Table: testTable(v)})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		pos := v.NewPosition()
		var buf [env.MaxMoves]env.Move
		for ply := 0; ply < plies; ply++ {
			legal := pos.LegalMoves(buf[:0])
			if r, _ := pos.StatusOf(len(legal)); r != env.Ongoing {
				break
			}
			var m env.Move
			if ply < 4 {
				m = legal[rng.IntN(len(legal))]
			} else {
				res, err := e.Search(context.Background(), pos, Limits{Nodes: nodes}, nil)
				if err != nil {
					t.Fatalf("%s: %v", v.Name, err)
				}
				if !slices.Contains(legal, res.Move) {
					t.Fatalf("%s: %s: engine played %#x, not a legal move", v.Name, pos, res.Move)
				}
				checkMatePV(t, pos, res)
				m = res.Move
			}
			pos.DoMove(m)
		}
	}
}

func TestSameSeedAndNodeLimitGiveTheSameSearch(t *testing.T) {
	for _, name := range []string{"fbgc", "chess", "birds-ninjas"} {
		var first Result
		for run := 0; run < 2; run++ {
			e, v := newTestEngine(t, name, 42)
			pos := v.NewPosition()
			res, err := e.Search(context.Background(), pos, Limits{Nodes: 5000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if run == 0 {
				first = res
				continue
			}
			if res.Move != first.Move || res.Score != first.Score || res.Nodes != first.Nodes || !slices.Equal(res.PV, first.PV) {
				t.Errorf("%s: second run %v %d %d, first %v %d %d", name, res.Move, res.Score, res.Nodes, first.Move, first.Score, first.Nodes)
			}
		}
	}
}

func TestNodeLimitIsExactWithOneThread(t *testing.T) {
	e, v := newTestEngine(t, "fbgc", 3)
	res, err := e.Search(context.Background(), v.NewPosition(), Limits{Nodes: 3000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes != 3000 {
		t.Errorf("searched %d nodes, want the limit 3000", res.Nodes)
	}
}

func TestDepthLimitEndsAtThatDepth(t *testing.T) {
	e, v := newTestEngine(t, "fbgc", 3)
	var depths []int
	res, err := e.Search(context.Background(), v.NewPosition(), Limits{Depth: 4}, func(i Info) { depths = append(depths, i.Depth) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Depth != 4 || !slices.Equal(depths, []int{1, 2, 3, 4}) || len(res.PV) == 0 || res.PV[0] != res.Move {
		t.Errorf("depth %d, reported %v, PV %v for move %v: want depth 4 after 1-4, a PV led by the move", res.Depth, depths, res.PV, res.Move)
	}
}

// TestStopIsObeyedWithin50ms cancels an infinite search, with one and two
// threads, and times its answer. The bound is 50 ms on an idle machine;
// the test allows 500 ms so that a loaded machine (five builds on two
// cores) does not fail it.
func TestStopIsObeyedWithin50ms(t *testing.T) {
	v, _ := env.LoadVariant("fbgc-superpower")
	for _, threads := range []int{1, 2} {
		e, err := New(v, Options{HashMB: 4, Threads: threads, Table: testTable(v)})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		stopped := make(chan time.Time, 1)
		go func() {
			time.Sleep(150 * time.Millisecond)
			stopped <- time.Now()
			cancel()
		}()
		res, err := e.Search(ctx, v.NewPosition(), Limits{Infinite: true}, nil)
		lag := time.Since(<-stopped)
		if err != nil || res.Move == env.NoMove {
			t.Fatalf("%d threads, stopped search: move %v, error %v", threads, res.Move, err)
		}
		t.Logf("%d threads: answered %v after the stop", threads, lag)
		if lag > 500*time.Millisecond {
			t.Errorf("%d threads: answered %v after the stop, want within 50 ms (500 ms allowed under load)", threads, lag)
		}
	}
}

func TestMoveTimeIsKept(t *testing.T) {
	e, v := newTestEngine(t, "fbgc", 1)
	start := time.Now()
	if _, err := e.Search(context.Background(), v.NewPosition(), Limits{MoveTime: 100 * time.Millisecond}, nil); err != nil {
		t.Fatal(err)
	}
	// At most 100 ms and the last poll's lag; 600 ms allowed for a loaded
	// machine (a search that ignored the limit would run for minutes).
	if el := time.Since(start); el < 100*time.Millisecond || el > 600*time.Millisecond {
		t.Errorf("movetime 100ms took %v", el)
	}
}

func TestTwoThreadsSearchTogether(t *testing.T) {
	v, _ := env.LoadVariant("fbgc")
	e, err := New(v, Options{HashMB: 4, Threads: 2, Table: testTable(v)})
	if err != nil {
		t.Fatal(err)
	}
	pos := v.NewPosition()
	// A node limit, not a depth: a shallow search can end before the
	// helper's goroutine is first scheduled on a loaded machine (depth 6
	// took 10 ms in CI's run under load, and the helper had 0 nodes);
	// 100,000 nodes keep the main thread busy for over 100 ms.
	res, err := e.Search(context.Background(), pos, Limits{Nodes: 100_000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf [env.MaxMoves]env.Move
	if !slices.Contains(pos.LegalMoves(buf[:0]), res.Move) || res.Depth < 4 || e.workers[1].nodes == 0 {
		t.Errorf("two threads: move %v depth %d, helper nodes %d", res.Move, res.Depth, e.workers[1].nodes)
	}
}

func TestSearchOfAFinishedGameIsRefused(t *testing.T) {
	e, v := newTestEngine(t, "chess", 1)
	pos, _ := v.ParsePosition("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1")
	if _, err := e.Search(context.Background(), pos, Limits{Depth: 2}, nil); err == nil {
		t.Errorf("search of a mated position accepted")
	}
	if _, err := e.Search(context.Background(), v.NewPosition(), Limits{Depth: -2}, nil); err == nil {
		t.Errorf("depth -2 accepted")
	}
}

func TestSearchNodesAllocateNothing(t *testing.T) {
	e, v := newTestEngine(t, "fbgc", 1)
	pos := v.NewPosition()
	if _, err := e.Search(context.Background(), pos, Limits{Depth: 5}, nil); err != nil {
		t.Fatal(err)
	}
	w := e.workers[0]
	w.s.stop.Store(false)
	w.s.nodeLimit = 0
	w.s.hard = 0
	if n := testing.AllocsPerRun(5, func() { w.search(-Infinite, Infinite, 4, 0, false, w.pos.InCheck()) }); n != 0 {
		t.Errorf("a depth-4 search allocates %.1f times", n)
	}
}

func TestClockLimitSpendsAShareOfTheTimeLeft(t *testing.T) {
	e, v := newTestEngine(t, "fbgc", 1)
	start := time.Now()
	res, err := e.Search(context.Background(), v.NewPosition(), Limits{Time: 2 * time.Second, Inc: 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 2 s over 40 moves: a 50 ms target, a hard stop at 200 ms.
	if el := time.Since(start); el > 800*time.Millisecond || res.Depth < 1 {
		t.Errorf("2 s on the clock: took %v to depth %d, want at most 200 ms (800 allowed under load; all 2 s would be a miss) and an iteration done", el, res.Depth)
	}
}

func TestMultiPVGivesDistinctLegalLinesBestFirst(t *testing.T) {
	v, _ := env.LoadVariant("fbgc")
	e, err := New(v, Options{HashMB: 4, MultiPV: 3, Table: testTable(v)})
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := env.PlayMoves(v.NewPosition(), "e2e4 e9e7 d2d4 d9d7")
	var infos []Info
	res, err := e.Search(context.Background(), pos, Limits{Depth: 5}, func(i Info) { infos = append(infos, i) })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lines) != 3 || len(infos) != 15 || res.Move != res.Lines[0].PV[0] {
		t.Fatalf("%d lines, %d reports, move %v: want 3 lines, 3 reports an iteration, the first line's move", len(res.Lines), len(infos), res.Move)
	}
	seen := map[env.Move]bool{}
	var buf [env.MaxMoves]env.Move
	for k, l := range res.Lines {
		if seen[l.PV[0]] || !slices.Contains(pos.LegalMoves(buf[:0]), l.PV[0]) {
			t.Errorf("line %d starts with %v: a repeated or illegal move", k+1, l.PV[0])
		}
		seen[l.PV[0]] = true
		if k > 0 && l.Score > res.Lines[k-1].Score {
			t.Errorf("line %d scores %d above line %d's %d", k+1, l.Score, k, res.Lines[k-1].Score)
		}
		if infos[12+k].MultiPV != k+1 || !slices.Equal(infos[12+k].PV, l.PV) {
			t.Errorf("report %d of the last iteration: multipv %d, want %d with the line's PV", k, infos[12+k].MultiPV, k+1)
		}
	}
	if err := e.SetMultiPV(0); err == nil {
		t.Errorf("multipv 0 accepted")
	}
	// A position with fewer moves than lines gives one line a move.
	pos, _ = v.ParsePosition("k9/10/10/10/10/10/10/10/10/K9 w - - 0 1")
	if res, err = e.Search(context.Background(), pos, Limits{Depth: 3}, nil); err != nil || len(res.Lines) != 3 {
		t.Errorf("king against king, 3 moves: %d lines, %v", len(res.Lines), err)
	}
}

func TestFiftyMoveRuleIsSeenInsideTheSearch(t *testing.T) {
	e, v := newTestEngine(t, "chess", 1)
	// 99 half-moves without a pawn move or capture: every queen or king
	// move draws at once; only the pawn keeps White's win.
	pos, err := v.ParsePosition("4k3/8/8/8/8/8/4P3/Q3K3 w - - 99 80")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Search(context.Background(), pos, Limits{Depth: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mv := pos.FormatMove(res.Move); (mv != "e2e3" && mv != "e2e4") || res.Score < 500 {
		t.Errorf("played %s with %s, want a pawn move keeping the win", mv, ScoreText(res.Score))
	}
}

func TestARepetitionInsideTheSearchLineIsADraw(t *testing.T) {
	e, v := newTestEngine(t, "chess", 1)
	pos, err := env.PlayMoves(v.NewPosition(), "g1f3 g8f6 f3g1 f6g8")
	if err != nil {
		t.Fatal(err)
	}
	w := e.workers[0]
	w.pos = pos
	// The start position again, its first occurrence four plies back: a
	// draw when those plies are inside the search, not when they were
	// played before its root.
	if s, over := w.drawnOrWon(4); !over || s != 0 {
		t.Errorf("repeated 4 plies back at ply 4: %d, %v; want a draw", s, over)
	}
	if _, over := w.drawnOrWon(3); over {
		t.Errorf("repeated 4 plies back at ply 3 (before the root): scored as over")
	}
	pos, _ = env.PlayMoves(pos, "g1f3 g8f6 f3g1 f6g8") // the third occurrence
	w.pos = pos
	if s, over := w.drawnOrWon(1); !over || s != 0 {
		t.Errorf("third occurrence: %d, %v; want the draw by the rules", s, over)
	}
}

// TestStoppedSearchMoveScoreAndLinesAgree stops searches at many node
// counts, in the middle of their iterations, with one line and with three:
// the move played always leads the PV and the first line, the score is the
// first line's, every line is legal from the root and starts with its own
// move. Some of the stops fall after a move beat the last finished
// iteration's best, the case where the move is the unfinished iteration's;
// the test counts them and fails if the sweep never met one.
func TestStoppedSearchMoveScoreAndLinesAgree(t *testing.T) {
	adopted := 0
	var buf [env.MaxMoves]env.Move
	for _, name := range []string{"fbgc", "chess"} {
		v, _ := env.LoadVariant(name)
		for _, multiPV := range []int{1, 3} {
			e, err := New(v, Options{HashMB: 4, MultiPV: multiPV, Table: testTable(v)})
			if err != nil {
				t.Fatal(err)
			}
			for nodes := int64(500); nodes <= 40000; nodes += 1500 {
				e.Clear()
				pos := v.NewPosition()
				var last Info // the last finished iteration's first line
				res, err := e.Search(context.Background(), pos, Limits{Nodes: nodes}, func(i Info) {
					if i.MultiPV == 1 {
						last = i
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.PV) == 0 || res.PV[0] != res.Move || len(res.Lines) == 0 ||
					!slices.Equal(res.Lines[0].PV, res.PV) || res.Lines[0].Score != res.Score {
					t.Fatalf("%s multipv %d, %d nodes: move %v, score %d, PV %v, first line %+v: want the move leading the PV and the first line, the first line's score",
						name, multiPV, nodes, res.Move, res.Score, res.PV, res.Lines)
				}
				if len(res.Lines) > multiPV {
					t.Errorf("%s multipv %d, %d nodes: %d lines", name, multiPV, nodes, len(res.Lines))
				}
				seen := map[env.Move]bool{}
				for k, l := range res.Lines {
					if seen[l.PV[0]] {
						t.Errorf("%s multipv %d, %d nodes: line %d repeats %v", name, multiPV, nodes, k+1, l.PV[0])
					}
					seen[l.PV[0]] = true
					p := pos.Clone()
					for _, m := range l.PV {
						if !slices.Contains(p.LegalMoves(buf[:0]), m) {
							t.Fatalf("%s multipv %d, %d nodes: line %d %v has the illegal %v", name, multiPV, nodes, k+1, l.PV, m)
						}
						p.DoMove(m)
					}
				}
				if len(last.PV) > 0 && last.PV[0] != res.Move {
					adopted++
				}
			}
		}
	}
	if adopted == 0 {
		t.Error("no stop fell after a move had beaten the finished iteration's best: the sweep does not test that case")
	}
	t.Logf("%d of the stops played the unfinished iteration's move", adopted)
}
