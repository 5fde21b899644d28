package configs

import (
	"embed"
	"io/fs"
)

//go:embed training
var trainingFiles embed.FS

// Training returns the built-in training defaults: "<variant>.toml" for the
// variants that have their own, and "default.toml" for the rest (see
// docs/training.md).
func Training() fs.FS {
	return subtree(trainingFiles, "training")
}
