package train

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"

	"bomberzero/metrics"
	"bomberzero/selfplay/teacher"
	"bomberzero/setup"
)

// The whole run on the terminal: before and during a run, train prints its
// plan (every phase as "phase k of n", with an estimate of its time) and
// the time left to the first model, the first checkpoint that can play.
// The estimates start as guesses from the config and are replaced by the
// rates the run measures (its metrics records, and this call's phases) as
// they become known.

// The kinds of a plan's stages.
const (
	stageTeacher   = "teacher"   // a teacher round's games
	stageFirstPlay = "firstplay" // generation 0's network-free self-play (no teacher)
	stageTrain     = "train"     // a generation's training (and evaluation) up to its checkpoint
	stageLoop      = "loop"      // the self-play generations, one after another
)

// stage is one phase of a run's plan.
type stage struct {
	kind string
	gen  int // its generation (the loop's first)
	// work is its games (teacher, firstplay, and a loop generation's) or
	// steps (train).
	work int
	// steps is a loop generation's step cap.
	steps int
	// last is the loop's last generation (-1: until stopped).
	last int
	// seconds is the estimate of its time (a loop generation's for the
	// loop); measured says it rests on rates the run measured.
	seconds  float64
	measured bool
}

// rate is a speed in items a second: a guess from the config or a
// measurement of the run.
type rate struct {
	perSecond float64
	measured  bool
}

// rates are the speeds a plan's estimates rest on.
type rates struct {
	teacher  rate // teacher games a second
	steps    rate // training steps a second
	selfPlay rate // self-play games a second
	evalGame rate // evaluation games a second
}

// Guesses for the embedded defaults on a 2-core machine (docs/training.md,
// "The plan on the terminal"), per worker or for the trainer: scaled by the
// config below, replaced by measurements as soon as there are any.
const (
	guessTeacherAlphaBeta2 = 12.0 // alphabeta:2 teacher games a second, a worker
	guessTeacherEngine2000 = 2.0  // engine teacher games a second at 2,000 nodes, a worker
	// guessTeacherEngineMost caps the engine's rate at fewer nodes: its
	// first iteration, its lines and each game's table cost a game about
	// twice alphabeta:2's CPU at 500 nodes and hardly less at 300
	// (docs/RESULTS.md, "The teacher A/B").
	guessTeacherEngineMost = 5.5
	guessSteps             = 12.0 // training steps a second, batch 128, 4x32 network
	guessSelfPlay48        = 0.05 // self-play games a second at 48 playouts, a worker
	guessEvalGame64        = 0.3  // evaluation games a second at 64 playouts, a worker
)

// guessRates are the rates a run of cfg is guessed to run at before any
// is measured.
func guessRates(cfg setup.Config) rates {
	workers := float64(cfg.SelfPlay.WorkerCount())
	tc := cfg.Teacher
	t := guessTeacherAlphaBeta2
	if tc.Player == teacher.PlayerEngine {
		t = min(guessTeacherEngine2000*2000/float64(max(tc.Nodes, 1)), guessTeacherEngineMost)
	} else {
		// Each ply of depth costs about ten times the one before; a
		// softmax target scores every root move (5-7x the CPU).
		t *= math.Pow(10, float64(2-tc.Depth))
		if tc.Policy == teacher.PolicySoftmax {
			t /= 6
		}
	}
	n := cfg.Net
	netCost := float64(max(n.Blocks, 1)*max(n.Filters, 1)*max(n.Filters, 1)) / (4 * 32 * 32)
	steps := guessSteps * 128 / float64(max(cfg.Train.Batch, 1)) / netCost
	sp := guessSelfPlay48 * workers * 48 / float64(max(cfg.SelfPlay.Sims, 1)) / netCost
	evalWorkers := workers
	if cfg.Eval.Workers > 0 {
		evalWorkers = float64(cfg.Eval.Workers)
	}
	ev := guessEvalGame64 * evalWorkers * 64 / float64(max(cfg.Eval.Sims, 1)) / netCost
	return rates{teacher: rate{perSecond: t * workers}, steps: rate{perSecond: steps}, selfPlay: rate{perSecond: sp}, evalGame: rate{perSecond: ev}}
}

