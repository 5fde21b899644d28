package teacher

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/engine"
	"bomberzero/engine/nnue"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/selfplay"
)

// maxOpeningDraws bounds the random openings tried for one game: each
// that ends the game before the teacher plays is drawn again.
const maxOpeningDraws = 100

// player plays one worker's games, reusing its buffers.
type player struct {
	cfg    *Config
	v      *env.Variant
	index  *env.MoveIndex
	model  string
	margin int32
	buf    []env.Move
	moves  []env.Move
	scores []int32
	w      []float64
	// The engine teacher's piece table and learned net (nil: classical).
	table []int32
	net   *nnue.Net
}

func newPlayer(cfg *Config, v *env.Variant, index *env.MoveIndex, tb *teacherBase) *player {
	return &player{cfg: cfg, v: v, index: index, model: cfg.Model(), margin: cfg.margin(),
		buf: make([]env.Move, 0, env.MaxMoves), table: tb.table, net: tb.net}
}

// teacherBase is what every worker's teacher shares: the engine's piece
// table and net, read once.
type teacherBase struct {
	table []int32
	net   *nnue.Net
}

// newTeacherBase reads the engine teacher's table and net (nothing for the
// alpha-beta teacher), and checks that a teacher can be made for v.
func newTeacherBase(cfg *Config, v *env.Variant) (*teacherBase, error) {
	tb := &teacherBase{}
	if !cfg.isEngine() {
		_, err := match.NewAlphaBeta(v, cfg.Depth, agent.DefaultValues(), 0)
		return tb, err
	}
	var err error
	if tb.table, err = agent.DefaultValues().Table(v); err != nil {
		return nil, err
	}
	if cfg.Eval != "" {
		if tb.net, err = nnue.ReadFile(cfg.Eval); err != nil {
			return nil, fmt.Errorf("eval %s: %w", cfg.Eval, err)
		}
	}
	p := &player{cfg: cfg, v: v, table: tb.table, net: tb.net}
	_, err = p.newEngine(0)
	return tb, err
}

// newEngine returns a fresh engine teacher for one game: one thread, a
// table of EngineHashMB, MultiPV lines, ties broken by seed. Its searches
// at a node limit depend only on the positions searched before in its game.
func (p *player) newEngine(seed uint64) (*engine.Engine, error) {
	var ev engine.Evaluator
	if p.net != nil {
		var err error
		if ev, err = engine.NewLearned(p.v, p.net, "nnue:"+filepath.Base(p.cfg.Eval)); err != nil {
			return nil, fmt.Errorf("eval %s: %w", p.cfg.Eval, err)
		}
	}
	return engine.New(p.v, engine.Options{HashMB: EngineHashMB, Threads: 1, Seed: seed, Eval: ev,
		MultiPV: p.cfg.MultiPV, Table: p.table})
}

// game is one finished teacher game: its training record and the moves of
// its Game Courier record.
type game struct {
	rec   datasets.GameRecord
	moves []string
	res   env.Result
}

// play plays game number k of the run (its seeds, and its ID,
// selfplay.GameID, depend on cfg.Seed and k only). It returns ctx's error
// when ctx ends first.
func (p *player) play(ctx context.Context, k int) (*game, error) {
	for draw := range uint64(maxOpeningDraws) {
		seed := mix(mix(p.cfg.Seed, uint64(k)), draw)
		pos, moves := p.opening(rand.New(rand.NewPCG(seed, 0x6f70656e)))
		if pos == nil {
			continue // the random plies ended the game
		}
		return p.teach(ctx, pos, moves, seed, selfplay.GameID(p.cfg.Seed, k))
	}
	return nil, fmt.Errorf("teacher: game %d: %d random openings of %d plies all ended the game", k, maxOpeningDraws, p.cfg.RandomPlies)
}

// opening plays RandomPlies uniformly random plies from the start position
// and returns the position and the moves' text; nil if the game ended.
func (p *player) opening(rng *rand.Rand) (*env.Position, []string) {
	pos := p.v.NewPosition()
	moves := make([]string, 0, p.cfg.MaxPlies)
	for range p.cfg.RandomPlies {
		p.buf = pos.LegalMoves(p.buf[:0])
		if res, _ := pos.StatusOf(len(p.buf)); res != env.Ongoing {
			return nil, nil
		}
		m := p.buf[rng.IntN(len(p.buf))]
		moves = append(moves, pos.FormatGC(m))
		pos.DoMove(m)
	}
	if res, _ := pos.Status(); res != env.Ongoing {
		return nil, nil
	}
	return pos, moves
}

