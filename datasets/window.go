package datasets

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
)

// WindowConfig configures a Window.
type WindowConfig struct {
	// Size is the number of newest positions the window holds (N).
	Size int
	// IncludeCheap also keeps positions from playout-cap randomization's
	// cheap searches; by default only full searches are kept.
	IncludeCheap bool
	// ShortHorizon, above 0, gives every sample a short-term value target
	// (Sample.ShortValue) over about that many plies; 0 leaves it 0.
	ShortHorizon float64
	// Variant, when set, is the one variant the window's positions may be
	// of: a chunk with a row of another variant is unusable, reported as a
	// ChunkError wrapping ErrForeign (and ErrCorrupt, so a run quarantines
	// it like a damaged chunk) and never loaded.
	Variant string
}

// Sample is one training position drawn from a Window. Its slices alias the
// window's memory: read them, never write them. They stay valid after later
// Refreshes (dropped chunks are left to the garbage collector, not reused).
type Sample struct {
	Position string // the rules engine's position text; the trainer encodes it
	Variant  string // the variant's name
	Ply      int32  // half-moves played before the position
	// Repetitions is the position's repetition count, which its text does
	// not carry (0 from format version 1 chunks): give it to the position
	// the text decodes to (env.Position.SetRepetitions) before encoding.
	Repetitions int
	// GameLength is the plies its game lasted: GameLength - Ply plies
	// remained from the position (the moves-left head's target).
	GameLength int32
	Value      float32 // the search's value, side to move's view
	Result     float32 // the game's final result, side to move's view: -1, 0 or +1
	// ShortValue is KataGo's short-term value target (with
	// WindowConfig.ShortHorizon; else 0): the search values of the game's
	// next plies, side to move's view, exponentially weighted over the
	// horizon, the game's result standing for the plies past its end
	// (ShortValues).
	ShortValue float32
	// The policy target: the visited moves' policy indices and their visit
	// fractions (moves the search never visited are left out; they carry no
	// probability mass).
	PolicyIndex []int32
	Visits      []float32
}

// Window holds the newest Size positions of a directory of chunks in a
// compact in-memory form (the position text, the visited moves' indices and
// fractions, a few scalars: about 100 bytes plus 8 per visited move) and
// draws training batches uniformly from them. Refresh picks up new chunks.
// A Window is not safe for concurrent use.
type Window struct {
	dir     string
	cfg     WindowConfig
	known   map[string]ChunkInfo   // footers of good chunks, by name (published chunks never change)
	bad     map[string]*ChunkError // chunks found unusable, by name, not retried
	sums    map[string]string      // names of the known chunks, by row checksum (a chunk's identity)
	blocks  []*block               // the chunks in the window, oldest first
	starts  []int                  // starts[i]: window index of blocks[i]'s first position in the window
	total   int                    // positions in the window
	arrived int64                  // eligible positions in every good chunk seen so far
}

// block is one chunk's eligible positions in compact form.
type block struct {
	info     ChunkInfo
	n        int      // eligible positions in the chunk
	skip     int      // the oldest skip positions fall outside the window
	text     string   // position texts, concatenated
	textEnd  []uint32 // textEnd[i]: end of position i's text in text
	polEnd   []uint32 // polEnd[i]: end of position i's moves in index/visits
	index    []int32
	visits   []float32
	value    []float32
	short    []float32 // the short-term value targets (nil without a horizon)
	result   []int8
	ply      []int32
	reps     []int8
	length   []int32 // the game's length
	variant  []uint16
	variants []string
}

// RefreshReport says what one Refresh changed.
type RefreshReport struct {
	NewChunks    int           // good chunks seen for the first time
	NewPositions int           // their eligible positions (per their footers)
	Loaded       int           // chunks read into the window
	Dropped      int           // chunks that left the window
	Problems     []*ChunkError // chunks found unusable during this Refresh (each reported once)
}

// NewWindow returns an empty window over dir; call Refresh to fill it.
func NewWindow(dir string, cfg WindowConfig) (*Window, error) {
	if cfg.Size <= 0 {
		return nil, fmt.Errorf("window over %s: Size %d, want > 0", dir, cfg.Size)
	}
	return &Window{dir: dir, cfg: cfg, known: make(map[string]ChunkInfo), bad: make(map[string]*ChunkError), sums: make(map[string]string)}, nil
}

// Len returns the number of positions in the window (at most Size).
func (w *Window) Len() int { return w.total }

