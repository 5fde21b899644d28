package configs

import (
	"embed"
	"io/fs"
)

//go:embed training
var trainingFiles embed.FS

// DefaultTraining is the file of Training that holds the defaults of every
// knob: the training config and every command read their defaults from it.
const DefaultTraining = "default.toml"

// Training returns the built-in training defaults: DefaultTraining, and
// "<variant>.toml" for a variant that overrides some of its keys (see
// docs/training.md).
func Training() fs.FS {
	return subtree(trainingFiles, "training")
}
