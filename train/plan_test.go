package train

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"bomberzero/setup"
)

// planRates are fixed rates for the plan's golden output: the teacher's
// measured, the rest guessed.
var planRates = rates{teacher: rate{perSecond: 25, measured: true}, steps: rate{perSecond: 12},
	selfPlay: rate{perSecond: 0.1}, evalGame: rate{perSecond: 0.5}}

// TestPlanGolden prints the plan of the embedded defaults at points of a
// run, and of a run without the teacher, against testdata/plan.golden
// (go test ./train -run PlanGolden -update rewrites it).
func TestPlanGolden(t *testing.T) {
	def, err := setup.DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	noTeacher := def
	noTeacher.Teacher.Enabled = false
	rounds := def
	rounds.Teacher.Games, rounds.Teacher.TrainSteps, rounds.Teacher.RoundCount = 20000, 40000, 10
	var b bytes.Buffer
	for _, tc := range []struct {
		name       string
		cfg        setup.Config
		gens       int
		gen        int
		phase      string
		left       float64
		wantPhases int
	}{
		{"defaults, at the start", def, 0, 0, phaseSelfPlay, 40, 5},
		{"defaults, first round's training", def, 0, 0, phaseTrain, 150, 5},
		{"defaults, second round's games", def, 0, 1, phaseSelfPlay, 280, 5},
		{"defaults, a self-play generation", def, 0, 7, phaseSelfPlay, 240, 5},
		{"defaults, --generations 1", def, 1, 0, phaseSelfPlay, 40, 2},
		{"defaults, --generations 12", def, 12, 0, phaseTrain, 150, 5},
		{"teacher off", noTeacher, 0, 0, phaseSelfPlay, 100, 3},
		{"ten teacher rounds, at the start", rounds, 0, 0, phaseSelfPlay, 40, 21},
		{"ten teacher rounds, the fifth's training", rounds, 0, 4, phaseTrain, 200, 21},
		{"ten teacher rounds, a self-play generation", rounds, 0, 12, phaseSelfPlay, 240, 21},
	} {
		plan := planOf(tc.cfg, tc.gens, planRates)
		if len(plan) != tc.wantPhases {
			t.Errorf("%s: %d phases, want %d", tc.name, len(plan), tc.wantPhases)
		}
		fmt.Fprintf(&b, "== %s\n", tc.name)
		writePlan(&b, tc.cfg, plan, stageAt(plan, tc.gen, tc.phase), tc.left)
	}
	got := b.String()
	path := filepath.Join("testdata", "plan.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("plan:\n%s\nwant (%s):\n%s", got, path, want)
	}
}

// TestPlanPhasesAndFirstModel checks the plan's structure: which phase a
// generation's phase is, and the time to the first model summed from the
// current phase's rest through generation 0's training.
func TestPlanPhasesAndFirstModel(t *testing.T) {
	cfg, err := setup.DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Teacher.Games, cfg.Teacher.FirstGames, cfg.Teacher.TrainSteps, cfg.Teacher.FirstSteps = 1000, 200, 3000, 600
	rs := rates{teacher: rate{perSecond: 20}, steps: rate{perSecond: 10}, selfPlay: rate{perSecond: 0.1}, evalGame: rate{perSecond: 1}}
	plan := planOf(cfg, 0, rs)
	kinds := []string{}
	for _, s := range plan {
		kinds = append(kinds, fmt.Sprintf("%s/%d/%d", s.kind, s.gen, s.work))
	}
	if got, want := strings.Join(kinds, " "), "teacher/0/200 train/0/600 teacher/1/800 train/1/2400 loop/2/32"; got != want {
		t.Fatalf("plan %s, want %s", got, want)
	}
	// 200 games at 20/s, 600 steps at 10/s.
	if plan[0].seconds != 10 || plan[1].seconds != 60 {
		t.Errorf("estimates %v and %v, want 10 and 60", plan[0].seconds, plan[1].seconds)
	}
	for _, tc := range []struct {
		gen   int
		phase string
		left  float64
		want  int     // the phase's index
		first float64 // seconds to the first model (-1: written)
	}{
		{0, phaseSelfPlay, 10, 0, 70},
		{0, phaseSelfPlay, 4, 0, 64},
		{0, phaseTrain, 30, 1, 30},
		{0, phaseEval, 0, 1, 0},
		{1, phaseSelfPlay, 40, 2, -1},
		{1, phaseEval, 0, 3, -1},
		{2, phaseSelfPlay, 300, 4, -1},
		{90, phaseTrain, 10, 4, -1},
	} {
		cur := stageAt(plan, tc.gen, tc.phase)
		if cur != tc.want {
			t.Errorf("gen %d %s: phase %d, want %d", tc.gen, tc.phase, cur, tc.want)
		}
		s, ok := untilFirstModel(plan, cur, tc.left)
		if ok != (tc.first >= 0) || ok && math.Abs(s-tc.first) > 1e-9 {
			t.Errorf("gen %d %s: first model in %v (%v), want %v", tc.gen, tc.phase, s, ok, tc.first)
		}
	}
	// teacher.rounds: the later rounds share the rest, the loop after them.
	rounds := cfg
	rounds.Teacher.RoundCount = 3
	kinds = kinds[:0]
	for _, s := range planOf(rounds, 0, rs) {
		kinds = append(kinds, fmt.Sprintf("%s/%d/%d", s.kind, s.gen, s.work))
	}
	if got, want := strings.Join(kinds, " "), "teacher/0/200 train/0/600 teacher/1/400 train/1/1200 teacher/2/400 train/2/1200 loop/3/32"; got != want {
		t.Errorf("three rounds: plan %s, want %s", got, want)
	}
	// Evaluated generations add their matches to their training's time.
	cfg.Eval.Every = 1
	plan = planOf(cfg, 0, rs)
	matches := float64(cfg.Eval.Games * (len(cfg.Eval.Baselines) + 1))
	if plan[1].seconds != 60+matches {
		t.Errorf("generation 0's training with its matches: %v s, want %v", plan[1].seconds, 60+matches)
	}
}

