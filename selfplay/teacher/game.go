package teacher

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"bomberzero/agent"
	"bomberzero/datasets"
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
}

func newPlayer(cfg *Config, v *env.Variant, index *env.MoveIndex) *player {
	return &player{cfg: cfg, v: v, index: index, model: cfg.Model(), margin: cfg.margin(),
		buf: make([]env.Move, 0, env.MaxMoves)}
}

// game is one finished teacher game: its training record and the moves of
// its Game Courier record.
type game struct {
	rec   datasets.GameRecord
	moves []string
	res   env.Result
}

// play plays game number k of the run (its seeds depend on cfg.Seed and k
// only). It returns ctx's error when ctx ends first.
func (p *player) play(ctx context.Context, k int) (*game, error) {
	for draw := range uint64(maxOpeningDraws) {
		seed := mix(mix(p.cfg.Seed, uint64(k)), draw)
		pos, moves := p.opening(rand.New(rand.NewPCG(seed, 0x6f70656e)))
		if pos == nil {
			continue // the random plies ended the game
		}
		return p.teach(ctx, pos, moves, seed)
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
func (p *player) teach(ctx context.Context, pos *env.Position, moves []string, seed uint64) (*game, error) {
	ab, err := match.NewAlphaBeta(p.v, p.cfg.Depth, agent.DefaultValues(), seed)
	if err != nil {
		return nil, fmt.Errorf("teacher: %w", err)
	}
	g := &game{moves: moves, rec: datasets.GameRecord{ID: datasets.NewGameID(), Variant: p.v.Name,
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
		m, score, err := p.target(ab, pos, &rec)
		if err != nil {
			return nil, err
		}
		if p.cfg.ValueScale > 0 {
			rec.Value = searchValue(score, p.cfg.ValueScale)
		}
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

// searchValue is the value of a teacher score (centipawns, side to move)
// at scale per pawn: tanh(scale × pawns), or ±1 for a mate.
func searchValue(score int32, scale float64) float32 {
	switch {
	case score > match.MateBound:
		return 1
	case score < -match.MateBound:
		return -1
	}
	return float32(math.Tanh(scale * float64(score) / 100))
}

// target chooses the teacher's move in pos, writes the policy target into
// rec and returns the move and the teacher's score of pos (centipawns,
// side to move).
func (p *player) target(ab *match.AlphaBeta, pos *env.Position, rec *datasets.PositionRecord) (env.Move, int32, error) {
	side := pos.SideToMove()
	if p.cfg.Policy == PolicyPlayed {
		m, score, err := ab.Best(pos)
		if err != nil {
			return env.NoMove, 0, fmt.Errorf("teacher: %w", err)
		}
		rec.PolicyIndex = []int32{int32(p.index.Index(m, side))}
		rec.MoveText = []string{pos.FormatGC(m)}
		rec.Visits = []float32{1}
		return m, score, nil
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
	p.w = softmax(p.w[:0], p.scores, p.scores[best], p.cfg.Temperature)
	for i, w := range p.w {
		if w > 0 {
			rec.PolicyIndex = append(rec.PolicyIndex, int32(p.index.Index(p.moves[i], side)))
			rec.MoveText = append(rec.MoveText, pos.FormatGC(p.moves[i]))
			rec.Visits = append(rec.Visits, float32(w))
		}
	}
	return p.moves[best], p.scores[best], nil
}

// softmax appends to w the policy weights of moves scored scores (best
// the highest), summing to 1: when best is a mate, the fastest mates share
// it evenly; otherwise exp((s-best)/T) over the moves not mated, with T in
// pawns, weights under minWeight of the best's dropped (RootScores bounds
// such moves' scores without scoring them exactly).
func softmax(w []float64, scores []int32, best int32, temperature float64) []float64 {
	sum := 0.0
	for _, s := range scores {
		x := 0.0
		switch {
		case best > match.MateBound:
			if s == best {
				x = 1
			}
		case s < -match.MateBound && best >= -match.MateBound:
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
