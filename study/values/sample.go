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
	// MaxPly, when positive, leaves out positions at ply MaxPly and later:
	// with SkipPlies it fits one stretch of the game, a phase by ply.
	MaxPly int `json:"max_ply,omitempty"`
	// MinOfficers and MaxOfficers, when MaxOfficers is positive, keep only
	// positions with MinOfficers to MaxOfficers officers on the board, both
	// sides together, an officer being a piece whose letter is among
	// "NBRQFDIGM" (as Implausible's: no pawn, no king): a phase by material
	// left (chess starts with 14).
	MinOfficers int `json:"min_officers,omitempty"`
	MaxOfficers int `json:"max_officers,omitempty"`
	// Phase names the phase the officer bounds were set from (PhaseBounds:
	// PhaseMiddlegame or PhaseEndgame), "" for bounds given as numbers; the
	// report prints it beside the bounds.
	Phase string `json:"phase,omitempty"`
	// EqualGames weights each game's sampled positions by m/n, n the
	// positions the fit keeps of that game and m their mean over the fit's
	// games, so that every game weighs the same in the fit whatever its
	// length (the total weight stays the number of positions); otherwise
	// every position counts once and a game counts by its positions (at
	// most MaxPerGame).
	EqualGames bool `json:"equal_games,omitempty"`
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
	case c.MaxPly < 0:
		return fmt.Errorf("values: MaxPly %d, want >= 0 (0: no limit)", c.MaxPly)
	case c.MaxPly > 0 && c.MaxPly <= c.SkipPlies:
		return fmt.Errorf("values: MaxPly %d with SkipPlies %d keeps no ply; want MaxPly above SkipPlies", c.MaxPly, c.SkipPlies)
	case c.MinOfficers < 0 || c.MaxOfficers < 0:
		return fmt.Errorf("values: officers %d-%d, want bounds >= 0", c.MinOfficers, c.MaxOfficers)
	case c.MinOfficers > 0 && c.MaxOfficers == 0:
		return fmt.Errorf("values: MinOfficers %d without MaxOfficers; want both bounds", c.MinOfficers)
	case c.MaxOfficers > 0 && c.MinOfficers > c.MaxOfficers:
		return fmt.Errorf("values: officers %d-%d, want the lower bound at most the upper", c.MinOfficers, c.MaxOfficers)
	}
	return nil
}

// FitPhase names the phase c samples, as the calibration table keys its
// records: its Phase, "" for the whole game, or "officers LO-HI" for
// bounds given as numbers.
func (c SampleConfig) FitPhase() string {
	if c.Phase != "" || c.MaxOfficers == 0 {
		return c.Phase
	}
	return fmt.Sprintf("officers %d-%d", c.MinOfficers, c.MaxOfficers)
}

// officerColumns returns the columns of the officers (officerColumns) when
// c has officer bounds, nil otherwise.
func (c SampleConfig) officerColumns(pieces []string) []int {
	if c.MaxOfficers == 0 {
		return nil
	}
	return officerColumns(pieces)
}

// officerCount counts both sides' pieces of the columns cols in p.
func officerCount(p *Position, cols []int) int {
	n := 0
	for _, col := range cols {
		if col < len(p.White) {
			n += int(p.White[col])
		}
		if col < len(p.Black) {
			n += int(p.Black[col])
		}
	}
	return n
}

// Eligible returns the indices into g.Positions of the positions c keeps,
// before the MaxPerGame draw, in ply order. The officer bounds need the data
// set's table of pieces: EligibleIn applies them, Eligible does not.
func (c SampleConfig) Eligible(g *Game) []int { return c.eligible(g, nil) }

// EligibleIn is Eligible for a game of ds, the officer bounds included.
func (c SampleConfig) EligibleIn(ds *Dataset, g *Game) []int {
	return c.eligible(g, c.officerColumns(ds.Pieces))
}

// eligible is Eligible with the officer bounds counted over the columns
// cols (none when cols is nil).
func (c SampleConfig) eligible(g *Game, cols []int) []int {
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
		if c.MaxPly > 0 && p.Ply >= c.MaxPly {
			break
		}
		if cols != nil {
			if n := officerCount(p, cols); n < c.MinOfficers || n > c.MaxOfficers {
				continue
			}
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
	cols := c.officerColumns(ds.Pieces)
	for gi := range ds.Games {
		g := &ds.Games[gi]
		keep := c.eligible(g, cols)
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
