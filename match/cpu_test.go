package match

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"bomberzero/env"
	"bomberzero/internal/cputime"
	"bomberzero/mcts"
)

// spin burns d of the calling goroutine's CPU time, by its thread's clock,
// the goroutine locked to its thread meanwhile.
func spin(t testing.TB, d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, err := cputime.Thread()
	if err != nil {
		t.Error(err)
		return
	}
	x := uint64(1)
	for {
		for range 2000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		now, err := cputime.Thread()
		if err != nil || now-t0 >= d || x == 0 {
			return
		}
	}
}

// burner is a player that burns a known CPU time a move, on its caller's
// goroutine or split over helper goroutines, then moves at random; meter
// is what it says of itself.
type burner struct {
	t       testing.TB
	per     time.Duration
	helpers int
	meter   Meter
	rnd     *Random
}

func (b *burner) Name() string { return "burner" }
func (b *burner) Meter() Meter { return b.meter }

func (b *burner) Choose(pos *env.Position) (env.Move, error) {
	if b.helpers == 0 {
		spin(b.t, b.per)
	} else {
		var wg sync.WaitGroup
		for range b.helpers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				spin(b.t, b.per/time.Duration(b.helpers))
			}()
		}
		wg.Wait()
	}
	return b.rnd.Choose(pos)
}

func burnerMaker(t testing.TB, per time.Duration, helpers int, meter Meter) Maker {
	return Maker{Spec: "burner", New: func(seed uint64) (Player, error) {
		return &burner{t: t, per: per, helpers: helpers, meter: meter, rnd: NewRandom(seed)}, nil
	}}
}

func linuxOnly(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the thread clock is read on Linux only")
	}
}

// TestMoveCPUIsWhatTheMoveBurned checks each measure against a player that
// burns a known CPU time a move. CPU time is what is asserted, which a
// loaded machine does not inflate; the bounds leave room for the runtime's
// own work. The thread clock misses work on helper goroutines, which is
// why a player that spreads its work says MeterProcess.
func TestMoveCPUIsWhatTheMoveBurned(t *testing.T) {
	linuxOnly(t)
	v := mustVariant(t, "fbgc")
	const per = 15 * time.Millisecond
	for _, c := range []struct {
		name     string
		helpers  int
		meter    Meter
		workers  int
		lo, hi   float64 // A's CPU ms a move
		wantName string
	}{
		{"thread, games at once", 0, MeterThread, 2, 15, 22, "thread"},
		{"process, one game at a time", 0, MeterProcess, 1, 15, 30, "process"},
		{"helpers by the process", 3, MeterProcess, 1, 15, 30, "process"},
		{"helpers missed by the thread", 3, MeterThread, 1, 0, 3, "thread"},
		{"a player that does not say", 0, "", 1, 15, 30, "process"},
		{"a player that says a measure it does not make", 0, MeterEngine, 1, 15, 30, "process"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{A: burnerMaker(t, per, c.helpers, c.meter), B: Maker{Spec: "random", New: func(s uint64) (Player, error) { return NewRandom(s), nil }},
				Games: 2, Variant: v, MaxPlies: 12, Workers: c.workers}
			if c.meter == "" {
				cfg.A = Maker{Spec: "plain", New: func(seed uint64) (Player, error) {
					return plain{&burner{t: t, per: per, rnd: NewRandom(seed)}}, nil
				}}
			}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			a, b := res.ATimes, res.BTimes
			if a.Meter != c.wantName || a.Plies != 12 || a.CPUPlies != 12 || b.Plies != 12 || b.Meter != "thread" {
				t.Fatalf("A %+v, B %+v: want 12 plies each, all measured, A by %s and B by thread", a, b, c.wantName)
			}
			if a.CPUMeanMS < c.lo || a.CPUMeanMS > c.hi {
				t.Errorf("A burned %v a move and was measured at %.2f ms (%s); want %g to %g", per, a.CPUMeanMS, a.Meter, c.lo, c.hi)
			}
			if a.CPUMedianMS < c.lo || a.CPUMedianMS > c.hi || a.CPUP90MS < a.CPUMedianMS {
				t.Errorf("A's median %.2f ms and p90 %.2f ms; want the median in %g to %g and the p90 at or above it", a.CPUMedianMS, a.CPUP90MS, c.lo, c.hi)
			}
			// Wall time is at least the CPU time of a move on one thread.
			if c.helpers == 0 && a.WallMeanMS < 0.95*a.CPUMeanMS {
				t.Errorf("A's wall %.2f ms a move below its CPU %.2f ms", a.WallMeanMS, a.CPUMeanMS)
			}
			if b.CPUMeanMS > 5 {
				t.Errorf("random was measured at %.2f ms a move", b.CPUMeanMS)
			}
		})
	}
}

