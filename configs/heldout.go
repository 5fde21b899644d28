package configs

import (
	"embed"
	"io/fs"
)

//go:embed heldout/*.txt
var heldoutFiles embed.FS

// Heldout returns the built-in held-out position sets: "<variant>-mate1.txt",
// the mate-in-one puzzles of package heldout (docs/heldout.md).
func Heldout() fs.FS {
	return subtree(heldoutFiles, "heldout")
}
