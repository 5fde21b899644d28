package values

import (
	"fmt"
	"path/filepath"
	"slices"

	"bomberzero/datasets"
	"bomberzero/env"
)

// Dataset is the in-memory form the statistics work on: finished games with
// their positions' piece counts, all over one table of piece types.
type Dataset struct {
	// Pieces names the piece types (the variant's uppercase letters) that
	// Position.White and Position.Black count, in that order.
	Pieces []string
	Games  []Game
}

// Game is one finished game.
type Game struct {
	ID      string
	Variant string
	// Result is the final result from White's view: +1, 0 or -1.
	Result      int
	Termination env.Termination // how the game ended
	Length      int             // plies played
	// Positions are the recorded positions in increasing ply order.
	Positions []Position
	// Player names who played the game (the chunk's model column: a
	// player spec or a checkpoint); "" when not recorded.
	Player string
	// Index is the game's place in the match that played it. It names the
	// game's pair where the data set is one side of a paired design
	// (Config.Pairs): two rule sets' games with the same Index were played
	// from the same opening by players with the same seeds. Other fits
	// do not read it.
	Index int
}

// Position is one recorded position of a game.
type Position struct {
	Ply         int
	WhiteToMove bool
	Text        string  // the rules engine's position text
	Value       float64 // the search's value, side to move's view, in [-1,1]
	Played      string  // the move played from here ("" if unknown)
	// White and Black count each piece type of Dataset.Pieces per side.
	White, Black []int32
	// CaptureAvailable is true when the side to move had a legal move
	// that removes an enemy piece (a capture, en passant, a bomber's
	// double capture): material is about to change, so the position is
	// not quiet (SampleConfig.NoCaptures). Load finds it by the rules
	// engine; it is false where the position could not be read.
	CaptureAvailable bool
}

// ResultSTM returns g's result from the view of the side to move in p:
// +1 won, 0 drawn, -1 lost.
func (g *Game) ResultSTM(p *Position) int {
	if p.WhiteToMove {
		return g.Result
	}
	return -g.Result
}

// FromRecords builds a Dataset from game records (as datasets.Games returns
// them). Piece types are the union of the types the records list, in order
// of first appearance; a type a position does not list counts zero there.
// A game ID met twice keeps its first record.
func FromRecords(records []datasets.GameRecord) (*Dataset, error) {
	ds := &Dataset{}
	b := newBuilder(ds)
	b.rules = newCaptureFinder()
	for i := range records {
		if err := b.add(&records[i]); err != nil {
			return nil, err
		}
	}
	b.finish()
	return ds, nil
}

// builder accumulates game records into a Dataset.
type builder struct {
	ds    *Dataset
	index map[string]int // piece letter -> column
	seen  map[string]bool
	// rules reads positions to find captures; nil leaves CaptureAvailable
	// false (FromRecords of synthetic data).
	rules *captureFinder
}

func newBuilder(ds *Dataset) *builder {
	return &builder{ds: ds, index: map[string]int{}, seen: map[string]bool{}}
}

func (b *builder) add(r *datasets.GameRecord) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("values: %w", err)
	}
	if b.seen[r.ID] {
		return nil
	}
	b.seen[r.ID] = true
	g := Game{ID: r.ID, Variant: r.Variant, Result: r.Result, Termination: r.Termination, Length: r.Length,
		Positions: make([]Position, len(r.Positions)), Index: len(b.ds.Games), Player: r.Model}
	for i := range r.Positions {
		p := &r.Positions[i]
		q := Position{Ply: p.Ply, WhiteToMove: p.WhiteToMove, Text: p.Position, Value: float64(p.Value), Played: p.Played}
		for _, c := range p.Pieces {
			b.setCount(&q, c.Piece, c.White, c.Black)
		}
		if b.rules != nil {
			q.CaptureAvailable = b.rules.captureAvailable(r.Variant, p.Position)
		}
		g.Positions[i] = q
	}
	b.ds.Games = append(b.ds.Games, g)
	return nil
}

// setCount sets q's count of the piece with letter letter for each side,
// giving the letter a column of the data set on first sight.
func (b *builder) setCount(q *Position, letter string, white, black int32) {
	col, ok := b.index[letter]
	if !ok {
		col = len(b.ds.Pieces)
		b.index[letter] = col
		b.ds.Pieces = append(b.ds.Pieces, letter)
	}
	q.White = grow(q.White, col+1)
	q.Black = grow(q.Black, col+1)
	q.White[col], q.Black[col] = white, black
}

