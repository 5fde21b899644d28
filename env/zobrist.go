package env

// zobrist holds the random keys of a variant's position hash. The keys come
// from a fixed seed, so a position's hash is the same in every run.
type zobrist struct {
	piece  [][2 * maxTypes]uint64 // [cell][color*16+type]
	side   uint64
	castle [16]uint64
	ep     []uint64 // [cell]
	hand   [2][maxTypes][maxHand + 1]uint64
}

// maxHand bounds the count of one piece type in one hand.
const maxHand = 63

// splitmix64 is the seed-to-key generator.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func newZobrist(cells, types int) zobrist {
	r := splitmix64(0x426f6d6265725a65) // "BomberZe"
	z := zobrist{piece: make([][2 * maxTypes]uint64, cells), ep: make([]uint64, cells)}
	for c := range z.piece {
		for p := range z.piece[c] {
			z.piece[c][p] = r.next()
		}
		z.ep[c] = r.next()
	}
	z.side = r.next()
	for i := 1; i < 16; i++ {
		z.castle[i] = r.next()
	}
	for c := 0; c < 2; c++ {
		for t := 0; t < maxTypes; t++ {
			for n := 1; n <= maxHand; n++ {
				z.hand[c][t][n] = r.next()
			}
		}
	}
	return z
}

// pieceKey returns the key of piece p on square s.
func (z *zobrist) pieceKey(s Square, p Piece) uint64 {
	return z.piece[s][int(p.Color())*maxTypes+p.Type()]
}

// computeHash recomputes a position's hash from scratch (tests compare it with
// the incremental one).
func (p *Position) computeHash() uint64 {
	z := &p.v.z
	var h uint64
	for s := 0; s < p.v.Geo.Cells(); s++ {
		if q := p.board[s]; q != NoPiece {
			h ^= z.pieceKey(Square(s), q)
		}
	}
	if p.side == Black {
		h ^= z.side
	}
	h ^= z.castle[p.castle]
	for i := 0; i < int(p.epN); i++ {
		h ^= z.ep[p.ep[i]]
	}
	for c := 0; c < 2; c++ {
		for t := 0; t < maxTypes; t++ {
			h ^= z.hand[c][t][p.hand[c][t]]
		}
	}
	return h
}
