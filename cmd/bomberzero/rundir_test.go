package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

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
