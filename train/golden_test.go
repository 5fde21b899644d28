package train

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// update rewrites the golden state.json of the current layout version
// under testdata/v<stateVersion>/ (go test ./train -run Golden -update).
// The normal run only reads it: a stopped run must keep resuming, so a
// layout change is a decision, not an accident.
var update = flag.Bool("update", false, "write the golden state.json of the current layout version under testdata/")

// goldenState is the state the golden state.json files hold.
func goldenState() *state {
	return &state{Generation: 4, Phase: phaseTrain, Checkpoint: "checkpoints/step-00000040.safetensors", Steps: 40,
		Samples: 5120, RNG: []byte("pcg:\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"), Elapsed: 12.5,
		ChunksAtGenStart: 9, SelfPlaySeconds: 3.25,
		Gen: genTrain{Steps: 20, Samples: 2560, Seconds: 1.5, PolicyLoss: 40, ValueLoss: 12, Loss: 52.5, Arrived: 777}}
}

func TestGoldenStateOfEveryVersionStillLoads(t *testing.T) {
	if *update {
		dir := filepath.Join("testdata", fmt.Sprintf("v%d", stateVersion))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := saveState(dir, goldenState()); err != nil {
			t.Fatal(err)
		}
	}
	for v := 1; v <= stateVersion; v++ {
		got, err := loadState(filepath.Join("testdata", fmt.Sprintf("v%d", v)))
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if want := goldenState(); !reflect.DeepEqual(got, want) {
			t.Errorf("version %d:\n got %+v\nwant %+v", v, got, want)
		}
	}
}
