package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/internal/atomicfile"
)

// TestSelfplayRecordsReplayToTheDataFinalPositions runs the selfplay
// command, then the replay command on every game record it wrote, and
// compares the final position replay prints with the one the training data
// ends in (the last recorded position with its played move made).
func TestSelfplayRecordsReplayToTheDataFinalPositions(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := run([]string{"selfplay", "--variant", "fbgc", "--model", "none", "--games", "3", "--out", dir,
		"--workers", "1", "--slots", "2", "--sims", "8", "--cheap-sims", "2", "--max-plies", "30", "--resign-moves", "0"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("selfplay exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "games 3 ") {
		t.Fatalf("summary: %q", out.String())
	}
	chunks, problems, err := datasets.List(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("chunks: %v %v", err, problems)
	}
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range chunks {
		ch, err := datasets.ReadChunk(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range datasets.Games(ch.Rows) {
			last := g.Positions[len(g.Positions)-1]
			p, err := v.ParsePosition(last.Position)
			if err != nil {
				t.Fatal(err)
			}
			want, err := env.PlayMoves(p, last.Played)
			if err != nil {
				t.Fatal(err)
			}
			var rout, rerr bytes.Buffer
			record := filepath.Join(dir, "records", g.ID+".txt")
			if code := run([]string{"replay", "--variant", "fbgc", record}, &rout, &rerr); code != 0 {
				t.Fatalf("replay %s: exit %d: %s", record, code, rerr.String())
			}
			lines := strings.Split(strings.TrimSpace(rout.String()), "\n")
			if got := lines[len(lines)-1]; got != want.String() {
				t.Fatalf("game %s: replay ends in %q, the data in %q", g.ID, got, want)
			}
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d games checked, want 3", n)
	}
}

func TestSelfplayRefusesAMissingModel(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"selfplay", "--model", filepath.Join(t.TempDir(), "nope.safetensors"), "--games", "1",
		"--out", t.TempDir()}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "no such checkpoint") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	if code := run([]string{"selfplay", "--games", "0"}, &out, &errOut); code != 2 {
		t.Fatalf("--games 0: exit %d, want 2", code)
	}
}

// TestSelfplayRefusesAnObjectStoreAsOut: --out s3://B/P wrote its chunks,
// records and lock into a local directory named "s3:" (issue 34: one
// writer per run on object storage goes through the trainer's lease and
// its workers, never a second unleased writer).
func TestSelfplayRefusesAnObjectStoreAsOut(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, out := range []string{"s3://bucket/run/data", "file:///tmp/run", "ftp://host/x"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"selfplay", "--model", "none", "--games", "1", "--max-plies", "4", "--out", out}, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "--run URL --follow") {
			t.Errorf("--out %s: exit %d, stderr %q; want a usage error naming --run URL --follow", out, code, stderr.String())
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("left %v in the working directory", entries)
	}
}

// TestSelfplayOnAFullDiskSaysSo runs selfplay in a child process whose
// files may not pass 4 KiB (RLIMIT_FSIZE, as `ulimit -f 4`: EFBIG, the
// disk full for a chunk): it stops with the chunk named and says what the
// full disk cost (issue 34).
func TestSelfplayOnAFullDiskSaysSo(t *testing.T) {
	if args := os.Getenv("BZ_SELFPLAY_FULL"); args != "" {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 4 << 10, Max: 4 << 10}); err != nil {
			t.Fatal(err)
		}
		os.Exit(run(strings.Fields(args), os.Stdout, os.Stderr))
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSelfplayOnAFullDiskSaysSo$")
	cmd.Env = append(os.Environ(), "BZ_SELFPLAY_FULL=selfplay --model none --games 4 --max-plies 30 --quiet --out "+dir)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1:\n%s", err, out)
	}
	for _, want := range []string{"writing " + dir + string(filepath.Separator) + "chunk-", "file too large", "the disk is full", "free some space"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output does not say %q:\n%s", want, out)
		}
	}
}