// plain hides burner's Meter.
type plain struct{ b *burner }

func (p plain) Name() string                               { return "plain" }
func (p plain) Choose(pos *env.Position) (env.Move, error) { return p.b.Choose(pos) }

// TestThreadMeteredPlayersComputeOnTheirOwnThread holds the players that
// say MeterThread to it: over one game, with nothing else running in the
// process, their moves' thread CPU must account for nearly all the
// process's CPU. A player that started helper goroutines would fall short.
func TestThreadMeteredPlayersComputeOnTheirOwnThread(t *testing.T) {
	linuxOnly(t)
	v := mustVariant(t, "fbgc")
	opt := Options{Models: SearchLoader(mcts.DefaultConfig(), 100, "")}
	for _, spec := range []string{"alphabeta:3", "engine:nodes=20000", "material:200"} {
		t.Run(spec, func(t *testing.T) {
			mk, err := Parse(spec, v, opt)
			if err != nil {
				t.Fatal(err)
			}
			white, err := mk.New(1)
			if err != nil {
				t.Fatal(err)
			}
			if m := meterOf(white); m != MeterThread {
				t.Fatalf("%s says %q, want thread", spec, m)
			}
			black, err := mk.New(2)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			p0 := processCPU()
			g, err := PlayGame(context.Background(), white, black, v.NewPosition(), 16)
			p1 := processCPU()
			if err != nil {
				t.Fatal(err)
			}
			var sum time.Duration
			for _, m := range g.Times {
				if m.Meter != MeterThread {
					t.Fatalf("a move measured by %q", m.Meter)
				}
				sum += m.CPU
			}
			t.Logf("%d moves: thread CPU %v, process CPU %v", len(g.Times), sum, p1-p0)
			if proc := p1 - p0; sum < proc*6/10 || sum > proc+5*time.Millisecond {
				t.Errorf("%d moves: %v of thread CPU against %v of the process's; want at least 60%% and at most all of it", len(g.Times), sum, proc)
			}
		})
	}
}

