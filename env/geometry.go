package env

import (
	"fmt"
	"strconv"
)

// Square is a cell of a variant's grid, numbered rank-major from the lowest
// rank's file a: index = (rank-FirstRank)*Files + file. NoSquare means none.
type Square uint8

// NoSquare marks the absence of a square.
const NoSquare Square = 255

// Grid limits: at most 16 files and 16 ranks, and at most 240 cells in all.
const (
	maxFiles = 16
	maxRanks = 16
	maxCells = 240
)

// direction indexes: 0-3 orthogonal, 4-7 diagonal; opposite[d] reverses d.
var (
	dirDX    = [8]int{0, 0, 1, -1, 1, -1, 1, -1}
	dirDY    = [8]int{1, -1, 0, 0, 1, 1, -1, -1}
	opposite = [8]int{1, 0, 3, 2, 7, 6, 5, 4}
)

// Direction masks used by the movement primitives.
const (
	orthDirs uint8 = 0x0f
	diagDirs uint8 = 0xf0
	allDirs  uint8 = 0xff
)

// hop is the 2-cell helicopter leap from one square in one direction.
type hop struct {
	land Square // NoSquare when the leap is impossible
	mid  Square // the middle cell, NoSquare when it is a (transparent) hole
}

// Geometry is a board: a rectangle of files and ranks with holes, and the
// line and leap tables every piece uses, computed once when the variant loads.
type Geometry struct {
	Files, Ranks int  // grid size
	FirstRank    int  // the number of the lowest rank (0 or 1)
	Transparent  bool // holes let lines pass (Claustrophobia); otherwise they block like the edge

	real  [maxCells]bool
	file  [256]int8             // 0-based file of each cell (256: any Square indexes it)
	rank  [256]int8             // rank number of each cell
	rays  [maxCells][8][]Square // real squares along each line, honouring the hole mode
	hops  [maxCells][8]hop      // the 2-cell leaps
	steps [maxCells][8]Square   // the adjacent real cell in each direction
	// lineMask[s] has every square on any of the 8 lines from s.
	lineMask [maxCells]sqSet
	// between[from][to] is 1+direction when to lies on a line from from.
	between [maxCells][maxCells]uint8
}

// sqSet is a set of squares.
type sqSet [4]uint64

func (s *sqSet) add(q Square)      { s[q>>6] |= 1 << (q & 63) }
func (s *sqSet) has(q Square) bool { return s[q>>6]&(1<<(q&63)) != 0 }
func (s *sqSet) del(q Square)      { s[q>>6] &^= 1 << (q & 63) }

// Cells returns the number of grid cells, holes included; squares are 0..Cells()-1.
func (g *Geometry) Cells() int { return g.Files * g.Ranks }

// IsReal says whether s is a square of the board (not a hole, not off the grid).
func (g *Geometry) IsReal(s Square) bool { return int(s) < g.Cells() && g.real[s] }

// File returns the 0-based file of s.
func (g *Geometry) File(s Square) int { return int(g.file[s]) }

// Rank returns the rank number of s as written in square names.
func (g *Geometry) Rank(s Square) int { return int(g.rank[s]) }

// At returns the square at file (0-based) and rank number, or NoSquare off the grid.
func (g *Geometry) At(file, rank int) Square {
	r := rank - g.FirstRank
	if file < 0 || file >= g.Files || r < 0 || r >= g.Ranks {
		return NoSquare
	}
	return Square(r*g.Files + file)
}

// Mirror returns the rank number seen from the other side (White's rank r is Black's Mirror(r)).
func (g *Geometry) Mirror(rank int) int { return 2*g.FirstRank + g.Ranks - 1 - rank }

// Name returns the square's name, such as "e10".
func (g *Geometry) Name(s Square) string {
	if int(s) >= g.Cells() {
		return "-"
	}
	return string(rune('a'+g.File(s))) + strconv.Itoa(g.Rank(s))
}

// ParseSquare reads a square name of this grid, such as "e10".
func (g *Geometry) ParseSquare(name string) (Square, error) {
	s, n := g.scanSquare(name)
	if n == 0 || n != len(name) {
		return NoSquare, fmt.Errorf("%q is not a square of this %dx%d board (files a-%c, ranks %d-%d)",
			name, g.Files, g.Ranks, 'a'+g.Files-1, g.FirstRank, g.FirstRank+g.Ranks-1)
	}
	if !g.real[s] {
		return NoSquare, fmt.Errorf("%q is a hole, not a square of the board", name)
	}
	return s, nil
}

