package values

import (
	"fmt"
	"math"
)

// Method names one piece-value fit.
type Method string

// The piece-value fits. All regress on the same features: a to-move
// intercept, a colour term (+1 White to move, -1 Black) and the difference
// in piece counts per type, side to move minus opponent.
const (
	// Logistic fits P(side to move wins | decisive game) = σ(x·β) on the
	// positions of decisive games only.
	Logistic Method = "logistic"
	// Tanh fits E[result] = tanh(x·β) on every game, draws scoring 0, by the
	// fractional-logit quasi-likelihood (docs/values.md).
	Tanh Method = "tanh"
	// Value fits E[value] = tanh(x·β) on a network's value of each sampled
	// position, supplied by Config.Value.
	Value Method = "value"
	// Search fits E[value] = tanh(x·β) on the value the self-play search
	// recorded for each position (no network needed).
	Search Method = "search"
)

// Default settings of Config.
const (
	DefaultRidge     = 0.01
	DefaultBootstrap = 200
	DefaultUnit      = "P"
)

// ValueFunc returns a network's value of a position given as the rules
// engine's position text: the expected result for the side to move, in
// [-1,1].
type ValueFunc func(positionText string) (float64, error)

// Config configures Estimate.
type Config struct {
	Sample SampleConfig
	// Methods lists the fits to run, in report order. Empty means Logistic
	// and Tanh, plus Value when Value is set.
	Methods []Method
	// Value is the network's value function the Value fit needs.
	Value ValueFunc
	// Unit is the piece letter values are normalised to (DefaultUnit when
	// empty).
	Unit string
	// Ridge is the penalty λ of ½λ‖w‖² on the piece coefficients, a
	// Gaussian prior of standard deviation 1/√λ in logit (or tanh) units:
	// at the default 0.01 it barely moves real coefficients, but it keeps
	// collinear or rarely varying counts finite. Zero means DefaultRidge;
	// a negative value is an error.
	Ridge float64
	// Bootstrap is the number B of bootstrap replicates (DefaultBootstrap
	// when zero; negative is an error).
	Bootstrap int
	// Seed seeds the bootstrap (and Sample's draw unless Sample.Seed is
	// set): the same data, config and seed give the same report.
	Seed uint64
	// Workers is the number of goroutines refitting bootstrap replicates
	// (GOMAXPROCS when zero). The report does not depend on it.
	Workers int
	// Pairs, when positive, says the data set is one side of a paired
	// design of Pairs games a side (two rule sets played from the same
	// openings with the same seeds, game i against game i), each game's
	// Index naming its pair: every Index is below Pairs and no two games
	// share one. The bootstrap then resamples pairs, not games (replicate
	// r draws Pairs indices, and a game counts as often as its Index was
	// drawn; a pair whose game this side left out, a capped one, adds
	// nothing), and the position sample is seeded by Index. Two fits with
	// the same Seed and Pairs therefore resample the same pairs and sample
	// identical games alike, and the difference of their replicates
	// (ValueDifference) is the paired bootstrap's: narrower than two
	// independent samples would give, by as much as the two sides' games
	// agree. Zero resamples the data set's own games.
	Pairs int
	// PhaseBins, when 2 or more, fits the phased model (fitPhased): the
	// sampled positions fall into at most PhaseBins bins by the officers
	// on the board (quantiles of the fit's positions, bin 0 the opening),
	// and each bin gets its own scale on the material term, so material
	// may decide games more surely in the endgame than in the opening while
	// the pieces keep one set of values. 0 or 1: one scale, the plain model.
	PhaseBins int
	// Progress, if not nil, is called after each bootstrap replicate with
	// the number done and B. It may be called from several goroutines, one
	// at a time.
	Progress func(done, total int)
}

// withDefaults returns c with its zero settings replaced by the defaults,
// or an error for a setting out of range.
func (c Config) withDefaults() (Config, error) {
	if err := c.Sample.Validate(); err != nil {
		return c, err
	}
	switch {
	case c.Ridge < 0 || math.IsNaN(c.Ridge) || math.IsInf(c.Ridge, 0):
		return c, fmt.Errorf("values: Ridge %v, want a finite value >= 0", c.Ridge)
	case c.Bootstrap < 0:
		return c, fmt.Errorf("values: Bootstrap %d, want >= 0", c.Bootstrap)
	case c.Workers < 0:
		return c, fmt.Errorf("values: Workers %d, want >= 0", c.Workers)
	case c.Pairs < 0:
		return c, fmt.Errorf("values: Pairs %d, want >= 0", c.Pairs)
	case c.PhaseBins < 0 || c.PhaseBins > MaxPhaseBins:
		return c, fmt.Errorf("values: PhaseBins %d, want 0 to %d", c.PhaseBins, MaxPhaseBins)
	}
	if c.Ridge == 0 {
		c.Ridge = DefaultRidge
	}
	if c.Bootstrap == 0 {
		c.Bootstrap = DefaultBootstrap
	}
	if c.Unit == "" {
		c.Unit = DefaultUnit
	}
	if c.Sample.Seed == 0 {
		c.Sample.Seed = c.Seed
	}
	if len(c.Methods) == 0 {
		c.Methods = []Method{Logistic, Tanh}
		if c.Value != nil {
			c.Methods = append(c.Methods, Value)
		}
	}
	seen := map[Method]bool{}
	for _, m := range c.Methods {
		switch m {
		case Logistic, Tanh, Search:
		case Value:
			if c.Value == nil {
				return c, fmt.Errorf("values: method %q needs Config.Value, the network's value function", m)
			}
		default:
			return c, fmt.Errorf("values: unknown method %q; want %s, %s, %s or %s", m, Logistic, Tanh, Value, Search)
		}
		if seen[m] {
			return c, fmt.Errorf("values: method %q listed twice", m)
		}
		seen[m] = true
	}
	return c, nil
}

// ParseMethod returns the Method named s.
func ParseMethod(s string) (Method, error) {
	switch m := Method(s); m {
	case Logistic, Tanh, Value, Search:
		return m, nil
	}
	return "", fmt.Errorf("unknown fit %q; want %s, %s, %s or %s", s, Logistic, Tanh, Value, Search)
}
