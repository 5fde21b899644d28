package metrics

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// update rewrites the golden metrics file of the current schema version
// under testdata/v<Version>/ (go test ./metrics -run Golden -update). The
// normal run only reads it: an old run's metrics must keep reading, so a
// schema change is a decision, not an accident.
var update = flag.Bool("update", false, "write the golden metrics.jsonl of the current schema version under testdata/")

// goldenRecords are the records of the golden metrics files: a full
// generation with every section and a bare one.
func goldenRecords() []Record {
	full := Record{
		Time:       time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC),
		Elapsed:    600,
		Generation: 1,
		Model:      "gen-0001",
		SelfPlay:   &SelfPlay{Games: 40, Positions: 3000, Seconds: 500, GamesPerHour: 288, MeanPlies: 75, WhiteWins: 20, Draws: 5, BlackWins: 15},
		Train:      &Train{Steps: 100, TotalSteps: 100, Samples: 25600, PolicyLoss: 3.2, ValueLoss: 0.9, Loss: 4.1, PolicyAccuracy: 0.21, ValueError: 0.8, LearningRate: 0.01},
		Matches:    []Match{{A: "gen-0001", B: "random", Wins: 9, Draws: 1, Score: 0.95, Elo: 511, EloLow: 300, EloHigh: 2000}},
		Ladder:     []Rating{{Player: "gen-0001", Elo: 511, Low: 300, High: 700, Games: 10}, {Player: "random", Games: 10}},
	}
	return []Record{full, {Generation: 2, Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Elapsed: 1.5}}
}

func TestGoldenMetricsOfEveryVersionStillRead(t *testing.T) {
	if *update {
		dir := filepath.Join("testdata", fmt.Sprintf("v%d", Version))
		path := filepath.Join(dir, "metrics.jsonl")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		writeRecords(t, path, goldenRecords()...)
	}
	for v := 1; v <= Version; v++ {
		got, torn, err := Read(filepath.Join("testdata", fmt.Sprintf("v%d", v), "metrics.jsonl"))
		if err != nil || torn {
			t.Fatalf("version %d: torn %v, %v", v, torn, err)
		}
		want := goldenRecords()
		for i := range want {
			want[i].Version = v
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("version %d:\n got %+v\nwant %+v", v, got, want)
		}
	}
}
