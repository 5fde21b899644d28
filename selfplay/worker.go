package selfplay

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/eval"
	"bomberzero/mcts"
)

// finished is what a worker tells its run about one game it has written.
type finished struct {
	result      int // White's view
	termination env.Termination
	length      int
	positions   int
}

// worker plays cfg.Slots games at once with one searcher and writes each
// finished game to its own chunk writer and the records directory.
type worker struct {
	cfg     *Config
	rules   *agent.Rules
	model   string
	s       *mcts.Searcher
	out     *datasets.ChunkWriter
	records string
	rng     *rand.Rand
	start   *agent.Game
	slots   []slotState
	active  int

	// claim reserves one more game to start; false when enough have been.
	claim func() bool
	// searched counts positions searched, for the progress rate.
	searched func(n int)
	// written reports games once they are on disk.
	written func(games []finished)

	pending   []finished // games added to the chunk writer, not yet flushed
	lastFlush time.Time

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

// newWorker returns worker id of a run, searching with ev.
func newWorker(id int, cfg *Config, r *agent.Rules, model string, ev eval.Evaluator, out *datasets.ChunkWriter, records string) (*worker, error) {
	scfg := agent.SelfPlaySearch(cfg.Search, cfg.Search.Seed^(cfg.Seed*0x9e3779b97f4a7c15+uint64(id)*0xbf58476d1ce4e5b9))
	s, err := mcts.NewSearcher(scfg, ev, cfg.Slots)
	if err != nil {
		return nil, fmt.Errorf("worker %d: %w", id, err)
	}
	start := r.Variant.NewPosition()
	if cfg.Start != "" {
		if start, err = r.Variant.ParsePosition(cfg.Start); err != nil {
			return nil, fmt.Errorf("start position %q: %w", cfg.Start, err)
		}
	}
	return &worker{cfg: cfg, rules: r, model: model, s: s, out: out, records: records,
		rng:   rand.New(rand.NewPCG(cfg.Seed, uint64(id)+0x5e1f)),
		start: r.NewGame(start), slots: make([]slotState, cfg.Slots), lastFlush: time.Now()}, nil
}

// fill starts a new game in every empty slot while games remain to be
// claimed, and clears the rest.
func (w *worker) fill() error {
	for i := range w.slots {
		if w.slots[i].active {
			continue
		}
		if w.claim == nil || !w.claim() {
			if err := w.s.Clear(i); err != nil {
				return err
			}
			continue
		}
		if err := w.begin(i); err != nil {
			return err
		}
	}
	return nil
}

// begin starts a new game in slot i.
func (w *worker) begin(i int) error {
	if err := w.s.Reset(i, w.start); err != nil {
		return fmt.Errorf("starting a game: %w", err)
	}
	st := &w.slots[i]
	*st = slotState{active: true, moves: st.moves[:0]}
	st.rec = datasets.GameRecord{
		ID:             datasets.NewGameID(),
		Variant:        w.rules.Variant.Name,
		Model:          w.model,
		Generation:     w.cfg.Generation,
		ResignDisabled: w.cfg.ResignMoves > 0 && w.rng.Float64() < w.cfg.ResignOffShare,
	}
	w.active++
	return nil
}

// step runs one searcher step and handles every finished search: record
// the position, resign or play the move, finish ended games and start new
// ones.
func (w *worker) step() error {
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
		w.searched(len(done))
	}
	return nil
}

// handle takes slot i's finished search.
func (w *worker) handle(i int) error {
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
	played, err := g.Move(r.Move)
	if err != nil {
		return err
	}
	pr := datasets.PositionRecord{
		Ply:         p.Ply(),
		Position:    p.String(),
		WhiteToMove: side == env.White,
		Repetitions: p.Repetitions(),
		Value:       value,
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

// finish ends slot i's game with res, writes its record, hands it to the
// chunk writer (flushing when enough games are buffered) and starts the
// slot's next game.
func (w *worker) finish(i int, res env.Result, why env.Termination) error {
	st := &w.slots[i]
	rec := &st.rec
	g := w.s.Game(i).(*agent.Game)
	rec.Length = g.Position().Ply()
	if why == env.LengthCap {
		res, why = adjudicate(g, w.cfg.AdjudicateMargin)
	}
	switch res {
	case env.WhiteWins:
		rec.Result = 1
	case env.BlackWins:
		rec.Result = -1
	}
	rec.Termination = why
	if why == env.NotOver {
		return fmt.Errorf("game %s ended without a reason (%v)", rec.ID, res)
	}
	text := GameText{ID: rec.ID, Variant: rec.Variant, Model: rec.Model, Generation: rec.Generation,
		Result: res.String(), Termination: rec.Termination.String(), Start: w.cfg.Start,
		Moves: st.moves}
	if _, err := WriteRecord(w.records, &text); err != nil {
		return err
	}
	if err := w.out.AddGame(rec); err != nil {
		return fmt.Errorf("game %s: %w", rec.ID, err)
	}
	w.pending = append(w.pending, finished{rec.Result, rec.Termination, rec.Length, len(rec.Positions)})
	w.games++
	w.plies += rec.Length
	st.active = false
	st.rec.Positions = nil
	w.active--
	if len(w.pending) >= w.cfg.FlushGames {
		if err := w.flush(); err != nil {
			return err
		}
	}
	if w.claim != nil && w.claim() {
		return w.begin(i)
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

// flush writes the buffered games as one chunk and reports them.
func (w *worker) flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	if _, err := w.out.Flush(); err != nil {
		return fmt.Errorf("writing %d finished games: %w", len(w.pending), err)
	}
	w.written(w.pending)
	w.pending = w.pending[:0]
	w.lastFlush = time.Now()
	return nil
}
