package teacher

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/selfplay"
)

// rusageThread is Linux's RUSAGE_THREAD: getrusage of the calling thread.
const rusageThread = 1

// TestTeacherLabelQuality compares how well the two teachers label
// positions (docs/training.md, "The search teacher"): on N fbgc positions,
// half from alphabeta:2 teacher games and half from engine teacher games
// (seed 777, every 5th recorded position), the share where each teacher's
// move is the move of a deeper search (the engine at 50,000 nodes), and
// the CPU time of each label (the thread's, Linux). Every search is fresh (no table from an
// earlier position), one goroutine. It runs only when TEACHER_QUALITY is
// set to N:
//
//	TEACHER_QUALITY=300 nice go test ./selfplay/teacher -run TestTeacherLabelQuality -v -timeout 30m
func TestTeacherLabelQuality(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TEACHER_QUALITY"))
	if n <= 0 {
		t.Skip("set TEACHER_QUALITY=N to measure the teachers' labels on N positions")
	}
	const variant, refNodes = "fbgc", 50000
	v, err := env.LoadVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	table, err := agent.DefaultValues().Table(v)
	if err != nil {
		t.Fatal(err)
	}
	// The positions.
	var positions []string
	for _, player := range []string{PlayerAlphaBeta, PlayerEngine} {
		cfg := DefaultConfig(variant)
		cfg.Player, cfg.Games, cfg.Workers, cfg.Seed, cfg.Out = player, max(1, n/40), 1, 777, t.TempDir()
		var before, after syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &before)
		sum, err := Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
		t.Logf("teacher %s: %d games, %d positions, %.0f positions a CPU second (the process's: writing and GC included), %.2f decisive, %.0f plies a game",
			cfg.Name(), sum.Games, sum.Positions, float64(sum.Positions)/cpu.Seconds(), sum.Decisive(), sum.MeanPlies())
		taken := 0
		for _, g := range readGames(t, cfg.Out) {
			for i := 0; i < len(g.Positions) && taken < n/2; i += 5 {
				positions, taken = append(positions, g.Positions[i].Position), taken+1
			}
		}
	}
	// CPU time of this thread (the searches run on it; a loaded machine's
	// other work is not counted as wall time would be).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpuNow := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(rusageThread, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	newEngine := func(multiPV int) *engine.Engine {
		e, err := engine.New(v, engine.Options{HashMB: EngineHashMB, Threads: 1, Seed: 1, MultiPV: multiPV, Table: table})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	type teacher struct {
		name  string
		label func(*env.Position) (env.Move, time.Duration)
		agree int
		cpu   time.Duration
	}
	engineLabel := func(nodes int64, multiPV int) func(*env.Position) (env.Move, time.Duration) {
		return func(pos *env.Position) (env.Move, time.Duration) {
			e := newEngine(multiPV) // its table's allocation is not timed
			t0 := cpuNow()
			res, err := selfplay.EngineSearch(context.Background(), e, pos, nodes)
			if err != nil {
				t.Fatal(err)
			}
			return res.Move, cpuNow() - t0
		}
	}
	teachers := []*teacher{
		{name: "alphabeta:2", label: func(pos *env.Position) (env.Move, time.Duration) {
			ab, err := match.NewAlphaBeta(v, 2, agent.DefaultValues(), 1)
			if err != nil {
				t.Fatal(err)
			}
			t0 := cpuNow()
			m, _, err := ab.Best(pos)
			if err != nil {
				t.Fatal(err)
			}
			return m, cpuNow() - t0
		}},
		{name: "engine:nodes=2000 multipv=4", label: engineLabel(2000, 4)},
		{name: "engine:nodes=2000 multipv=1", label: engineLabel(2000, 1)},
		{name: "engine:nodes=8000 multipv=4", label: engineLabel(8000, 4)},
	}
	ref := engineLabel(refNodes, 1)

	var refCPU time.Duration
	for _, text := range positions {
		pos, err := v.ParsePosition(text)
		if err != nil {
			t.Fatal(err)
		}
		best, cpu := ref(pos)
		refCPU += cpu
		for _, tc := range teachers {
			m, cpu := tc.label(pos)
			tc.cpu += cpu
			if m == best {
				tc.agree++
			}
		}
	}
	t.Logf("%d positions of %s; the reference engine at %d nodes: %.1f ms a position", len(positions), variant, refNodes,
		float64(refCPU.Microseconds())/1000/float64(len(positions)))
	for _, tc := range teachers {
		t.Logf("%-28s agrees %3d/%d = %.2f, %.2f ms a position", tc.name, tc.agree, len(positions),
			float64(tc.agree)/float64(len(positions)), float64(tc.cpu.Microseconds())/1000/float64(len(positions)))
	}
}
