package main

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/cpu"
)

// OpenBLAS picks its kernels from cpuid when the library loads; on
// processors its build does not recognise (some virtualised Xeons) it falls
// back to a generic SSE-era kernel, or to AVX2 kernels on an AVX-512 core:
// 2-5x below the hardware (docs/BENCHMARKS.md). The variable OPENBLAS_CORETYPE overrides the
// choice, but only before the library loads, so bomberzero restarts itself
// with it set: fast by default.

// blasCoreEnv is OpenBLAS's variable that overrides its kernel choice.
const blasCoreEnv = "OPENBLAS_CORETYPE"

// blasRestartEnv marks a process that bomberzero restarted with
// OPENBLAS_CORETYPE set, so that it never restarts twice.
const blasRestartEnv = "BOMBERZERO_BLAS_RESTARTED"

// cpuFeatures are the processor features the kernel choice reads.
type cpuFeatures struct {
	AVX512 bool // AVX-512 F, DQ, BW and VL: OpenBLAS's SkylakeX kernels
	AVX2   bool // AVX2 and FMA: its Haswell kernels
}

// hostFeatures returns this processor's features (as the operating system
// enables them: AVX-512 needs the OS to save its registers).
func hostFeatures() cpuFeatures {
	return cpuFeatures{
		AVX512: cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL,
		AVX2:   cpu.X86.HasAVX2 && cpu.X86.HasFMA,
	}
}

// blasKernelRank ranks the kernel families OpenBLAS names (its
// openblas_get_corename) by the instructions they use: 3 AVX-512, 2 AVX2, 1
// AVX, 0 SSE-era generic code. A name not listed (the pure-Go build's
// "gonum") is no OpenBLAS kernel.
var blasKernelRank = map[string]int{
	"SkylakeX": 3, "Cooperlake": 3, "SapphireRapids": 3,
	"Haswell": 2, "Zen": 2, "Excavator": 2,
	"Sandybridge": 1, "Bulldozer": 1, "Piledriver": 1, "Steamroller": 1,
	"Unknown": 0, "Katmai": 0, "Coppermine": 0, "Northwood": 0, "Prescott": 0, "Banias": 0, "Atom": 0,
	"Core2": 0, "Penryn": 0, "Dunnington": 0, "Nehalem": 0, "Opteron": 0, "Opteron_SSE3": 0,
	"Barcelona": 0, "Nano": 0, "Bobcat": 0,
}

// betterBLASCore returns the kernel family to use instead of chosen on a
// processor with features f (SkylakeX with AVX-512, Haswell with AVX2), or
// "" when chosen is as good or is no OpenBLAS kernel.
func betterBLASCore(chosen string, f cpuFeatures) string {
	rank, ok := blasKernelRank[chosen]
	switch {
	case !ok:
		return ""
	case f.AVX512 && rank < 3:
		return "SkylakeX"
	case f.AVX2 && rank < 2:
		return "Haswell"
	}
	return ""
}

// blasCoreChoice returns the OPENBLAS_CORETYPE to restart with, or "" to
// run as is: only when OpenBLAS chose kernels below what the processor runs
// (betterBLASCore; the pure-Go build never), the user set no
// OPENBLAS_CORETYPE and this process is not already a restart.
func blasCoreChoice(chosen string, f cpuFeatures, getenv func(string) string) string {
	if getenv(blasCoreEnv) != "" || getenv(blasRestartEnv) != "" {
		return ""
	}
	return betterBLASCore(chosen, f)
}

// restartWithBLASCore replaces this process by the same program with the
// same arguments and OPENBLAS_CORETYPE=core, saying so in one line on
// stderr. It returns only if the restart failed (the caller carries on with
// the generic kernel).
func restartWithBLASCore(core, chosen string, stderr io.Writer) error {
	fmt.Fprintf(stderr, "bomberzero: OpenBLAS chose its %s kernels, below this processor's; restarting with %s=%s (set %s yourself to choose)\n",
		chosen, blasCoreEnv, core, blasCoreEnv)
	env := append(os.Environ(), blasCoreEnv+"="+core, blasRestartEnv+"=1")
	exe := "/proc/self/exe"
	if _, err := os.Stat(exe); err != nil {
		if exe, err = os.Executable(); err != nil {
			return err
		}
	}
	return syscall.Exec(exe, os.Args, env)
}
