package compare

import (
	"fmt"

	"bomberzero/env"
	"bomberzero/match"
)

// bookPlies is the length of cfg's openings: cfg.BookPlies, or
// DefaultBookPlies when it is 0.
func bookPlies(cfg ImbalanceConfig) int {
	if cfg.BookPlies > 0 {
		return cfg.BookPlies
	}
	return DefaultBookPlies
}

// imbalanceBook draws cfg.Book random openings on arrangement 1's start
// (the pieces already gone), each legal from both arrangements' starts and
// from every pawn-odds setup's, where the pawn-odds positions reached are
// the imbalance ones less the pawn (its pawn still home: no opening
// captures it, which would leave the two matches' material alike).
func imbalanceBook(cfg ImbalanceConfig, starts [2]*env.Position, odds [2]*oddsSetup) ([]match.Opening, error) {
	all := []*env.Position{starts[0], starts[1]}
	var setups []*oddsSetup
	for _, o := range odds {
		if o != nil {
			all = append(all, o.starts[0], o.starts[1])
			setups = append(setups, o)
		}
	}
	accept := func(op match.Opening) bool {
		for _, o := range setups {
			for k := range 2 {
				if !sameButPawn(starts[k], o.starts[k], o.pawn[k], op) {
					return false
				}
			}
		}
		return true
	}
	book, err := match.RandomBookFrom(all, cfg.Book, bookPlies(cfg), cfg.Seed, accept)
	if err != nil {
		where := "both colour arrangements"
		if len(setups) > 0 {
			where += " and the pawn-odds positions"
		}
		return nil, fmt.Errorf("compare: imbalance book (%d openings of %d plies, legal in %s): %w", cfg.Book, bookPlies(cfg), where, err)
	}
	return book, nil
}

// sameButPawn reports whether opening op, played from full and from odds
// (full less the pawn on square pawn), reaches positions that differ only
// by that pawn, still on its square in the first.
func sameButPawn(full, odds *env.Position, pawn env.Square, op match.Opening) bool {
	p, err := env.PlayMoves(full, op.String())
	if err != nil {
		return false
	}
	q, err := env.PlayMoves(odds, op.String())
	if err != nil {
		return false
	}
	if p.SideToMove() != q.SideToMove() || p.At(pawn) != full.At(pawn) || q.At(pawn) != env.NoPiece {
		return false
	}
	g := full.Variant().Geo
	for s := range g.Cells() {
		sq := env.Square(s)
		if sq != pawn && g.IsReal(sq) && p.At(sq) != q.At(sq) {
			return false
		}
	}
	return true
}

// checkOpenings checks given openings (ImbalanceConfig.Openings) as
// imbalanceBook's draw would have kept them: each legal from both
// arrangements' starts, leaving a game that goes on, and, for every
// pawn-odds setup in odds, reaching the same pieces less the pawn, still
// home. The error names the opening, the arrangement and what failed.
func checkOpenings(v *env.Variant, starts [2]*env.Position, odds [2]*oddsSetup, book []match.Opening) error {
	for i, o := range book {
		if len(o) == 0 {
			return fmt.Errorf("compare: imbalance opening %d is empty: want one move or more", i)
		}
		for k, s := range starts {
			p, err := env.PlayMoves(s, o.String())
			if err != nil {
				return fmt.Errorf("compare: imbalance opening %d (%s) is not legal from arrangement %d's start %s in %s: %w", i, o, k+1, s, v.Name, err)
			}
			if res, why := p.Status(); res != env.Ongoing {
				return fmt.Errorf("compare: imbalance opening %d (%s) ends the game from arrangement %d's start in %s (%s, %s): want a game that goes on", i, o, k+1, v.Name, res, why)
			}
			for _, od := range odds {
				if od != nil && !sameButPawn(s, od.starts[k], od.pawn[k], o) {
					return fmt.Errorf("compare: imbalance opening %d (%s) from arrangement %d's start in %s: not the same play without the pawn-odds pawn on %s (it is illegal there, or moves or takes that pawn)",
						i, o, k+1, v.Name, v.Geo.Name(od.pawn[k]))
				}
			}
		}
	}
	return nil
}
