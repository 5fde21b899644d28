package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// newFlagSet returns a subcommand's flag set. usage is the command's
// synopsis and description ("usage: bomberzero NAME ..."); --help prints it
// and the flag defaults to standard output. Parse errors are returned, not
// printed: the caller reports them on stderr, the flag set's output for
// anything else.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if usage == "" {
		usage = "usage: bomberzero " + name + " [flags]"
	}
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, strings.TrimRight(usage, "\n"))
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// helpRequest is returned by a command asked for --help (or -h): run
// writes the help to standard output and exits 0.
type helpRequest struct{ write func(io.Writer) }

func (*helpRequest) Error() string { return "help requested" }

// flagHelp is the help request of a flag set: its Usage, written to w.
func flagHelp(fs *flag.FlagSet) *helpRequest {
	return &helpRequest{func(w io.Writer) {
		out := fs.Output()
		fs.SetOutput(w)
		fs.Usage()
		fs.SetOutput(out)
	}}
}

// isHelpArg reports whether a is one of the spellings of a help request.
func isHelpArg(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

// parseArgs parses a subcommand's arguments, with flags before, between or
// after the positional arguments (as "plot RUN --format svg"), and returns
// the positional arguments in order. Everything after "--" is positional;
// so is "-" (standard input). -h, -help and --help return a help request;
// other errors wrap errUsage, so the command exits 2. Every command parses
// its arguments with it (or with parseFlags).
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, pos []string
	var values [][2]string // each flag given a value: name, value
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if isHelpArg(a) && fs.Lookup(name) == nil {
			return nil, flagHelp(fs)
		}
		f := fs.Lookup(name)
		if hasValue {
			_, v, _ := strings.Cut(a, "=")
			values = append(values, [2]string{name, v})
		}
		if hasValue || f == nil {
			continue // a value given with "=", or a flag Parse will refuse
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			flags = append(flags, args[i+1])
			values = append(values, [2]string{name, args[i+1]})
			i++
		}
	}
	if err := checkDurations(fs, values); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	out := fs.Output()
	fs.SetOutput(io.Discard) // the caller reports the error once, with a hint
	err := fs.Parse(flags)
	fs.SetOutput(out)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := checkFlagValues(fs); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return pos, nil
}

// checkDurations refuses a duration flag's value that is not a Go duration
// with a message saying what one looks like: the flag package's own
// ("invalid value "3" for flag -budget: parse error") does not say that a
// bare number lacks its unit.
func checkDurations(fs *flag.FlagSet, values [][2]string) error {
	for _, nv := range values {
		f := fs.Lookup(nv[0])
		if f == nil {
			continue
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			continue
		}
		if _, isDuration := g.Get().(time.Duration); !isDuration {
			continue
		}
		if _, err := time.ParseDuration(nv[1]); err != nil {
			return fmt.Errorf("--%s %q: want a duration such as 90m or 2h (a number with its unit: s, m or h)", nv[0], nv[1])
		}
	}
	return nil
}

// checkFlagValues refuses the values no command takes, whichever flag
// they are given to: a number flag of NaN or an infinity, and a negative
// duration (--budget -5s). Each command checks its own ranges beyond that.
func checkFlagValues(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok || err != nil {
			return
		}
		switch v := g.Get().(type) {
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				err = fmt.Errorf("--%s %v: want a finite number", f.Name, v)
			}
		case time.Duration:
			if v < 0 {
				err = fmt.Errorf("--%s %v: want a duration of 0 or more", f.Name, v)
			}
		}
	})
	return err
}

// parseFlags parses the arguments of a subcommand that takes flags only
// (in any order); a positional argument is a usage error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	return nil
}

// variantHelp is the help text of every --variant flag that names the
// variant to play.
const variantHelp = "variant name (with +options) or variant file path"

// variantFlag defines the --variant flag, fbgc by default.
func variantFlag(fs *flag.FlagSet) *string { return fs.String("variant", "fbgc", variantHelp) }

// quietHelp is the help text of --quiet, which means the same on every
// command that offers it (every long one).
const quietHelp = "no progress bars or progress lines: stdout carries only the results, stderr only errors and warnings"

// quietFlag defines the --quiet flag.
func quietFlag(fs *flag.FlagSet) *bool { return fs.Bool("quiet", false, quietHelp) }

// progressTo returns where a command draws its progress: stderr, or
// nowhere (io.Discard) with --quiet.
func progressTo(stderr io.Writer, quiet bool) io.Writer {
	if quiet {
		return io.Discard
	}
	return stderr
}

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
