package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"bomberzero/env"
	"bomberzero/internal/cputime"
	"bomberzero/stats"
)

// Config describes a match between players A and B.
type Config struct {
	A, B  Maker
	Games int // games to play (the most, with an SPRT)
	// Start is the position every game starts from (not changed); nil is
	// the variant's start position.
	Start   *env.Position
	Variant *env.Variant // needed when Start is nil
	// Book, when set, replaces Start: game i starts from Book[(i/2) %
	// len(Book)], so each opening is played twice, once with each player
	// as White (RandomBook and BookPositions make one). MaxPlies counts
	// the plies after the opening.
	Book []*env.Position
	// Starts, when set, replaces Start and Book: game i starts from
	// Starts[i % len(Starts)], each game from a start of its own. A player
	// that meets itself (an imbalance match) needs it: on a Book the colour
	// swap of a pair replays the same game when the player is deterministic
	// (engine:nodes=N). MaxPlies counts the plies after the start.
	Starts []*env.Position
	// MaxPlies caps a game's length, a draw by env.LengthCap when reached;
	// negative is no cap. It has no default here (0 is refused): the
	// commands pass eval.max_plies of the training config.
	MaxPlies int
	// Seed makes the match reproducible: game i's players are seeded from
	// (Seed, i), whatever the order games finish in.
	Seed uint64
	// Workers is the number of games played at once; 0 is one per core.
	Workers int
	// SPRT, when set, stops the match as soon as it decides.
	SPRT *stats.SPRT
	// Progress, when set, is called after each finished game (from one
	// goroutine at a time) with the result so far.
	Progress func(r *Result)
	// KeepGames keeps every game's record in Result.Records.
	KeepGames bool
}

// Result is the outcome of a match, from A's point of view.
type Result struct {
	A string `json:"a"`
	B string `json:"b"`
	// AWhite and ABlack are A's results in the games A played with White
	// and with Black; Total is their sum.
	AWhite stats.WDL      `json:"a_white"`
	ABlack stats.WDL      `json:"a_black"`
	Total  stats.WDL      `json:"total"`
	Est    stats.Estimate `json:"estimate"`
	// Reasons counts how the games ended (in JSON keyed by the
	// termination's text, as "checkmate").
	Reasons map[env.Termination]int `json:"reasons"`
	// Forfeits says, for each game lost by forfeit (env.Forfeit), which
	// player broke the match's rules and how, as "game 3: uci:sf (White)
	// at ply 12: engine sf: exited: exit status 3".
	Forfeits []string `json:"forfeits,omitempty"`
	// MeanPlies is the mean game length.
	MeanPlies float64 `json:"mean_plies"`
	// SPRT fields, set when the match ran one.
	SPRT     *stats.SPRT `json:"sprt,omitempty"`
	LLR      float64     `json:"llr,omitempty"`
	Decision string      `json:"decision,omitempty"`
	Records  []Game      `json:"-"`
	// Workers is the number of games that ran at once, which a process
	// CPU measure (MeterProcess) counts together.
	Workers int `json:"workers,omitzero"`
	// ATimes and BTimes are what A's and B's moves cost: CPU and wall
	// milliseconds a move and the plies, set when Run returns.
	ATimes Times `json:"a_times,omitzero"`
	BTimes Times `json:"b_times,omitzero"`
	// LoadStart and LoadEnd are the machine's load average when the match
	// began and when it ended (zero where the system cannot say).
	LoadStart cputime.Load `json:"load_start,omitzero"`
	LoadEnd   cputime.Load `json:"load_end,omitzero"`
	plies     int
	// movesA and movesB gather the move times ATimes and BTimes sum up.
	movesA, movesB moveSamples
}

func (r *Result) add(g Game, aWhite bool) {
	var w stats.WDL
	a := env.Black
	if aWhite {
		a = env.White
	}
	w.Count(g.Result.For(a))
	if aWhite {
		r.AWhite = r.AWhite.Add(w)
	} else {
		r.ABlack = r.ABlack.Add(w)
	}
	r.Total = r.Total.Add(w)
	r.Reasons[g.Termination]++
	if g.Termination == env.Forfeit {
		r.Forfeits = append(r.Forfeits, fmt.Sprintf("game %d: %s", g.Index, g.Reason))
	}
	for _, t := range g.Times {
		if (t.Side == env.White) == aWhite {
			r.movesA.add(t)
		} else {
			r.movesB.add(t)
		}
	}
	r.plies += g.Plies
	r.MeanPlies = float64(r.plies) / float64(r.Total.Games())
	r.Est = stats.NewEstimate(r.Total.Wins, r.Total.Draws, r.Total.Losses)
	if r.SPRT != nil {
		r.LLR = r.SPRT.LLR(r.Total.Wins, r.Total.Draws, r.Total.Losses)
		r.Decision = r.SPRT.Decide(r.Total.Wins, r.Total.Draws, r.Total.Losses).String()
	}
}