func TestEngineMeterFollowsItsThreads(t *testing.T) {
	v := mustVariant(t, "fbgc")
	for _, c := range []struct {
		spec string
		want Meter
	}{{"engine:nodes=100", MeterThread}, {"engine:nodes=100:threads=1", MeterThread}, {"engine:nodes=100:threads=2", MeterProcess}} {
		mk, err := Parse(c.spec, v, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := mk.New(1)
		if err != nil {
			t.Fatal(err)
		}
		if got := meterOf(p); got != c.want {
			t.Errorf("%s: meter %q, want %q", c.spec, got, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	ms := func(xs ...float64) []time.Duration {
		var d []time.Duration
		for _, x := range xs {
			d = append(d, time.Duration(x*float64(time.Millisecond)))
		}
		return d
	}
	for _, c := range []struct {
		in                []time.Duration
		mean, median, p90 float64
	}{
		{nil, 0, 0, 0},
		{ms(4), 4, 4, 4},
		{ms(3, 1, 2), 2, 2, 3},
		{ms(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), 5.5, 5.5, 9},
		{ms(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 100), 10, 1, 1},
		{ms(1, 1, 1, 1, 1, 1, 1, 1, 1, 100, 100), 19, 1, 100},
	} {
		mean, median, p90 := summarize(c.in)
		if mean != c.mean || median != c.median || p90 != c.p90 {
			t.Errorf("summarize(%v) = %g, %g, %g; want %g, %g, %g", c.in, mean, median, p90, c.mean, c.median, c.p90)
		}
	}
}

// TestResultTimesRoundTripJSON checks that the new fields are written and
// read back, and that a result written before them still reads.
func TestResultTimesRoundTripJSON(t *testing.T) {
	v := mustVariant(t, "fbgc")
	mk := func(spec string) Maker {
		m, err := Parse(spec, v, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	res, err := Run(context.Background(), Config{A: mk("greedy"), B: mk("alphabeta:1"), Games: 2, Variant: v, MaxPlies: 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.ATimes.Plies == 0 || res.BTimes.Plies == 0 || res.ATimes.Plies+res.BTimes.Plies != 2*int(res.MeanPlies+0.5) {
		t.Fatalf("A %+v and B %+v over games of %.1f plies", res.ATimes, res.BTimes, res.MeanPlies)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"a_times":{"cpu_measure":"`, `"b_times"`, `"cpu_ms_mean"`, `"cpu_ms_p90"`, `"wall_ms_median"`, `"workers":1`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON %s lacks %s", b, key)
		}
	}
	if runtime.GOOS == "linux" && !strings.Contains(string(b), `"load_start":{"1m":`) {
		t.Errorf("JSON %s lacks the load average at the start", b)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.ATimes != res.ATimes || back.BTimes != res.BTimes || back.LoadStart != res.LoadStart || back.LoadEnd != res.LoadEnd || back.Workers != res.Workers {
		t.Errorf("read back A %+v, B %+v, load %v to %v, %d workers; wrote %+v, %+v, %v to %v, %d",
			back.ATimes, back.BTimes, back.LoadStart, back.LoadEnd, back.Workers, res.ATimes, res.BTimes, res.LoadStart, res.LoadEnd, res.Workers)
	}
	var old Result
	if err := json.Unmarshal([]byte(`{"a":"x","b":"y","total":{"wins":1},"mean_plies":12}`), &old); err != nil || old.ATimes != (Times{}) || old.A != "x" {
		t.Errorf("a result without times read as %+v, %v", old, err)
	}
}

func TestTimesString(t *testing.T) {
	for _, c := range []struct {
		in   Times
		want string
	}{
		{Times{}, "no moves"},
		{Times{Meter: "thread", Plies: 10, CPUPlies: 10, CPUMeanMS: 12.34, CPUMedianMS: 11.9, CPUP90MS: 20.06, WallMeanMS: 13, WallMedianMS: 12.1, WallP90MS: 21.5},
			"CPU 12.3 ms a move (median 11.9, p90 20.1; thread), wall 13.0 ms (median 12.1, p90 21.5), 10 plies"},
		{Times{Meter: "engine process", Plies: 10, CPUPlies: 9, CPUMeanMS: 1, CPUMedianMS: 1, CPUP90MS: 1, WallMeanMS: 2, WallMedianMS: 2, WallP90MS: 2},
			"CPU 1.0 ms a move (median 1.0, p90 1.0; engine process, 9 of the moves), wall 2.0 ms (median 2.0, p90 2.0), 10 plies"},
		{Times{Meter: "thread", Plies: 3, CPUPlies: 3, CPUMeanMS: 0.0421, CPUMedianMS: 0.04, CPUP90MS: 0.05, WallMeanMS: 150.4, WallMedianMS: 99.96, WallP90MS: 1234.5},
			"CPU 0.042 ms a move (median 0.040, p90 0.050; thread), wall 150 ms (median 100.0, p90 1234), 3 plies"},
		{Times{Plies: 4, WallMeanMS: 2, WallMedianMS: 2, WallP90MS: 3}, "CPU not measured, wall 2.0 ms (median 2.0, p90 3.0), 4 plies"},
	} {
		if got := c.in.String(); got != c.want {
			t.Errorf("String() = %q\nwant        %q", got, c.want)
		}
	}
}
