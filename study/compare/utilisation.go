package compare

import (
	"fmt"

	"bomberzero/env"
	"bomberzero/stats"
	"bomberzero/study/values"
)

// Utilisation says how the games of a rule set used the moves its rules
// allow and a base rule set's do not (the Super Power bomber's extended
// landings, say): a rule that is never used cannot make a difference.
type Utilisation struct {
	Variant string `json:"variant"` // the rule set with the extra moves
	Base    string `json:"base"`    // the rule set without them
	Games   int    `json:"games"`
	// Positions counts the recorded positions with a played move read;
	// Available those where at least one extra move was legal, Played those
	// where one was played.
	Positions int `json:"positions"`
	Available int `json:"available"`
	Played    int `json:"played"`
	// GamesAvailable and GamesUsed count games where an extra move was
	// legal at some point, and where one was played.
	GamesAvailable int `json:"games_available"`
	GamesUsed      int `json:"games_used"`
	// AfterFirstUse is the result, from the view of the side that played
	// the game's first extra move, of the games where one was played.
	AfterFirstUse stats.WDL `json:"after_first_use"`
	// Skipped counts positions one of the two rule sets could not read
	// (different boards or pieces): nothing is measured there.
	Skipped int `json:"skipped"`
	// AgainstBase, in a paired design, sets the games that used an extra
	// move beside the base rule set's games of the same pairs.
	AgainstBase *UseAgainstBase `json:"against_base,omitempty"`
}

// firstUse is where a game first played an extra move: the index of the
// position in Game.Positions and the side that played it (+1 White, -1
// Black).
type firstUse struct{ pos, side int }

// UseAgainstBase is, in a paired design, what playing an extra move
// changed: the pairs whose two games were one game, move for move, up to
// the position where the game with the extra moves first played one.
// From that position the base game went on without the move, with the same
// player seeds, so the two results, each from the view of the side that
// played the extra move, differ by what the move (and the rules that
// allowed it) did for that player there.
type UseAgainstBase struct {
	Pairs int       `json:"pairs"` // pairs alike up to the first use
	With  stats.WDL `json:"with"`  // the user's results with the extra moves
	Base  stats.WDL `json:"base"`  // the same side's results in the base games
	// Score is the user's score with the extra moves minus in the base
	// games, over those pairs, with its paired 95% normal interval.
	Score values.Estimate `json:"score_difference"`
}

// measureAgainstBase fills u.AgainstBase from base's games of the same
// pairs (Game.Index) as the games u measured, whose first uses are
// uses.
func (u *Utilisation) measureAgainstBase(uses map[int]firstUse, base *values.Dataset, with *values.Dataset) {
	baseOf := map[int]*values.Game{}
	for i := range base.Games {
		baseOf[base.Games[i].Index] = &base.Games[i]
	}
	ab := &UseAgainstBase{}
	var diffs []float64
	for i := range with.Games {
		g := &with.Games[i]
		fu, used := uses[g.Index]
		b := baseOf[g.Index]
		if !used || b == nil || !alikeUpTo(g, b, fu.pos) {
			continue
		}
		rw, rb := g.Result*fu.side, b.Result*fu.side
		ab.Pairs++
		ab.With = ab.With.Add(wdlOf(rw))
		ab.Base = ab.Base.Add(wdlOf(rb))
		diffs = append(diffs, float64(rw-rb)/2)
	}
	if ab.Pairs == 0 {
		return
	}
	ab.Score = sampleMoments(diffs).estimate()
	u.AgainstBase = ab
}

// alikeUpTo reports whether games a and b start alike and play the same
// moves before position pos, and both go on from there.
func alikeUpTo(a, b *values.Game, pos int) bool {
	return len(a.Positions) > pos && len(b.Positions) > pos && playedAlike(a, b, pos)
}

// wdlOf is one game's result, +1, 0 or -1 from a side's view, as a tally.
func wdlOf(r int) stats.WDL {
	switch {
	case r > 0:
		return stats.WDL{Wins: 1}
	case r < 0:
		return stats.WDL{Losses: 1}
	}
	return stats.WDL{Draws: 1}
}

// MeasureUtilisation reads every recorded position of ds (games of rule set
// with) under both rule sets, and counts the legal moves of with that base
// does not allow, and the times such a move was played.
func MeasureUtilisation(ds *values.Dataset, with, base *env.Variant) (*Utilisation, error) {
	u, _, err := measureUtilisation(ds, with, base)
	return u, err
}

// measureUtilisation is MeasureUtilisation that also returns where each
// game that used an extra move first did, by Game.Index.
func measureUtilisation(ds *values.Dataset, with, base *env.Variant) (*Utilisation, map[int]firstUse, error) {
	u := &Utilisation{Variant: with.Name, Base: base.Name}
	uses := map[int]firstUse{}
	buf := make([]env.Move, 0, env.MaxMoves)
	baseMoves := map[string]bool{}
	for gi := range ds.Games {
		g := &ds.Games[gi]
		if g.Variant != with.Name {
			continue
		}
		u.Games++
		available, firstSide, firstPos := false, 0, 0 // firstSide: +1 White, -1 Black played the first extra move
		for pi := range g.Positions {
			p := &g.Positions[pi]
			if p.Played == "" {
				continue
			}
			wp, err := with.ParsePosition(p.Text)
			if err != nil {
				u.Skipped++
				continue
			}
			bp, err := base.ParsePosition(p.Text)
			if err != nil {
				u.Skipped++
				continue
			}
			clear(baseMoves)
			for _, m := range bp.LegalMoves(buf[:0]) {
				baseMoves[bp.FormatGC(m)] = true
			}
			extra := map[string]bool{}
			for _, m := range wp.LegalMoves(buf[:0]) {
				if t := wp.FormatGC(m); !baseMoves[t] {
					extra[t] = true
				}
			}
			u.Positions++
			if len(extra) == 0 {
				continue
			}
			u.Available++
			available = true
			played, err := wp.ParseMove(p.Played)
			if err != nil {
				return nil, nil, fmt.Errorf("compare: utilisation: game %s ply %d: move %q: %w", g.ID, p.Ply, p.Played, err)
			}
			if extra[wp.FormatGC(played)] {
				u.Played++
				if firstSide == 0 {
					firstSide, firstPos = 1, pi
					if !p.WhiteToMove {
						firstSide = -1
					}
				}
			}
		}
		if available {
			u.GamesAvailable++
		}
		if firstSide != 0 {
			u.GamesUsed++
			u.AfterFirstUse = u.AfterFirstUse.Add(wdlOf(g.Result * firstSide))
			uses[g.Index] = firstUse{pos: firstPos, side: firstSide}
		}
	}
	return u, uses, nil
}

// utilisations adds, for every ordered pair of compared variants
// (all of them variants the rules engine knows) whose positions both can read, how the first's games used the moves the
// second's rules do not allow (pairs without any such move are left out).
func utilisations(res *Result, names []string, sets []*values.Dataset) error {
	vs := make([]*env.Variant, len(names))
	for i, name := range names {
		v, err := env.LoadVariant(name)
		if err != nil {
			return nil // names of synthetic data: no rules to compare
		}
		vs[i] = v
	}
	for i := range vs {
		for j := range vs {
			if i == j {
				continue
			}
			u, uses, err := measureUtilisation(sets[i], vs[i], vs[j])
			if err != nil {
				return err
			}
			if res.PairedGames > 0 {
				u.measureAgainstBase(uses, sets[j], sets[i])
			}
			if u.Available > 0 {
				res.Utilisation = append(res.Utilisation, u)
			}
		}
	}
	return nil
}
