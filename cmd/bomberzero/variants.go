package main

import (
	"fmt"
	"io"
)

// runVariants lists the built-in variants, one line each.
func runVariants(args []string, stdout, stderr io.Writer) error {
	if len(args) != 0 {
		return fmt.Errorf("%w: variants takes no arguments", errUsage)
	}
	fmt.Fprintln(stdout, "(no variants yet)")
	return nil
}
