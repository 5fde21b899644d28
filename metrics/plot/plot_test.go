package plot

import (
	"bytes"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"bomberzero/metrics"
)

// synthetic returns n generations of plausible metrics.
func synthetic(n int) []metrics.Record {
	var recs []metrics.Record
	for g := 1; g <= n; g++ {
		x := float64(g)
		model := "gen-" + string(rune('0'+g%10))
		recs = append(recs, metrics.Record{
			Version: metrics.Version, Generation: g, Elapsed: 900 * x, Model: model,
			SelfPlay: &metrics.SelfPlay{Games: 50, Positions: 4000, Seconds: 600, GamesPerHour: 300 + x, MeanPlies: 120 - x, WhiteWins: 20 + g, Draws: 10, BlackWins: 20 - g},
			Train:    &metrics.Train{Steps: 200, PolicyLoss: 4 - 0.2*x, ValueLoss: 1 - 0.05*x, Loss: 5 - 0.25*x, PolicyAccuracy: 0.1 + 0.03*x, ValueError: 0.9 - 0.04*x},
			Matches: []metrics.Match{
				{A: model, B: "random", Wins: 8 + g%3, Draws: 1, Losses: 1},
				{A: model, B: "alphabeta:1", Wins: g, Draws: 2, Losses: 10 - g},
			},
			Ladder: []metrics.Rating{
				{Player: model, Elo: 50 * x, Low: 50*x - 40, High: 50*x + 40, Games: 60},
				{Player: "random", Elo: 0, Games: 200},
				{Player: "greedy", Elo: 120, Low: 90, High: 150, Games: 100},
				{Player: "alphabeta:1", Elo: 300, Low: 260, High: 340, Games: 100},
			},
		})
	}
	return recs
}

func TestWriteDrawsEveryPlotAsValidPNGAndSVG(t *testing.T) {
	dir := t.TempDir()
	recs := synthetic(8)
	for _, format := range Formats {
		paths, err := Write(dir, recs, format)
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != len(Names) {
			t.Fatalf("%s: %d plots, want %d", format, len(paths), len(Names))
		}
		for i, name := range Names {
			want := filepath.Join(dir, name+"."+format)
			if paths[i] != want {
				t.Errorf("plot %d at %s, want %s", i, paths[i], want)
			}
			checkFile(t, want, format)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// checkFile checks a plot file's header and that it is not trivially small.
func checkFile(t *testing.T, path, format string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	switch format {
	case "png":
		if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) || !bytes.Contains(data, []byte("IEND")) {
			t.Errorf("%s is not a complete PNG", path)
		}
	case "svg":
		s := string(data)
		if !strings.Contains(s, "<svg") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
			t.Errorf("%s is not a complete SVG", path)
		}
	}
	if len(data) < 2000 {
		t.Errorf("%s: only %d bytes", path, len(data))
	}
}

func TestSVGPlotsShowTheirSeries(t *testing.T) {
	dir := t.TempDir()
	if _, err := Write(dir, synthetic(5), "svg"); err != nil {
		t.Fatal(err)
	}
	for name, words := range map[string][]string{
		"losses":       {"policy", "value", "total"},
		"elo":          {"greedy", "alphabeta:1", "model", "working hours"},
		"wdl":          {"White wins", "draws", "Black wins"},
		"match_scores": {"vs random", "vs alphabeta:1"},
	} {
		data, _ := os.ReadFile(filepath.Join(dir, name+".svg"))
		for _, w := range words {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s.svg lacks %q", name, w)
			}
		}
	}
}

func TestWriteCopesWithAnEmptyOrPartialRun(t *testing.T) {
	dir := t.TempDir()
	partial := []metrics.Record{{Version: 1, Generation: 1, SelfPlay: &metrics.SelfPlay{}}}
	for _, recs := range [][]metrics.Record{nil, partial} {
		paths, err := Write(dir, recs, "png")
		if err != nil || len(paths) != len(Names) {
			t.Fatalf("%d records: %d plots, %v", len(recs), len(paths), err)
		}
		for _, p := range paths {
			checkFile(t, p, "png")
		}
	}
	if _, err := Write(dir, nil, "pdf"); err == nil || !strings.Contains(err.Error(), "png or svg") {
		t.Fatalf("pdf: %v", err)
	}
}

