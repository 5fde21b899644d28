package values

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"bomberzero/stats"
)

// CompareConfig configures Describe and Compare.
type CompareConfig struct {
	// OpeningPlies is the length N of the opening sequences whose
	// diversity is measured (DefaultOpeningPlies when zero).
	OpeningPlies int
	// Bootstrap is the number of resamples behind the length and entropy
	// intervals and their differences (DefaultBootstrap when zero).
	Bootstrap int
	// Seed seeds those resamples.
	Seed uint64
	// Pairs, when positive, says the variants' games form a paired design
	// of Pairs games a side (Config.Pairs): game i of every variant was
	// played from the same opening by players with the same seeds, and
	// each game's Index names its pair. White's score, the draw rate, the
	// ways of ending and the length are then tested on the differences
	// within pairs, whose variance leaves out what the two sides' games
	// share. Every variant must hold one game of every pair.
	Pairs int
}

// DefaultOpeningPlies is the opening length diversity is measured over.
const DefaultOpeningPlies = 4

func (c CompareConfig) withDefaults() (CompareConfig, error) {
	switch {
	case c.OpeningPlies < 0:
		return c, fmt.Errorf("values: OpeningPlies %d, want >= 0", c.OpeningPlies)
	case c.Bootstrap < 0:
		return c, fmt.Errorf("values: Bootstrap %d, want >= 0", c.Bootstrap)
	case c.Pairs < 0:
		return c, fmt.Errorf("values: Pairs %d, want >= 0", c.Pairs)
	}
	if c.OpeningPlies == 0 {
		c.OpeningPlies = DefaultOpeningPlies
	}
	if c.Bootstrap == 0 {
		c.Bootstrap = DefaultBootstrap
	}
	return c, nil
}

// VariantStats describes the games of one variant: how often each side
// wins, how long games last, how they end and how varied the openings are,
// each figure with its 95% interval.
type VariantStats struct {
	Variant   string `json:"variant"`
	Games     int    `json:"games"`
	WhiteWins int    `json:"white_wins"`
	Draws     int    `json:"draws"`
	BlackWins int    `json:"black_wins"`
	// WhiteScore is (White wins + draws/2)/games, with a Wilson interval
	// on the effective sample size (draws lower the variance).
	WhiteScore Estimate `json:"white_score"`
	// DrawRate and DecisiveRate (= 1 - DrawRate) carry Wilson intervals.
	DrawRate     Estimate `json:"draw_rate"`
	DecisiveRate Estimate `json:"decisive_rate"`
	// Length is the distribution of game lengths in plies.
	Length LengthStats `json:"length"`
	// Terminations are the shares of each way of ending, most common first.
	Terminations []Share `json:"terminations"`
	// Openings measures the diversity of the first OpeningPlies plies.
	Openings Openings `json:"openings"`
	Seed     uint64   `json:"seed"`
	// Bootstrap is the number of resamples behind the bootstrap intervals.
	Bootstrap int `json:"bootstrap"`

	lengths  []float64 // per game, for the differences
	openings []string  // per game with a known opening
	results  []int     // per game, White's view
	reasons  []string  // per game
	index    []int     // per game, its pair (Game.Index)
}

// LengthStats is the distribution of game lengths in plies, each figure
// with a 95% bootstrap percentile interval.
type LengthStats struct {
	Mean   Estimate `json:"mean"`
	Median Estimate `json:"median"`
	Q1     Estimate `json:"q1"` // lower quartile
	Q3     Estimate `json:"q3"` // upper quartile
	Min    int      `json:"min"`
	Max    int      `json:"max"`
}

// Share is the share of games that ended one way, with a Wilson interval.
type Share struct {
	Reason string   `json:"reason"`
	Games  int      `json:"games"`
	Share  Estimate `json:"share"`
}

