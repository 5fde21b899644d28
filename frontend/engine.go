package frontend

import (
	"context"
	"fmt"
	"math"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/env"
)

// EngineModel is the model name that searches with the alpha-beta engine
// (package engine, its classical evaluation) instead of a model and
// playouts: the analyse command's --model engine[:KEY=VALUE...], the web
// app's analysis model, the engine protocols' option Model.
const EngineModel = "engine"

// DefaultAnalysisNodes is the node limit of an engine analysis that names
// no limit: about a second of one thread.
const DefaultAnalysisNodes = 1_000_000

// NewEngine returns the alpha-beta engine for variant v with the project's
// piece values (agent.DefaultValues) and the table size, threads and
// evaluation of spec (its classical weights or learned net; a net or
// weights for another variant are refused, naming the file). Its limits
// are the caller's to pass to each search.
func NewEngine(v *env.Variant, spec engine.Spec) (*engine.Engine, error) {
	table, err := agent.DefaultValues().Table(v)
	if err != nil {
		return nil, err
	}
	ev, err := spec.Evaluator(v, table)
	if err != nil {
		return nil, err
	}
	return engine.New(v, engine.Options{HashMB: spec.HashMB, Threads: spec.Threads, Table: table, Eval: ev})
}

// EngineSearch searches pos (which must not be over) with the engine e
// within lim for its top best lines (MultiPV) and reads the search as a
// Report: the best move, its score as Score (UCI's "cp N" or "mate N")
// and as a Value in [-1, 1] (Centipawns' inverse; a mate is ±1 and
// Proven), the principal variation, and the lines in Top, each with its
// score and line. Sims is 0: the engine counts Nodes and Depth instead.
// A ctx that ends stops the search with the best lines found so far.
func EngineSearch(ctx context.Context, pos *env.Position, e *engine.Engine, lim engine.Limits, top int) (Report, error) {
	rep := Report{Variant: pos.Variant().Name, Position: pos.String(), Model: EngineModel, PV: []string{}, Top: []Move{}}
	if res, why := pos.Status(); res != env.Ongoing {
		return rep, fmt.Errorf("analysis: the game is over in this position (%s, %s)", res, why)
	}
	if err := e.SetMultiPV(min(max(top, 1), engine.MaxMultiPV)); err != nil {
		return rep, err
	}
	res, err := e.Search(ctx, pos, lim, nil)
	if err != nil {
		return rep, err
	}
	rep.Depth, rep.Nodes = res.Depth, res.Nodes
	rep.BestMove, rep.Best = res.Move, pos.FormatGC(res.Move)
	rep.Score = engine.ScoreText(res.Score)
	rep.Value, rep.Proven = ScoreValue(res.Score), engine.IsMate(res.Score)
	rep.PV = gcLine(pos, res.PV)
	if len(rep.PV) == 0 {
		rep.PV = []string{rep.Best}
	}
	for _, l := range res.Lines {
		if len(l.PV) == 0 {
			continue
		}
		q := ScoreValue(l.Score)
		m := Move{Move: pos.FormatGC(l.PV[0]), Q: &q, Proven: engine.IsMate(l.Score), Score: engine.ScoreText(l.Score), PV: gcLine(pos, l.PV)}
		if !m.Proven {
			cp := int(l.Score)
			m.Centipawns = &cp
		}
		rep.Top = append(rep.Top, m)
	}
	return rep, nil
}

// ScoreValue reads an engine score (centipawns for the side to move, or a
// mate) as a value in [-1, 1]: Centipawns' inverse, ±1 for a mate.
func ScoreValue(s int32) float64 {
	switch m := engine.MateMoves(s); {
	case m > 0:
		return 1
	case m < 0:
		return -1
	}
	return math.Atan(float64(s)/90) / 1.5637541897
}

// gcLine writes a line of moves from pos in Game Courier text.
func gcLine(pos *env.Position, line []env.Move) []string {
	q := pos.Clone()
	out := make([]string, 0, len(line))
	for _, m := range line {
		out = append(out, q.FormatGC(m))
		q.DoMove(m)
	}
	return out
}
