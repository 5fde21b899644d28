package selfplay

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/eval"
	"bomberzero/mcts"
)

// mctsPlayer is self-play's Player: it plays cfg.Slots games at once with
// one searcher (one batch of network evaluations for all of them) and
// hands each finished game to its driver's Worker.
type mctsPlayer struct {
	cfg    *Config
	rules  *agent.Rules
	model  string
	s      *mcts.Searcher
	start  *agent.Game
	slots  []slotState
	active int
	run    *Worker   // the driver's worker it plays for, set by Play
	label  *labeller // the engine that labels full searches' values, or nil

	// Totals for benchmarks: playouts of finished searches, searches,
	// games finished and their plies.
	sims, searches, games, plies int
}

// slotState is one game in progress.
type slotState struct {
	active bool
	rec    datasets.GameRecord
	moves  []string
	low    [2]int // consecutive searches under the resign threshold per side
}

// newMCTSPlayer returns the player of worker id of a run, searching with ev.
func newMCTSPlayer(id int, cfg *Config, r *agent.Rules, model string, ev eval.Evaluator) (*mctsPlayer, error) {
	scfg := agent.SelfPlaySearch(cfg.Search, cfg.Search.Seed^(cfg.Seed*0x9e3779b97f4a7c15+uint64(id)*0xbf58476d1ce4e5b9))
	s, err := mcts.NewSearcher(scfg, ev, cfg.Slots)
	if err != nil {
		return nil, fmt.Errorf("worker %d: %w", id, err)
	}
	label, err := newLabeller(&cfg.Settings, r.Variant)
	if err != nil {
		return nil, fmt.Errorf("worker %d: %w", id, err)
	}
	start := r.Variant.NewPosition()
	if cfg.Start != "" {
		if start, err = r.Variant.ParsePosition(cfg.Start); err != nil {
			return nil, fmt.Errorf("start position %q: %w", cfg.Start, err)
		}
	}
	return &mctsPlayer{cfg: cfg, rules: r, model: model, s: s, label: label,
		start: r.NewGame(start), slots: make([]slotState, cfg.Slots)}, nil
}

// Play plays w's games until none is left to claim and every started game
// is finished, or ctx ends.
func (w *mctsPlayer) Play(ctx context.Context, dw *Worker) error {
	w.run = dw
	if err := w.fill(); err != nil {
		return err
	}
	for w.active > 0 && ctx.Err() == nil {
		if err := w.step(); err != nil {
			return err
		}
		if err := dw.Tick(); err != nil {
			return err
		}
	}
	return nil
}

// fill starts a new game in every empty slot while games remain to be
// claimed, and clears the rest.
func (w *mctsPlayer) fill() error {
	for i := range w.slots {
		if w.slots[i].active {
			continue
		}
		game, ok := w.run.Claim()
		if !ok {
			if err := w.s.Clear(i); err != nil {
				return err
			}
			continue
		}
		if err := w.begin(i, game); err != nil {
			return err
		}
	}
	return nil
}

// begin starts game number game of the run in slot i: everything random
// about it (its searches' draws, whether it may resign, its ID) comes from
// GameSeed(cfg.Seed, game).
func (w *mctsPlayer) begin(i, game int) error {
	if err := w.s.Reset(i, w.start); err != nil {
		return fmt.Errorf("starting a game: %w", err)
	}
	seed := GameSeed(w.cfg.Seed, game)
	if err := w.s.Seed(i, seed); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0x5e1f))
	st := &w.slots[i]
	*st = slotState{active: true, moves: st.moves[:0]}
	st.rec = datasets.GameRecord{
		ID:             GameID(w.cfg.Seed, game),
		Variant:        w.rules.Variant.Name,
		Model:          w.model,
		Generation:     w.cfg.Generation,
		ResignDisabled: w.cfg.ResignMoves > 0 && rng.Float64() < w.cfg.ResignOffShare,
	}
	w.active++
	return nil
}

// step runs one searcher step and handles every finished search: record
// the position, resign or play the move, finish ended games and start new
// ones.
func (w *mctsPlayer) step() error {
	done, err := w.s.Step()
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	for _, i := range done {
		if err := w.handle(i); err != nil {
			return err
		}
	}
	if len(done) > 0 {
		w.run.Searched(len(done))
	}
	return nil
}

