package web

import (
	"fmt"
	"strconv"
	"strings"

	"bomberzero/datasets/record"
	"bomberzero/env"
)

// PieceInfo is one kind of piece of a variant.
type PieceInfo struct {
	Letter string `json:"letter"` // upper case; Black's pieces are written in lower case
	Name   string `json:"name"`
	Royal  bool   `json:"royal"`
	Pawn   bool   `json:"pawn"`
}

// VariantInfo is what the page needs to draw a variant's board.
type VariantInfo struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Files       int         `json:"files"`
	Ranks       int         `json:"ranks"`
	FirstRank   int         `json:"first_rank"`  // 0 or 1
	Transparent bool        `json:"transparent"` // holes let lines pass
	Holes       []string    `json:"holes"`
	Pieces      []PieceInfo `json:"pieces"`
	Start       string      `json:"start"`
	Drop        string      `json:"drop"` // the letter of the piece dropped from hand, "" without drops
	Promotions  []string    `json:"promotions"`
	Scepter     [2][]string `json:"scepter"` // White's and Black's winning squares
}

func variantInfo(v *env.Variant) VariantInfo {
	g := v.Geo
	vi := VariantInfo{Name: v.Name, Description: v.Description, Files: g.Files, Ranks: g.Ranks, FirstRank: g.FirstRank,
		Transparent: g.Transparent, Holes: []string{}, Start: v.StartFEN, Promotions: []string{}}
	for s := 0; s < g.Cells(); s++ {
		if !g.IsReal(env.Square(s)) {
			vi.Holes = append(vi.Holes, g.Name(env.Square(s)))
		}
	}
	for _, p := range v.Pieces[1:] {
		vi.Pieces = append(vi.Pieces, PieceInfo{Letter: string(p.Letter), Name: p.Name, Royal: p.Royal, Pawn: p.Pawn != env.NotPawn})
	}
	if t := v.DropType(); t != 0 {
		vi.Drop = string(v.Pieces[t].Letter)
	}
	for _, t := range v.PromotionTypes() {
		vi.Promotions = append(vi.Promotions, string(v.Pieces[t].Letter))
	}
	for c := env.White; c <= env.Black; c++ {
		vi.Scepter[c] = []string{}
		for _, s := range v.ScepterSquares(c) {
			vi.Scepter[c] = append(vi.Scepter[c], g.Name(s))
		}
	}
	return vi
}

// Placed is a piece on a square: its letter, upper case for White.
type Placed struct {
	Square string `json:"square"`
	Piece  string `json:"piece"`
}

// MoveInfo is one legal (or played) move, with what the page draws.
type MoveInfo struct {
	Text      string   `json:"text"`      // Game Courier text
	Canonical string   `json:"canonical"` // canonical text
	From      string   `json:"from"`      // the moving piece's square; a drop's drop square
	To        string   `json:"to"`        // where it ends (a pushed drop: where the push ends)
	Drop      string   `json:"drop,omitempty"`
	Promotion string   `json:"promotion,omitempty"`
	Castle    bool     `json:"castle,omitempty"`
	Removed   []Placed `json:"removed"` // the enemy pieces it removes
	Path      []string `json:"path"`    // the squares it passes over between From and To
}

// State is a position of a game and everything the page shows of it.
type State struct {
	Variant     string            `json:"variant"`
	Start       string            `json:"start"`    // the game's start position text
	Position    string            `json:"position"` // this position's text
	Side        string            `json:"side"`     // "white" or "black"
	Ply         int               `json:"ply"`
	InCheck     bool              `json:"in_check"`
	Over        bool              `json:"over"`
	Result      string            `json:"result"`      // "*" while the game goes on
	Termination string            `json:"termination"` // "" while the game goes on
	Board       []Placed          `json:"board"`
	Hands       [2]map[string]int `json:"hands"` // White's and Black's pieces in hand by letter
	Moves       []string          `json:"moves"` // the game's moves in Game Courier text
	Legal       []MoveInfo        `json:"legal"`
	Last        *MoveInfo         `json:"last"`   // the last move played, drawn in the position before it
	Record      string            `json:"record"` // the game as a record "bomberzero replay" reads
}

func letter(v *env.Variant, q env.Piece) string {
	l := v.Pieces[q.Type()].Letter
	if q.Color() == env.Black {
		l += 'a' - 'A'
	}
	return string(l)
}

// moveInfo describes legal move m of p (before it is made).
func moveInfo(p *env.Position, m env.Move) MoveInfo {
	v := p.Variant()
	g := v.Geo
	mi := MoveInfo{Text: p.FormatGC(m), Canonical: p.FormatMove(m), From: g.Name(m.From()), To: g.Name(m.To()), Removed: []Placed{}, Path: []string{}}
	switch m.Kind() {
	case env.Drop:
		mi.Drop = string(v.Pieces[m.Promotion()].Letter)
	case env.Castle:
		mi.Castle = true
	default:
		if m.Promotion() != 0 {
			mi.Promotion = string(v.Pieces[m.Promotion()].Letter)
		}
	}
	sq, n := p.Removed(m)
	for _, s := range sq[:n] {
		mi.Removed = append(mi.Removed, Placed{g.Name(s), letter(v, p.At(s))})
	}
	if m.Kind() != env.Castle {
		mi.Path = between(g, m.From(), m.To())
	}
	return mi
}