// measure replaces the rates that the run's records measured: the last
// teacher round's, the last training's and the last self-play's.
func (rs *rates) measure(recs []metrics.Record, cfg setup.Config) {
	for _, rec := range recs {
		if sp := rec.SelfPlay; sp != nil && sp.Games > 0 && sp.Seconds > 0 {
			r := rate{perSecond: float64(sp.Games) / sp.Seconds, measured: true}
			if cfg.Teacher.Teaches(rec.Generation) {
				rs.teacher = r
			} else if rec.Generation > 0 || cfg.NetworkFree(0) == "" {
				rs.selfPlay = r // generation 0's network-free games are no guide
			}
		}
		if t := rec.Train; t != nil && t.Steps > 0 && t.Seconds > 0 {
			rs.steps = rate{perSecond: float64(t.Steps) / t.Seconds, measured: true}
		}
	}
}

// seconds is how long n items take at r (+Inf when r is unknown).
func (r rate) seconds(n int) float64 {
	if r.perSecond <= 0 {
		return math.Inf(1)
	}
	return float64(n) / r.perSecond
}

// planOf is the plan of a run of cfg that stops after gens generations (0:
// until stopped): each teacher round's games and training, or generation
// 0's network-free games and training, then the self-play generations.
func planOf(cfg setup.Config, gens int, rs rates) []stage {
	var plan []stage
	evalSeconds := func(gen int) float64 { // the matches of gen's model, when it is rated
		ec := cfg.Eval
		if (gen+1)%ec.Every != 0 || ec.Games == 0 {
			return 0
		}
		n := len(ec.Baselines)
		if ec.Previous {
			n++
		}
		return rs.evalGame.seconds(n * ec.Games)
	}
	train := func(gen, steps int) stage {
		return stage{kind: stageTrain, gen: gen, work: steps, seconds: rs.steps.seconds(steps) + evalSeconds(gen), measured: rs.steps.measured}
	}
	first := 0 // the first self-play generation
	if rounds := cfg.Teacher.Rounds(); rounds > 0 {
		for gen := range rounds {
			games := cfg.Teacher.GamesIn(gen)
			steps := cfg.Teacher.StepsIn(gen)
			if steps == 0 {
				steps = cfg.Train.MaxSteps
			}
			plan = append(plan, stage{kind: stageTeacher, gen: gen, work: games, seconds: rs.teacher.seconds(games), measured: rs.teacher.measured},
				train(gen, steps))
		}
		first = rounds
	} else if cfg.NetworkFree(0) != "" {
		games := cfg.GamesIn(0)
		// The network-free first model plays about as fast as a small
		// network's search: the self-play rate is the guess.
		plan = append(plan, stage{kind: stageFirstPlay, gen: 0, work: games, seconds: rs.selfPlay.seconds(games), measured: rs.selfPlay.measured},
			train(0, cfg.Train.MaxSteps))
		first = 1
	}
	if gens > 0 && len(plan) > 2*gens {
		plan = plan[:2*gens]
	}
	if gens > 0 && first >= gens {
		return plan
	}
	loop := stage{kind: stageLoop, gen: first, work: cfg.SelfPlay.Games, steps: cfg.Train.MaxSteps, last: -1,
		measured: rs.selfPlay.measured && rs.steps.measured}
	if gens > 0 {
		loop.last = gens - 1
	}
	// A generation's time: its games, its steps, and its share of the
	// matches (one generation in eval.every plays them).
	loop.seconds = rs.selfPlay.seconds(loop.work) + rs.steps.seconds(loop.steps) + evalSeconds(cfg.Eval.Every-1)/float64(cfg.Eval.Every)
	return append(plan, loop)
}

// stageAt returns the index in plan of the phase that generation gen's
// phase belongs to (a generation's evaluation is its training's).
func stageAt(plan []stage, gen int, phase string) int {
	for i, s := range plan {
		switch {
		case s.kind == stageLoop && gen >= s.gen:
			return i
		case s.gen != gen:
		case s.kind == stageTrain && phase != phaseSelfPlay:
			return i
		case s.kind != stageTrain && phase == phaseSelfPlay:
			return i
		}
	}
	return len(plan) - 1
}

