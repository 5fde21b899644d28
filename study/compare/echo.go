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
	"bomberzero/engine"
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
	// Player is a player spec that plays by a piece table: "greedy",
	// "alphabeta:D" or the engine ("engine:nodes=N...", its classical
	// evaluation's material and its move ordering from the table; a
	// learned net, eval=FILE, is refused: its material is the net's).
	Player string
	// Piece is the letter whose table value changes; Values are the values
	// it is given, at least two (e.g. 3 and 7).
	Piece  byte
	Values []float64
	// Wrong, when not nil, takes the place of Piece and Values: the test
	// plays Table and then Table with Wrong's entries (a deliberately wrong
	// table, as N=5,Q=6) and gives a verdict for every piece the fit values.
	Wrong agent.Values
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
	TableValue float64 `json:"table_value"` // Piece's starting value (0 with a wrong table)
	// Table is the player's whole starting table (agent.Values syntax).
	Table    string `json:"table"`
	Games    int    `json:"games"` // fitted: the games the length cap stopped are left out
	Capped   int    `json:"capped"`
	Decisive int    `json:"decisive"`
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
	Piece   string                        `json:"piece"`           // "" with a wrong table
	Wrong   string                        `json:"wrong,omitempty"` // the wrong table's entries, agent.Values syntax
	Rounds  int                           `json:"rounds"`          // rounds per starting table; the verdict is on the last
	Runs    []EchoRun                     `json:"runs"`
	Methods map[values.Method]EchoVerdict `json:"methods"` // Piece's verdict (empty with a wrong table)
	// Pieces holds every piece's verdict, by letter and method, between the
	// first and the last starting table: with a wrong table, whether each
	// fitted value moved by less than its half-width.
	Pieces map[string]map[values.Method]EchoVerdict `json:"pieces"`
	// EqualGames says the fits weighed every game alike
	// (values.SampleConfig.EqualGames) instead of every position.
	EqualGames bool `json:"equal_games,omitempty"`
}

// EchoVerdict is one method's verdict.
type EchoVerdict struct {
	Shift     float64 `json:"shift"`      // fitted value at the highest table value minus at the lowest
	HalfWidth float64 `json:"half_width"` // the larger of the two fits' 95% half-widths
	Change    float64 `json:"change"`     // the piece's table value at the last starting table minus at the first
	Echo      float64 `json:"echo"`       // Shift over the table's change (0 where the table did not change)
	// Passed is true when the fitted value moved by less than its
	// half-width: the fit measures the games, not the table.
	Passed bool `json:"passed"`
}

// Echo runs the echo test.
func Echo(ctx context.Context, cfg EchoConfig) (*EchoResult, error) {
	wrong := cfg.Wrong != nil
	if (!wrong && len(cfg.Values) < 2) || (wrong && len(cfg.Wrong) == 0) || cfg.Games < 1 || cfg.MaxPlies == 0 {
		return nil, fmt.Errorf("compare: echo test: want two or more table values or a wrong table, games >= 1 and a length cap (got %v, %v, %d, %d)", cfg.Values, cfg.Wrong, cfg.Games, cfg.MaxPlies)
	}
	if err := checkEchoPlayer(cfg.Player); err != nil {
		return nil, err
	}
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		return nil, fmt.Errorf("compare: echo test: %w", err)
	}
	// The starting tables, each with its name.
	var tables []agent.Values
	var names []string
	res := &EchoResult{Variant: v.Name, Player: cfg.Player, Methods: map[values.Method]EchoVerdict{}, Pieces: map[string]map[values.Method]EchoVerdict{},
		EqualGames: cfg.Fit.Sample.EqualGames}
	if wrong {
		if err := cfg.Wrong.CheckPieces(v); err != nil {
			return nil, fmt.Errorf("compare: echo test: wrong table: %w", err)
		}
		res.Wrong = cfg.Wrong.String()
		tables = []agent.Values{variantTable(v, cfg.Table), variantTable(v, cfg.Table.With(cfg.Wrong))}
		names = []string{"the table", res.Wrong}
	} else {
		if err := (agent.Values{cfg.Piece: 1}).CheckPieces(v); err != nil {
			return nil, fmt.Errorf("compare: echo test: %w", err)
		}
		res.Piece = string(cfg.Piece)
		for _, x := range cfg.Values {
			tables = append(tables, variantTable(v, cfg.Table.With(agent.Values{cfg.Piece: x})))
			names = append(names, fmt.Sprintf("%s=%g", res.Piece, x))
		}
	}
	rounds := max(cfg.Rounds, 1)
	res.Rounds = rounds
	method := cfg.FixedPoint
	if method == "" {
		method = values.Logistic
	}
	if rounds > 1 && !slices.Contains(cfg.Fit.Methods, method) {
		return nil, fmt.Errorf("compare: echo test: the fixed-point fit %q is not among the fitted methods %v", method, cfg.Fit.Methods)
	}
	for i, start := range tables {
		table := start
		var run EchoRun
		var history []EchoRound
		for round := range rounds {
			name := names[i]
			if rounds > 1 {
				name = fmt.Sprintf("%s round %d/%d", names[i], round+1, rounds)
			}
			var err error
			if run, err = echoRound(ctx, cfg, v, table, fmt.Sprintf("echo%d-%d", i, round), name); err != nil {
				return nil, err
			}
			if rounds > 1 {
				var fitted *values.Estimate
				if !wrong {
					fitted = run.All[method][res.Piece]
				}
				history = append(history, EchoRound{Table: table.String(), Games: run.Games, Decisive: run.Decisive, Fitted: fitted})
			}
			table = nextTable(table, run.All[method], cfg.Fit.Unit)
		}
		run.Table, run.Rounds = start.String(), history
		if !wrong {
			run.TableValue = cfg.Values[i]
		}
		res.Runs = append(res.Runs, run)
	}
	lo, hi := res.Runs[0], res.Runs[len(res.Runs)-1]
	first, last := tables[0], tables[len(tables)-1]
	unit := cfg.Fit.Unit
	if unit == "" {
		unit = values.DefaultUnit
	}
	for m, pieces := range lo.All {
		for piece, a := range pieces {
			b := hi.All[m][piece]
			if a == nil || b == nil || piece == unit {
				continue // no value, or the unit, 1 by definition
			}
			vd := echoVerdict(a, b, last[piece[0]]-first[piece[0]])
			if res.Pieces[piece] == nil {
				res.Pieces[piece] = map[values.Method]EchoVerdict{}
			}
			res.Pieces[piece][m] = vd
			if piece == res.Piece {
				res.Methods[m] = vd
			}
		}
	}
	return res, nil
}

