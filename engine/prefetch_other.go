//go:build !amd64 || purego

package engine

// prefetch does nothing in a build without assembly.
func prefetch(*[bucketSize]entry) {}