// between lists the cells strictly between a and b when they are on one
// line (rank, file or diagonal), holes included; none otherwise.
func between(g *env.Geometry, a, b env.Square) []string {
	fa, ra, fb, rb := g.File(a), g.Rank(a), g.File(b), g.Rank(b)
	df, dr := fb-fa, rb-ra
	if !(df == 0 || dr == 0 || df == dr || df == -dr) {
		return []string{}
	}
	n := max(abs(df), abs(dr))
	out := []string{}
	for i := 1; i < n; i++ {
		out = append(out, g.Name(g.At(fa+i*sign(df), ra+i*sign(dr))))
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// game is a start position and the moves played from it.
type game struct {
	start *env.Position
	pos   *env.Position
	moves []string
	last  *MoveInfo
	// white and black name the players in the record.
	white, black string
	// endResult and endWhy end the game outside the rules (Ongoing: not).
	endResult env.Result
	endWhy    env.Termination
	// timeControl and clocks are the clock's, for the record.
	timeControl string
	clocks      []int64
}

// replay plays moves from start, refusing the first illegal one (or a move
// after the game's end) with an error naming it.
func replay(start *env.Position, moves []string) (*game, error) {
	g := &game{start: start, pos: start.Clone(), moves: []string{}}
	for i, t := range moves {
		if err := g.play(t); err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, t, err)
		}
	}
	return g, nil
}

func (g *game) play(text string) error {
	if g.endResult != env.Ongoing {
		return fmt.Errorf("the game is over (%s, %s)", g.endResult, g.endWhy)
	}
	if res, why := g.pos.Status(); res != env.Ongoing {
		return fmt.Errorf("the game is over (%s, %s)", res, why)
	}
	m, err := g.pos.ParseMove(strings.TrimSpace(text))
	if err != nil {
		return err
	}
	g.playMove(m)
	return nil
}

func (g *game) playMove(m env.Move) {
	mi := moveInfo(g.pos, m)
	g.last = &mi
	g.moves = append(g.moves, mi.Text)
	g.pos.DoMove(m)
}

// state describes g's current position.
func (g *game) state() State {
	p := g.pos
	v := p.Variant()
	geo := v.Geo
	st := State{Variant: v.Name, Start: g.start.String(), Position: p.String(), Side: p.SideToMove().String(), Ply: len(g.moves),
		InCheck: p.InCheck(), Board: []Placed{}, Moves: g.moves, Legal: []MoveInfo{}, Last: g.last, Result: "*"}
	for s := 0; s < geo.Cells(); s++ {
		if q := p.At(env.Square(s)); q != env.NoPiece {
			st.Board = append(st.Board, Placed{geo.Name(env.Square(s)), letter(v, q)})
		}
	}
	for c := env.White; c <= env.Black; c++ {
		st.Hands[c] = map[string]int{}
		if t := v.DropType(); t != 0 {
			st.Hands[c][string(v.Pieces[t].Letter)] = p.InHand(c, t)
		}
	}
	legal := p.LegalMoves(nil)
	res, why := p.StatusOf(len(legal))
	if res == env.Ongoing && g.endResult != env.Ongoing {
		res, why = g.endResult, g.endWhy
	}
	if res != env.Ongoing {
		st.Over, st.Result, st.Termination = true, res.String(), why.String()
	} else {
		for _, m := range legal {
			st.Legal = append(st.Legal, moveInfo(p, m))
		}
	}
	rec := g.record(res, why)
	st.Record = rec.Format()
	return st
}

// outcome is the game's result and termination (Ongoing while it goes
// on), the rules' or its end's.
func (g *game) outcome() (env.Result, env.Termination) {
	res, why := g.pos.Status()
	if res == env.Ongoing && g.endResult != env.Ongoing {
		res, why = g.endResult, g.endWhy
	}
	return res, why
}

// record is the game's record with its players' names and clock times.
func (g *game) record(res env.Result, why env.Termination) record.Game {
	w, b := g.white, g.black
	if w == "" {
		w = "?"
	}
	if b == "" {
		b = "?"
	}
	rec := record.New("bomberzero serve", g.start, w, b, res, why, g.moves)
	if g.timeControl != "" {
		rec.Set("TimeControl", g.timeControl)
	}
	if len(g.clocks) > 0 {
		t := make([]string, len(g.clocks))
		for i, c := range g.clocks {
			t[i] = strconv.FormatFloat(float64(c)/1000, 'f', 1, 64)
		}
		rec.Set("Clocks", strings.Join(t, " "))
	}
	return rec
}
