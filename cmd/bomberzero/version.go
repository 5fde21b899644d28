package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"bomberzero/nn"
)

// runVersion prints the build: module version, VCS commit and Go version
// ("bomberzero version", also "bomberzero --version").
func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "usage: bomberzero version   (or bomberzero --version)\n\nPrints the module version, the commit the binary was built from (marked\n\"modified\" when the work tree had uncommitted changes), the Go version, and the\nBLAS the network multiplies with and the kernels it chose for this processor.", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	fmt.Fprintln(stdout, versionLine(info, fmt.Sprintf("%s, %s kernels", nn.BLASName, nn.BLASCore())))
	return nil
}

// versionLine describes a build from its build information (nil when the
// binary carries none): "bomberzero VERSION, commit REV[ (modified)][ of
// TIME], GOVERSION, BLAS". A binary built outside a VCS checkout, or by
// "go test", has no commit; "go build" in a module reports its version as
// "(devel)" unless the commit carries a tag.
func versionLine(info *debug.BuildInfo, blas string) string {
	if info == nil {
		return "bomberzero (devel), no build information, BLAS " + blas
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var rev, modified, when string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		case "vcs.time":
			when = s.Value
		}
	}
	commit := "commit unknown (built without version-control information)"
	if rev != "" {
		commit = "commit " + rev
		if modified == "true" {
			commit += " (modified)"
		}
		if when != "" {
			commit += " of " + when
		}
	}
	return fmt.Sprintf("bomberzero %s, %s, %s, BLAS %s", version, commit, info.GoVersion, blas)
}
