package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"bomberzero/internal/atomicfile"
	"bomberzero/stats"
	"bomberzero/study/values"
)

// JSONFile is the machine-readable copy of a comparison beside report.md.
const JSONFile = "comparison.json"

// Write writes res to dir: report.md (package values' tables and charts,
// with this package's sections on where the games came from, a plain
// summary of the verdicts, and cross-play) and comparison.json. Every file
// is written atomically.
func Write(dir string, res *Result) error {
	if res == nil || res.Comparison == nil {
		return fmt.Errorf("compare: nothing to write")
	}
	res.Comparison.ValueNotes = res.ValueNotes
	if err := res.Comparison.WriteReport(dir); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	path := filepath.Join(dir, values.ReportFile)
	body, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	title, rest, _ := strings.Cut(string(body), "\n")
	var b bytes.Buffer
	b.WriteString(title + "\n\n")
	writeSources(&b, res)
	writeSummary(&b, res)
	b.WriteString(strings.TrimLeft(rest, "\n"))
	writeDiversity(&b, res)
	writeLevels(&b, res)
	writeRuleEffects(&b, res)
	writeNetworkEffects(&b, res)
	writeDecomposition(&b, res)
	writeValueDifferences(&b, res)
	writeImbalances(&b, res)
	writeBook(&b, res)
	writeAnchors(&b, res)
	writeUtilisation(&b, res)
	writeCross(&b, res)
	writeSamples(&b, res)
	if err := writeAtomic(path, b.Bytes()); err != nil {
		return err
	}
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	return writeAtomic(filepath.Join(dir, JSONFile), append(js, '\n'))
}

