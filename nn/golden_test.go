package nn

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// update rewrites the golden checkpoint of the current format version under
// testdata/v<checkpointVersion>/ (go test ./nn -run Golden -update). The
// normal run only reads it: an old run's checkpoints must keep loading, so a
// format change is a decision, not an accident.
var update = flag.Bool("update", false, "write the golden checkpoint of the current format version under testdata/")

// goldenVariant, goldenSeed and goldenStep are what the golden checkpoints hold.
const (
	// goldenRefusedBelow is the oldest format version still loaded: older
	// checkpoints (version 1: no length-cap plane, no moves-left head) are
	// refused with ErrOldFormat, a decision recorded in docs/network.md.
	goldenRefusedBelow = 2

	goldenVariant = "fbgc"
	goldenSeed    = 8
	goldenStep    = 42
)

// goldenTrainer is the trainer the golden checkpoints were saved from: a
// tiny network as New initialises it (a function of the seed alone, the
// same on every machine), SGD state filled with known values, goldenStep
// steps.
func goldenTrainer(t *testing.T) *Trainer {
	t.Helper()
	net, err := New(tinyConfig(), goldenSeed)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(net, DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	tr.step = goldenStep
	for i := range tr.opt.state {
		for j := range tr.opt.state[i] {
			for k := range tr.opt.state[i][j] {
				tr.opt.state[i][j][k] = float32(i) + float32(k)/1024
			}
		}
	}
	return tr
}

func TestGoldenCheckpointOfEveryVersionStillLoads(t *testing.T) {
	if *update {
		dir := filepath.Join("testdata", fmt.Sprintf("v%d", checkpointVersion))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := goldenTrainer(t).Save(filepath.Join(dir, "tiny.safetensors"), goldenVariant); err != nil {
			t.Fatal(err)
		}
	}
	for v := 1; v <= checkpointVersion; v++ {
		path := filepath.Join("testdata", fmt.Sprintf("v%d", v), "tiny.safetensors")
		c, err := ReadCheckpoint(path)
		if v < goldenRefusedBelow {
			if !errors.Is(err, ErrOldFormat) {
				t.Errorf("version %d: got %v, want the old-format refusal", v, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		want := goldenTrainer(t)
		if c.Version != v || c.Variant != goldenVariant || c.Config != tinyConfig() || c.Step != goldenStep ||
			!reflect.DeepEqual(c.Train, DefaultTrainConfig()) {
			t.Errorf("version %d: version %d variant %q config %+v step %d train %+v; want %d %q %+v %d %+v", v,
				c.Version, c.Variant, c.Config, c.Step, c.Train, v, goldenVariant, tinyConfig(), goldenStep, DefaultTrainConfig())
		}
		got, err := LoadTrainer(path, tinyConfig(), goldenVariant)
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if got.Steps() != goldenStep {
			t.Errorf("version %d: loaded step %d, want %d", v, got.Steps(), goldenStep)
		}
		for i, p := range want.net.params {
			if q := got.net.params[i]; q.Name != p.Name || !reflect.DeepEqual(q.Data, p.Data) {
				t.Errorf("version %d: tensor %s differs from the seeded network's %s", v, q.Name, p.Name)
			}
			if !reflect.DeepEqual(got.opt.state[i], want.opt.state[i]) {
				t.Errorf("version %d: optimizer state of %s differs", v, p.Name)
			}
		}
		if _, err := LoadNet(path, tinyConfig(), "chess"); err == nil {
			t.Errorf("version %d: loaded for the wrong variant", v)
		}
	}
}
