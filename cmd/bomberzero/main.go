// Command bomberzero trains and studies self-play agents for Charles Daniel's
// Flying Bombers family of chess variants.
//
// Usage:
//
//	bomberzero <command> [flags] [arguments]
//
// Run "bomberzero help" for the list of commands. Each command lives in its
// own file in this directory and only parses flags and calls the packages
// that do the work.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"bomberzero/nn"
)

// command is one subcommand of the bomberzero tool.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands returns the subcommands in the order "help" lists them.
func commands() []command {
	return []command{
		{"variants", "list the built-in variants", runVariants},
		{"show", "print a position as a diagram", runShow},
		{"perft", "count the legal move tree of a position", runPerft},
		{"replay", "check a game record move by move", runReplay},
		{"selfplay", "play self-play games and write training data and game records", runSelfplay},
		{"data", "summarize and verify training-data chunks", runData},
		{"values", "fit piece values on self-play games, with bootstrap intervals", runValues},
		{"imbalance", "play a player against itself with one piece removed from each side", runImbalance},
		{"ladder", "rate a model against fixed anchors, one Markdown table", runLadder},
		{"trend", "rate a run's checkpoints against one anchor: is it still learning, in Elo an hour", runTrend},
		{"echo-test", "refit piece values on a player's games with one piece's table value changed", runEchoTest},
		{"compare", "compare variants side by side and write a report folder", runCompare},
		{"bench", "measure speed against this machine's ceilings", runBench},
		{"match", "play a match between two players and rate them", runMatch},
		{"tune", "tune the engine's classical weights on its own games (Texel's method)", runTune},
		{"nnue", "train the engine's learned evaluation by self-play in generations; resumable", runNNUE},
		{"plot", "draw a run's metrics as PNG or SVG charts", runPlot},
		{"play", "play against an agent in the terminal", runPlay},
		{"analyse", "search one position: best move, value, top moves, principal variation", runAnalyse},
		{"train", "train an agent by self-play in generations; resumable", runTrain},
		{"serve", "serve the web app: play, analyse, browse games, watch training", runServe},
		{"uci", "speak UCI on standard input and output, for chess GUIs and tournament managers", runUCI},
		{"xboard", "speak the XBoard/WinBoard protocol (CECP), with the family as engine-defined variants", runXBoard},
		{"version", "print the version and commit of this build", runVersion},
	}
}

// exitError carries a specific process exit status out of a command; a
// nil err exits with the code silently (the command said everything).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// errUsage marks a command-line mistake (a bad flag value, a bad --variant,
// --fen or --moves in every command); it exits with status 2. Bad data read
// from a file (a record, a chunk) exits 1.
var errUsage = errors.New("usage")

func main() {
	// Fast by default: OpenBLAS's own kernel choice can be several times
	// below the processor (blascore.go).
	chosen := nn.BLASCore()
	if core := blasCoreChoice(chosen, hostFeatures(), os.Getenv); core != "" {
		err := restartWithBLASCore(core, chosen, os.Stderr)
		fmt.Fprintf(os.Stderr, "bomberzero: could not restart (%v); going on with the %s kernels\n", err, chosen)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the process exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || isHelpArg(args[0]) {
		if len(args) > 1 && args[0] == "help" {
			// "help CMD [SUB]" is "CMD [SUB] --help".
			return run(append(append([]string{}, args[1:]...), "--help"), stdout, stderr)
		}
		printHelp(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = []string{"version"}
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		if err == nil {
			return 0
		}
		var ee *exitError
		var help *helpRequest
		switch {
		case errors.As(err, &help):
			help.write(stdout)
			return 0
		case errors.As(err, &ee):
			if ee.err != nil {
				fmt.Fprintf(stderr, "bomberzero %s: %v\n", c.name, ee.err)
			}
			return ee.code
		case errors.Is(err, errUsage):
			fmt.Fprintf(stderr, "bomberzero %s: %v\nRun \"bomberzero %s --help\" for usage.\n", c.name, err, c.name)
			return 2
		default:
			fmt.Fprintf(stderr, "bomberzero %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "bomberzero: unknown command %q; run \"bomberzero help\"\n", args[0])
	return 2
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "bomberzero: self-play training for the Flying Bombers chess variants")
	fmt.Fprintln(w, "\nUsage: bomberzero <command> [flags] [arguments]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"bomberzero <command> --help\" (or \"bomberzero help <command>\") for a command's flags;")
	fmt.Fprintln(w, "flags may come before or after a command's arguments. \"bomberzero --version\" prints the build.")
}
