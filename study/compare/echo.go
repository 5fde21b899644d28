package compare

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/study/values"
)

// EchoConfig is an echo test: does a piece value fitted on a player's games
// measure the game, or read back the player's own piece table? The same
// player plays itself once per table value of Piece, everything else equal
// (games, seeds, cap), and the values pipeline is fitted on each set.
type EchoConfig struct {
	Variant string
	// Player is a material player spec that takes a piece table:
	// "greedy" or "alphabeta:D".
	Player string
	// Piece is the letter whose table value changes; Values are the values
	// it is given, at least two (e.g. 3 and 7).
	Piece  byte
	Values []float64
	// Table holds the player's other piece values, replacing entries of
	// the default table (nil: the default table); Piece's entry is set
	// from Values.
	Table agent.Values
	// Games is the self-play games per table value.
	Games    int
	MaxPlies int
	Seed     uint64
	Workers  int
	// Fit is the values pipeline (sampling, methods, bootstrap, unit).
	Fit values.Config
	// Rounds is how many times the pipeline plays and fits from each
	// starting table (0 or 1: once, the plain echo test). Each later round
	// plays with the previous round's fitted values as the player's table
	// (those of FixedPoint, every piece the fit valued), so the rounds look
	// for the fixed point of the map table -> fitted values: values that a
	// player who holds them finds confirmed by its own games. If the fit
	// echoes a share e < 1 of the table, the starting tables' difference
	// shrinks by about e a round, and the echo test on the last round asks
	// whether the pipeline as a whole still depends on where it started.
	Rounds int
	// FixedPoint is the fit whose values feed the next round ("" means
	// values.Logistic, the fit docs/values.md prefers).
	FixedPoint values.Method
	// Bars receives a progress bar per table value (nil: none).
	Bars io.Writer
}

// EchoRun is the fit of one table value.
type EchoRun struct {
	TableValue float64 `json:"table_value"`
	Games      int     `json:"games"` // fitted: the games the length cap stopped are left out
	Capped     int     `json:"capped"`
	Decisive   int     `json:"decisive"`
	// Fitted is the piece's fitted value per method, in units of the unit
	// piece (nil when the fit could not value it).
	Fitted map[values.Method]*values.Estimate `json:"fitted"`
	// Rounds records each round from this starting table when there is
	// more than one (Games, Fitted and All are the last round's).
	Rounds []EchoRound `json:"rounds,omitempty"`
	// All holds every piece's fitted value per method (nil for a piece the
	// fit could not value), for reading the whole table a player's games
	// give (a falsification run with a deliberately wrong table).
	All map[values.Method]map[string]*values.Estimate `json:"all"`
}

// EchoRound is one round of a fixed-point run: the table the player held
// and the piece's value the round's games gave under the fixed-point fit.
type EchoRound struct {
	Table    string           `json:"table"` // agent.Values syntax, "B=4,F=5,..."
	Games    int              `json:"games"`
	Decisive int              `json:"decisive"`
	Fitted   *values.Estimate `json:"fitted"` // nil when the fit could not value the piece
}

// EchoResult is the echo test's answer per fit method: how far the fitted
// value moved between the lowest and the highest table value, against the
// fit's own half-width. Echo is that movement over the table's (1: the fit
// only reads the table back; 0: the table does not matter).
type EchoResult struct {
	Variant string                        `json:"variant"`
	Player  string                        `json:"player"`
	Piece   string                        `json:"piece"`
	Rounds  int                           `json:"rounds"` // rounds per starting table; the verdict is on the last
	Runs    []EchoRun                     `json:"runs"`
	Methods map[values.Method]EchoVerdict `json:"methods"`
}

// EchoVerdict is one method's verdict.
type EchoVerdict struct {
	Shift     float64 `json:"shift"`      // fitted value at the highest table value minus at the lowest
	HalfWidth float64 `json:"half_width"` // the larger of the two fits' 95% half-widths
	Echo      float64 `json:"echo"`       // Shift over the table's change
	// Passed is true when the fitted value moved by less than its
	// half-width: the fit measures the games, not the table.
	Passed bool `json:"passed"`
}

