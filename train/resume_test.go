package train

import (
	"context"
	"testing"
	"time"
)

// TestRunStoppedOftenAndResumedMatchesUninterruptedRun runs the same
// configuration twice: once straight through, once stopped by a short
// budget over and over (in self-play, training and matches alike) and
// resumed each time. Both must end with the same generations, games per
// generation, training steps per generation and checkpoint step counts.
func TestRunStoppedOftenAndResumedMatchesUninterruptedRun(t *testing.T) {
	cfg := tinyConfig(t)
	const gens = 3
	straight := t.TempDir()
	rep, err := Run(context.Background(), Options{Dir: straight, Config: cfg, Generations: gens})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped != "generations" || rep.Generations != gens {
		t.Fatalf("straight run: %+v", rep)
	}
	checkRunComplete(t, straight, cfg, gens)

	// The calls' budgets start far below the straight run's time and grow
	// by half each call, so the run is interrupted several times whatever
	// the machine's speed or load (a budget taken from the straight run's
	// time was too long when that run was slowed by other work), and it
	// always finishes.
	budget := 20 * time.Millisecond
	stopped := t.TempDir()
	calls, budgetStops := 0, 0
	for {
		calls++
		if calls > 500 {
			t.Fatal("the interrupted run made no progress in 500 calls")
		}
		rep, err := Run(context.Background(), Options{Dir: stopped, Config: cfg, Generations: gens, Budget: budget})
		if err != nil {
			t.Fatalf("call %d: %v", calls, err)
		}
		if rep.Stopped == "generations" {
			break
		}
		budgetStops++
		budget += budget / 2
	}
	if budgetStops < 2 {
		t.Fatalf("the run was stopped only %d times: the test did not interrupt it", budgetStops)
	}
	t.Logf("%d calls, %d stopped by the budget", calls, budgetStops)
	checkRunComplete(t, stopped, cfg, gens)
	a, b := readMetrics(t, straight), readMetrics(t, stopped)
	for i := range a {
		if a[i].Train.TotalSteps != b[i].Train.TotalSteps || a[i].SelfPlay.Games != b[i].SelfPlay.Games || len(a[i].Matches) != len(b[i].Matches) {
			t.Errorf("generation %d differs: straight %+v %+v, interrupted %+v %+v", i, a[i].Train, a[i].SelfPlay, b[i].Train, b[i].SelfPlay)
		}
	}
	for g := 0; g <= gens; g++ {
		sa, err1 := loadCheckpointSteps(GenCheckpoint(straight, g))
		sb, err2 := loadCheckpointSteps(GenCheckpoint(stopped, g))
		if err1 != nil || err2 != nil || sa != sb {
			t.Errorf("generation %d checkpoint steps: straight %d (%v), interrupted %d (%v)", g, sa, err1, sb, err2)
		}
	}
}
