package learn

import (
	"fmt"
	"strconv"
	"strings"

	"bomberzero/engine/nnue"
	"bomberzero/engine/nnue/fit"
)

// NetSettings are the settings of a run that shape each new net: the
// training's (fit.Config's, less the seed, the trainer and its threads,
// which change the arithmetic's last bits but not the experiment) and the
// window of positions it trains on. A run records them in its state at the
// start and refuses a resume with others, as it does for the data
// settings; none may change mid-run, so that a run's nets are one
// experiment (start a new run, in another directory, to try others).
type NetSettings struct {
	Hidden            int     `json:"hidden"`
	L2                int     `json:"l2"`
	Residual          bool    `json:"residual"`
	KingBuckets       string  `json:"king_buckets"` // nnue.KingBuckets.String: "" for none
	Mirror            bool    `json:"mirror"`
	Lambda            float64 `json:"lambda"`
	Epochs            int     `json:"epochs"`
	Batch             int     `json:"batch"`
	LearningRate      float64 `json:"lr"`
	LearningRateFinal float64 `json:"lr_final"`
	Window            int     `json:"window"`
	MaxPositions      int     `json:"max_positions"`
}

// NewNetSettings returns the net settings of a run training with fc on the
// positions of window generations, at most maxPositions of them.
func NewNetSettings(fc fit.Config, window, maxPositions int) NetSettings {
	return NetSettings{Hidden: fc.Hidden, L2: fc.L2, Residual: fc.Residual, KingBuckets: fc.KingBuckets.String(), Mirror: fc.Mirror,
		Lambda: fc.Lambda, Epochs: fc.Epochs, Batch: fc.Batch, LearningRate: fc.LearningRate, LearningRateFinal: fc.LearningRateFinal,
		Window: window, MaxPositions: maxPositions}
}

// Apply copies s's training settings into fc (Window and MaxPositions are
// a Config's). A king-bucket scheme that does not parse is an error.
func (s NetSettings) Apply(fc *fit.Config) error {
	kb, err := nnue.ParseKingBuckets(s.KingBuckets)
	if err != nil {
		return fmt.Errorf("the run's king buckets: %w", err)
	}
	fc.Hidden, fc.L2, fc.Residual, fc.KingBuckets, fc.Mirror = s.Hidden, s.L2, s.Residual, kb, s.Mirror
	fc.Lambda, fc.Epochs, fc.Batch, fc.LearningRate, fc.LearningRateFinal = s.Lambda, s.Epochs, s.Batch, s.LearningRate, s.LearningRateFinal
	return nil
}

// Setting is one of NetSettings' values: Name is the flag of "bomberzero
// nnue" that gives it, Value its text as the flag reads it.
type Setting struct{ Name, Value string }

// Settings returns s's values in a fixed order, each named by its flag.
func (s NetSettings) Settings() []Setting {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	kb := s.KingBuckets
	if kb == "" {
		kb = "none"
	}
	return []Setting{
		{"hidden", strconv.Itoa(s.Hidden)},
		{"l2", strconv.Itoa(s.L2)},
		{"residual", strconv.FormatBool(s.Residual)},
		{"king-buckets", kb},
		{"mirror", strconv.FormatBool(s.Mirror)},
		{"lambda", f(s.Lambda)},
		{"epochs", strconv.Itoa(s.Epochs)},
		{"batch", strconv.Itoa(s.Batch)},
		{"lr", f(s.LearningRate)},
		{"lr-final", f(s.LearningRateFinal)},
		{"window", strconv.Itoa(s.Window)},
		{"max-positions", strconv.Itoa(s.MaxPositions)},
	}
}

// String returns the settings as flags, "--hidden 256 --l2 32 ...".
func (s NetSettings) String() string {
	var b strings.Builder
	for i, x := range s.Settings() {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "--%s %s", x.Name, x.Value)
	}
	return b.String()
}

// Diff returns the settings of got that differ from s's, as two flag
// lists (s's values, got's), "" and "" when they are the same.
func (s NetSettings) Diff(got NetSettings) (want, have string) {
	a, b := s.Settings(), got.Settings()
	var w, h []string
	for i := range a {
		if a[i].Value != b[i].Value {
			w = append(w, "--"+a[i].Name+" "+a[i].Value)
			h = append(h, "--"+b[i].Name+" "+b[i].Value)
		}
	}
	return strings.Join(w, " "), strings.Join(h, " ")
}

// fitConfigured is a Trainer that trains with a fit.Config (NNUE and the
// types that embed it): its settings are the run's net settings.
type fitConfigured interface{ FitConfig() fit.Config }

// FitConfig returns t's training settings.
func (t NNUE) FitConfig() fit.Config { return t.Fit }

// NetSettings returns the net settings of a run with c's settings: its
// trainer's fit.Config (zero for a trainer without one) and its window.
func (c *Config) NetSettings() NetSettings {
	var fc fit.Config
	if t, ok := c.Trainer.(fitConfigured); ok {
		fc = t.FitConfig()
	}
	return NewNetSettings(fc, c.Window, c.MaxPositions)
}