// finish pads every count vector to the full table of piece types.
func (b *builder) finish() {
	n := len(b.ds.Pieces)
	for gi := range b.ds.Games {
		for pi := range b.ds.Games[gi].Positions {
			p := &b.ds.Games[gi].Positions[pi]
			p.White, p.Black = grow(p.White, n), grow(p.Black, n)
		}
	}
}

func grow(s []int32, n int) []int32 {
	if len(s) >= n {
		return s
	}
	return append(s, make([]int32, n-len(s))...)
}

// RunDataDir returns where a run directory made by "bomberzero train" keeps
// its training-data chunks: RUN/data.
func RunDataDir(run string) string { return filepath.Join(run, "data") }

// LoadReport says what Load read.
type LoadReport struct {
	Chunks   int      // chunks read
	Problems []string // unusable chunks, skipped, each with the reason
	// TeacherGames is the number of games of a search teacher left out
	// (datasets.TeacherPrefix; LoadOptions.IncludeTeacher keeps them).
	TeacherGames int
	// CappedGames is the number of games stopped by the length cap (drawn
	// there, or adjudicated on material) left out
	// (LoadOptions.IncludeCapped keeps them).
	CappedGames int
	// Unreadable counts positions whose text or variant the rules engine
	// could not read, so whether a capture was available is unknown (they
	// count as quiet).
	Unreadable int
}

// LoadOptions change what Load reads.
type LoadOptions struct {
	// IncludeTeacher keeps the games a search teacher played (package
	// teacher, a run's generation 0 with [teacher] enabled). They are left
	// out by default: the teacher plays by its own piece table, so fitting
	// piece values on its games reads that table back.
	IncludeTeacher bool
	// IncludeCapped keeps the games the length cap stopped: drawn by the
	// cap (env.LengthCap) or won by adjudication on material
	// (env.Adjudication). They are left out by default: their results are
	// censored (nobody knows how the game would have ended), and an
	// adjudicated result is the piece table's verdict, not the game's.
	IncludeCapped bool
	// Progress, if not nil, is called after each chunk with the number
	// done and the total.
	Progress func(done, total int)
}

// Load reads every usable training-data chunk of dir (package datasets'
// layout) into a Dataset, leaving out the games of a search teacher.
// Corrupt or truncated chunks are skipped and listed in the report; a
// directory without any usable chunk, or whose games are all a teacher's,
// is an error. progress, if not nil, is called after each chunk with the
// number done and the total.
func Load(dir string, progress func(done, total int)) (*Dataset, LoadReport, error) {
	return LoadWith(dir, LoadOptions{Progress: progress})
}

// LoadWith is Load with options.
func LoadWith(dir string, opt LoadOptions) (*Dataset, LoadReport, error) {
	var rep LoadReport
	chunks, problems, err := datasets.List(dir)
	if err != nil {
		return nil, rep, fmt.Errorf("values: listing %s: %w", dir, err)
	}
	for _, p := range problems {
		rep.Problems = append(rep.Problems, p.Error())
	}
	ds := &Dataset{}
	b := newBuilder(ds)
	b.rules = newCaptureFinder()
	for i, c := range chunks {
		ch, err := datasets.ReadChunk(c.Path)
		if err != nil {
			rep.Problems = append(rep.Problems, err.Error())
		} else {
			rep.Chunks++
			games := datasets.Games(ch.Rows)
			for gi := range games {
				if games[gi].Teacher() && !opt.IncludeTeacher {
					rep.TeacherGames++
					continue
				}
				if capped(games[gi].Termination) && !opt.IncludeCapped {
					rep.CappedGames++
					continue
				}
				if err := b.add(&games[gi]); err != nil {
					return nil, rep, fmt.Errorf("values: chunk %s: %w", c.Path, err)
				}
			}
		}
		if opt.Progress != nil {
			opt.Progress(i+1, len(chunks))
		}
	}
	if rep.Chunks == 0 {
		return nil, rep, fmt.Errorf("values: %s holds no usable training-data chunk (%d unusable)", dir, len(rep.Problems))
	}
	if len(ds.Games) == 0 && rep.CappedGames > 0 {
		return nil, rep, fmt.Errorf("values: %s holds only games stopped by the length cap (%d, left out: their results are censored; include them explicitly to fit them)", dir, rep.CappedGames)
	}
	if len(ds.Games) == 0 && rep.TeacherGames > 0 {
		return nil, rep, fmt.Errorf("values: %s holds only a search teacher's games (%d, left out: they carry the teacher's piece table; include them explicitly to fit them)", dir, rep.TeacherGames)
	}
	b.finish()
	rep.Unreadable = b.rules.unreadable
	return ds, rep, nil
}

