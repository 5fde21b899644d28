package values

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func smallReport(t *testing.T) *Report {
	t.Helper()
	m := ChessModel(false)
	cfg := synthConfig(3, Logistic, Tanh)
	cfg.Bootstrap = 30
	rep, err := PieceValues(m.Games(600, 3), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestTextReportNamesSettingsSizesAndEveryPiece(t *testing.T) {
	rep := smallReport(t)
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"600 games", "seed 3", "30 bootstrap", "logistic fit", "tanh fit", "value (P = 1)",
		"\nQ ", "\nK ", "note: piece K", "(to move)", "(White)"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(strings.ToLower(out), "nan") {
		t.Errorf("text shows NaN:\n%s", out)
	}
}

func TestJSONReportRoundTripsWithUnboundedBoundsAsNull(t *testing.T) {
	rep := smallReport(t)
	inf := Estimate{Point: 2, Lo: math.Inf(-1), Hi: 3}
	rep.Fits[0].Pieces[1].Value = &inf
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `{"point":2,"lo":null,"hi":3}`) {
		t.Errorf("unbounded bound not written as null: %s", b)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(&back)
	if string(b) != string(b2) {
		t.Errorf("JSON changed through a round trip:\n%s\n%s", b, b2)
	}
	if got := back.Fits[0].Pieces[1].Value; got == nil || !math.IsInf(got.Lo, -1) {
		t.Errorf("read back %v, want Lo = -Inf", got)
	}
}

func TestValuesChartWritesPNGAndSVG(t *testing.T) {
	rep := smallReport(t)
	dir := t.TempDir()
	for _, name := range []string{"values.png", "values.svg"} {
		path := filepath.Join(dir, name)
		if err := rep.ValuesChart().Save(path); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(name) {
		case ".png":
			if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
				t.Errorf("%s is not a PNG", name)
			}
		case ".svg":
			if !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("logistic")) {
				t.Errorf("%s is not an SVG with the legend", name)
			}
		}
	}
	if err := rep.ValuesChart().Save(filepath.Join(dir, "values.gif")); err == nil || !strings.Contains(err.Error(), ".png or .svg") {
		t.Errorf("gif: error %v, want one asking for .png or .svg", err)
	}
	// Nothing half-written is left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory holds %d entries, want the 2 charts", len(entries))
	}
}

func TestChartClipsUnboundedIntervals(t *testing.T) {
	c := &BarChart{Title: "t", Categories: []string{"a", "b"}, Series: []BarSeries{
		{Name: "s", Bars: []*Estimate{{Point: 1, Lo: 0.5, Hi: math.Inf(1)}, nil}},
	}}
	p, _, err := c.plot()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Title.Text, "clipped") {
		t.Errorf("title %q does not say the interval was clipped", p.Title.Text)
	}
	c.Series[0].Bars = c.Series[0].Bars[:1]
	if _, _, err := c.plot(); err == nil {
		t.Errorf("series with too few bars accepted")
	}
}

func TestReportListsPiecesFromLeastToMostValuable(t *testing.T) {
	m := ChessModel(false)
	ds := m.Games(1500, 4)
	// Shuffle the data's piece table: Q K P R N B.
	perm := []int{4, 5, 0, 3, 1, 2}
	shuffled := &Dataset{}
	for _, i := range perm {
		shuffled.Pieces = append(shuffled.Pieces, ds.Pieces[i])
	}
	for _, g := range ds.Games {
		for pi := range g.Positions {
			p := &g.Positions[pi]
			w, b := make([]int32, len(perm)), make([]int32, len(perm))
			for j, i := range perm {
				w[j], b[j] = p.White[i], p.Black[i]
			}
			p.White, p.Black = w, b
		}
		shuffled.Games = append(shuffled.Games, g)
	}
	cfg := synthConfig(4, Tanh, Logistic)
	cfg.Bootstrap = 20
	rep, err := PieceValues(shuffled, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rep.Pieces, " "); got != "P N B R Q K" {
		t.Errorf("pieces listed %s, want P N B R Q K", got)
	}
	for _, f := range rep.Fits {
		for j, pv := range f.Pieces {
			if pv.Piece != rep.Pieces[j] {
				t.Errorf("%s fit lists %s at %d, report lists %s", f.Method, pv.Piece, j, rep.Pieces[j])
			}
		}
	}
	if strings.Join(shuffled.Pieces, " ") != "Q K P R N B" {
		t.Errorf("the data set's piece table was changed: %v", shuffled.Pieces)
	}
}
