package env

// Perft counts the leaf nodes of the legal move tree to the given depth,
// counting the last ply in bulk. It ignores repetition and the 50-move rule;
// a game won by the scepter has no children (RULES.md section 8).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	buf := make([]Move, 0, MaxMoves*depth)
	return p.perft(depth, buf)
}

func (p *Position) perft(depth int, buf []Move) uint64 {
	moves := p.LegalMoves(buf[len(buf):])
	if depth == 1 {
		return uint64(len(moves))
	}
	rest := buf[len(buf)+len(moves) : len(buf)+len(moves)]
	var n uint64
	for _, m := range moves {
		u := p.DoMove(m)
		n += p.perft(depth-1, rest)
		p.UndoMove(u)
	}
	return n
}

// DivideEntry is one root move's share of a perft count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns the perft count under each root move.
func (p *Position) Divide(depth int) []DivideEntry {
	var out []DivideEntry
	moves := p.LegalMoves(make([]Move, 0, MaxMoves))
	buf := make([]Move, 0, MaxMoves*depth)
	for _, m := range moves {
		u := p.DoMove(m)
		n := uint64(1)
		if depth > 1 {
			n = p.perft(depth-1, buf)
		}
		p.UndoMove(u)
		out = append(out, DivideEntry{m, n})
	}
	return out
}