// handle takes slot i's finished search.
func (w *mctsPlayer) handle(i int) error {
	st := &w.slots[i]
	r := w.s.Result(i)
	w.sims += r.Sims
	w.searches++
	g := w.s.Game(i).(*agent.Game)
	p := g.Position()
	if r.Move < 0 {
		res, why := g.Outcome()
		return w.finish(i, res, why)
	}
	side := p.SideToMove()
	value := float32(math.Max(-1, math.Min(1, float64(r.Value))))
	if w.cfg.ResignMoves > 0 {
		if float64(value) < w.cfg.ResignThreshold {
			st.low[side]++
		} else {
			st.low[side] = 0
		}
		if st.low[side] >= w.cfg.ResignMoves {
			if !st.rec.ResignDisabled {
				return w.finish(i, winnerIs(side.Other()), env.Resignation)
			}
			if st.rec.WouldResign == "" {
				st.rec.WouldResign = map[env.Color]string{env.White: datasets.White, env.Black: datasets.Black}[side]
			}
		}
	}
	recorded := value
	if w.label != nil && r.Full {
		var err error
		if recorded, err = w.label.value(p); err != nil {
			return err
		}
	}
	played, err := g.Move(r.Move)
	if err != nil {
		return err
	}
	pr := datasets.PositionRecord{
		Ply:         p.Ply(),
		Position:    p.String(),
		WhiteToMove: side == env.White,
		Repetitions: p.Repetitions(),
		Value:       recorded,
		FullSearch:  r.Full,
		Played:      p.FormatGC(played),
		Pieces:      PieceCounts(p),
	}
	for k, idx := range r.Moves {
		if r.Policy[k] <= 0 {
			continue
		}
		m, err := g.Move(idx)
		if err != nil {
			return err
		}
		pr.PolicyIndex = append(pr.PolicyIndex, int32(idx))
		pr.MoveText = append(pr.MoveText, p.FormatGC(m))
		pr.Visits = append(pr.Visits, r.Policy[k])
	}
	st.rec.Positions = append(st.rec.Positions, pr)
	st.moves = append(st.moves, pr.Played)
	if err := w.s.Play(i, r.Move); err != nil {
		return fmt.Errorf("playing %s: %w", pr.Played, err)
	}
	g = w.s.Game(i).(*agent.Game)
	if res, why := g.Outcome(); res != env.Ongoing {
		return w.finish(i, res, why)
	}
	return nil
}

// GameSeed is the seed of game number game of a self-play run seeded by
// runSeed (Config.Seed): its searches' draws and its resignation draw
// come from it alone.
func GameSeed(runSeed uint64, game int) uint64 {
	return splitmix(runSeed ^ splitmix(uint64(game)+0x67616d65))
}

// GameID is the ID of game number game of a self-play run seeded by
// runSeed: 16 hex digits, as datasets.NewGameID's, derived from the game's
// seed, so that a resumed run can tell which of its games are on disk.
func GameID(runSeed uint64, game int) string {
	return fmt.Sprintf("%016x", splitmix(GameSeed(runSeed, game)^0x6964))
}

// splitmix is SplitMix64's finalizer: a bijective mix of z's bits.
func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// PieceCounts counts each piece type per side, on the board and in hand,
// as self-play records them in each position (compare records the games
// it replays the same way).
func PieceCounts(p *env.Position) []datasets.PieceCount {
	v := p.Variant()
	out := make([]datasets.PieceCount, 0, len(v.Pieces)-1)
	for t := 1; t < len(v.Pieces); t++ {
		out = append(out, datasets.PieceCount{Piece: string(v.Pieces[t].Letter),
			White: int32(p.Count(env.White, t) + p.InHand(env.White, t)),
			Black: int32(p.Count(env.Black, t) + p.InHand(env.Black, t))})
	}
	return out
}

// finish ends slot i's game with res, hands it to the driver's worker
// (which writes its record and chunk rows) and starts the slot's next game.
func (w *mctsPlayer) finish(i int, res env.Result, why env.Termination) error {
	st := &w.slots[i]
	rec := &st.rec
	g := w.s.Game(i).(*agent.Game)
	rec.Length = g.Position().Ply()
	if why == env.LengthCap {
		res, why = adjudicate(g, w.cfg.AdjudicateMargin)
	}
	rec.Result = res.For(env.White)
	rec.Termination = why
	if why == env.NotOver {
		return fmt.Errorf("game %s ended without a reason (%v)", rec.ID, res)
	}
	if err := w.run.Done(Finished{Rec: rec, Moves: st.moves}); err != nil {
		return err
	}
	w.games++
	w.plies += rec.Length
	st.active = false
	st.rec.Positions = nil
	w.active--
	if game, ok := w.run.Claim(); ok {
		return w.begin(i, game)
	}
	return w.s.Clear(i)
}

// adjudicate scores game g, stopped at the length cap, by material with
// agent.Adjudicate: a win by env.Adjudication for a side at least margin
// pawns ahead, else the cap's draw.
func adjudicate(g *agent.Game, margin float64) (env.Result, env.Termination) {
	switch agent.Adjudicate(g.Material(), margin) {
	case 1:
		return winnerIs(g.Position().SideToMove()), env.Adjudication
	case -1:
		return winnerIs(g.Position().SideToMove().Other()), env.Adjudication
	}
	return env.Draw, env.LengthCap
}

// winnerIs returns the result of a game side won.
func winnerIs(side env.Color) env.Result {
	if side == env.White {
		return env.WhiteWins
	}
	return env.BlackWins
}