// Arrived returns the number of eligible positions (full-search only,
// unless IncludeCheap) in all good chunks this window has seen, in or out
// of the window. A trainer compares it between Refreshes, or with a value
// it saved, to know how many new positions arrived.
func (w *Window) Arrived() int64 { return w.arrived }

// Bytes returns the memory the window's positions hold, in bytes (the
// compact arrays of the chunks in it, the positions before the window's
// start in its oldest chunk included).
func (w *Window) Bytes() int64 {
	var n int64
	for _, b := range w.blocks {
		n += b.bytes()
	}
	return n
}

func (b *block) bytes() int64 {
	n := len(b.text) + 4*cap(b.textEnd) + 4*cap(b.polEnd) + 4*cap(b.index) + 4*cap(b.visits) +
		4*cap(b.value) + 4*cap(b.short) + cap(b.result) + 4*cap(b.ply) + cap(b.reps) + 4*cap(b.length) + 2*cap(b.variant)
	for _, v := range b.variants {
		n += 16 + len(v)
	}
	return int64(n)
}

// Chunks returns the chunks currently in the window, oldest first.
func (w *Window) Chunks() []ChunkInfo {
	infos := make([]ChunkInfo, len(w.blocks))
	for i, b := range w.blocks {
		infos[i] = b.info
	}
	return infos
}

func (w *Window) eligible(info *ChunkInfo) int {
	if w.cfg.IncludeCheap {
		return info.Positions
	}
	return info.FullPositions
}

// Refresh lists the directory, reads the chunks that entered the newest
// Size positions and drops those that left. Unusable chunks are skipped and
// reported; err is only for a directory that cannot be listed.
func (w *Window) Refresh() (RefreshReport, error) {
	var rep RefreshReport
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		return rep, fmt.Errorf("window: listing chunks: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !IsChunkName(name) {
			continue
		}
		if _, ok := w.known[name]; ok {
			continue
		}
		if _, ok := w.bad[name]; ok {
			continue
		}
		path := w.dir + string(os.PathSeparator) + name
		info, err := Stat(path)
		if err != nil {
			w.markBad(name, asChunkError(path, err), &rep)
			continue
		}
		if first, ok := w.sums[info.Checksum]; ok {
			w.markBad(name, &ChunkError{Path: path, Err: fmt.Errorf("%w: its rows are those of %s (SHA-256 %s)", ErrDuplicate, first, info.Checksum)}, &rep)
			continue
		}
		w.sums[info.Checksum] = name
		w.known[name] = info
		rep.NewChunks++
		rep.NewPositions += w.eligible(&info)
		w.arrived += int64(w.eligible(&info))
	}
	order := make([]ChunkInfo, 0, len(w.known))
	for _, info := range w.known {
		order = append(order, info)
	}
	SortChunks(order)

	loaded := make(map[string]*block, len(w.blocks))
	for _, b := range w.blocks {
		loaded[b.info.Name] = b
	}
	var keep []*block // newest first
	total := 0
	for i := len(order) - 1; i >= 0 && total < w.cfg.Size; i-- {
		info := order[i]
		if w.eligible(&info) == 0 {
			continue // nothing to keep (all cheap searches): not worth reading
		}
		b := loaded[info.Name]
		if b == nil {
			_, rows, err := readTrainRows(info.Path)
			if err != nil {
				w.markBad(info.Name, asChunkError(info.Path, err), &rep)
				continue
			}
			if b, err = w.newBlock(info, rows); err != nil {
				w.markBad(info.Name, asChunkError(info.Path, err), &rep)
				continue
			}
			rep.Loaded++
		}
		delete(loaded, info.Name)
		b.skip = 0
		total += b.n
		if b.n > 0 {
			keep = append(keep, b)
		}
	}
	rep.Dropped = len(loaded)
	slices.Reverse(keep)
	if total > w.cfg.Size {
		keep[0].skip = total - w.cfg.Size
		total = w.cfg.Size
	}
	w.blocks, w.total = keep, total
	w.starts = w.starts[:0]
	start := 0
	for _, b := range keep {
		w.starts = append(w.starts, start)
		start += b.n - b.skip
	}
	return rep, nil
}

// markBad records an unusable chunk once, taking back its positions from
// Arrived if its footer had been counted.
func (w *Window) markBad(name string, err *ChunkError, rep *RefreshReport) {
	if info, ok := w.known[name]; ok {
		w.arrived -= int64(w.eligible(&info))
		delete(w.known, name)
		delete(w.sums, info.Checksum)
	}
	w.bad[name] = err
	rep.Problems = append(rep.Problems, err)
}

