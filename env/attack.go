package env

// Attacked says whether side by could remove a piece standing on s with one
// move, by landing on it or by flying over it (RULES.md section 2). En
// passant is not counted: it never removes a king.
func (p *Position) Attacked(s Square, by Color) bool {
	if int(s) >= p.v.Geo.Cells() || !p.v.Geo.real[s] {
		return false
	}
	return p.attacked(s, by)
}

func (p *Position) attacked(s Square, by Color) bool {
	v := p.v
	for _, a := range v.attackers[by][s] {
		if q := p.board[a.from]; q != NoPiece && q.Color() == by && a.mask&(1<<q.Type()) != 0 {
			return true
		}
	}
	if v.lineTypes == 0 {
		return false
	}
	g := v.Geo
	for d := 0; d < 8; d++ {
		bit := uint8(1) << d
		if v.lineDirs&bit != 0 {
			for _, a := range g.rays[s][d] {
				q := p.board[a]
				if q == NoPiece {
					continue
				}
				if q.Color() == by {
					t := &v.Pieces[q.Type()]
					if t.slideCap&bit != 0 {
						return true
					}
					if t.bomb&bit != 0 {
						if behind := g.rays[s][opposite[d]]; len(behind) > 0 && p.board[behind[0]] == NoPiece {
							return true
						}
					}
				}
				break
			}
		}
		if v.heliDirs&bit == 0 {
			continue
		}
		// Helicopter leap landing on s.
		if l := g.hops[s][d].land; l != NoSquare {
			if q := p.board[l]; q != NoPiece && q.Color() == by && v.Pieces[q.Type()].heli&bit != 0 {
				return true
			}
		}
		// Helicopter leap over s from the adjacent square.
		if a, l := g.steps[s][d], g.steps[s][opposite[d]]; a != NoSquare && l != NoSquare {
			if q := p.board[a]; q != NoPiece && q.Color() == by && v.Pieces[q.Type()].heli&bit != 0 {
				if lq := p.board[l]; lq == NoPiece || lq.Color() != by {
					return true
				}
			}
		}
	}
	return false
}

// InCheck says whether the side to move's king is attacked.
func (p *Position) InCheck() bool {
	k := p.king[p.side]
	return k != NoSquare && p.attacked(k, p.side.Other())
}