// Openings measures how varied the games' first plies are. An opening is
// the sequence of the first Plies moves played (the whole game when it is
// shorter); a game whose moves are not all recorded uses the position text
// reached after Plies plies instead, and a game with neither is left out
// (Known counts those measured).
type Openings struct {
	Plies    int `json:"plies"`
	Known    int `json:"known"`    // games whose opening is known
	Distinct int `json:"distinct"` // distinct openings among them
	// Singletons counts openings played exactly once: when it is close to
	// Distinct, the sample has not seen most openings and Entropy is a
	// lower bound.
	Singletons int `json:"singletons"`
	// Entropy is the Shannon entropy of the openings in bits (Miller-Madow
	// estimate corrected for the bias the bootstrap measures), with a basic
	// bootstrap interval that always holds it; Effective = 2^Entropy is
	// the number of equally likely openings with the same entropy.
	Entropy   Estimate `json:"entropy_bits"`
	Effective Estimate `json:"effective_openings"`
	// FirstMoveEntropy is the entropy of the first move alone, in bits,
	// over the FirstMoves games whose first move is recorded.
	FirstMoveEntropy Estimate `json:"first_move_entropy_bits"`
	FirstMoves       int      `json:"first_moves_known"`
	firstMoves       []string
}

// Describe summarizes the games of ds as one variant's (name labels it).
func Describe(name string, ds *Dataset, cfg CompareConfig) (*VariantStats, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(ds.Games) == 0 {
		return nil, fmt.Errorf("values: variant %s: no games", name)
	}
	s := &VariantStats{Variant: name, Games: len(ds.Games), Seed: cfg.Seed, Bootstrap: cfg.Bootstrap}
	counts := map[string]int{}
	var white stats.WDL // White's results
	for i := range ds.Games {
		g := &ds.Games[i]
		white.Count(g.Result)
		s.results = append(s.results, g.Result)
		s.lengths = append(s.lengths, float64(g.Length))
		s.reasons = append(s.reasons, g.Termination.String())
		s.index = append(s.index, g.Index)
		counts[g.Termination.String()]++
		if key, first, ok := openingOf(g, cfg.OpeningPlies); ok {
			s.openings = append(s.openings, key)
			s.Openings.firstMoves = append(s.Openings.firstMoves, first)
		}
	}
	s.WhiteWins, s.Draws, s.BlackWins = white.Wins, white.Draws, white.Losses
	n := float64(s.Games)
	s.WhiteScore = ScoreInterval(s.WhiteWins, s.Draws, s.BlackWins)
	s.DrawRate = Wilson(float64(s.Draws), n)
	s.DecisiveRate = Wilson(n-float64(s.Draws), n)
	for reason, c := range counts {
		s.Terminations = append(s.Terminations, Share{Reason: reason, Games: c, Share: Wilson(float64(c), n)})
	}
	slices.SortFunc(s.Terminations, func(a, b Share) int {
		if a.Games != b.Games {
			return b.Games - a.Games
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	s.Length = lengthStats(s.lengths, cfg)
	s.Openings = openingStats(s.openings, s.Openings.firstMoves, cfg)
	return s, nil
}

// openingOf returns g's opening key over the first plies plies, its first
// move, and whether it is known.
func openingOf(g *Game, plies int) (key, first string, ok bool) {
	var moves []string
	for i := range g.Positions {
		p := &g.Positions[i]
		if p.Ply >= plies {
			break
		}
		if p.Ply != len(moves) || p.Played == "" {
			moves = nil
			break
		}
		moves = append(moves, p.Played)
	}
	if len(moves) == min(plies, g.Length) && len(moves) > 0 {
		return "moves:" + strings.Join(moves, " "), moves[0], true
	}
	// Fall back on the position reached after the opening.
	for i := range g.Positions {
		p := &g.Positions[i]
		if p.Ply == plies {
			first := ""
			if g.Positions[0].Ply == 0 {
				first = g.Positions[0].Played
			}
			return "position:" + p.Text, first, true
		}
	}
	return "", "", false
}

// lengthStats returns the length distribution with bootstrap intervals.
func lengthStats(lengths []float64, cfg CompareConfig) LengthStats {
	stats := func(xs []float64) [4]float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		mean := 0.0
		for _, x := range s {
			mean += x
		}
		mean /= float64(len(s))
		return [4]float64{mean, quantileSorted(s, 0.5), quantileSorted(s, 0.25), quantileSorted(s, 0.75)}
	}
	point := stats(lengths)
	reps := make([][]float64, 4)
	buf := make([]float64, len(lengths))
	for r := 0; r < cfg.Bootstrap; r++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, 0x1e57^uint64(r)))
		for i := range buf {
			buf[i] = lengths[rng.IntN(len(lengths))]
		}
		st := stats(buf)
		for j := range reps {
			reps[j] = append(reps[j], st[j])
		}
	}
	var e [4]Estimate
	for j := range e {
		e[j].Point = point[j]
		e[j].Lo, e[j].Hi = percentileInterval(reps[j])
	}
	ls := LengthStats{Mean: e[0], Median: e[1], Q1: e[2], Q3: e[3], Min: int(slices.Min(lengths)), Max: int(slices.Max(lengths))}
	return ls
}