// untilFirstModel is the estimate of the seconds left to the first model
// (generation 0's checkpoint) when phase cur has left seconds to go: cur's
// rest and every phase after it up to generation 0's training. ok is false
// once the first model is written (cur is past generation 0).
func untilFirstModel(plan []stage, cur int, left float64) (seconds float64, ok bool) {
	if cur >= len(plan) || plan[cur].gen > 0 || plan[cur].kind == stageLoop {
		return 0, false
	}
	seconds = left
	for _, s := range plan[cur+1:] {
		if s.gen > 0 || s.kind == stageLoop {
			break
		}
		seconds += s.seconds
	}
	return seconds, true
}

// describe says what stage s does, for the plan and the bars.
func (s stage) describe(cfg setup.Config) string {
	switch s.kind {
	case stageTeacher:
		more := ""
		if s.gen > 0 {
			more = " more"
		}
		return fmt.Sprintf("gen %d: teacher %s plays %s%s games", s.gen, teacherName(cfg), thousands(s.work), more)
	case stageFirstPlay:
		return fmt.Sprintf("gen 0: %s plays %s games", cfg.NetworkFree(0), thousands(s.work))
	case stageTrain:
		d := fmt.Sprintf("gen %d: training, up to %s steps, then %s", s.gen, thousands(s.work), genName(s.gen+1))
		if s.gen == 0 {
			d += ", the first model"
		}
		if ec := cfg.Eval; (s.gen+1)%ec.Every == 0 && ec.Games > 0 {
			d += " and its matches"
		}
		return d
	}
	until := "until stopped (Ctrl-C or --budget)"
	if s.last >= 0 {
		until = fmt.Sprintf("through gen %d", s.last)
	}
	return fmt.Sprintf("gen %d on: self-play generations of %s games and up to %s steps, matches every %d, %s",
		s.gen, thousands(s.work), thousands(s.steps), cfg.Eval.Every, until)
}

// teacherName is the teacher's player spec, as its progress bar names it.
func teacherName(cfg setup.Config) string {
	tc := cfg.Teacher.Settings(cfg.Variant, 0, 1)
	return tc.Name()
}

// writePlan writes the plan with phase cur marked as the one in progress,
// and the time left to the first model while it is to come (left: the
// seconds cur has still to go).
func writePlan(w io.Writer, cfg setup.Config, plan []stage, cur int, left float64) {
	if w == nil || len(plan) == 0 {
		return
	}
	head := fmt.Sprintf("plan: %d phases", len(plan))
	if s, ok := untilFirstModel(plan, cur, left); ok {
		head += fmt.Sprintf("; the first model (%s) in %s", GenCheckpoint("", 1), approx(s))
	}
	fmt.Fprintln(w, head)
	for i := 0; i < len(plan); i++ {
		if j := foldEnd(plan, cur, i); j > i+1 {
			writeFolded(w, cfg, plan, cur, i, j)
			i = j - 1
			continue
		}
		s := plan[i]
		mark := "   "
		switch {
		case i == cur:
			mark = "-> "
		case i < cur:
			mark = "ok "
		}
		est := approx(s.seconds)
		if i == cur {
			est = approx(left)
		}
		if s.kind == stageLoop {
			est += " a generation"
		}
		if !s.measured {
			est += " (guess)"
		}
		if i < cur {
			est = "done"
		}
		fmt.Fprintf(w, "%sphase %d of %d  %s  [%s]\n", mark, i+1, len(plan), s.describe(cfg), est)
	}
}

// planShown is how many phases a plan prints one a line before it folds
// the far ones (many teacher rounds) into summary lines.
const planShown = 9

// foldEnd returns the end (exclusive) of the run of phases from i that the
// plan folds into one line, or i+1 when phase i is printed alone: a long
// plan prints its first phase, the current one with one on each side, and
// its last ones a line each; the others fold, the done ones together and
// the coming ones together.
func foldEnd(plan []stage, cur, i int) int {
	alone := func(k int) bool {
		return len(plan) <= planShown || k == 0 || k >= len(plan)-2 || k >= cur-1 && k <= cur+1
	}
	j := i
	for j < len(plan) && !alone(j) && (j < cur) == (i < cur) {
		j++
	}
	return max(j, i+1)
}