func writeSources(w io.Writer, res *Result) {
	fmt.Fprintf(w, "## Where the games come from\n\n")
	fmt.Fprintf(w, "| variant | source | games | seed |\n|---|---|---|---|\n")
	for _, s := range res.Sources {
		what := ""
		switch s.Kind {
		case "baseline":
			what = fmt.Sprintf("%s against itself from the start position, colours alternating, games capped at %d plies (a draw)", s.Player, res.Config.MaxPlies)
		case "model":
			what = fmt.Sprintf("the given model %s against itself (%s), colours alternating, games capped at %d plies (a draw)", s.Model, s.Player, res.Config.MaxPlies)
		case "trained":
			what = fmt.Sprintf("self-play of a run trained for %s with the variant's embedded defaults: %s", res.Config.Budget, s.Dir)
		default:
			what = "self-play games of " + s.Dir
		}
		if s.Model != "" && s.Kind != "model" {
			what += fmt.Sprintf(" (newest model %s)", s.Model)
		}
		if s.TeacherGames > 0 {
			what += fmt.Sprintf("; %d games of a search teacher left out", s.TeacherGames)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d |\n", s.Variant, what, s.Games, s.Seed)
		for _, p := range s.Problems {
			fmt.Fprintf(w, "\nSkipped data of %s: %s\n", s.Variant, p)
		}
	}
	if res.PairedGames > 0 {
		fmt.Fprintf(w, "\nThe variants' games are %d pairs: game i of each was played from the same opening by players with the same seeds. "+
			"White's score, the draw rate, the endings and the length are tested on the differences within pairs, and the piece values' bootstrap resamples pairs, "+
			"so what a pair's two games share (an opening, a line both rule sets allow) drops out of every difference.", res.PairedGames)
		for _, pa := range res.PairAgreement {
			fmt.Fprintf(w, " Of the %d pairs of %s and %s, %d are the same game move for move and %d end with the same result.", pa.Pairs, pa.A, pa.B, pa.SameGame, pa.SameResult)
		}
		fmt.Fprintf(w, "\n")
	}
	fmt.Fprintf(w, "\nBootstrap intervals use B = %d resamples with seed %d.", res.Config.Bootstrap, res.Config.Seed)
	if res.Config.Command != "" {
		fmt.Fprintf(w, " Reproduce with:\n\n    %s\n", res.Config.Command)
	}
	fmt.Fprintf(w, "\n")
}

// writeSummary lists the differences that are real first, then those
// within noise with the games that would settle them.
func writeSummary(w io.Writer, res *Result) {
	fmt.Fprintf(w, "## Summary\n\n")
	var real, noise []values.Difference
	for _, d := range res.Comparison.Differences {
		if d.WithinNoise {
			noise = append(noise, d)
		} else {
			real = append(real, d)
		}
	}
	if len(real) == 0 {
		fmt.Fprintf(w, "No difference between the variants is significant at the 5%% level on these samples.\n\n")
	} else {
		fmt.Fprintf(w, "Significant at the 5%% level (two-sided), %d of %d figures compared:\n\n", len(real), len(res.Comparison.Differences))
		for _, d := range real {
			fmt.Fprintf(w, "- %s: %s %.3f vs %s %.3f, difference %s: %s.\n", d.Metric, d.A, d.ValueA, d.B, d.ValueB, fmtEst(d.Delta, 3), d.Verdict)
		}
		fmt.Fprintf(w, "\n")
	}
	if len(noise) > 0 {
		fmt.Fprintf(w, "Within noise, %d of %d figures:\n\n", len(noise), len(res.Comparison.Differences))
		for _, d := range noise {
			fmt.Fprintf(w, "- %s: %s %.3f vs %s %.3f, difference %s: %s.\n", d.Metric, d.A, d.ValueA, d.B, d.ValueB, fmtEst(d.Delta, 3), d.Verdict)
		}
		fmt.Fprintf(w, "\n")
	}
	family := "figures tested"
	n := len(res.Comparison.Differences)
	if res.TestedFigures > n {
		family, n = "figures tested: these, the piece values variant against variant and the imbalance readings", res.TestedFigures
	}
	fmt.Fprintf(w, "Significance is by Holm's correction over all %d %s, so the chance of any false \"real difference\" among them is at most 5%%; the primary endpoints are White's score, the draw rate and the mean length.\n\n", n, family)
}

// writeBook says which openings the games started from: the shared book
// with its first openings, and the table of which book each part used
// (Result.BookUse).
func writeBook(w io.Writer, res *Result) {
	if res.BookNote == "" && len(res.Book) == 0 && len(res.BookUse) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Openings\n\n")
	switch {
	case res.BookNote != "":
		fmt.Fprintf(w, "%s; the games that would have taken the shared book started from the variant's start position.\n", res.BookNote)
	case len(res.Book) > 0:
		fmt.Fprintf(w, "The shared book: %d random openings drawn on the first variant's start position, each legal in every compared rule set: the self-play games take the openings in turn, one game each, and the matches between two players play each opening with both colours (so the opening-diversity figures measure the book and the plies after it). The first ones: ", len(res.Book))
		for i, o := range res.Book[:min(5, len(res.Book))] {
			if i > 0 {
				fmt.Fprintf(w, "; ")
			}
			fmt.Fprintf(w, "`%s`", o)
		}
		fmt.Fprintf(w, " (all in comparison.json).\n")
	}
	if len(res.BookUse) == 0 {
		return
	}
	fmt.Fprintf(w, "\nWhich book each part's games started from (`book_use` in comparison.json; an imbalance pair's own book is in `imbalances[].book`):\n\n")
	fmt.Fprintf(w, "| games | book | openings | plies | where |\n|---|---|---|---|---|\n")
	for _, u := range res.BookUse {
		book := map[string]string{SharedBook: "the shared book", ImbalanceBook: "the pair's own book", NoBook: "none"}[u.Book]
		n, plies := "–", "–"
		if u.Openings > 0 {
			n, plies = fmt.Sprint(u.Openings), fmt.Sprint(u.Plies)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", u.Part, book, n, plies, u.Note)
	}
}

func writeValueDifferences(w io.Writer, res *Result) {
	if len(res.ValueDifferences) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Piece values, variant against variant\n\n")
	fmt.Fprintf(w, "Each piece's fitted value (in pawns) in B minus in A, by each fit, with the 95%% interval from both fits' bootstrap replicates (paired ones where the games are paired); for fbgc-superpower against fbgc, the F rows are v_SP(F) − v_lim(F).\n\n")
	fmt.Fprintf(w, "| piece | fit | B − A | value in B − value in A [95%%] | Holm p | verdict |\n|---|---|---|---|---|---|\n")
	for _, d := range res.ValueDifferences {
		verdict := "a real difference"
		switch {
		case !d.Diff.Bounded():
			verdict = "no reading: the interval is unbounded (too few games for a fit; see its notes)"
		case d.WithinNoise:
			verdict = "within noise"
		}
		fmt.Fprintf(w, "| %s | %s | %s − %s | %s | %s | %s |\n", d.Piece, d.Method, d.B, d.A, fmtEst(d.Diff, 2), holmCell(d.PHolm), verdict)
	}
	fmt.Fprintf(w, "\nHolm p: the p-value of \"no difference\" (z from the bootstrap standard error the interval implies), adjusted over every figure the report tests (the summary says how many); the unit piece is not a test.\n")
}

func writeSamples(w io.Writer, res *Result) {
	if len(res.Samples) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Sample games\n\nA decisive and a drawn game of each variant where the data have one, in Game Courier text (save one's moves to FILE and check them with `bomberzero replay --variant V --fen START FILE`).\n")
	for _, g := range res.Samples {
		result := map[int]string{1: "1-0", 0: "1/2-1/2", -1: "0-1"}[g.Result]
		fmt.Fprintf(w, "\n**%s**, game %s: %s by %s, %d plies from `%s`\n\n    ", g.Variant, g.ID, result, g.Termination, len(g.Moves), g.Start)
		for i, m := range g.Moves {
			if i > 0 && i%16 == 0 {
				fmt.Fprintf(w, "\n    ")
			} else if i > 0 {
				fmt.Fprintf(w, " ")
			}
			fmt.Fprintf(w, "%s", m)
		}
		fmt.Fprintf(w, "\n")
	}
}

func writeAnchors(w io.Writer, res *Result) {
	if len(res.Anchors) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Matched strength: each model against fixed anchors\n\n")
	fmt.Fprintf(w, "A difference between rule sets read from two agents is a difference of the rules only if the agents are equally strong. Each variant's model plays each anchor on its own rules, the same seeds for every variant.\n\n")
	fmt.Fprintf(w, "| variant | anchor | W-D-L | score [95%%] | Elo |\n|---|---|---|---|---|\n")
	for _, a := range res.Anchors {
		t, e := a.Result.Total, a.Result.Est
		fmt.Fprintf(w, "| %s | %s | +%d =%d -%d | %.3f [%.3f, %.3f] | %+.0f [%+.0f, %+.0f] |\n", a.Variant, a.Anchor, t.Wins, t.Draws, t.Losses,
			e.Score, e.ScoreLow, e.ScoreHigh, e.Elo, e.EloLow, e.EloHigh)
	}
	fmt.Fprintf(w, "\n")
	for _, m := range res.Matched {
		fmt.Fprintf(w, "- %s vs %s: %s.\n", m.B, m.A, m.Verdict)
	}
}

func writeUtilisation(w io.Writer, res *Result) {
	if len(res.Utilisation) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Utilisation of the extra moves\n\n")
	fmt.Fprintf(w, "Moves one rule set allows and the other does not, in the first's games: how often one was legal, how often one was played, and how the side that played the first one did.\n\n")
	fmt.Fprintf(w, "| games of | moves not in | positions | available | played | games where available | games used | after first use (W-D-L) |\n|---|---|---|---|---|---|---|---|\n")
	for _, u := range res.Utilisation {
		a := u.AfterFirstUse
		fmt.Fprintf(w, "| %s | %s | %d | %d (%.1f%%) | %d (%.2f%%) | %d of %d | %d | +%d =%d -%d |\n", u.Variant, u.Base, u.Positions,
			u.Available, pct(u.Available, u.Positions), u.Played, pct(u.Played, u.Positions), u.GamesAvailable, u.Games, u.GamesUsed, a.Wins, a.Draws, a.Losses)
	}
	for _, u := range res.Utilisation {
		if ab := u.AgainstBase; ab != nil {
			fmt.Fprintf(w, "\nThe games are paired, so a first use has a counterfactual: in %d pairs the %s game and the %s game were one game, move for move, up to the %s game's first extra move, and from there the %s game went on without it. "+
				"The side that played it scored %.3f (+%d =%d -%d) in %s and %.3f (+%d =%d -%d) from the same position in %s: the extra move changed its score by %s (paired 95%% interval).\n",
				ab.Pairs, u.Variant, u.Base, u.Variant, u.Base, stats.Score(ab.With.Wins, ab.With.Draws, ab.With.Losses), ab.With.Wins, ab.With.Draws, ab.With.Losses, u.Variant,
				stats.Score(ab.Base.Wins, ab.Base.Draws, ab.Base.Losses), ab.Base.Wins, ab.Base.Draws, ab.Base.Losses, u.Base, fmtEst(ab.Score, 3))
		}
	}
}

// pct is 100 n / of (0 when of is 0).
func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

func writeCross(w io.Writer, res *Result) {
	fmt.Fprintf(w, "\n## Cross-play\n\n")
	if len(res.Cross) == 0 {
		fmt.Fprintf(w, "%s\n", res.CrossNote)
		return
	}
	fmt.Fprintf(w, "Each variant's newest model plays the other's on both rule sets, colours alternating; scores are A's, with a 95%% interval.\n\n")
	fmt.Fprintf(w, "| rules | A (model) | B (model) | games | A +W =D -L | A's score [95%%] | Elo A − B [95%%] | sims | seed |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range res.Cross {
		r := c.Result
		e := r.Est
		s := values.ScoreInterval(r.Total.Wins, r.Total.Draws, r.Total.Losses)
		fmt.Fprintf(w, "| %s | %s (%s) | %s (%s) | %d | +%d =%d -%d | %s | %+.0f [%+.0f, %+.0f] | %d | %d |\n", c.Rules, c.A, filepath.Base(c.ModelA),
			c.B, filepath.Base(c.ModelB), r.Total.Games(), r.Total.Wins, r.Total.Draws, r.Total.Losses, fmtEst(s, 3),
			e.Elo, e.EloLow, e.EloHigh, c.Sims, c.Seed)
	}
	if res.CrossNote != "" {
		fmt.Fprintf(w, "\n%s\n", res.CrossNote)
	}
	fmt.Fprintf(w, "\nElo bounds of ±%d stand for a perfect score.\n", stats.EloCap)
}

func fmtEst(e values.Estimate, digits int) string {
	return e.Format(digits)
}

// writeAtomic replaces path with data (atomicfile.WriteFile).
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	return nil
}
