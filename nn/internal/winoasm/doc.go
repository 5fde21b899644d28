// Package winoasm holds the AVX2 assembly of package nn's Winograd F(2x2,
// 3x3) tile-row transforms (nn/winokern.go has the contracts and the Go
// reference they must equal bit for bit). It is a package of its own
// because Go refuses Go assembly in a package that uses cgo, and package
// nn uses cgo in its openblas build.
//
// Available reports whether the kernels can run (amd64 with AVX2, built
// without the purego tag); InputRow and OutputRow check their slices' lengths
// in Go, so a bad call panics there, and then run the assembly.
package winoasm