// newBlock compacts a chunk's eligible rows.
func (w *Window) newBlock(info ChunkInfo, rows []trainRow) (*block, error) {
	b := &block{info: info}
	var short []float32
	if w.cfg.ShortHorizon > 0 {
		short = ShortValues(rows, w.cfg.ShortHorizon)
	}
	var text strings.Builder
	variantIdx := map[string]uint16{}
	for i := range rows {
		r := &rows[i]
		if w.cfg.Variant != "" && r.Variant != w.cfg.Variant {
			return nil, fmt.Errorf("%w: %w: row %d is a position of %q, this data is of %q", ErrCorrupt, ErrForeign, i, r.Variant, w.cfg.Variant)
		}
		if !r.FullSearch && !w.cfg.IncludeCheap {
			continue
		}
		v, ok := variantIdx[r.Variant]
		if !ok {
			if len(b.variants) > 1<<16-1 {
				return nil, fmt.Errorf("more than %d variants in one chunk", 1<<16-1)
			}
			v = uint16(len(b.variants))
			variantIdx[r.Variant] = v
			b.variants = append(b.variants, r.Variant)
		}
		text.WriteString(r.Position)
		for j, f := range r.Visits {
			if f > 0 {
				b.index = append(b.index, r.PolicyIndex[j])
				b.visits = append(b.visits, f)
			}
		}
		if text.Len() > 1<<32-1 || len(b.index) > 1<<32-1 {
			return nil, fmt.Errorf("chunk too large for the window (over 4 GiB of positions)")
		}
		b.textEnd = append(b.textEnd, uint32(text.Len()))
		b.polEnd = append(b.polEnd, uint32(len(b.index)))
		b.value = append(b.value, r.Value)
		if short != nil {
			b.short = append(b.short, short[i])
		}
		b.result = append(b.result, r.ResultSTM)
		b.ply = append(b.ply, r.Ply)
		b.reps = append(b.reps, r.Repetitions)
		b.length = append(b.length, r.GameLength)
		b.variant = append(b.variant, v)
	}
	b.text = text.String()
	b.n = len(b.textEnd)
	// Trim the slices' spare capacity: the window lives long.
	b.textEnd, b.polEnd = slices.Clip(b.textEnd), slices.Clip(b.polEnd)
	b.index, b.visits = slices.Clone(b.index), slices.Clone(b.visits)
	b.value, b.result, b.ply, b.variant = slices.Clip(b.value), slices.Clip(b.result), slices.Clip(b.ply), slices.Clip(b.variant)
	b.reps, b.short = slices.Clip(b.reps), slices.Clip(b.short)
	b.length = slices.Clip(b.length)
	return b, nil
}

// At returns the window's i-th position, oldest first (0 <= i < Len).
func (w *Window) At(i int) Sample {
	if i < 0 || i >= w.total {
		panic(fmt.Sprintf("datasets: Window.At(%d) out of range [0,%d)", i, w.total))
	}
	lo, hi := 0, len(w.starts) // find the last block starting at or before i
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if w.starts[mid] <= i {
			lo = mid
		} else {
			hi = mid
		}
	}
	k := lo
	b := w.blocks[k]
	return b.sample(b.skip + i - w.starts[k])
}

func (b *block) sample(j int) Sample {
	var t0, p0 uint32
	if j > 0 {
		t0, p0 = b.textEnd[j-1], b.polEnd[j-1]
	}
	t1, p1 := b.textEnd[j], b.polEnd[j]
	var short float32
	if b.short != nil {
		short = b.short[j]
	}
	return Sample{
		Position:    b.text[t0:t1],
		Variant:     b.variants[b.variant[j]],
		Ply:         b.ply[j],
		Repetitions: int(b.reps[j]),
		GameLength:  b.length[j],
		Value:       b.value[j],
		Result:      float32(b.result[j]),
		ShortValue:  short,
		PolicyIndex: b.index[p0:p1:p1],
		Visits:      b.visits[p0:p1:p1],
	}
}

// Sample fills dst with positions drawn uniformly and independently (with
// replacement) from the window using rng: the same window contents, rng
// state and len(dst) give the same batch. It does not allocate. It fails
// only on an empty window.
func (w *Window) Sample(rng *rand.Rand, dst []Sample) error {
	if w.total == 0 {
		return fmt.Errorf("window over %s: no positions to sample (no chunks yet, or none readable)", w.dir)
	}
	for i := range dst {
		dst[i] = w.At(rng.IntN(w.total))
	}
	return nil
}