// writeFolded writes phases i to j-1 of plan as one line: "done" for done
// ones, else what they do and their time together (only teacher rounds
// and their training are ever folded ahead: the first phase and the last
// two, the self-play loop among them, are printed alone).
func writeFolded(w io.Writer, cfg setup.Config, plan []stage, cur, i, j int) {
	if j <= cur {
		fmt.Fprintf(w, "ok phases %d-%d of %d  [done]\n", i+1, j, len(plan))
		return
	}
	var seconds float64
	games, steps := 0, 0
	measured := true
	for _, s := range plan[i:j] {
		seconds += s.seconds
		measured = measured && s.measured
		switch s.kind {
		case stageTeacher, stageFirstPlay:
			games += s.work
		case stageTrain:
			steps += s.work
		}
	}
	est := approx(seconds)
	if !measured {
		est += " (guess)"
	}
	fmt.Fprintf(w, "   phases %d-%d of %d  gen %d to %d: teacher %s plays %s more games, training up to %s steps  [%s]\n",
		i+1, j, len(plan), plan[i].gen, plan[j-1].gen, teacherName(cfg), thousands(games), thousands(steps), est)
}

// phaseLabel is the prefix of a phase's progress bar: "phase 2/5", and
// the time left to the first model while it is to come.
func phaseLabel(plan []stage, cur int, left float64) string {
	if len(plan) == 0 {
		return ""
	}
	l := fmt.Sprintf("phase %d/%d", cur+1, len(plan))
	if s, ok := untilFirstModel(plan, cur, left); ok {
		l += ", first model in " + approx(s)
	}
	return l
}

// approx writes seconds as a rounded duration: "about 40s", "about
// 3m20s", "about 1h20m"; "unknown" for no estimate.
func approx(seconds float64) string {
	if math.IsInf(seconds, 0) || math.IsNaN(seconds) || seconds < 0 {
		return "unknown"
	}
	s := int(math.Round(seconds/10)) * 10 // to 10 seconds
	switch {
	case s == 0:
		return "under 10s"
	case s < 60:
		return fmt.Sprintf("about %ds", s)
	case s < 600 && s%60 != 0:
		return fmt.Sprintf("about %dm%02ds", s/60, s%60)
	case s < 3600:
		return fmt.Sprintf("about %dm", (s+30)/60)
	}
	m := (s + 30) / 60
	if m%60 == 0 {
		return fmt.Sprintf("about %dh", m/60)
	}
	return fmt.Sprintf("about %dh%02dm", m/60, m%60)
}

// thousands writes n with a comma between thousands: 12,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// startPlan sets the rates of the run's plan: guesses from the config,
// replaced by those its metrics records measured.
func (r *runner) startPlan(gens int) error {
	r.gens, r.shown = gens, -1
	r.rates = guessRates(r.cfg)
	recs, _, err := metrics.Read(filepath.Join(r.dir, metricsName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("train: %w", err)
	}
	r.rates.measure(recs, r.cfg)
	r.plan = planOf(r.cfg, gens, r.rates)
	return nil
}

// showPlan makes the plan again from the rates known now and returns the
// index of the current phase; when that phase is not the one shown last,
// it prints the plan on the progress writer, with left seconds to go in
// the current phase.
func (r *runner) showPlan(left float64) int {
	r.plan = planOf(r.cfg, r.gens, r.rates)
	cur := stageAt(r.plan, r.st.Generation, r.st.Phase)
	if cur != r.shown {
		r.shown = cur
		writePlan(r.opt.Progress, r.cfg, r.plan, cur, left)
	}
	return cur
}

// label is phaseLabel of the current plan.
func (r *runner) label(cur int, left float64) string { return phaseLabel(r.plan, cur, left) }

// measured is the rate of n items done in seconds (no rate when either is
// not positive: keep was measured without them).
func measured(n int, seconds float64, keep rate) rate {
	if n <= 0 || seconds <= 0 {
		return keep
	}
	return rate{perSecond: float64(n) / seconds, measured: true}
}