// TestWriteSurvivesHugeAndNonFiniteValues is finding 5 of issue 16: plot
// panicked on an elapsed_s of 1e20. Every plot is still written, with the
// unusable points left out.
func TestWriteSurvivesHugeAndNonFiniteValues(t *testing.T) {
	for _, bad := range []float64{1e20, -1e20, 1e300} {
		one := synthetic(1)
		one[0].Elapsed = bad
		if _, err := Write(t.TempDir(), one, "png"); err != nil {
			t.Fatalf("one record at %g: %v", bad, err)
		}
		recs := synthetic(3)
		recs[1].Elapsed = bad
		recs[2].SelfPlay.GamesPerHour = bad
		recs[2].Train.Loss = bad
		recs[0].Ladder[0].Elo, recs[0].Ladder[0].High = bad, bad
		paths, err := Write(t.TempDir(), recs, "png")
		if err != nil || len(paths) != len(Names) {
			t.Fatalf("value %g: %d plots, %v", bad, len(paths), err)
		}
		for _, p := range paths {
			checkFile(t, p, "png")
		}
	}
}

func TestEveryPlotKeepsItsLegendOutsideTheData(t *testing.T) {
	recs := synthetic(8)
	for _, name := range Names {
		p := build(name, recs)
		c := draw.New(vgimg.New(Width, Height))
		area, legend := layout(p, c)
		data := p.DataCanvas(area)
		if len(recs) > 0 && legend.Max.X <= legend.Min.X {
			t.Errorf("%s: no room for the legend", name)
			continue
		}
		if legend.Min.X < data.Max.X || legend.Max.X > c.Max.X {
			t.Errorf("%s: legend from x %.0f to %.0f, data up to %.0f on a canvas up to %.0f: want the legend right of the data",
				name, legend.Min.X, legend.Max.X, data.Max.X, c.Max.X)
		}
	}
}

func TestThePaletteIsOkabeItos(t *testing.T) {
	okabeIto := map[color.RGBA]bool{
		{230, 159, 0, 255}: true, {86, 180, 233, 255}: true, {0, 158, 115, 255}: true, {240, 228, 66, 255}: true,
		{0, 114, 178, 255}: true, {213, 94, 0, 255}: true, {204, 121, 167, 255}: true, {0, 0, 0, 255}: true,
	}
	seen := map[color.RGBA]bool{}
	for i, c := range palette {
		rgba := color.RGBAModel.Convert(c).(color.RGBA)
		if !okabeIto[rgba] || seen[rgba] {
			t.Errorf("palette[%d] = %v: want each of Okabe and Ito's colours once", i, rgba)
		}
		seen[rgba] = true
	}
	if len(glyphs) < len(palette) {
		t.Errorf("%d point shapes for %d colours: want one each", len(glyphs), len(palette))
	}
}

func TestTheSpeedPlotLeavesTheTeachersGenerationOut(t *testing.T) {
	recs := synthetic(4)
	recs = append([]metrics.Record{{Version: metrics.Version, Generation: 0, SelfPlay: &metrics.SelfPlay{Games: 500, GamesPerHour: 90000}}}, recs...)
	p := build("games_per_hour", recs)
	if p.Y.Max > 1000 || !strings.Contains(p.Title.Text, "teacher") {
		t.Errorf("speed plot %q up to %.0f: want generation 0's 90000 games/hour left out and named", p.Title.Text, p.Y.Max)
	}
	if p := build("games_per_hour", recs[:1]); p.Y.Max < 90000 {
		t.Errorf("with only the teacher's generation, the plot shows it: up to %.0f", p.Y.Max)
	}
}
