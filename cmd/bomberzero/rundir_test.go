package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/dirlock"
)

// selfplayArgs is a quick network-free selfplay run of games into dir.
func selfplayArgs(dir string, games int, extra ...string) []string {
	return append([]string{"selfplay", "--variant", "fbgc", "--model", "none", "--games", fmt.Sprint(games), "--out", dir,
		"--workers", "1", "--slots", "2", "--sims", "8", "--cheap-sims", "2", "--max-plies", "30", "--resign-moves", "0"}, extra...)
}

// TestSelfplayRefusesAnOutputDirectoryInUse is finding 3 of issue 16 for
// selfplay: a second writer into one directory is refused, naming the
// holder, and writes nothing.
func TestSelfplayRefusesAnOutputDirectoryInUse(t *testing.T) {
	dir := t.TempDir()
	l, err := dirlock.Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	var out, errOut bytes.Buffer
	code := run(selfplayArgs(dir, 2), &out, &errOut)
	if code == 0 || !strings.Contains(errOut.String(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("selfplay into a locked directory: exit %d, stderr %q; want a refusal naming pid %d", code, errOut.String(), os.Getpid())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("refused selfplay left %d entries, want only the lock file", len(entries))
	}
}

// TestSelfplayTwiceIntoOneDirectoryPlaysNewGames is finding 2 of issue 16:
// two selfplay runs into one directory with the default seed wrote the same
// games under new IDs. The second run now plays other games (data verify
// finds no identical games), while the same run twice with an explicit
// seed is noticed by data verify.
func TestSelfplayTwiceIntoOneDirectoryPlaysNewGames(t *testing.T) {
	verify := func(dir string) string {
		var out, errOut bytes.Buffer
		if code := run([]string{"data", "verify", dir}, &out, &errOut); code != 0 {
			t.Fatalf("data verify: exit %d: %s%s", code, out.String(), errOut.String())
		}
		return out.String()
	}
	play := func(dir string, extra ...string) {
		var out, errOut bytes.Buffer
		if code := run(selfplayArgs(dir, 3, extra...), &out, &errOut); code != 0 {
			t.Fatalf("selfplay: exit %d: %s", code, errOut.String())
		}
	}
	dir := t.TempDir()
	play(dir)
	play(dir)
	if out := verify(dir); strings.Contains(out, "warning") || !strings.Contains(out, "6 games") {
		t.Errorf("two default-seed runs: %s", out)
	}
	dir = t.TempDir()
	play(dir, "--seed", "7")
	play(dir, "--seed", "7")
	if out := verify(dir); !strings.Contains(out, "warning: 3 games repeat") {
		t.Errorf("two runs with one explicit seed went unnoticed: %s", out)
	}
}

// TestDataVerifyRefusesACopiedChunk is finding 2 of issue 16: a copy of a
// chunk under another name passed data verify.
func TestDataVerifyRefusesACopiedChunk(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := run(selfplayArgs(dir, 2, "--flush-games", "2"), &out, &errOut); code != 0 {
		t.Fatalf("selfplay: exit %d: %s", code, errOut.String())
	}
	chunks, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if len(chunks) == 0 {
		t.Fatal("no chunk written")
	}
	data, err := os.ReadFile(chunks[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "copy-"+filepath.Base(chunks[0])), data, 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	code := run([]string{"data", "verify", dir}, &out, &errOut)
	if code != 1 || !strings.Contains(out.String(), "duplicate chunk") {
		t.Errorf("data verify of a copied chunk: exit %d, %s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"data", "stats", dir}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "games              2\n") {
		t.Errorf("data stats counted the copy: exit %d\n%s", code, out.String())
	}
}

// TestDataVerifyDoesNotBlockOnAFifo is finding 6 of issue 16: a FIFO named
// like a chunk blocked data verify forever; a /dev/zero link grew memory.
func TestDataVerifyDoesNotBlockOnAFifo(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "a-0123456789abcdef.parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "b-0123456789abcdef.parquet")); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		var out, errOut bytes.Buffer
		code := run([]string{"data", "verify", dir}, &out, &errOut)
		done <- fmt.Sprintf("exit %d: %s", code, out.String())
	}()
	select {
	case got := <-done:
		if !strings.HasPrefix(got, "exit 1") || !strings.Contains(got, "named pipe") || !strings.Contains(got, "character device") {
			t.Errorf("data verify of a FIFO and a /dev/zero link: %s", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("data verify still running after 10 s")
	}
}
