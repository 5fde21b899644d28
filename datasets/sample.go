package datasets

import (
	"math/rand/v2"
	"slices"
)

// RowSample returns row r as the Sample a Window would hand the trainer for
// it: the same position, result and moves-left facts, and the policy target
// of the moves the search visited (those with a positive visit fraction).
// Unlike a Window's, its slices are newly allocated. It is for readers that
// need rows grouped by game (r.GameID), such as held-out evaluation, which
// a Window does not keep.
func RowSample(r *Row) Sample {
	s := Sample{
		Position:    r.Position,
		Variant:     r.Variant,
		Ply:         r.Ply,
		Repetitions: int(r.Repetitions),
		GameLength:  r.GameLength,
		Value:       r.Value,
		Result:      float32(r.ResultSTM),
	}
	for j, f := range r.Visits {
		if f > 0 {
			s.PolicyIndex = append(s.PolicyIndex, r.PolicyIndex[j])
			s.Visits = append(s.Visits, f)
		}
	}
	return s
}

// DrawGames reads chunks oldest first (duplicates dropped, as Dedupe does)
// and draws, from each game of variant, up to perGame of its full-search
// positions at random, kept in ply order: one slice of Samples a game, at
// most maxGames games (0: all). Game k's draw depends only on seed and k, so
// every model measured on the same chunks and seed sees the same positions.
// A duplicate or unreadable chunk is passed to skipped (which may be nil)
// and left out; progress (which may be nil) hears of each chunk read.
func DrawGames(chunks []ChunkInfo, variant string, perGame, maxGames int, seed uint64, progress func(done, total int), skipped func(error)) [][]Sample {
	skip := func(err error) {
		if skipped != nil {
			skipped(err)
		}
	}
	chunks, dups := Dedupe(chunks)
	for _, p := range dups {
		skip(p)
	}
	var games [][]Sample
	for i, info := range chunks {
		c, err := ReadChunk(info.Path)
		if err != nil {
			skip(err)
			continue
		}
		for start := 0; start < len(c.Rows); {
			end := start + 1
			for end < len(c.Rows) && c.Rows[end].GameID == c.Rows[start].GameID {
				end++
			}
			var full []int
			for j := start; j < end; j++ {
				if c.Rows[j].FullSearch && c.Rows[j].Variant == variant {
					full = append(full, j)
				}
			}
			start = end
			if len(full) == 0 {
				continue
			}
			rng := rand.New(rand.NewPCG(seed, uint64(len(games))))
			rng.Shuffle(len(full), func(a, b int) { full[a], full[b] = full[b], full[a] })
			full = full[:min(perGame, len(full))]
			slices.Sort(full)
			g := make([]Sample, len(full))
			for k, j := range full {
				g[k] = RowSample(&c.Rows[j])
			}
			games = append(games, g)
			if maxGames > 0 && len(games) == maxGames {
				return games
			}
		}
		if progress != nil {
			progress(i+1, len(chunks))
		}
	}
	return games
}