// WithoutCapped returns ds without the games the length cap stopped
// (drawn or adjudicated; LoadOptions.IncludeCapped explains why fits
// leave them out) and how many it left out, sharing ds's memory.
func (ds *Dataset) WithoutCapped() (*Dataset, int) {
	out := &Dataset{Pieces: ds.Pieces}
	for i := range ds.Games {
		if !capped(ds.Games[i].Termination) {
			out.Games = append(out.Games, ds.Games[i])
		}
	}
	return out, len(ds.Games) - len(out.Games)
}

// capped reports whether a game that ended by t was stopped by the length
// cap rather than ended by the rules or a player.
func capped(t env.Termination) bool { return t == env.LengthCap || t == env.Adjudication }

// Variants returns the variant names of ds's games, sorted.
func (ds *Dataset) Variants() []string {
	var names []string
	for i := range ds.Games {
		if !slices.Contains(names, ds.Games[i].Variant) {
			names = append(names, ds.Games[i].Variant)
		}
	}
	slices.Sort(names)
	return names
}

// Players returns the players named by ds's games (Game.Player), sorted,
// and how many games name none.
func (ds *Dataset) Players() ([]string, int) {
	var names []string
	unnamed := 0
	for i := range ds.Games {
		switch p := ds.Games[i].Player; {
		case p == "":
			unnamed++
		case !slices.Contains(names, p):
			names = append(names, p)
		}
	}
	slices.Sort(names)
	return names, unnamed
}

// OfVariant returns the games of ds played in the named variant, sharing
// ds's memory.
func (ds *Dataset) OfVariant(name string) *Dataset {
	out := &Dataset{Pieces: ds.Pieces}
	for i := range ds.Games {
		if ds.Games[i].Variant == name {
			out.Games = append(out.Games, ds.Games[i])
		}
	}
	return out
}

// captureFinder tells whether the side to move in a position (given as
// text) has a legal move that removes an enemy piece. It keeps one loaded
// variant per name; variants it cannot load and positions it cannot parse
// are counted in unreadable.
type captureFinder struct {
	variants   map[string]*env.Variant
	moves      []env.Move
	unreadable int
}

func newCaptureFinder() *captureFinder {
	return &captureFinder{variants: map[string]*env.Variant{}, moves: make([]env.Move, 0, env.MaxMoves)}
}

// variant returns the variant named name, loaded once; nil when it cannot
// be loaded (a variant file no longer at hand).
func (f *captureFinder) variant(name string) *env.Variant {
	v, ok := f.variants[name]
	if !ok {
		v, _ = env.LoadVariant(name)
		f.variants[name] = v
	}
	return v
}

func (f *captureFinder) captureAvailable(variant, text string) bool {
	v := f.variant(variant)
	if v == nil {
		f.unreadable++
		return false
	}
	pos, err := v.ParsePosition(text)
	if err != nil {
		f.unreadable++
		return false
	}
	return CaptureAvailable(pos, f.moves[:0])
}

// CaptureAvailable reports whether the side to move in pos has a legal move
// that leaves the opponent fewer pieces on the board: a capture, an en
// passant capture or a bomber's double capture. buf is scratch space for
// the moves (env.MaxMoves long avoids allocating). pos is left as it was.
func CaptureAvailable(pos *env.Position, buf []env.Move) bool {
	them := pos.SideToMove().Other()
	pieces := func() int {
		n := 0
		for t := 1; t < len(pos.Variant().Pieces); t++ {
			n += pos.Count(them, t)
		}
		return n
	}
	before := pieces()
	for _, m := range pos.LegalMoves(buf[:0]) {
		u := pos.DoMove(m)
		after := pieces()
		pos.UndoMove(u)
		if after < before {
			return true
		}
	}
	return false
}
