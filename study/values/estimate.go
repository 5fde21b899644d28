package values

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// Estimate is a point estimate with its 95% bootstrap percentile interval.
// Lo or Hi is infinite when the interval is unbounded on that side (a ratio
// whose denominator can reach zero); JSON writes such a bound as null. The
// point is always finite.
type Estimate struct {
	Point float64 `json:"point"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// Contains reports whether x lies in the interval [Lo, Hi].
func (e Estimate) Contains(x float64) bool { return e.Lo <= x && x <= e.Hi }

// Width returns Hi - Lo (+Inf for an unbounded interval).
func (e Estimate) Width() float64 { return e.Hi - e.Lo }

// Bounded reports whether both ends of the interval are finite.
func (e Estimate) Bounded() bool { return !math.IsInf(e.Lo, 0) && !math.IsInf(e.Hi, 0) }

// Format writes the point and its interval with digits decimals, as
// "4.18 [3.93, 4.42]". An interval open on one side keeps its finite end
// ("7.9 [2.49, +inf]": at least 2.49); one open on both sides says so in
// words instead of printing infinities as numbers.
func (e Estimate) Format(digits int) string {
	if math.IsInf(e.Lo, -1) && math.IsInf(e.Hi, 1) {
		return fmt.Sprintf("%.*f (no bounded interval)", digits, e.Point)
	}
	return fmt.Sprintf("%.*f [%s, %s]", digits, e.Point, formatBound(e.Lo, digits), formatBound(e.Hi, digits))
}

// formatBound writes one interval end: a number, or -inf/+inf.
func formatBound(x float64, digits int) string {
	switch {
	case math.IsInf(x, -1):
		return "-inf"
	case math.IsInf(x, 1):
		return "+inf"
	}
	return fmt.Sprintf("%.*f", digits, x)
}

// MarshalJSON writes the estimate with null for an infinite bound.
func (e Estimate) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Point float64  `json:"point"`
		Lo    *float64 `json:"lo"`
		Hi    *float64 `json:"hi"`
	}{e.Point, finite(e.Lo), finite(e.Hi)})
}

// UnmarshalJSON reads what MarshalJSON writes (null bounds become -Inf and
// +Inf).
func (e *Estimate) UnmarshalJSON(b []byte) error {
	var v struct {
		Point float64  `json:"point"`
		Lo    *float64 `json:"lo"`
		Hi    *float64 `json:"hi"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*e = Estimate{Point: v.Point, Lo: math.Inf(-1), Hi: math.Inf(1)}
	if v.Lo != nil {
		e.Lo = *v.Lo
	}
	if v.Hi != nil {
		e.Hi = *v.Hi
	}
	return nil
}

func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// percentileInterval returns the 2.5% and 97.5% quantiles of xs (sorted in
// place; linear interpolation between order statistics, Hyndman-Fan type 7).
// xs may hold infinities but no NaN.
func percentileInterval(xs []float64) (lo, hi float64) {
	slices.Sort(xs)
	return quantileSorted(xs, 0.025), quantileSorted(xs, 0.975)
}

// quantileSorted returns the q-quantile of sorted xs (type 7).
func quantileSorted(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	h := q * float64(len(xs)-1)
	i := int(math.Floor(h))
	if i >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	f := h - float64(i)
	a, b := xs[i], xs[i+1]
	if f == 0 || a == b {
		return a
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		// Between an infinite and a finite order statistic: the bound is
		// unbounded in the infinite one's direction.
		if math.IsInf(a, -1) {
			return a
		}
		return b
	}
	return a + f*(b-a)
}
