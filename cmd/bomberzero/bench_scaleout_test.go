package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/internal/s3test"
)

func TestBenchScaleoutRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "scaleout"}, "--runs"},
		{[]string{"bench", "scaleout", "--runs", "runs/x"}, "not an object-store URL"},
		{[]string{"bench", "scaleout", "--runs", "mem://x", "--procs", "0"}, "--procs"},
		{[]string{"bench", "scaleout", "--runs", "mem://x", "--seconds", "0"}, "--seconds"},
	} {
		code, _, errs := runCmd(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 naming %s", tc.args, code, errs, tc.want)
		}
	}
}

// TestScaleoutMeasurement is the measurement of docs/BENCHMARKS.md
// ("Scale-out"), not a check: it builds the binary, starts a real S3
// server on loopback and runs "bench scaleout" against the local disk
// (file://) and the server, printing its lines. It runs only when
// BOMBERZERO_SCALEOUT_SECONDS is set (scripts/bench-scaleout.sh sets it).
func TestScaleoutMeasurement(t *testing.T) {
	secs := os.Getenv("BOMBERZERO_SCALEOUT_SECONDS")
	if secs == "" {
		t.Skip("a measurement: set BOMBERZERO_SCALEOUT_SECONDS (scripts/bench-scaleout.sh)")
	}
	srv := s3test.Start(t)
	bin := filepath.Join(t.TempDir(), "bomberzero")
	tags := os.Getenv("BOMBERZERO_SCALEOUT_TAGS")
	if out, err := exec.Command("go", "build", "-tags", tags, "-o", bin, "bomberzero/cmd/bomberzero").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	procs := os.Getenv("BOMBERZERO_SCALEOUT_PROCS")
	if procs == "" {
		procs = "1,2"
	}
	cmd := exec.Command(bin, "bench", "scaleout", "--runs", "file://"+filepath.Join(t.TempDir(), "disk")+","+srv.URL(srv.NewBucket(t), "bench"),
		"--procs", procs, "--seconds", secs, "--json")
	cmd.Env = append(os.Environ(), srv.Env()...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bench scaleout: %v\n%s", err, out)
	}
	os.Stdout.Write(out)
}