// AWhiteIn says whether A has White in game i of a match: A has White in
// the even games and Black in the odd ones.
func AWhiteIn(i int) bool { return i%2 == 0 }

// gameSeed mixes the match seed and the game index (splitmix64) into a
// player seed; side tells the two players apart.
func gameSeed(seed uint64, game int, side uint64) uint64 {
	z := seed + uint64(game)*0x9e3779b97f4a7c15 + side*0xbf58476d1ce4e5b9
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Run plays the match described by cfg and returns its result. Games run on
// cfg.Workers goroutines; with an SPRT no new game starts once it has
// decided (games already running are finished and counted). A player error
// stops the match and is returned. The result states what each side's
// moves cost (ATimes, BTimes) and the machine's load average at the start
// and the end.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.A.New == nil || cfg.B.New == nil {
		return nil, errors.New("match: both players must be set")
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("match: %d games, want at least 1", cfg.Games)
	}
	start := cfg.Start
	if start == nil {
		if cfg.Variant == nil {
			return nil, errors.New("match: neither a start position nor a variant")
		}
		start = cfg.Variant.NewPosition()
	}
	if res, why := start.Status(); res != env.Ongoing {
		return nil, fmt.Errorf("match: the start position is already over (%s, %s)", res, why)
	}
	for k, p := range cfg.Book {
		if res, why := p.Status(); res != env.Ongoing {
			return nil, fmt.Errorf("match: book opening %d is already over (%s, %s)", k, res, why)
		}
	}
	for k, p := range cfg.Starts {
		if res, why := p.Status(); res != env.Ongoing {
			return nil, fmt.Errorf("match: start %d is already over (%s, %s)", k, res, why)
		}
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.Validate(); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
	}
	maxPlies := cfg.MaxPlies
	if maxPlies == 0 {
		return nil, errors.New("match: no ply cap given (MaxPlies 0; negative is no cap)")
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Games)

	res := &Result{A: cfg.A.Spec, B: cfg.B.Spec, Reasons: map[env.Termination]int{}, SPRT: cfg.SPRT, Workers: workers}
	res.LoadStart, _ = cputime.LoadAverage()
	if cfg.KeepGames {
		res.Records = make([]Game, 0, cfg.Games)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		next     int
		stopped  bool
		firstErr error
		wg       sync.WaitGroup
	)
	claim := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if stopped || next >= cfg.Games {
			return 0, false
		}
		next++
		return next - 1, true
	}
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		stopped = true
		mu.Unlock()
		cancel()
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, ok := claim()
				if !ok {
					return
				}
				from := start
				switch {
				case len(cfg.Starts) > 0:
					from = cfg.Starts[i%len(cfg.Starts)]
				case len(cfg.Book) > 0:
					from = cfg.Book[(i/2)%len(cfg.Book)]
				}
				g, err := playOne(ctx, cfg, from, i, maxPlies)
				if err != nil {
					fail(err)
					return
				}
				mu.Lock()
				res.add(g, AWhiteIn(i))
				if cfg.KeepGames {
					res.Records = append(res.Records, g)
				}
				if res.SPRT != nil && res.Decision != stats.Continue.String() {
					stopped = true
				}
				if cfg.Progress != nil {
					cfg.Progress(res)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	// Games finish in whatever order the workers play them; the records
	// are kept in game order so that what is computed from them (a values
	// fit samples positions by game index) is the same for a seed
	// whatever the number of workers.
	slices.SortFunc(res.Records, func(a, b Game) int { return a.Index - b.Index })
	res.ATimes, res.BTimes = res.movesA.times(), res.movesB.times()
	res.LoadEnd, _ = cputime.LoadAverage()
	if firstErr != nil {
		return res, firstErr
	}
	return res, nil
}

// playOne plays game i of the match with fresh players.
func playOne(ctx context.Context, cfg Config, start *env.Position, i, maxPlies int) (Game, error) {
	a, err := cfg.A.New(gameSeed(cfg.Seed, i, 1))
	if err != nil {
		return Game{}, fmt.Errorf("match: game %d: player %s: %w", i, cfg.A.Spec, err)
	}
	b, err := cfg.B.New(gameSeed(cfg.Seed, i, 2))
	if err != nil {
		return Game{}, fmt.Errorf("match: game %d: player %s: %w", i, cfg.B.Spec, err)
	}
	defer closePlayer(a)
	defer closePlayer(b)
	white, black := a, b
	if !AWhiteIn(i) {
		white, black = b, a
	}
	g, err := PlayGame(ctx, white, black, start, maxPlies)
	if err != nil {
		return g, fmt.Errorf("match: game %d: %w", i, err)
	}
	g.Index = i
	g.White, g.Black = cfg.A.Spec, cfg.B.Spec
	if !AWhiteIn(i) {
		g.White, g.Black = cfg.B.Spec, cfg.A.Spec
	}
	return g, nil
}

// closePlayer ends what a player holds (an outside engine's process) when
// it has a Close method.
func closePlayer(p Player) {
	if c, ok := p.(io.Closer); ok {
		_ = c.Close()
	}
}