// TestSelfplayKilledLeavesReadableData kills a selfplay process (SIGKILL,
// no chance to clean up) once it has written some games, and checks that
// every chunk left is readable and every game in them has a record that
// replays.
func TestSelfplayKilledLeavesReadableData(t *testing.T) {
	if os.Getenv("BZ_SELFPLAY_CHILD") != "" {
		os.Exit(run(strings.Fields(os.Getenv("BZ_SELFPLAY_CHILD")), io.Discard, io.Discard))
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSelfplayKilledLeavesReadableData$")
	cmd.Env = append(os.Environ(), "BZ_SELFPLAY_CHILD=selfplay --variant fbgc --games 1000 --out "+dir+
		" --workers 2 --slots 2 --sims 4 --cheap-sims 2 --max-plies 16 --flush-games 1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		chunks, _, _ := datasets.List(dir)
		if len(chunks) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no chunks written within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	chunks, problems, err := datasets.List(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("after the kill: %v %v", err, problems)
	}
	v, _ := env.LoadVariant("fbgc")
	games := 0
	for _, c := range chunks {
		ch, err := datasets.ReadChunk(c.Path)
		if err != nil {
			t.Fatalf("chunk unreadable after the kill: %v", err)
		}
		for _, g := range datasets.Games(ch.Rows) {
			text, err := os.ReadFile(filepath.Join(dir, "records", g.ID+".txt"))
			if err != nil {
				t.Fatalf("game %s is in the data but has no record: %v", g.ID, err)
			}
			if _, err := env.Replay(v.NewPosition(), string(text)); err != nil {
				t.Fatalf("game %s: record does not replay: %v", g.ID, err)
			}
			games++
		}
	}
	if games < 3 {
		t.Fatalf("%d games readable after the kill", games)
	}
}

func TestSelfplayKnobsComeFromTheConfigThenSetThenFlags(t *testing.T) {
	dir := t.TempDir()
	// --set fixes max_plies at 6, the flag --sims wins over --set sims: the
	// games are 6 plies long at most and the command runs.
	var out, errOut bytes.Buffer
	code := run([]string{"selfplay", "--variant", "chess", "--games", "2", "--out", dir, "--workers", "1",
		"--set", "selfplay.max_plies=6", "--set", "selfplay.sims=0", "--sims", "4", "--set", "selfplay.cheap_share=0"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "length-cap draws") {
		t.Fatalf("output %q", out.String())
	}
	for _, g := range readGames(t, dir) {
		if g.Length > 6 {
			t.Errorf("game of %d plies under --set selfplay.max_plies=6", g.Length)
		}
	}
	code = run([]string{"selfplay", "--out", dir, "--set", "selfplay.simz=4"}, &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "selfplay.simz") {
		t.Fatalf("unknown key: exit %d, %q", code, errOut.String())
	}
}

// readGames reads every game of the chunks in dir.
func readGames(t *testing.T, dir string) []datasets.GameRecord {
	t.Helper()
	chunks, problems, err := datasets.List(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("chunks: %v %v", err, problems)
	}
	var games []datasets.GameRecord
	for _, c := range chunks {
		ch, err := datasets.ReadChunk(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, datasets.Games(ch.Rows)...)
	}
	return games
}

// TestSelfplayRemovesTheTemporaryFilesOfAKilledRun is issue 34's "stale
// temporary files are removed at start" for selfplay --out: a selfplay
// killed mid-write leaves a temporary chunk or record in DIR or
// DIR/records, and only train removed them (in its run). The next
// selfplay into DIR, which holds its lock, removes them and says so on
// stderr, --quiet or not.
func TestSelfplayRemovesTheTemporaryFilesOfAKilledRun(t *testing.T) {
	dir := t.TempDir()
	var temps []string
	for _, d := range []string{dir, filepath.Join(dir, "records")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, atomicfile.TempPrefix+"killed-123")
		if err := os.WriteFile(p, []byte("half a file"), 0o644); err != nil {
			t.Fatal(err)
		}
		temps = append(temps, p)
	}
	code, _, errs := runCmd(t, "selfplay", "--variant", "chess", "--games", "1", "--out", dir, "--workers", "1",
		"--sims", "2", "--cheap-sims", "2", "--max-plies", "4", "--quiet")
	if code != 0 {
		t.Fatalf("selfplay: exit %d: %s", code, errs)
	}
	for _, p := range temps {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there after selfplay ran (%v)", p, err)
		}
	}
	if !strings.Contains(errs, "removed 2 temporary files") {
		t.Errorf("stderr %q; want it to say the 2 temporary files were removed", errs)
	}
	if chunks, _, err := datasets.List(dir); err != nil || len(chunks) != 1 {
		t.Errorf("after the run: %d chunks (%v), want the 1 it wrote", len(chunks), err)
	}
}
