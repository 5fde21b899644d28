package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"bomberzero/agent"
	"bomberzero/study/compare"
	"bomberzero/study/values"
)

// runEchoTest implements "bomberzero echo-test": the values pipeline run on
// a material player's games once per value of one piece in its table, to
// tell a measured piece value from an echo of the player's table.
func runEchoTest(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("echo-test", "usage: bomberzero echo-test --piece F --table 3,7 [flags]\n\nPlays a material player against itself once per table value of one piece\n(everything else equal: games, seeds, cap), fits the piece values on each set of\ngames and reports how far the piece's fitted value moved against its own 95%\nhalf-width. A fit that moves less than its half-width measures the games; one\nthat follows the table only reads the player's table back (docs/values.md).", stderr)
	variant := variantFlag(fs)
	player := fs.String("player", "alphabeta:2", "the player: greedy, alphabeta:D or engine[:KEY=VALUE...] (it plays by a piece table)")
	piece := fs.String("piece", "", "the piece letter whose table value changes (not with a wrong table)")
	table := fs.String("table", "3,7", "the values the piece is given, comma-separated, lowest first; or a wrong table, LETTER=PAWNS entries as N=5,Q=6, played after the player's table and compared piece by piece")
	games := fs.Int("games", 400, "self-play games per table value")
	vals := fs.String("values", "", "the player's other piece values, replacing the default table's, e.g. N=3,B=3,R=3 (a deliberately wrong table)")
	seed := fs.Uint64("seed", 1, "seed of the games (the same for every table value) and of the bootstrap")
	workers := fs.Int("workers", 0, "games played at once (0: one per core)")
	boot := fs.Int("bootstrap", values.DefaultBootstrap, "bootstrap replicates per fit")
	rounds := fs.Int("rounds", 1, "rounds per starting table: each round after the first plays with the previous round's fitted values (logistic fit) as the player's table, towards the fixed point of table -> fitted values (docs/values.md)")
	equalGames := fs.Bool("equal-games", false, "weigh every game alike in the fits, whatever its number of sampled positions (values --equal-games)")
	asJSON := fs.Bool("json", false, "write the result as JSON")
	mf := addMatchFlags(fs, true)
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	xs, wrong, err := parseEchoTable(*table, *piece)
	if err != nil {
		return err
	}
	switch {
	case *games < 2:
		return fmt.Errorf("%w: --games %d: want at least 2", errUsage, *games)
	case *rounds < 1 || *rounds > 100:
		return fmt.Errorf("%w: --rounds %d: want 1 to 100", errUsage, *rounds)
	case *boot < 1:
		return fmt.Errorf("%w: --bootstrap %d: want at least 1", errUsage, *boot)
	}
	tc, err := mf.load(*variant)
	if err != nil {
		return usageErr(err)
	}
	opt, err := playerOptions(tc, *vals)
	if err != nil {
		return fmt.Errorf("%w: --values: %v", errUsage, err)
	}
	cfg := compare.EchoConfig{Variant: *variant, Player: *player, Values: xs, Wrong: wrong, Table: opt.Values, Games: *games,
		MaxPlies: tc.Eval.MaxPlies, Seed: *seed, Workers: *workers, Bars: progressTo(stderr, *quiet),
		Fit: values.Config{Sample: values.DefaultSampleConfig(), Methods: []values.Method{values.Logistic, values.Tanh},
			Seed: *seed, Bootstrap: *boot}, Rounds: *rounds}
	cfg.Fit.Sample.EqualGames = *equalGames
	if wrong == nil {
		cfg.Piece = (*piece)[0]
	}
	ctx, stop := stopContext()
	defer stop()
	res, err := compare.Echo(ctx, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, res)
	}
	return res.WriteText(stdout)
}

// parseEchoTable reads --table: increasing values of --piece ("3,7"), or a
// wrong table of LETTER=PAWNS entries ("N=5,Q=6"), which takes no --piece.
// A bad entry is named with what was expected.
func parseEchoTable(table, piece string) ([]float64, agent.Values, error) {
	if strings.Contains(table, "=") {
		if piece != "" {
			return nil, nil, fmt.Errorf("%w: --piece %q with the wrong table --table %q: a wrong table names its pieces; give one of the two", errUsage, piece, table)
		}
		wrong, err := agent.ParseValues(table)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: --table %q: %v", errUsage, table, err)
		}
		for k, x := range wrong {
			if !(x > 0) {
				return nil, nil, fmt.Errorf("%w: --table %q: entry %c=%g: want a value above 0 and at most 1000", errUsage, table, k, x)
			}
		}
		return nil, wrong, nil
	}
	if len(piece) != 1 || piece < "A" || piece > "Z" {
		return nil, nil, fmt.Errorf("%w: --piece %q: want one upper-case piece letter (or a wrong table, --table N=5,Q=6)", errUsage, piece)
	}
	var xs []float64
	for _, f := range strings.Split(table, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(x > 0) || x > 1000 {
			return nil, nil, fmt.Errorf("%w: --table %q: %q is not a value above 0 and at most 1000", errUsage, table, f)
		}
		if len(xs) > 0 && x <= xs[len(xs)-1] {
			return nil, nil, fmt.Errorf("%w: --table %q: want increasing values", errUsage, table)
		}
		xs = append(xs, x)
	}
	if len(xs) < 2 {
		return nil, nil, fmt.Errorf("%w: --table %q: want at least two values", errUsage, table)
	}
	return xs, nil, nil
}
