// Package configs holds the configuration files built into the bomberzero
// binary: the variant files of configs/variants (see docs/variants.md).
package configs

import (
	"embed"
	"io/fs"
)

//go:embed variants
var files embed.FS

// Variants returns the built-in variant files: "<name>.toml" at the top and
// the options that combine with a name by "+" under "options/".
func Variants() fs.FS {
	return subtree(files, "variants")
}

// subtree returns the embedded folder dir of files.
func subtree(files embed.FS, dir string) fs.FS {
	sub, err := fs.Sub(files, dir)
	if err != nil {
		panic(err) // the embedded tree always has the folder
	}
	return sub
}
