package values

import (
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"strings"

	"bomberzero/engine/learn"
	"bomberzero/env"
)

// engineValueScale converts an engine score in centipawns to a value in
// [-1, 1] for Position.Value: tanh(score/engineValueScale), about 0.24 a
// pawn.
const engineValueScale = 400

// LoadEngine reads the engine's self-play chunks (package engine/learn:
// the positions "bomberzero nnue" and "nnue worker" record) in dir and its
// subdirectories, every chunk-*.parquet, into a Dataset: one Game per game
// of a chunk, its positions the ones the loop recorded (side to move not
// in check, the move played neither a capture nor a promotion, the score
// not a mate), so they are quiet by the engine's own search. A game's
// result is read from its rows; its termination and the moves played are
// not in the chunks (Termination stays env.NotOver, Played empty), and a
// game the length cap stopped counts as the draw the loop scored it.
// Value is the search's score as tanh(centipawns/400). player names who
// played the games (Game.Player; "" when not known: the chunks do not
// record it). Each chunk is
// verified (learn.ReadChunk); a corrupt one is skipped and listed in the
// report. A directory without a usable chunk is an error. progress, if not
// nil, is called after each chunk.
func LoadEngine(dir, player string, progress func(done, total int)) (*Dataset, LoadReport, error) {
	var rep LoadReport
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasPrefix(d.Name(), "chunk-") && strings.HasSuffix(d.Name(), ".parquet") {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		return nil, rep, fmt.Errorf("values: listing %s: %w", dir, err)
	}
	learn.SortChunkPaths(paths) // the games in the order they were played
	ds := &Dataset{}
	b := newBuilder(ds)
	b.rules = newCaptureFinder()
	for i, path := range paths {
		meta, rows, err := learn.ReadChunk(path)
		if err != nil {
			rep.Problems = append(rep.Problems, err.Error())
		} else if err := b.addEngineChunk(dir, path, meta.Variant, player, rows); err != nil {
			return nil, rep, err
		} else {
			rep.Chunks++
		}
		if progress != nil {
			progress(i+1, len(paths))
		}
	}
	b.finish()
	if rep.Chunks == 0 {
		return nil, rep, fmt.Errorf("values: no usable engine self-play chunk (chunk-*.parquet of bomberzero nnue) in %s (%d unusable)", dir, len(rep.Problems))
	}
	rep.Unreadable = b.rules.unreadable
	return ds, rep, nil
}

// addEngineChunk adds the games of one engine chunk (its rows, in game and
// ply order as the loop writes them) to the data set.
func (b *builder) addEngineChunk(dir, path, variant, player string, rows []learn.Row) error {
	v := b.rules.variant(variant)
	if v == nil {
		return fmt.Errorf("values: chunk %s: variant %q cannot be loaded (its variant file is not at hand or does not read)", path, variant)
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		rel = path
	}
	var g *Game
	flush := func() {
		if g != nil {
			b.ds.Games = append(b.ds.Games, *g)
			g = nil
		}
	}
	for i := range rows {
		r := &rows[i]
		pos, err := v.ParsePosition(r.FEN)
		if err != nil {
			return fmt.Errorf("values: chunk %s: row %d: %w", path, i, err)
		}
		wtm := pos.SideToMove() == env.White
		result, err := whiteResult(r.Result, wtm)
		if err != nil {
			return fmt.Errorf("values: chunk %s: row %d: %w", path, i, err)
		}
		id := fmt.Sprintf("%s#%d", filepath.ToSlash(rel), r.Game)
		if g != nil && g.ID != id {
			flush()
		}
		if g == nil {
			if b.seen[id] {
				return fmt.Errorf("values: chunk %s: row %d: the rows of game %d are not together", path, i, r.Game)
			}
			b.seen[id] = true
			g = &Game{ID: id, Variant: variant, Result: result, Index: len(b.ds.Games), Player: player}
		}
		switch {
		case result != g.Result:
			return fmt.Errorf("values: chunk %s: row %d: game %d's rows disagree on its result", path, i, r.Game)
		case len(g.Positions) > 0 && int(r.Ply) <= g.Positions[len(g.Positions)-1].Ply:
			return fmt.Errorf("values: chunk %s: row %d: game %d's plies do not increase", path, i, r.Game)
		}
		q := Position{Ply: int(r.Ply), WhiteToMove: wtm, Text: r.FEN, Value: math.Tanh(float64(r.Score) / engineValueScale)}
		for t := 1; t < len(v.Pieces); t++ {
			b.setCount(&q, string(v.Pieces[t].Letter), int32(pos.Count(env.White, t)+pos.InHand(env.White, t)), int32(pos.Count(env.Black, t)+pos.InHand(env.Black, t)))
		}
		q.CaptureAvailable = CaptureAvailable(pos, b.rules.moves[:0])
		g.Positions = append(g.Positions, q)
		g.Length = q.Ply + 1
	}
	flush()
	return nil
}

// whiteResult turns a row's result for the side to move (1, 0.5 or 0)
// into the game's result from White's view (+1, 0 or -1).
func whiteResult(r float32, whiteToMove bool) (int, error) {
	var s int
	switch r {
	case 1:
		s = 1
	case 0.5:
		return 0, nil
	case 0:
		s = -1
	default:
		return 0, fmt.Errorf("result %v for the side to move, want 1, 0.5 or 0", r)
	}
	if !whiteToMove {
		s = -s
	}
	return s, nil
}
