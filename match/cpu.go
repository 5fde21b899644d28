package match

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"bomberzero/env"
	"bomberzero/internal/cputime"
)

// Meter names how the CPU time of a player's moves is measured: each
// strength figure states it beside the CPU milliseconds a move of each side
// (docs/match.md).
type Meter string

const (
	// MeterThread reads the CPU clock of the OS thread the move is
	// computed on, the goroutine that calls Choose being locked to it for
	// the move: exact for a player that computes on that goroutine alone
	// (random, greedy, alphabeta, engine with one thread, the searching
	// players), whatever else the process and the machine run. Work the
	// Go runtime does on other threads (background garbage collection) is
	// not counted; the players above allocate little while they think.
	MeterThread Meter = "thread"
	// MeterProcess reads the process's CPU time over the move: for a
	// player whose work spreads over goroutines (engine with more than one
	// thread) and for players that do not say. Exact when one game runs at
	// a time (match --workers 1); with more games at once it also counts
	// theirs, an upper bound (Result.Workers says how many ran).
	MeterProcess Meter = "process"
	// MeterEngine is an outside engine's process's CPU time over the move,
	// which the player reads itself (SelfTimed).
	MeterEngine Meter = "engine process"
)

// Metered is a Player that says how the CPU time of its moves is measured:
// MeterThread or MeterProcess. A Player that is not Metered, or says another
// Meter, is measured by MeterProcess, the measure that misses nothing of this
// process; a SelfTimed player by its own figure.
type Metered interface {
	Player
	Meter() Meter
}

// SelfTimed is a Player that measures the CPU time of its own moves, as an
// outside engine's player reads its engine's process: MoveCPU returns that
// of its last move, or an error when it could not be read. PlayGame calls
// it after each move the player made.
type SelfTimed interface {
	Player
	MoveCPU() (time.Duration, error)
}

// MoveTime is what one move cost its player.
type MoveTime struct {
	// Side is the colour that moved.
	Side env.Color
	// Meter is how CPU was measured; "" when it could not be (CPU is 0).
	Meter Meter
	// CPU is the CPU time of the move, Wall the time on the clock.
	CPU  time.Duration
	Wall time.Duration
}

// meterOf returns how p's moves are measured: MeterEngine for a SelfTimed
// player, MeterThread for one that says so, MeterProcess for every other.
func meterOf(p Player) Meter {
	if _, ok := p.(SelfTimed); ok {
		return MeterEngine
	}
	if m, ok := p.(Metered); ok && m.Meter() == MeterThread {
		return MeterThread
	}
	return MeterProcess
}

