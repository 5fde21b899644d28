package session

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"bomberzero/engine"
	"bomberzero/engine/nnue"
	"bomberzero/env"
	"bomberzero/frontend"
	"bomberzero/mcts"
)

func TestSearchFindsAMateInOneAndReportsItInTheSessionsNotation(t *testing.T) {
	s, _ := newTest(t)
	if err := s.Set("Variant", "fbgc"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Variant().ParsePosition("k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var infos []Info
	m, err := s.Search(context.Background(), p, "material", Limits{Start: 64, Limit: 500}, func(i Info) { infos = append(infos, i) })
	if err != nil {
		t.Fatal(err)
	}
	if got := s.FormatMove(p, m); got != "e1e10" {
		t.Errorf("mate in one: %s, want e1e10", got)
	}
	if len(infos) == 0 {
		t.Fatal("no search steps reported")
	}
	last := infos[len(infos)-1]
	if last.Mate != 1 || len(last.PV) == 0 || last.PV[0] != "e1e10" || last.Depth != len(last.PV) || last.Nodes < 64 {
		t.Errorf("the last step: %+v, want mate 1 with the pv e1e10 in UCI's form", last)
	}
}

func TestSearchOfAnEndedGameOrWithAnUnusableModel(t *testing.T) {
	s, _ := newTest(t)
	mated, err := env.PlayMoves(s.Position(), "f2f3 e7e5 g2g4 d8h4")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := s.Search(context.Background(), mated, "material", Limits{Start: 1, Limit: 1}, nil); m != env.NoMove || err != nil {
		t.Errorf("a mated position: %v, %v; want no move and no error", m, err)
	}
	start := s.Position()
	m, err := s.Search(context.Background(), start, "/no/such/checkpoint", Limits{Start: 1, Limit: 8}, nil)
	if err == nil || !strings.Contains(err.Error(), `model "/no/such/checkpoint"`) {
		t.Errorf("a missing checkpoint: %v, want an error naming the model", err)
	}
	if m != start.LegalMoves(nil)[0] {
		t.Errorf("a missing checkpoint: %s, want the first legal move", s.FormatMove(start, m))
	}
}

func TestStopEndsTheRunningSearchAndReturnsItsMove(t *testing.T) {
	s, _ := newTest(t)
	if s.Running() || s.Done() != nil || s.Stop() != env.NoMove {
		t.Fatal("a new session runs a search")
	}
	began := time.Now()
	pos := s.Position().Clone()
	s.Start(func(ctx context.Context, _ context.CancelFunc) env.Move {
		m, _ := s.Search(ctx, pos, "material", Limits{Start: 64, Limit: MaxPlayouts}, nil)
		return m
	})
	if !s.Running() {
		t.Fatal("not running after Start")
	}
	time.Sleep(50 * time.Millisecond)
	m := s.Stop()
	if m == env.NoMove || s.Running() {
		t.Errorf("Stop: %v, running %v; want a move and no search", m, s.Running())
	}
	if d := time.Since(began); d > 20*time.Second {
		t.Errorf("Stop took %v", d)
	}
	// A search that stops itself is done without Stop.
	s.Start(func(ctx context.Context, stop context.CancelFunc) env.Move {
		stop()
		<-ctx.Done()
		return pos.LegalMoves(nil)[1]
	})
	select {
	case <-s.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a search that stopped itself is not done")
	}
	if got := s.Stop(); got != pos.LegalMoves(nil)[1] {
		t.Errorf("the finished search's move: %v", got)
	}
}

func TestMateInCountsMovesAndSignsThem(t *testing.T) {
	for _, c := range []struct {
		r    frontend.Report
		want int
	}{
		{frontend.Report{Proven: true, Value: 1, PV: []string{"a"}}, 1},
		{frontend.Report{Proven: true, Value: 1, PV: []string{"a", "b", "c"}}, 2},
		{frontend.Report{Proven: true, Value: -1, PV: []string{"a", "b"}}, -1},
		{frontend.Report{Proven: true, Value: -1, PV: []string{"a", "b", "c", "d"}}, -2},
		{frontend.Report{Proven: true, Value: 1}, 1},
		{frontend.Report{Proven: true, Value: 0, PV: []string{"a"}}, 0},
		{frontend.Report{Proven: false, Value: 0.9, PV: []string{"a"}}, 0},
	} {
		if got := mateIn(c.r); got != c.want {
			t.Errorf("mateIn(%+v) = %d, want %d", c.r, got, c.want)
		}
	}
}

func TestTheEngineSearchesWithTheSessionsOptions(t *testing.T) {
	s, _ := newTest(t)
	if err := s.Set("Variant", "fbgc"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Variant().ParsePosition("k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		option, value string
		lines         int
	}{
		{"MultiPV", "1", 1},
		{"MultiPV", "3", 3},
		{"Threads", "2", 3},
		{"Hash", "1", 3},
	} {
		if err := s.Set(c.option, c.value); err != nil {
			t.Fatal(err)
		}
		var infos []Info
		m, err := s.Search(context.Background(), p, EngineModel, Limits{Engine: engine.Limits{Depth: 3}}, func(i Info) { infos = append(infos, i) })
		if err != nil {
			t.Fatalf("%s %s: %v", c.option, c.value, err)
		}
		if got := s.FormatMove(p, m); got != "e1e10" {
			t.Errorf("%s %s: mate in one %s, want e1e10", c.option, c.value, got)
		}
		if len(infos) != 3*c.lines {
			t.Fatalf("%s %s: %d lines, want %d for 3 depths of %d lines", c.option, c.value, len(infos), 3*c.lines, c.lines)
		}
		last := infos[len(infos)-c.lines]
		if !last.Engine || last.Depth != 3 || last.Mate != 1 || last.PV[0] != "e1e10" || last.Nodes <= 0 || last.SelDepth < 1 {
			t.Errorf("%s %s: the best line at depth 3: %+v, want the engine's mate 1 by e1e10", c.option, c.value, last)
		}
		if want := map[bool]int{true: 1, false: 0}[c.lines > 1]; last.MultiPV != want {
			t.Errorf("%s %s: multipv %d, want %d", c.option, c.value, last.MultiPV, want)
		}
	}
	if s.Threads() != 2 || s.HashMB() != 1 {
		t.Errorf("threads %d hash %d, want 2 and 1", s.Threads(), s.HashMB())
	}
}

func TestTheEngineFollowsAVariantLoadedAgain(t *testing.T) {
	s, _ := newTest(t)
	for range 2 {
		// "new" in XBoard loads chess again: another variant to the engine.
		if err := s.SetVariant("chess"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Search(context.Background(), s.Position(), EngineModel, Limits{Engine: engine.Limits{Depth: 2}}, nil); err != nil {
			t.Errorf("after SetVariant: %v", err)
		}
	}
}

// A session's soft memory limit is its tree cap plus Hash plus the slack,
// and follows Hash when the engine is rebuilt.
func TestSessionLimitsMemoryToTheTreeCapAndHash(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	base := mcts.DefaultConfig()
	base.TreeMemoryMB = 64
	s, err := New(io.Discard, base, env.UCI{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(64+DefaultHashMB+MemorySlackMB)<<20; got != want {
		t.Errorf("limit %d, want %d", got, want)
	}
	if err := s.Set("Hash", "32"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.engineFor(s.Variant()); err != nil {
		t.Fatal(err)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(64+32+MemorySlackMB)<<20; got != want {
		t.Errorf("limit after Hash 32: %d, want %d", got, want)
	}
}

// The option EvalFile puts a learned net in the engine: a damaged file is
// refused naming it and keeps the classical evaluation, a chess net plays
// chess, the same net is refused for fbgc naming both variants, and
// "classical" goes back.
func TestEvalFileLoadsALearnedNetForItsVariantOnly(t *testing.T) {
	s, _ := newTest(t)
	dir := t.TempDir()
	chess, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "chess.nnue")
	if err := nnue.WriteFile(good, nnue.NewNet(nnue.NewFeatureSet(chess), 8, 4, 1)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.nnue")
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("EvalFile", bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a damaged net: %v, want an error naming %s", err, bad)
	}
	if s.EvalFile() != "" {
		t.Errorf("after a refused net the option is %q, want the classical evaluation", s.EvalFile())
	}
	if err := s.Set("EvalFile", good); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(context.Background(), s.Position(), EngineModel, Limits{Engine: engine.Limits{Depth: 2}}, nil); err != nil {
		t.Errorf("chess with a chess net: %v", err)
	}
	if err := s.Set("Variant", "fbgc"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Search(context.Background(), s.Position(), EngineModel, Limits{Engine: engine.Limits{Depth: 2}}, nil)
	if err == nil || !strings.Contains(err.Error(), good) || !strings.Contains(err.Error(), "chess") || !strings.Contains(err.Error(), "fbgc") {
		t.Errorf("fbgc with a chess net: %v, want an error naming the file and both variants", err)
	}
	if err := s.Set("EvalFile", "classical"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(context.Background(), s.Position(), EngineModel, Limits{Engine: engine.Limits{Depth: 2}}, nil); err != nil {
		t.Errorf("fbgc back on the classical evaluation: %v", err)
	}
}
