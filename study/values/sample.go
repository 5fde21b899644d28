package values

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// SampleConfig chooses which positions of a Dataset the piece-value fits use.
type SampleConfig struct {
	// SkipPlies (K) leaves out positions before ply K: the opening, where
	// material is level and the result says nothing about piece values.
	SkipPlies int `json:"skip_plies"`
	// QuietPlies (P) leaves out positions within P plies after a capture:
	// a position at ply t is skipped when the piece counts changed between
	// two consecutive recorded positions at plies s-1 and s with
	// s <= t < s+P. A capture in flight (a recapture pending) would credit
	// the material to the wrong side. Promotions change counts too and are
	// treated the same way.
	QuietPlies int `json:"quiet_plies"`
	// NoCaptures leaves out positions where the side to move has a legal
	// move that removes an enemy piece (Position.CaptureAvailable): a real
	// quiescence test, where QuietPlies only guesses how long an exchange
	// lasts (a bomber's double capture, or a recapture two moves later,
	// outlasts 2 plies).
	NoCaptures bool `json:"no_captures"`
	// Spacing, when positive, keeps eligible positions at least that many
	// plies apart (the first eligible one, then the next one Spacing or
	// more plies later, and so on): neighbouring positions of a game say
	// almost the same thing.
	Spacing int `json:"spacing"`
	// MaxPerGame, when positive, keeps at most that many eligible positions
	// per game, drawn at random (seeded by Seed). Zero keeps all.
	MaxPerGame int `json:"max_per_game"`
	// Seed seeds the per-game draw of MaxPerGame.
	Seed uint64 `json:"seed"`
}

// DefaultSampleConfig returns the sampling "bomberzero values" uses unless
// told otherwise: skip the first 10 plies and every position where a
// capture is available, keep positions at least 4 plies apart and at most
// 16 a game (so a long game does not outweigh a short one).
func DefaultSampleConfig() SampleConfig {
	return SampleConfig{SkipPlies: 10, NoCaptures: true, Spacing: 4, MaxPerGame: 16}
}

// Validate reports a setting out of range.
func (c SampleConfig) Validate() error {
	switch {
	case c.SkipPlies < 0:
		return fmt.Errorf("values: SkipPlies %d, want >= 0", c.SkipPlies)
	case c.QuietPlies < 0:
		return fmt.Errorf("values: QuietPlies %d, want >= 0", c.QuietPlies)
	case c.Spacing < 0:
		return fmt.Errorf("values: Spacing %d, want >= 0", c.Spacing)
	case c.MaxPerGame < 0:
		return fmt.Errorf("values: MaxPerGame %d, want >= 0 (0 keeps all)", c.MaxPerGame)
	}
	return nil
}

// Eligible returns the indices into g.Positions of the positions c keeps,
// before the MaxPerGame draw, in ply order.
func (c SampleConfig) Eligible(g *Game) []int {
	var keep []int
	lastChange := -1 << 30 // ply of the latest position whose counts differ from the one before
	lastKept := -1 << 30
	for i := range g.Positions {
		p := &g.Positions[i]
		if i > 0 && countsChanged(&g.Positions[i-1], p) {
			lastChange = p.Ply
		}
		if p.Ply < c.SkipPlies || p.Ply < lastChange+c.QuietPlies || c.NoCaptures && p.CaptureAvailable || p.Ply < lastKept+c.Spacing {
			continue
		}
		keep = append(keep, i)
		lastKept = p.Ply
	}
	return keep
}

func countsChanged(a, b *Position) bool {
	return !slices.Equal(a.White, b.White) || !slices.Equal(a.Black, b.Black)
}

// sampled is one position picked for the fits, with its game's index.
type sampled struct {
	game int
	pos  *Position
}

// sample applies c to every game of ds. The MaxPerGame draw uses a
// generator seeded by (Seed, the game's place in ds), so it does not depend
// on the order games are visited in; byIndex seeds it by the game's Index
// instead, so that the two sides of a paired design (Config.Pairs) sample
// a game they played alike at the same plies.
func (c SampleConfig) sample(ds *Dataset, byIndex bool) []sampled {
	var out []sampled
	for gi := range ds.Games {
		g := &ds.Games[gi]
		keep := c.Eligible(g)
		if c.MaxPerGame > 0 && len(keep) > c.MaxPerGame {
			key := uint64(gi)
			if byIndex {
				key = uint64(g.Index)
			}
			rng := rand.New(rand.NewPCG(c.Seed, key))
			rng.Shuffle(len(keep), func(i, j int) { keep[i], keep[j] = keep[j], keep[i] })
			keep = keep[:c.MaxPerGame]
			slices.Sort(keep)
		}
		for _, i := range keep {
			out = append(out, sampled{game: gi, pos: &g.Positions[i]})
		}
	}
	return out
}
