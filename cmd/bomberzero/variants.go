package main

import (
	"fmt"
	"io"

	"bomberzero/env"
)

// runVariants lists the built-in variants, one line each, then the options.
func runVariants(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("variants", "usage: bomberzero variants\n\nLists the built-in variants, one a line, and the options that modify them.", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	for _, name := range env.VariantNames() {
		v, err := env.LoadVariant(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%-22s %s\n", name, v.Description)
	}
	fmt.Fprintf(stdout, "options (append with +, e.g. fbgc+superpower):")
	for _, o := range env.OptionNames() {
		fmt.Fprintf(stdout, " %s", o)
	}
	fmt.Fprintln(stdout)
	return nil
}
