package agent

import (
	"fmt"
	"math"
	"sort"

	"bomberzero/env"
	"bomberzero/mcts"
)

// MoveAnalysis is one root move of an analysis.
type MoveAnalysis struct {
	Move   string  `json:"move"` // Game Courier text
	Visits int     `json:"visits"`
	Prior  float64 `json:"prior"`
	// Q is the move's mean (or proven) value for the side to move; nil
	// when the search never tried the move.
	Q      *float64 `json:"q"`
	Proven bool     `json:"proven"`
}

// Analysis is what one search of a position found: its JSON form is what
// "bomberzero analyse --json" prints and what other front ends serve.
type Analysis struct {
	Variant  string         `json:"variant"`
	Position string         `json:"position"`
	Model    string         `json:"model"`
	Sims     int            `json:"sims"`
	Best     string         `json:"best"`  // the move the search plays, Game Courier text
	Value    float64        `json:"value"` // for the side to move, -1..1
	Proven   bool           `json:"proven"`
	PV       []string       `json:"pv"`
	Top      []MoveAnalysis `json:"top"`
}

// Analyse searches pos once with model under cfg and reports the move it
// plays, its value for the side to move, the top root moves (proven wins
// first, proven losses last, then by visits and prior) and the principal
// variation.
func Analyse(pos *env.Position, model *Model, cfg mcts.Config, top int) (Analysis, error) {
	rules := model.rules
	rep := Analysis{Variant: pos.Variant().Name, Position: pos.String(), Sims: cfg.Sims, PV: []string{}, Top: []MoveAnalysis{}}
	ev, err := model.NewEvaluator(cfg.LeavesPerGame, cfg.Seed)
	if err != nil {
		return rep, err
	}
	s, err := mcts.NewSearcher(cfg, ev, 1)
	if err != nil {
		return rep, err
	}
	g := rules.NewGame(pos)
	if err := s.ResetAt(0, g, pos.Ply()); err != nil {
		return rep, err
	}
	if err := s.SearchAll(); err != nil {
		return rep, err
	}
	r := s.Result(0)
	rep.Value, rep.Proven = float64(r.Value), r.Proven
	// Move texts are written on a copy that follows the PV.
	text := func(p *env.Position, idx int) (string, env.Move, error) {
		m := rules.Index.Decode(p, idx)
		if m == env.NoMove {
			return "", m, fmt.Errorf("analyse: policy index %d is not a legal move of %s", idx, p)
		}
		return p.FormatGC(m), m, nil
	}
	best, _, err := text(pos, r.Move)
	if err != nil {
		return rep, err
	}
	rep.Best = best
	line := pos.Clone()
	for _, idx := range s.PV(0, 40, nil) {
		t, m, err := text(line, idx)
		if err != nil {
			return rep, err
		}
		rep.PV = append(rep.PV, t)
		line.DoMove(m)
	}
	stats := s.RootStats(0, nil)
	// Proven wins first and proven losses last, then by visits and prior.
	class := func(m mcts.MoveStats) int {
		switch {
		case m.Proven && m.Q > 0:
			return 1
		case m.Proven && m.Q < 0:
			return -1
		}
		return 0
	}
	sort.SliceStable(stats, func(a, b int) bool {
		if ca, cb := class(stats[a]), class(stats[b]); ca != cb {
			return ca > cb
		}
		if stats[a].Visits != stats[b].Visits {
			return stats[a].Visits > stats[b].Visits
		}
		return stats[a].Prior > stats[b].Prior
	})
	for _, st := range stats[:min(top, len(stats))] {
		t, _, err := text(pos, st.Move)
		if err != nil {
			return rep, err
		}
		am := MoveAnalysis{Move: t, Visits: st.Visits, Prior: float64(st.Prior), Proven: st.Proven}
		if q := float64(st.Q); !math.IsNaN(q) {
			am.Q = &q
		}
		rep.Top = append(rep.Top, am)
	}
	return rep, nil
}
