package compare

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/study/values"
)

// synthetic returns n games of a variant with exactly the given numbers of
// White wins and draws (the rest Black wins), all checkmates or repetitions,
// lengths cycling over 60..99 plies and openings over eight first moves.
func synthetic(name string, n, whiteWins, draws int) *values.Dataset {
	ds := &values.Dataset{Pieces: []string{"P", "K"}}
	for i := range n {
		g := values.Game{ID: fmt.Sprintf("%s-%d", name, i), Variant: name, Length: 60 + i%40, Termination: env.Checkmate}
		switch {
		case i < whiteWins:
			g.Result = 1
		case i < whiteWins+draws:
			g.Termination = env.Repetition
		default:
			g.Result = -1
		}
		for ply := range 4 {
			g.Positions = append(g.Positions, values.Position{Ply: ply, WhiteToMove: ply%2 == 0, Text: "p",
				Played: fmt.Sprintf("m%d-%d", ply, (i*7+ply)%8), White: []int32{8, 1}, Black: []int32{8, 1}})
		}
		ds.Games = append(ds.Games, g)
	}
	return ds
}

// The summary must call a large planted difference in White's score
// significant and an identical pair within noise, with the games that
// would resolve what is left.
func TestReportVerdictsOnSyntheticRates(t *testing.T) {
	cfg := Config{Variants: []string{"even", "white-heavy", "even-again"}, Games: 800, Seed: 5, Bootstrap: 100, NoValues: true}
	sets := []*values.Dataset{
		synthetic("even", 800, 320, 160),        // White's score 0.5
		synthetic("white-heavy", 800, 480, 160), // 0.7
		synthetic("even-again", 800, 320, 160),  // identical to "even"
	}
	res, err := Analyze(cfg, nil, sets)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	report := writeReport(t, dir, res)
	summary, _, _ := strings.Cut(report[strings.Index(report, "## Summary"):], "\n## ")
	significant, noise, _ := strings.Cut(summary, "Within noise")
	if !strings.Contains(significant, "- White's score: even 0.500 vs white-heavy 0.700") {
		t.Errorf("the 0.5 vs 0.7 White's score is not listed as significant:\n%s", summary)
	}
	if !strings.Contains(noise, "- White's score: even 0.500 vs even-again 0.500") || !strings.Contains(noise, "- draw rate: even 0.200 vs even-again 0.200") {
		t.Errorf("the identical pair is not listed within noise:\n%s", summary)
	}
	if strings.Contains(significant, ": even 0.500 vs even-again") || strings.Contains(significant, ": even 0.200 vs even-again") {
		t.Errorf("an identical pair was called significant:\n%s", significant)
	}
	for _, want := range []string{"# Variant comparison", "## Outcomes", "![outcomes](outcomes.png)", "## How games end", "## Cross-play", "B = 100"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, f := range []string{values.OutcomesChartFile, values.LengthsChartFile, JSONFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	var back Result
	js, _ := os.ReadFile(filepath.Join(dir, JSONFile))
	if err := json.Unmarshal(js, &back); err != nil || back.Version != Version || len(back.Comparison.Variants) != 3 {
		t.Errorf("comparison.json does not read back: %v, %+v", err, back.Config)
	}
}

// A difference too small for the samples is within noise, and the report
// says how many games per variant would resolve it.
func TestReportSaysHowManyGamesWouldResolveASmallDifference(t *testing.T) {
	cfg := Config{Variants: []string{"a", "b"}, Games: 200, Seed: 1, Bootstrap: 50, NoValues: true}
	res, err := Analyze(cfg, nil, []*values.Dataset{synthetic("a", 200, 80, 40), synthetic("b", 200, 88, 40)})
	if err != nil {
		t.Fatal(err)
	}
	var ws *values.Difference
	for i, d := range res.Comparison.Differences {
		if d.Metric == "White's score" {
			ws = &res.Comparison.Differences[i]
		}
	}
	if ws == nil || !ws.WithinNoise || ws.MoreGames == nil || *ws.MoreGames <= 0 {
		t.Fatalf("White's score 0.5 vs 0.52 on 200 games each: %+v; want within noise with more games needed", ws)
	}
	dir := t.TempDir()
	if err := Write(dir, res); err != nil {
		t.Fatal(err)
	}
	body, _ := os.ReadFile(filepath.Join(dir, values.ReportFile))
	if want := fmt.Sprintf("about %d more games per variant", *ws.MoreGames); !strings.Contains(string(body), want) {
		t.Errorf("report does not say %q", want)
	}
}

func TestConfigValidateNamesTheBadFlag(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Variants: []string{"fbgc"}, Games: 1}, "two or more"},
		{Config{Variants: []string{"fbgc", "fbgc"}, Games: 1}, "given twice"},
		{Config{Variants: []string{"fbgc", "nonsense"}, Games: 1}, "--variants"},
		{Config{Variants: []string{"fbgc", "chess"}, Games: 0}, "--games"},
		{Config{Variants: []string{"fbgc", "chess"}, Games: 1, Runs: []string{dir}}, "--runs has 1"},
		{Config{Variants: []string{"fbgc", "chess"}, Games: 1, Runs: []string{dir, dir + "/nope"}}, "not a directory"},
		{Config{Variants: []string{"fbgc", "chess"}, Games: 1, Runs: []string{dir, dir}, Budget: 1}, "cannot go with --runs"},
		{Config{Variants: []string{"fbgc", "chess"}, Games: 1, Budget: -1}, "--budget"},
		{Config{Variants: []string{"fbgc", "chess"}, Games: 1, Bootstrap: -1}, "--bootstrap"},
	} {
		err := c.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", c.cfg, err, c.want)
		}
	}
}

// writeReport writes res's report folder into dir and returns report.md.
func writeReport(t *testing.T, dir string, res *Result) string {
	t.Helper()
	if err := Write(dir, res); err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(dir, values.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}