func TestApprox(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{
		{0, "under 10s"}, {4, "under 10s"}, {41, "about 40s"}, {60, "about 1m"}, {200, "about 3m20s"},
		{599, "about 10m"}, {1234, "about 21m"}, {3600, "about 1h"}, {4850, "about 1h21m"},
		{math.Inf(1), "unknown"}, {math.NaN(), "unknown"},
	} {
		if got := approx(tc.s); got != tc.want {
			t.Errorf("approx(%v) = %q, want %q", tc.s, got, tc.want)
		}
	}
	if got := thousands(1234567); got != "1,234,567" {
		t.Errorf("thousands = %q", got)
	}
}

// TestRunPrintsItsPlanUnlessQuiet runs two teacher rounds and a self-play
// generation: the progress writer gets the plan at each phase, "phase k
// of n" and the first model's path; without a progress writer (--quiet)
// no plan line reaches the output or the log.
func TestRunPrintsItsPlanUnlessQuiet(t *testing.T) {
	cfg := teacherConfig(t)
	cfg.Teacher.Games, cfg.Teacher.FirstGames, cfg.Teacher.TrainSteps, cfg.Teacher.FirstSteps = 6, 2, 10, 4
	var out, progress bytes.Buffer
	dir := t.TempDir()
	if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 3, Out: &out, Progress: &progress}); err != nil {
		t.Fatal(err)
	}
	p := progress.String()
	heads := regexp.MustCompile(`(?m)^plan: 5 phases`).FindAllString(p, -1)
	if len(heads) != 5 { // once at each of the five phases
		t.Errorf("%d plans printed, want 5:\n%s", len(heads), p)
	}
	for i := 1; i <= 5; i++ {
		if !strings.Contains(p, fmt.Sprintf("-> phase %d of 5", i)) {
			t.Errorf("phase %d never shown as the current one:\n%s", i, p)
		}
	}
	if !strings.Contains(p, "the first model (checkpoints/gen-0001.safetensors) in ") {
		t.Errorf("no time to the first model:\n%s", p)
	}
	if want := "first model: " + GenCheckpoint(dir, 1); !strings.Contains(p, want) {
		t.Errorf("no line %q:\n%s", want, p)
	}
	if strings.Contains(out.String(), "phase ") {
		t.Errorf("the plan reached the output:\n%s", out.String())
	}

	var quietOut, log bytes.Buffer
	if _, err := Run(context.Background(), Options{Dir: t.TempDir(), Config: cfg, Generations: 1, Out: &quietOut, Log: &log}); err != nil {
		t.Fatal(err)
	}
	if s := quietOut.String() + log.String(); strings.Contains(s, "phase ") || strings.Contains(s, "first model") {
		t.Errorf("quiet run printed its plan:\n%s", s)
	}
}
