// Package avx2 holds package nn's AVX2 assembly: the Winograd F(2x2, 3x3)
// tile-row transforms of inference (nn/winokern.go has their contracts),
// the masked copy and add that build and fold back training's im2col
// columns (nn/masked.go), and training's BatchNorm and ReLU passes
// (nn/bnkern.go). Each equals nn's Go reference bit for bit. It is a
// package of its own because Go refuses Go assembly in a package that uses
// cgo, and package nn uses cgo in its openblas build.
//
// Available reports whether the kernels can run (amd64 with AVX2, built
// without the purego tag); the exported functions check their slices'
// lengths in Go, so a bad call panics there, and then run the assembly.
package avx2
