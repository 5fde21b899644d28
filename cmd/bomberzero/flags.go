package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// newFlagSet returns a subcommand's flag set: parse errors are returned
// rather than exiting, and messages go to stderr. A non-empty usage is
// printed before the flag defaults by -h and on a bad flag.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if usage != "" {
		fs.Usage = func() {
			fmt.Fprintln(stderr, usage)
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses a subcommand's arguments, which must all be flags;
// errors wrap errUsage, so the command exits 2.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

// variantHelp is the help text of every --variant flag that names the
// variant to play.
const variantHelp = "variant name (with +options) or variant file path"

// variantFlag defines the --variant flag, fbgc by default.
func variantFlag(fs *flag.FlagSet) *string { return fs.String("variant", "fbgc", variantHelp) }

// stopContext returns a context cancelled by Ctrl-C or SIGTERM, for every
// long command: each stops cleanly, keeping what it finished, whether a
// person or a job scheduler stops it.
func stopContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// writeJSON writes v to w as indented JSON, for the commands' --json.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