// timedChoose asks p for its move in pos and measures what the move cost
// by p's meter. A meter that cannot be read on this system falls back to
// MeterProcess (the thread clock off Linux), or leaves the move unmeasured.
func timedChoose(ctx context.Context, p Player, pos *env.Position) (env.Move, MoveTime, error) {
	t := MoveTime{Side: pos.SideToMove(), Meter: meterOf(p)}
	if t.Meter == MeterThread {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	var cpu0 time.Duration
	if t.Meter == MeterThread {
		c, err := cputime.Thread()
		if err != nil {
			t.Meter = MeterProcess
		}
		cpu0 = c
	}
	if t.Meter == MeterProcess {
		cpu0 = processCPU()
	}
	start := time.Now()
	m, err := choose(ctx, p, pos)
	t.Wall = time.Since(start)
	switch t.Meter {
	case MeterThread:
		c, cerr := cputime.Thread()
		t.CPU = c - cpu0
		if cerr != nil {
			t.Meter, t.CPU = "", 0
		}
	case MeterProcess:
		t.CPU = processCPU() - cpu0
		if cpu0 == 0 {
			t.Meter, t.CPU = "", 0
		}
	case MeterEngine:
		c, cerr := p.(SelfTimed).MoveCPU()
		t.CPU = c
		if cerr != nil {
			t.Meter, t.CPU = "", 0
		}
	}
	return m, t, err
}

// processCPU is the process's CPU time so far (0 where the system cannot
// say).
func processCPU() time.Duration { return time.Duration(cputime.Seconds() * 1e9) }

// choose asks p for its move, through ChooseContext when p has it.
func choose(ctx context.Context, p Player, pos *env.Position) (env.Move, error) {
	if cp, ok := p.(ContextPlayer); ok {
		return cp.ChooseContext(ctx, pos)
	}
	return p.Choose(pos)
}

// Times sums up what one player's moves cost in a match: how its CPU was
// measured, the CPU and wall milliseconds a move (mean, median and 90th
// percentile) and the number of its moves.
type Times struct {
	// Meter is how the CPU was measured (a Meter, or several joined by
	// "+" when the player's moves were measured differently).
	Meter string `json:"cpu_measure"`
	// Plies is the number of moves the player made; CPUPlies those whose
	// CPU time was measured, which the CPU figures are over.
	Plies    int `json:"plies"`
	CPUPlies int `json:"cpu_plies"`
	// CPU and wall milliseconds a move.
	CPUMeanMS    float64 `json:"cpu_ms_mean"`
	CPUMedianMS  float64 `json:"cpu_ms_median"`
	CPUP90MS     float64 `json:"cpu_ms_p90"`
	WallMeanMS   float64 `json:"wall_ms_mean"`
	WallMedianMS float64 `json:"wall_ms_median"`
	WallP90MS    float64 `json:"wall_ms_p90"`
}

// String writes the times for a person, as "CPU 12.3 ms a move (median
// 11.9, p90 20.1; thread), wall 13.0 ms (median 12.1, p90 21.5), 812
// plies".
func (t Times) String() string {
	if t.Plies == 0 {
		return "no moves"
	}
	cpu := "CPU not measured"
	if t.CPUPlies > 0 {
		cpu = fmt.Sprintf("CPU %s ms a move (median %s, p90 %s; %s", FormatMS(t.CPUMeanMS), FormatMS(t.CPUMedianMS), FormatMS(t.CPUP90MS), t.Meter)
		if t.CPUPlies < t.Plies {
			cpu += fmt.Sprintf(", %d of the moves", t.CPUPlies)
		}
		cpu += ")"
	}
	return fmt.Sprintf("%s, wall %s ms (median %s, p90 %s), %d plies", cpu, FormatMS(t.WallMeanMS), FormatMS(t.WallMedianMS), FormatMS(t.WallP90MS), t.Plies)
}

// FormatMS writes milliseconds with the digits that matter at their size:
// "1234", "12.3", "0.042".
func FormatMS(ms float64) string {
	switch {
	case ms >= 100:
		return fmt.Sprintf("%.0f", ms)
	case ms >= 1:
		return fmt.Sprintf("%.1f", ms)
	}
	return fmt.Sprintf("%.3f", ms)
}

// moveSamples gathers one player's move times over a match.
type moveSamples struct {
	cpu, wall []time.Duration
	meters    []Meter
	plies     int
}

// add records one move.
func (s *moveSamples) add(t MoveTime) {
	s.plies++
	s.wall = append(s.wall, t.Wall)
	if t.Meter == "" {
		return
	}
	s.cpu = append(s.cpu, t.CPU)
	if !slices.Contains(s.meters, t.Meter) {
		s.meters = append(s.meters, t.Meter)
	}
}

// times sums the samples up.
func (s *moveSamples) times() Times {
	t := Times{Plies: s.plies, CPUPlies: len(s.cpu)}
	for i, m := range s.meters {
		if i > 0 {
			t.Meter += "+"
		}
		t.Meter += string(m)
	}
	t.CPUMeanMS, t.CPUMedianMS, t.CPUP90MS = summarize(s.cpu)
	t.WallMeanMS, t.WallMedianMS, t.WallP90MS = summarize(s.wall)
	return t
}

// summarize returns the mean, median and 90th percentile (nearest rank) of
// d in milliseconds; zeros for no samples.
func summarize(d []time.Duration) (mean, median, p90 float64) {
	if len(d) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	var sum time.Duration
	for _, x := range s {
		sum += x
	}
	ms := func(x time.Duration) float64 { return float64(x) / float64(time.Millisecond) }
	n := len(s)
	median = ms(s[(n-1)/2])
	if n%2 == 0 {
		median = (ms(s[n/2-1]) + ms(s[n/2])) / 2
	}
	rank := (9*n + 9) / 10 // ceil(0.9 n)
	return ms(sum) / float64(n), median, ms(s[rank-1])
}