// Echo runs the echo test.
func Echo(ctx context.Context, cfg EchoConfig) (*EchoResult, error) {
	if len(cfg.Values) < 2 || cfg.Games < 1 || cfg.MaxPlies == 0 {
		return nil, fmt.Errorf("compare: echo test: want two or more table values, games >= 1 and a length cap (got %v, %d, %d)", cfg.Values, cfg.Games, cfg.MaxPlies)
	}
	if !strings.HasPrefix(cfg.Player, "greedy") && !strings.HasPrefix(cfg.Player, "alphabeta:") {
		return nil, fmt.Errorf("compare: echo test: player %q: want greedy or alphabeta:D, a player that plays by a piece table", cfg.Player)
	}
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		return nil, fmt.Errorf("compare: echo test: %w", err)
	}
	if err := (agent.Values{cfg.Piece: 1}).CheckPieces(v); err != nil {
		return nil, fmt.Errorf("compare: echo test: %w", err)
	}
	res := &EchoResult{Variant: v.Name, Player: cfg.Player, Piece: string(cfg.Piece), Methods: map[values.Method]EchoVerdict{}}
	rounds := max(cfg.Rounds, 1)
	res.Rounds = rounds
	method := cfg.FixedPoint
	if method == "" {
		method = values.Logistic
	}
	if rounds > 1 && !slices.Contains(cfg.Fit.Methods, method) {
		return nil, fmt.Errorf("compare: echo test: the fixed-point fit %q is not among the fitted methods %v", method, cfg.Fit.Methods)
	}
	for i, x := range cfg.Values {
		table := cfg.Table.With(agent.Values{cfg.Piece: x})
		var run EchoRun
		var history []EchoRound
		for round := range rounds {
			name := fmt.Sprintf("%s=%g", res.Piece, x)
			if rounds > 1 {
				name = fmt.Sprintf("%s=%g round %d/%d", res.Piece, x, round+1, rounds)
			}
			var err error
			if run, err = echoRound(ctx, cfg, v, table, fmt.Sprintf("echo%d-%d", i, round), name); err != nil {
				return nil, err
			}
			if rounds > 1 {
				history = append(history, EchoRound{Table: table.String(), Games: run.Games, Decisive: run.Decisive, Fitted: run.All[method][res.Piece]})
			}
			table = nextTable(table, run.All[method], cfg.Fit.Unit)
		}
		run.TableValue, run.Rounds = x, history
		res.Runs = append(res.Runs, run)
	}
	lo, hi := res.Runs[0], res.Runs[len(res.Runs)-1]
	for m, a := range lo.Fitted {
		b := hi.Fitted[m]
		if a == nil || b == nil {
			continue
		}
		half := math.Max(a.Width(), b.Width()) / 2
		shift := b.Point - a.Point
		res.Methods[m] = EchoVerdict{Shift: shift, HalfWidth: half, Echo: shift / (hi.TableValue - lo.TableValue),
			Passed: math.Abs(shift) < half}
	}
	return res, nil
}

// echoRound plays one set of games with the player holding table and fits
// the values pipeline on them.
func echoRound(ctx context.Context, cfg EchoConfig, v *env.Variant, table agent.Values, dsName, name string) (EchoRun, error) {
	p, err := match.Parse(cfg.Player, v, match.Options{Values: table})
	if err != nil {
		return EchoRun{}, fmt.Errorf("compare: echo test: %w", err)
	}
	start := v.NewPosition()
	mc := match.Config{A: p, B: p, Games: cfg.Games, Start: start, Variant: v, MaxPlies: cfg.MaxPlies,
		Seed: cfg.Seed, Workers: cfg.Workers, KeepGames: true}
	if progress := bar(cfg.Bars, name+" games", "games"); progress != nil {
		mc.Progress = func(r *match.Result) { progress(r.Total.Games(), cfg.Games) }
	}
	r, err := match.Run(ctx, mc)
	if err != nil {
		return EchoRun{}, fmt.Errorf("compare: echo test, %s: %w", name, err)
	}
	ds, err := Dataset(dsName, start, r.Records)
	if err != nil {
		return EchoRun{}, err
	}
	ds, capped := ds.WithoutCapped() // censored results, as values leaves them out
	run := EchoRun{Games: len(ds.Games), Capped: capped, Fitted: map[values.Method]*values.Estimate{},
		All: map[values.Method]map[string]*values.Estimate{}}
	for _, g := range ds.Games {
		if g.Result != 0 {
			run.Decisive++
		}
	}
	rep, err := values.PieceValues(ds, cfg.Fit)
	if err != nil {
		return EchoRun{}, fmt.Errorf("compare: echo test, %s: %w", name, err)
	}
	piece := string(cfg.Piece)
	for _, f := range rep.Fits {
		run.All[f.Method] = map[string]*values.Estimate{}
		for _, pv := range f.Pieces {
			run.All[f.Method][pv.Piece] = pv.Value
			if pv.Piece == piece {
				run.Fitted[f.Method] = pv.Value
			}
		}
	}
	return run, nil
}

