package main

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReleaseScriptBuildsAStaticBinaryThatSaysItsCommit runs
// scripts/release.sh for linux/amd64 alone (TARGETS; the other platforms'
// binaries cannot run here) into a temporary folder: the binary must be
// static (no ELF interpreter: CGO_ENABLED=0), print its commit with
// "version" (the go command's VCS stamp), and match its SHA256SUMS line.
// Skipped with -short (a full build) and off linux/amd64.
func TestReleaseScriptBuildsAStaticBinaryThatSaysItsCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the whole binary")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the linux/amd64 binary runs only on linux/amd64")
	}
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout (the release script needs one):", err)
	}
	out := t.TempDir()
	cmd := exec.Command("../../scripts/release.sh", out)
	cmd.Env = append(os.Environ(), "TARGETS=linux/amd64")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, b)
	}
	bin := filepath.Join(out, "bomberzero-linux-amd64")
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s asks for a dynamic loader: not a static build", bin)
		}
	}
	f.Close()
	v, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", bin, err)
	}
	if want := "commit " + strings.TrimSpace(string(rev)); !strings.HasPrefix(string(v), "bomberzero v") || !strings.Contains(string(v), want) {
		t.Errorf("%s version says %q, want a module version and %q", bin, v, want)
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if want := hex.EncodeToString(sum[:]) + "  bomberzero-linux-amd64\n"; string(sums) != want {
		t.Errorf("SHA256SUMS reads %q, want %q", sums, want)
	}
}