// teach lets the teacher play both sides from pos to the game's end or
// the cap, recording every position it searched.
func (p *player) teach(ctx context.Context, pos *env.Position, moves []string, seed uint64, id string) (*game, error) {
	var (
		ab  *match.AlphaBeta
		eng *engine.Engine
		rng *rand.Rand
		err error
	)
	if p.cfg.isEngine() {
		eng, err = p.newEngine(p.cfg.Seed)                // the same for every game: a replay can recompute its scores
		rng = rand.New(rand.NewPCG(seed, 0x6d617267696e)) // the Margin draws
	} else {
		ab, err = match.NewAlphaBeta(p.v, p.cfg.Depth, agent.DefaultValues(), seed)
	}
	if err != nil {
		return nil, fmt.Errorf("teacher: %w", err)
	}
	g := &game{moves: moves, rec: datasets.GameRecord{ID: id, Variant: p.v.Name,
		Model: p.model, Generation: p.cfg.Generation}}
	why := env.NotOver
	for {
		if g.res, why = pos.Status(); g.res != env.Ongoing {
			break
		}
		if pos.Ply() >= p.cfg.MaxPlies {
			g.res, why = env.Draw, env.LengthCap
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec := datasets.PositionRecord{Ply: pos.Ply(), Position: pos.String(), WhiteToMove: pos.SideToMove() == env.White,
			Repetitions: pos.Repetitions(), FullSearch: true, Pieces: selfplay.PieceCounts(pos)}
		var (
			m     env.Move
			value float32
		)
		if eng != nil {
			m, value, err = p.engineTarget(ctx, eng, rng, pos, &rec)
		} else {
			m, value, err = p.target(ab, pos, &rec)
		}
		if err != nil {
			return nil, err
		}
		rec.Value = value // replaced by the result below without a ValueScale
		rec.Played = pos.FormatGC(m)
		g.rec.Positions = append(g.rec.Positions, rec)
		g.moves = append(g.moves, rec.Played)
		pos.DoMove(m)
	}
	g.rec.Length, g.rec.Termination = pos.Ply(), why
	g.rec.Result = g.res.For(env.White)
	// Without a ValueScale the value column is the game's result, side to
	// move's view (the trainer's target in any case when value_mix is 0).
	if p.cfg.ValueScale == 0 {
		for i := range g.rec.Positions {
			r := &g.rec.Positions[i]
			r.Value = float32(g.rec.Result)
			if !r.WhiteToMove {
				r.Value = -r.Value
			}
		}
	}
	return g, nil
}

// target chooses the alpha-beta teacher's move in pos, writes the policy
// target into rec and returns the move and the value of the teacher's
// score of pos (selfplay.ScoreValue at ValueScale, side to move; 0 without one).
func (p *player) target(ab *match.AlphaBeta, pos *env.Position, rec *datasets.PositionRecord) (env.Move, float32, error) {
	if p.cfg.Policy == PolicyPlayed {
		m, score, err := ab.Best(pos)
		if err != nil {
			return env.NoMove, 0, fmt.Errorf("teacher: %w", err)
		}
		p.oneHot(pos, m, rec)
		return m, p.value(score, match.MateBound), nil
	}
	var err error
	p.moves, p.scores, err = ab.RootScores(pos, p.margin, p.moves, p.scores)
	if err != nil {
		return env.NoMove, 0, fmt.Errorf("teacher: %w", err)
	}
	best := 0
	for i, s := range p.scores {
		if s > p.scores[best] {
			best = i
		}
	}
	p.spread(pos, p.scores[best], match.MateBound, rec)
	return p.moves[best], p.value(p.scores[best], match.MateBound), nil
}

// engineTarget is target for the engine teacher: one search of pos at
// Nodes nodes (selfplay.EngineSearch) for MultiPV lines (those of its last
// finished iteration).
// The policy target is the engine's move, or a softmax over the lines'
// scores; the move played is drawn by rng among the lines within Margin
// of the best (when the best is a forced game end, among those of its
// exact score), or is the engine's move when no other line is that near;
// the value is the best line's score's. The engine's move is the first
// line's unless a deeper iteration the node limit cut short found a
// better one. A search ctx stops returns ctx's error.
func (p *player) engineTarget(ctx context.Context, eng *engine.Engine, rng *rand.Rand, pos *env.Position, rec *datasets.PositionRecord) (env.Move, float32, error) {
	res, err := selfplay.EngineSearch(ctx, eng, pos, p.cfg.Nodes)
	if err != nil {
		return env.NoMove, 0, fmt.Errorf("teacher: %w", err)
	}
	lines := res.Lines
	if len(lines) == 0 { // no iteration finished: the move alone
		lines = []engine.Line{{Score: res.Score, PV: []env.Move{res.Move}}}
	}
	best := lines[0].Score
	p.moves, p.scores = p.moves[:0], p.scores[:0]
	near := 0 // the lines that may be played: the first near of them
	for _, l := range lines {
		if len(l.PV) == 0 {
			continue
		}
		p.moves, p.scores = append(p.moves, l.PV[0]), append(p.scores, l.Score)
		if l.Score == best || (!engine.IsMate(best) && !engine.IsMate(l.Score) && best-l.Score <= p.cfg.Margin) {
			near++
		}
	}
	if p.cfg.Policy == PolicyPlayed {
		p.oneHot(pos, res.Move, rec)
	} else {
		p.spread(pos, best, engine.MateBound, rec)
	}
	m := res.Move
	if near > 1 {
		m = p.moves[rng.IntN(near)]
	}
	return m, p.value(best, engine.MateBound), nil
}

// value is selfplay.ScoreValue at ValueScale, or 0 without one.
func (p *player) value(score, mateBound int32) float32 {
	if p.cfg.ValueScale == 0 {
		return 0
	}
	return selfplay.ScoreValue(score, p.cfg.ValueScale, mateBound)
}

// oneHot makes m the whole policy target of rec.
func (p *player) oneHot(pos *env.Position, m env.Move, rec *datasets.PositionRecord) {
	rec.PolicyIndex = []int32{int32(p.index.Index(m, pos.SideToMove()))}
	rec.MoveText = []string{pos.FormatGC(m)}
	rec.Visits = []float32{1}
}

// spread makes the softmax of p.scores (best the highest) over p.moves the
// policy target of rec, leaving out the moves of no weight.
func (p *player) spread(pos *env.Position, best, mateBound int32, rec *datasets.PositionRecord) {
	side := pos.SideToMove()
	p.w = softmax(p.w[:0], p.scores, best, p.cfg.Temperature, mateBound)
	for i, w := range p.w {
		if w > 0 {
			rec.PolicyIndex = append(rec.PolicyIndex, int32(p.index.Index(p.moves[i], side)))
			rec.MoveText = append(rec.MoveText, pos.FormatGC(p.moves[i]))
			rec.Visits = append(rec.Visits, float32(w))
		}
	}
}

// softmax appends to w the policy weights of moves scored scores (best
// the highest), summing to 1: when best is a mate, the fastest mates share
// it evenly; otherwise exp((s-best)/T) over the moves not mated, with T in
// pawns (a mate is a score beyond mateBound), weights under minWeight of the best's dropped (RootScores bounds
// such moves' scores without scoring them exactly).
func softmax(w []float64, scores []int32, best int32, temperature float64, mateBound int32) []float64 {
	sum := 0.0
	for _, s := range scores {
		x := 0.0
		switch {
		case best >= mateBound:
			if s == best {
				x = 1
			}
		case s <= -mateBound && best > -mateBound:
			// a move that gets mated while another does not: no weight
		default:
			x = math.Exp(float64(s-best) / (temperature * 100))
			if x < minWeight {
				x = 0
			}
		}
		w = append(w, x)
		sum += x
	}
	for i := range w {
		w[i] /= sum
	}
	return w
}

// mix derives a seed from a seed and a tag (splitmix64 finalizer).
func mix(seed, tag uint64) uint64 {
	z := seed ^ (tag+0x9e3779b97f4a7c15)*0xbf58476d1ce4e5b9
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