// Fixed-point tables keep every value within [minTableValue, maxTableValue]
// pawns: a fit on few trades can give a piece a value at or below zero,
// which no player can hold.
const (
	minTableValue = 0.1
	maxTableValue = 1000
)

// nextTable returns the table of the next fixed-point round: table with
// each piece the fit valued (all but the unit piece) set to its fitted
// point, which is in units of the unit piece, times the unit's own table
// value, clamped to the range a table holds and rounded to a hundredth
// (far below any fit's resolution, and a table a person can read).
func nextTable(table agent.Values, fitted map[string]*values.Estimate, unit string) agent.Values {
	if unit == "" {
		unit = values.DefaultUnit
	}
	scale := 1.0
	if x, ok := table[unit[0]]; ok && x > 0 {
		scale = x
	}
	out := table.With(nil)
	for piece, e := range fitted {
		if e == nil || len(piece) != 1 || piece == unit || math.IsNaN(e.Point) || math.IsInf(e.Point, 0) {
			continue
		}
		out[piece[0]] = math.Round(min(max(e.Point*scale, minTableValue), maxTableValue)*100) / 100
	}
	return out
}

// WriteText prints the echo test for a person.
func (r *EchoResult) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Echo test: %s playing itself in %s with %s at each table value", r.Player, r.Variant, r.Piece)
	if r.Rounds > 1 {
		fmt.Fprintf(&b, ", %d fixed-point rounds from each (the verdict compares the last rounds)", r.Rounds)
	}
	b.WriteString("\n")
	for _, run := range r.Runs {
		for k, rd := range run.Rounds {
			fmt.Fprintf(&b, "%s = %g, round %d: player's table %s; %d games (%d decisive);", r.Piece, run.TableValue, k+1, rd.Table, rd.Games, rd.Decisive)
			if rd.Fitted == nil {
				b.WriteString(" no value\n")
				continue
			}
			fmt.Fprintf(&b, " fitted %.2f [%.2f, %.2f]\n", rd.Fitted.Point, rd.Fitted.Lo, rd.Fitted.Hi)
		}
		fmt.Fprintf(&b, "%s = %g: %d games (%d decisive; %d stopped by the cap left out);", r.Piece, run.TableValue, run.Games, run.Decisive, run.Capped)
		for _, m := range sortedMethods(run.Fitted) {
			e := run.Fitted[m]
			if e == nil {
				fmt.Fprintf(&b, " %s fit: no value;", m)
				continue
			}
			fmt.Fprintf(&b, " %s fit %.2f [%.2f, %.2f];", m, e.Point, e.Lo, e.Hi)
		}
		b.WriteString("\n")
	}
	for _, m := range sortedMethods(r.Methods) {
		v := r.Methods[m]
		verdict := "FAILED: the fitted value follows the player's table"
		if v.Passed {
			verdict = "passed: the fitted value moved less than its half-width"
		}
		fmt.Fprintf(&b, "%s fit: moved %+.2f (half-width %.2f; echo %.2f of the table's change): %s\n", m, v.Shift, v.HalfWidth, v.Echo, verdict)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sortedMethods returns m's keys in name order.
func sortedMethods[T any](m map[values.Method]T) []values.Method {
	return slices.Sorted(maps.Keys(m))
}