// variantTable returns the full starting table of variant v's non-royal
// pieces: the default table with over's entries, as match.Parse builds the
// player's (a letter of another variant left out).
func variantTable(v *env.Variant, over agent.Values) agent.Values {
	all := agent.DefaultValues().With(over)
	out := agent.Values{}
	for _, p := range v.Pieces[1:] {
		if x, ok := all[p.Letter]; ok && !p.Royal {
			out[p.Letter] = x
		}
	}
	return out
}

// echoVerdict compares a piece's fits a (first table) and b (last table)
// when its table value changed by change.
func echoVerdict(a, b *values.Estimate, change float64) EchoVerdict {
	half := math.Max(a.Width(), b.Width()) / 2
	shift := b.Point - a.Point
	vd := EchoVerdict{Shift: shift, HalfWidth: half, Change: change, Passed: math.Abs(shift) < half}
	if change != 0 {
		vd.Echo = shift / change
	}
	return vd
}

// checkEchoPlayer refuses a player whose play does not follow the piece
// table: the echo test changes the table and nothing else.
func checkEchoPlayer(spec string) error {
	kind, rest, _ := strings.Cut(spec, ":")
	switch kind {
	case "greedy", "alphabeta":
		return nil
	case "engine":
		es, err := engine.ParseSpec(rest)
		if err != nil {
			return fmt.Errorf("compare: echo test: player %q: %w", spec, err)
		}
		if es.Net != nil {
			return fmt.Errorf("compare: echo test: player %q: a learned net (eval=%s) evaluates material by its own weights, not the piece table; want the classical evaluation", spec, es.NetFile)
		}
		return nil
	}
	return fmt.Errorf("compare: echo test: player %q: want greedy, alphabeta:D or engine[:KEY=VALUE...], a player that plays by a piece table", spec)
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
	if r.Wrong != "" {
		return r.writeWrongText(w)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Echo test: %s playing itself in %s with %s at each table value", r.Player, r.Variant, r.Piece)
	if r.Rounds > 1 {
		fmt.Fprintf(&b, ", %d fixed-point rounds from each (the verdict compares the last rounds)", r.Rounds)
	}
	if r.EqualGames {
		b.WriteString("; every game weighed alike in the fits")
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

// writeWrongText prints the echo test with a wrong table: each table's
// fitted values, then every piece's verdict.
func (r *EchoResult) writeWrongText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Echo test: %s playing itself in %s with its table, then with the wrong entries %s", r.Player, r.Variant, r.Wrong)
	if r.Rounds > 1 {
		fmt.Fprintf(&b, ", %d fixed-point rounds from each (the verdict compares the last rounds)", r.Rounds)
	}
	if r.EqualGames {
		b.WriteString("; every game weighed alike in the fits")
	}
	b.WriteString("\n")
	for _, run := range r.Runs {
		for k, rd := range run.Rounds {
			fmt.Fprintf(&b, "  round %d: player's table %s; %d games (%d decisive)\n", k+1, rd.Table, rd.Games, rd.Decisive)
		}
		fmt.Fprintf(&b, "table %s: %d games (%d decisive; %d stopped by the cap left out)\n", run.Table, run.Games, run.Decisive, run.Capped)
		for _, m := range sortedMethods(run.All) {
			fmt.Fprintf(&b, "  %s fit:", m)
			for _, piece := range slices.Sorted(maps.Keys(run.All[m])) {
				if e := run.All[m][piece]; e != nil {
					fmt.Fprintf(&b, " %s %.2f [%.2f, %.2f]", piece, e.Point, e.Lo, e.Hi)
				} else {
					fmt.Fprintf(&b, " %s no value", piece)
				}
			}
			b.WriteString("\n")
		}
	}
	for _, piece := range slices.Sorted(maps.Keys(r.Pieces)) {
		for _, m := range sortedMethods(r.Pieces[piece]) {
			v := r.Pieces[piece][m]
			verdict := "FAILED: moved by its half-width or more"
			if v.Passed {
				verdict = "passed: moved less than its half-width"
			}
			fmt.Fprintf(&b, "%s, %s fit: table %+g, fitted moved %+.2f (half-width %.2f", piece, m, v.Change, v.Shift, v.HalfWidth)
			if v.Change != 0 {
				fmt.Fprintf(&b, "; echo %.2f", v.Echo)
			}
			fmt.Fprintf(&b, "): %s\n", verdict)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sortedMethods returns m's keys in name order.
func sortedMethods[T any](m map[values.Method]T) []values.Method {
	return slices.Sorted(maps.Keys(m))
}