// entropyBits returns the Miller-Madow estimate of the Shannon entropy of
// keys in bits: the plug-in entropy plus (K-1)/(2n ln 2) for K distinct
// keys among n, which removes the plug-in estimate's first-order downward
// bias (Miller 1955).
func entropyBits(keys []string) float64 {
	h, distinct := plugInEntropy(keys)
	return h + float64(distinct-1)/(2*float64(len(keys))*math.Ln2)
}

// plugInEntropy returns the entropy in bits of the empirical distribution
// of keys, and the number of distinct keys.
func plugInEntropy(keys []string) (bits float64, distinct int) {
	counts := map[string]int{}
	for _, k := range keys {
		counts[k]++
	}
	n := float64(len(keys))
	for _, c := range counts {
		p := float64(c) / n
		bits -= p * math.Log2(p)
	}
	return bits, len(counts)
}

// plugInBits is plugInEntropy's entropy alone.
func plugInBits(keys []string) float64 {
	h, _ := plugInEntropy(keys)
	return h
}

// openingStats measures opening diversity with bootstrap intervals.
func openingStats(keys, firsts []string, cfg CompareConfig) Openings {
	o := Openings{Plies: cfg.OpeningPlies, Known: len(keys), firstMoves: firsts}
	if len(keys) == 0 {
		return o
	}
	counts := map[string]int{}
	for _, k := range keys {
		counts[k]++
	}
	o.Distinct = len(counts)
	for _, c := range counts {
		if c == 1 {
			o.Singletons++
		}
	}
	var known []string // first moves where recorded
	for _, f := range firsts {
		if f != "" {
			known = append(known, f)
		}
	}
	o.Entropy = bootstrapStat(keys, entropyBits, plugInBits, cfg, 0x0e17)
	o.Effective = Estimate{Point: math.Exp2(o.Entropy.Point), Lo: math.Exp2(o.Entropy.Lo), Hi: math.Exp2(o.Entropy.Hi)}
	o.FirstMoves = len(known)
	if len(known) > 0 {
		o.FirstMoveEntropy = bootstrapStat(known, entropyBits, plugInBits, cfg, 0xf125)
	}
	return o
}

// bootstrapStat returns the basic (pivotal) bootstrap estimate of stat
// over cfg.Bootstrap resamples of xs (stream tags the generator); truth
// gives the quantity's value in the bootstrap world (for entropy: the
// empirical distribution's entropy). See pivotal.
func bootstrapStat[T any](xs []T, stat, truth func([]T) float64, cfg CompareConfig, stream uint64) Estimate {
	buf := make([]T, len(xs))
	reps := make([]float64, cfg.Bootstrap)
	for r := range reps {
		rng := rand.New(rand.NewPCG(cfg.Seed, stream<<32^uint64(r)))
		for i := range buf {
			buf[i] = xs[rng.IntN(len(xs))]
		}
		reps[r] = stat(buf)
	}
	return pivotal(stat(xs), truth(xs), reps)
}

// pivotal returns the basic (pivotal) bootstrap estimate from an estimate
// theta, the quantity's value tau in the bootstrap world and the
// resampled estimates reps (which it sorts): the interval is
// [theta - (q97.5 - tau), theta - (q2.5 - tau)], and the point is the same
// reading at the median, theta - (median - tau), the estimate corrected
// for the bias the bootstrap measures. The point must be corrected along
// with the interval: an entropy estimator is biased downwards when most
// keys are seen once (resampling turns singletons into duplicates), the
// interval moves up by that bias, and an uncorrected point would lie
// below its own interval (12.36 printed with [12.69, 12.77]). Since
// q2.5 <= median <= q97.5 the interval always holds the point.
func pivotal(theta, tau float64, reps []float64) Estimate {
	lo, hi := percentileInterval(reps)
	med := quantileSorted(reps, 0.5)
	return Estimate{Point: theta - (med - tau), Lo: theta - (hi - tau), Hi: theta - (lo - tau)}
}
