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

	"bomberzero/internal/dirlock"
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
// seed is noticed by data verify (the second run's chunk duplicates the first's).
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
	// With one explicit seed the second run replays the first: the same
	// games under the same IDs (each game's seed and ID come from the run's
	// seed and its number), so data verify refuses the second chunk as a
	// duplicate of the first and says which.
	dir = t.TempDir()
	play(dir, "--seed", "7")
	play(dir, "--seed", "7")
	var out, errOut bytes.Buffer
	code := run([]string{"data", "verify", dir}, &out, &errOut)
	if all := out.String() + errOut.String(); code == 0 || !strings.Contains(all, "duplicate chunk: its rows are those of chunk-") {
		t.Errorf("two runs with one explicit seed: data verify exit %d, want a refusal naming the duplicate chunk: %s", code, all)
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

// TestReplayAndShowStopAtTheEndOfTheGame is finding 8 of issue 16: replay
// and show accepted moves after the game had ended and printed a position
// their own reader rejects.
func TestReplayAndShowStopAtTheEndOfTheGame(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "after-mate.txt")
	os.WriteFile(game, []byte("1. e1-e10 e9-e8\n"), 0o644)
	code, out, errs := runCmd(t, "replay", "--variant", "fbgc", "--fen", playMateIn1, game)
	if code != 1 || !strings.Contains(errs, "1... e9-e8: the game already ended (1-0, checkmate)") || out != "" {
		t.Errorf("replay of a move after mate: exit %d, out %q, err %q", code, out, errs)
	}
	code, out, errs = runCmd(t, "show", "--variant", "fbgc", "--fen", playMateIn1, "--moves", "e1-e10 e9-e8")
	if code == 0 || !strings.Contains(errs, "the game already ended") || out != "" {
		t.Errorf("show with a move after mate: exit %d, out %q, err %q", code, out, errs)
	}
	// The mate itself replays and says how the game ended.
	os.WriteFile(game, []byte("1. e1-e10\n"), 0o644)
	if code, out, errs = runCmd(t, "replay", "--variant", "fbgc", "--fen", playMateIn1, game); code != 0 || !strings.Contains(out, "result 1-0 (checkmate)") {
		t.Errorf("replay of the mate: exit %d, out %q, err %q", code, out, errs)
	}
}

// TestReplayEscapesControlCharactersAndRefusesDevices is findings 6 and 8
// of issue 16: replay echoed a game file's terminal escape sequences, and
// replay /dev/zero grew memory without limit.
func TestReplayEscapesControlCharactersAndRefusesDevices(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "escape.txt")
	os.WriteFile(game, []byte("1. e2-e4 \x1b[2J\x1b]0;owned\x07\n"), 0o644)
	code, out, errs := runCmd(t, "replay", "--variant", "fbgc", game)
	if code != 1 || strings.ContainsAny(out+errs, "\x1b\x07") || !strings.Contains(errs, `\x1b[2J`) {
		t.Errorf("replay of escape sequences: exit %d, out %q, err %q", code, out, errs)
	}
	for _, path := range []string{"/dev/zero", dir} {
		done := make(chan string, 1)
		go func() {
			code, _, errs := runCmd(t, "replay", "--variant", "fbgc", path)
			done <- fmt.Sprintf("exit %d: %s", code, errs)
		}()
		select {
		case got := <-done:
			if strings.HasPrefix(got, "exit 0") || !strings.Contains(got, "not a regular file") {
				t.Errorf("replay %s: %s", path, got)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("replay %s still running after 10 s", path)
		}
	}
	if code, _, errs := runCmd(t, "perft", "--variant", "/dev/zero", "--depth", "1"); code == 0 || !strings.Contains(errs, "not a regular file") {
		t.Errorf("--variant /dev/zero: exit %d, %q", code, errs)
	}
}

// TestMatchRefusesAValueForAPieceTheVariantLacks is finding 8 of issue 16:
// match --values Z=3 (no piece Z) was accepted silently.
func TestMatchRefusesAValueForAPieceTheVariantLacks(t *testing.T) {
	code, _, errs := runCmd(t, "match", "--a", "greedy", "--b", "random", "--games", "2", "--values", "Z=3")
	if code != 2 || !strings.Contains(errs, "has no piece Z") {
		t.Errorf("--values Z=3: exit %d, %q", code, errs)
	}
	code, _, errs = runCmd(t, "match", "--a", "alphabeta:1:Z=3", "--b", "random", "--games", "2")
	if code != 2 || !strings.Contains(errs, "has no piece Z") {
		t.Errorf("alphabeta:1:Z=3: exit %d, %q", code, errs)
	}
}

// TestSelfplayIntoTheDataOfARunInUseIsRefused is finding 6 of issue 34:
// selfplay --out RUN/data was accepted while train --run RUN ran; its
// games were trained on and their records quarantined as strays. It is
// refused, naming the holder, and writes nothing.
func TestSelfplayIntoTheDataOfARunInUseIsRefused(t *testing.T) {
	runDir := t.TempDir()
	l, err := dirlock.Acquire(runDir) // what train --run RUN holds
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(runDir, "data")
	var out, errOut bytes.Buffer
	code := run(selfplayArgs(data, 2), &out, &errOut)
	if code == 0 || !strings.Contains(errOut.String(), fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(errOut.String(), "inside "+runDir) {
		t.Fatalf("selfplay into a locked run's data: exit %d, stderr %q; want a refusal naming the run and pid %d", code, errOut.String(), os.Getpid())
	}
	if _, err := os.Stat(data); err == nil {
		if entries, _ := os.ReadDir(data); len(entries) > 1 {
			t.Errorf("refused selfplay left %d entries in %s", len(entries), data)
		}
	}
	// Once the run's writer is gone, selfplay may add games to its data.
	l.Release()
	out.Reset()
	errOut.Reset()
	if code := run(selfplayArgs(data, 2), &out, &errOut); code != 0 {
		t.Fatalf("selfplay into an idle run's data: exit %d: %s", code, errOut.String())
	}
}
