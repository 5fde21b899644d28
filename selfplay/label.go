package selfplay

import (
	"context"
	"fmt"
	"math"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/env"
)

// LabelHashMB is the transposition table of each worker's labelling
// engine: ample for the node limits a label searches, cleared before each.
const LabelHashMB = 1

// MaxLabelNodes bounds Settings.LabelNodes.
const MaxLabelNodes = 10_000_000

// MaxLabelScale bounds Settings.LabelScale: at 10 a pawn is already
// worth tanh(10), a certain win.
const MaxLabelScale = 10

// maxDoublings bounds EngineSearch's retries: up to 2^6 times the nodes.
const maxDoublings = 6

// EngineSearch searches pos at nodes nodes, and again at twice as many
// while no iteration finished (Depth 0: no score; a tactical position's
// first iteration can take a few thousand nodes), up to 2^6 times nodes.
// A search ctx stopped is ctx's error.
func EngineSearch(ctx context.Context, eng *engine.Engine, pos *env.Position, nodes int64) (engine.Result, error) {
	for i := 0; ; i++ {
		res, err := eng.Search(ctx, pos, engine.Limits{Nodes: nodes}, nil)
		if err == nil {
			err = ctx.Err() // a stopped search's score is not a label
		}
		if err != nil || res.Depth > 0 || i == maxDoublings || nodes > engine.MaxNodes/2 {
			return res, err
		}
		nodes *= 2
	}
}

// ScoreValue is the value of an engine score (centipawns, side to move)
// at scale per pawn: tanh(scale × pawns), or ±1 for a mate (a score
// beyond mateBound).
func ScoreValue(score int32, scale float64, mateBound int32) float32 {
	switch {
	case score >= mateBound:
		return 1
	case score <= -mateBound:
		return -1
	}
	return float32(math.Tanh(scale * float64(score) / 100))
}

// labeller scores self-play positions with the alpha-beta engine
// (Settings.LabelNodes): one engine per worker, its table and history
// cleared before each label, so a label depends on its position (and the
// game's history, for repetitions) alone.
type labeller struct {
	eng   *engine.Engine
	nodes int64
	scale float64
}

// newLabeller returns the labeller of settings s for variant v, or nil
// when s labels nothing.
func newLabeller(s *Settings, v *env.Variant) (*labeller, error) {
	if s.LabelNodes <= 0 {
		return nil, nil
	}
	table, err := agent.DefaultValues().Table(v)
	if err != nil {
		return nil, fmt.Errorf("label_nodes: %w", err)
	}
	eng, err := engine.New(v, engine.Options{HashMB: LabelHashMB, Threads: 1, Table: table})
	if err != nil {
		return nil, fmt.Errorf("label_nodes: %w", err)
	}
	return &labeller{eng: eng, nodes: int64(s.LabelNodes), scale: s.LabelScale}, nil
}

// value returns the engine's value of pos for its side to move.
func (l *labeller) value(pos *env.Position) (float32, error) {
	l.eng.Clear()
	res, err := EngineSearch(context.Background(), l.eng, pos, l.nodes)
	if err != nil {
		return 0, fmt.Errorf("labelling a position: %w", err)
	}
	return ScoreValue(res.Score, l.scale, engine.MateBound), nil
}
