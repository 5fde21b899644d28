package env

// Color is a side: White moves first.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Piece is a coloured piece on a square: Color<<4 | type index (1-15); 0 is empty.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// maxTypes bounds the piece types of a variant (type indexes 1..15).
const maxTypes = 16

// MakePiece returns the piece of colour c and type index t.
func MakePiece(c Color, t int) Piece { return Piece(uint8(c)<<4 | uint8(t)) }

// Type returns the piece's type index into Variant.Pieces.
func (p Piece) Type() int { return int(p & 15) }

// Color returns the piece's side.
func (p Piece) Color() Color { return Color(p >> 4) }

// PawnKind is the pawn behaviour of a piece type (RULES.md section 3).
type PawnKind uint8

// The pawn behaviours; NotPawn is every other piece.
const (
	NotPawn PawnKind = iota
	GrandPawn
	OrthodoxPawn
	SlidingPawn
	NinjaPawn
)

var pawnKindNames = map[string]PawnKind{"grand": GrandPawn, "orthodox": OrthodoxPawn, "sliding": SlidingPawn, "ninja": NinjaPawn}

// leapTarget is one square a leaper reaches, with what it may do there.
type leapTarget struct {
	to   Square
	mode uint8 // modeMove | modeCapture
	line uint8 // 1+direction when the piece also has a line move toward to, else 0
}

const (
	modeMove    uint8 = 1
	modeCapture uint8 = 2
	modeBoth          = modeMove | modeCapture
)

// PieceType is one kind of piece of a variant, compiled from its movement
// primitives into per-square tables.
type PieceType struct {
	Letter byte     // upper-case letter in position and move text
	Name   string   // human name
	Royal  bool     // the king: checkmate ends the game
	Pawn   PawnKind // pawn behaviour, NotPawn for pieces

	slideMove uint8 // directions it slides along to empty squares
	slideCap  uint8 // directions it slides along to capture the first piece
	bomb      uint8 // directions it bombs along (fly over the first enemy)
	bombExt   bool  // extended landing: any empty square behind the enemy
	heli      uint8 // directions of the 2-cell helicopter leap
	leaps     [][]leapTarget
	// leapOffsets is every leap offset as defined, with its mode (the tests'
	// reference generator reads it).
	leapOffsets map[[2]int]uint8
	fly         uint8 // directions in which a move removes the enemies it passes (bomb | heli)
}

// symmetries expands an offset under the eight symmetries of the square.
func symmetries(o [2]int) [][2]int {
	var out [][2]int
	seen := map[[2]int]bool{}
	for _, sx := range []int{1, -1} {
		for _, sy := range []int{1, -1} {
			for _, sw := range []bool{false, true} {
				x, y := o[0]*sx, o[1]*sy
				if sw {
					x, y = y, x
				}
				if !seen[[2]int{x, y}] {
					seen[[2]int{x, y}] = true
					out = append(out, [2]int{x, y})
				}
			}
		}
	}
	return out
}
