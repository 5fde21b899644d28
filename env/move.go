package env

// Move is one move as a small value: from and to squares, a promotion or
// dropped piece type, and its kind. A move is identified by (from, to,
// promotion) for normal moves, (drop square, push target, type) for drops and
// (king from, king to) for castling; the pieces it removes are found when it
// is made.
//
// Bits: 0-7 from, 8-15 to, 16-19 piece type (promotion or drop), 20-21 kind,
// 22 fly (removes the enemies it passes over).
type Move uint32

// MoveKind tells a move's special rule.
type MoveKind uint8

// The move kinds. A drop's From is the square it is dropped on and To where it
// is pushed (equal to From without a push).
const (
	Normal MoveKind = iota
	Castle
	EnPassant
	Drop
)

// NoMove is the zero move; no legal move equals it.
const NoMove Move = 0

const flyBit = 1 << 22

func newMove(from, to Square, promo int, kind MoveKind) Move {
	return Move(uint32(from) | uint32(to)<<8 | uint32(promo)<<16 | uint32(kind)<<20)
}

// From returns the square the move starts from (a drop's drop square; the king's square for castling).
func (m Move) From() Square { return Square(m) }

// To returns the square the moving piece ends on (the king's for castling).
func (m Move) To() Square { return Square(m >> 8) }

// Promotion returns the type index promoted to (or dropped, for a drop), 0 if none.
func (m Move) Promotion() int { return int(m>>16) & 15 }

// Kind returns the move's kind.
func (m Move) Kind() MoveKind { return MoveKind(m>>20) & 3 }

// fly says whether the move removes the enemy pieces it passes over.
func (m Move) fly() bool { return m&flyBit != 0 }
