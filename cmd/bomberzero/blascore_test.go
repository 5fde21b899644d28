package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"bomberzero/nn"
)

// blasChildEnv makes the test binary act as a small main: it decides on a
// restart as main does, but as if OpenBLAS had chosen the kernels the
// variable names, then prints what it runs with.
const blasChildEnv = "BOMBERZERO_TEST_BLAS_CHILD"

func TestMain(m *testing.M) {
	if chosen := os.Getenv(blasChildEnv); chosen != "" {
		if core := blasCoreChoice(chosen, hostFeatures(), os.Getenv); core != "" {
			err := restartWithBLASCore(core, chosen, os.Stderr)
			fmt.Fprintln(os.Stderr, "restart failed:", err)
			os.Exit(3)
		}
		fmt.Printf("core=%s env=%s restarted=%s\n", nn.BLASCore(), os.Getenv(blasCoreEnv), os.Getenv(blasRestartEnv))
		os.Exit(0)
	}
	// Saved games (match, play) go to a temporary folder, never into the
	// user's own data folder.
	dir, err := os.MkdirTemp("", "bomberzero-cmd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_DATA_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestBLASCoreChoiceRestartsOnlyWhenOpenBLASChoseKernelsBelowTheProcessor(t *testing.T) {
	avx512 := cpuFeatures{AVX512: true, AVX2: true}
	avx2 := cpuFeatures{AVX2: true}
	none := func(string) string { return "" }
	set := func(k, v string) func(string) string {
		return func(key string) string {
			if key == k {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		chosen string
		cpu    cpuFeatures
		getenv func(string) string
		want   string
	}{
		{"Prescott", avx512, none, "SkylakeX"},
		{"Prescott", avx2, none, "Haswell"},
		{"Prescott", cpuFeatures{}, none, ""}, // an SSE-only processor: generic is right
		{"Nehalem", avx2, none, "Haswell"},
		{"Unknown", avx512, none, "SkylakeX"},
		{"Haswell", avx512, none, "SkylakeX"}, // AVX2 kernels on an AVX-512 core
		{"Zen", avx2, none, ""},
		{"Sandybridge", avx2, none, "Haswell"},
		{"Haswell", avx2, none, ""},
		{"SkylakeX", avx512, none, ""},
		{"Cooperlake", avx512, none, ""},
		{"gonum", avx512, none, ""},                                        // the pure-Go build
		{"Prescott", avx512, set(blasCoreEnv, "Haswell"), ""},              // the user's choice stands
		{"Prescott", avx512, set(blasRestartEnv, "1"), ""},                 // never restart twice
		{"Prescott", avx512, set("OPENBLAS_NUM_THREADS", "1"), "SkylakeX"}, // other variables do not matter
	} {
		if got := blasCoreChoice(tc.chosen, tc.cpu, tc.getenv); got != tc.want {
			t.Errorf("chosen %s, %+v: got %q, want %q", tc.chosen, tc.cpu, got, tc.want)
		}
	}
}

// TestTheRestartSetsTheKernelsOnceAndHonoursTheUsersChoice runs the test
// binary as a child that believes OpenBLAS chose generic kernels: it must
// re-execute itself once with OPENBLAS_CORETYPE set (which OpenBLAS then
// uses, in the OpenBLAS build) and say so in one line.
func TestTheRestartSetsTheKernelsOnceAndHonoursTheUsersChoice(t *testing.T) {
	f := hostFeatures()
	if !f.AVX2 {
		t.Skip("the processor has no AVX2: no kernels to restart for")
	}
	want := "Haswell"
	if f.AVX512 {
		want = "SkylakeX"
	}
	child := func(extra ...string) (string, string) {
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, blasCoreEnv+"=") && !strings.HasPrefix(kv, blasRestartEnv+"=") {
				env = append(env, kv)
			}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(append(env, blasChildEnv+"=Prescott"), extra...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("child: %v\n%s", err, errb.String())
		}
		return out.String(), errb.String()
	}
	out, errs := child()
	if !strings.Contains(out, "env="+want+" restarted=1") {
		t.Errorf("stdout %q; want the restarted process to run with %s=%s", out, blasCoreEnv, want)
	}
	if nn.BLASName == "OpenBLAS (cgo)" && !strings.Contains(out, "core="+want) {
		t.Errorf("stdout %q; want OpenBLAS to run its %s kernels after the restart", out, want)
	}
	if strings.Count(errs, "restarting with") != 1 || strings.Count(errs, "\n") != 1 {
		t.Errorf("stderr %q; want exactly one line saying so", errs)
	}
	out, errs = child(blasCoreEnv + "=Haswell")
	if !strings.Contains(out, "env=Haswell restarted=\n") || errs != "" {
		t.Errorf("user's OPENBLAS_CORETYPE=Haswell: stdout %q, stderr %q; want it kept and no restart", out, errs)
	}
}
