package metrics

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sample(gen int) Record {
	return Record{
		Time:       time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC),
		Elapsed:    float64(600 * gen),
		Generation: gen,
		Model:      "gen-0001",
		SelfPlay:   &SelfPlay{Games: 40, Positions: 3000, Seconds: 500, GamesPerHour: 288, MeanPlies: 75, WhiteWins: 20, Draws: 5, BlackWins: 15},
		Train:      &Train{Steps: 100, TotalSteps: 100 * gen, Samples: 25600, PolicyLoss: 3.2, ValueLoss: 0.9, Loss: 4.1, PolicyAccuracy: 0.21, ValueError: 0.8, LearningRate: 0.01},
		Matches:    []Match{{A: "gen-0001", B: "random", Wins: 9, Draws: 1, Score: 0.95, Elo: 511, EloLow: 300, EloHigh: 2000}},
		Ladder:     []Rating{{Player: "gen-0001", Elo: 511, Low: 300, High: 700, Games: 10}, {Player: "random", Games: 10}},
	}
}

func writeRecords(t *testing.T, path string, recs ...Record) {
	t.Helper()
	w, err := OpenWriter(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRecordsRoundTripThroughTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	want := []Record{sample(1), sample(2), {Generation: 3, Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}
	writeRecords(t, path, want[:2]...)
	writeRecords(t, path, want[2]) // reopened: appends
	got, torn, err := Read(path)
	if err != nil || torn {
		t.Fatalf("read: torn %v, %v", torn, err)
	}
	for i := range want {
		want[i].Version = Version
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
	}
	if r, ok := got[0].Rating("gen-0001"); !ok || r.Elo != 511 {
		t.Fatalf("Rating: %+v %v", r, ok)
	}
}

func TestReaderSurvivesATornLastLineAtEveryCut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	writeRecords(t, path, sample(1), sample(2))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first := bytes.IndexByte(data, '\n') + 1
	for cut := first; cut <= len(data); cut++ {
		recs, torn, err := Decode(bytes.NewReader(data[:cut]), "m")
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		whole := cut == len(data) || cut == len(data)-1 // only the newline lost: still a valid record
		if whole {
			if len(recs) != 2 || torn {
				t.Fatalf("cut at %d of %d: %d records, torn %v", cut, len(data), len(recs), torn)
			}
			continue
		}
		if len(recs) != 1 || recs[0].Generation != 1 || torn != (cut > first) {
			t.Fatalf("cut at %d: %d records, torn %v", cut, len(recs), torn)
		}
	}
}

func TestWriterCutsATornLineBeforeAppending(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	writeRecords(t, path, sample(1), sample(2))
	data, _ := os.ReadFile(path)
	// A killed writer left half of the second record.
	if err := os.WriteFile(path, data[:len(data)-40], 0o644); err != nil {
		t.Fatal(err)
	}
	writeRecords(t, path, sample(3))
	recs, torn, err := Read(path)
	if err != nil || torn || len(recs) != 2 || recs[0].Generation != 1 || recs[1].Generation != 3 {
		t.Fatalf("after resume: %d records (torn %v, %v)", len(recs), torn, err)
	}
}

func TestReaderNamesTheBadLine(t *testing.T) {
	good := `{"v":1,"generation":1,"time":"2026-11-30T00:00:00Z","elapsed_s":1}` + "\n"
	cases := []struct{ text, want string }{
		{good + "{not json}\n" + good, "m:2:"},
		{good + `{"v":2,"generation":2}` + "\n", "m:2: schema version 2"},
		{`{"generation":1}` + "\n", "m:1: schema version 0"},
		{good + `{"v":1} {"v":1` + "\n" + good, "m:2: unexpected EOF (a damaged line: delete it"},
		{good + `{"v":1} xyz` + "\n", "m:2: invalid character 'x'"},
	}
	for _, c := range cases {
		_, _, err := Decode(strings.NewReader(c.text), "m")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	recs, torn, err := Decode(strings.NewReader(good+"\n\n"+good), "m")
	if err != nil || torn || len(recs) != 2 {
		t.Errorf("blank lines: %d records, %v %v", len(recs), torn, err)
	}
}

// TestTwoRecordsOnOneLineAreBothRead is finding 3 of issue 16: two
// writers at once left two whole records on one line, and every resume
// failed with "text after the record". Both records are read now.
func TestTwoRecordsOnOneLineAreBothRead(t *testing.T) {
	rec := func(g int) string {
		return fmt.Sprintf(`{"v":1,"generation":%d,"time":"2026-11-30T00:00:00Z","elapsed_s":1}`, g)
	}
	text := rec(0) + "\n" + rec(1) + rec(1) + "\n" + rec(2) + "\n"
	recs, torn, err := Decode(strings.NewReader(text), "m")
	if err != nil || torn {
		t.Fatalf("two records on a line: %v (torn %v)", err, torn)
	}
	var gens []int
	for _, r := range recs {
		gens = append(gens, r.Generation)
	}
	if fmt.Sprint(gens) != "[0 1 1 2]" {
		t.Errorf("generations read %v, want [0 1 1 2]", gens)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"v":1,"generation":1}` + "\n" + `{"v":1,"gen`))
	f.Add([]byte("\n\n"))
	f.Add([]byte(`{"v":1,"ladder":[{"player":"random"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, torn, err := Decode(bytes.NewReader(data), "fuzz")
		if err != nil && torn {
			t.Fatal("an error and a torn line at once")
		}
		for _, r := range recs {
			if r.Version != Version {
				t.Fatalf("accepted version %d", r.Version)
			}
		}
	})
}