// scanSquare reads a square name at the start of text (letter then digits)
// and returns it with the bytes used, or 0 bytes when there is none.
func (g *Geometry) scanSquare(text string) (Square, int) {
	if len(text) < 2 || text[0] < 'a' || text[0] > 'z' {
		return NoSquare, 0
	}
	file := int(text[0] - 'a')
	n := 1
	rank := 0
	for n < len(text) && n < 4 && text[n] >= '0' && text[n] <= '9' {
		rank = rank*10 + int(text[n]-'0')
		n++
	}
	if n == 1 || (n > 2 && text[1] == '0') {
		return NoSquare, 0
	}
	s := g.At(file, rank)
	if s == NoSquare {
		return NoSquare, 0
	}
	return s, n
}

// newGeometry checks the size and builds every table.
func newGeometry(files, ranks, firstRank int, holes []Square, transparent bool) (*Geometry, error) {
	if files < 1 || files > maxFiles || ranks < 1 || ranks > maxRanks || files*ranks > maxCells {
		return nil, fmt.Errorf("board %dx%d is outside the limits (1-%d files, 1-%d ranks, at most %d cells)",
			files, ranks, maxFiles, maxRanks, maxCells)
	}
	if firstRank < 0 || firstRank > 1 {
		return nil, fmt.Errorf("first_rank %d: expected 0 or 1", firstRank)
	}
	g := &Geometry{Files: files, Ranks: ranks, FirstRank: firstRank, Transparent: transparent}
	n := files * ranks
	for i := 0; i < n; i++ {
		g.real[i] = true
		g.file[i] = int8(i % files)
		g.rank[i] = int8(i/files + firstRank)
	}
	for _, h := range holes {
		g.real[h] = false
	}
	cell := func(x, y int) int {
		if x < 0 || x >= files || y < 0 || y >= ranks {
			return -1
		}
		return y*files + x
	}
	for s := 0; s < n; s++ {
		x, y := s%files, s/files
		for d := 0; d < 8; d++ {
			g.steps[s][d] = NoSquare
			g.hops[s][d] = hop{NoSquare, NoSquare}
			if !g.real[s] {
				continue
			}
			// Ray.
			var ray []Square
			for k := 1; ; k++ {
				c := cell(x+k*dirDX[d], y+k*dirDY[d])
				if c < 0 {
					break
				}
				if !g.real[c] {
					if transparent {
						continue
					}
					break
				}
				ray = append(ray, Square(c))
			}
			g.rays[s][d] = ray
			for _, q := range ray {
				g.lineMask[s].add(q)
				g.between[s][q] = uint8(d + 1)
			}
			if c := cell(x+dirDX[d], y+dirDY[d]); c >= 0 && g.real[c] {
				g.steps[s][d] = Square(c)
			}
			// Helicopter leap: exactly two cells; a hole in the middle counts as
			// empty when transparent and blocks otherwise.
			m := cell(x+dirDX[d], y+dirDY[d])
			l := cell(x+2*dirDX[d], y+2*dirDY[d])
			if m < 0 || l < 0 || !g.real[l] {
				continue
			}
			switch {
			case g.real[m]:
				g.hops[s][d] = hop{Square(l), Square(m)}
			case transparent:
				g.hops[s][d] = hop{Square(l), NoSquare}
			}
		}
	}
	return g, nil
}

// leapTargets returns, for each square, the real squares reached by the
// offsets (dx, dy) given, which land only on real squares.
func (g *Geometry) leapTargets(offs [][2]int) [][]Square {
	out := make([][]Square, g.Cells())
	for s := 0; s < g.Cells(); s++ {
		if !g.real[s] {
			continue
		}
		x, y := s%g.Files, s/g.Files
		for _, o := range offs {
			tx, ty := x+o[0], y+o[1]
			if tx < 0 || tx >= g.Files || ty < 0 || ty >= g.Ranks {
				continue
			}
			if t := ty*g.Files + tx; g.real[t] {
				out[s] = append(out[s], Square(t))
			}
		}
	}
	return out
}
