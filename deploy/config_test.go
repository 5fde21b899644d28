package deploy_test

import (
	"os"
	"path/filepath"
	"testing"

	"bomberzero/deploy"
	"bomberzero/setup"

	"github.com/BurntSushi/toml"
)

// TestTrainingConfigLoads reads training.toml as the trainer's --config
// does, over the embedded defaults of its variant: an unknown key, a
// value of the wrong type or out of its range fails here rather than in
// the trainer's first seconds on the cluster. (A test-only import: package
// deploy itself imports nothing of the project.)
func TestTrainingConfigLoads(t *testing.T) {
	var head struct{ Variant string }
	if _, err := toml.Decode(string(deploy.TrainingConfig), &head); err != nil {
		t.Fatal(err)
	}
	if head.Variant == "" {
		t.Fatal("training.toml names no variant: the config, not a flag, says what the run trains")
	}
	base, err := setup.DefaultConfig(head.Variant)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "training.toml")
	if err := os.WriteFile(path, deploy.TrainingConfig, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := setup.LoadConfig(path, base)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Train.Threads == 0 || cfg.Eval.Workers == 0 {
		t.Errorf("train.threads %d, eval.workers %d: 0 means every core of the node, not of the pod", cfg.Train.Threads, cfg.Eval.Workers)
	}
}
