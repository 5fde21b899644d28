package compare

import (
	"fmt"

	"bomberzero/env"
	"bomberzero/stats"
	"bomberzero/values"
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
}

// MeasureUtilisation reads every recorded position of ds (games of rule set
// with) under both rule sets, and counts the legal moves of with that base
// does not allow, and the times such a move was played.
func MeasureUtilisation(ds *values.Dataset, with, base *env.Variant) (*Utilisation, error) {
	u := &Utilisation{Variant: with.Name, Base: base.Name}
	buf := make([]env.Move, 0, env.MaxMoves)
	baseMoves := map[string]bool{}
	for gi := range ds.Games {
		g := &ds.Games[gi]
		if g.Variant != with.Name {
			continue
		}
		u.Games++
		available, firstSide := false, 0 // firstSide: +1 White, -1 Black played the first extra move
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
				return nil, fmt.Errorf("compare: utilisation: game %s ply %d: move %q: %w", g.ID, p.Ply, p.Played, err)
			}
			if extra[wp.FormatGC(played)] {
				u.Played++
				if firstSide == 0 {
					firstSide = 1
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
			switch r := g.Result * firstSide; {
			case r > 0:
				u.AfterFirstUse.Wins++
			case r < 0:
				u.AfterFirstUse.Losses++
			default:
				u.AfterFirstUse.Draws++
			}
		}
	}
	return u, nil
}
