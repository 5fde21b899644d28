package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/engine/learn"
	"bomberzero/env"
)

func TestNNUERunsAGenerationAndResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"nnue", "--variant", "../../train/testdata/gardner.toml", "--dir", dir, "--generations", "1", "--games", "4", "--chunk-games", "2",
		"--nodes", "200", "--max-plies", "80", "--gate-games", "2", "--hidden", "8", "--l2", "4", "--epochs", "1", "--quiet"}
	code, stdout, errs := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "gate W-D-L") || !strings.Contains(stdout, "\n0 ") {
		t.Errorf("stdout lacks the generations table:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, learn.NetPath(0))); err != nil {
		t.Error(err)
	}
	if _, _, err := learn.ReadChunk(learn.ChunkPath(dir, 0, 1)); err != nil {
		t.Error(err)
	}
	// The same line again: nothing left to do.
	if code, _, errs := runCmd(t, args...); code != 0 {
		t.Fatalf("second run: exit %d: %s", code, errs)
	}
	// Other data settings are refused, naming the state file.
	code, _, errs = runCmd(t, append(args, "--seed", "9")...)
	if code != 1 || !strings.Contains(errs, learn.StatePath(dir)) {
		t.Errorf("resume with another seed: exit %d, %s", code, errs)
	}
	// Data settings left out are the run's, not the defaults: one more
	// generation plays the run's 4 games in chunks of 2 at 200 nodes.
	more := []string{"nnue", "--variant", "../../train/testdata/gardner.toml", "--dir", dir, "--generations", "2", "--max-plies", "80", "--gate-games", "2", "--quiet"}
	if code, _, errs := runCmd(t, more...); code != 0 {
		t.Fatalf("resume without the data flags: exit %d: %s", code, errs)
	}
	if _, _, err := learn.ReadChunk(learn.ChunkPath(dir, 1, 1)); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(learn.ChunkPath(dir, 1, 2)); !os.IsNotExist(err) {
		t.Errorf("generation 1 has a third chunk (%v): the resume played the default games, not the run's 4", err)
	}
}

func TestNNUERefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "foreign")
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(learn.StatePath(foreign), []byte(`{"generation":1,"phase":"eval","checkpoint":"c"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"nnue"}, 2, "--dir"},
		{[]string{"nnue", "--dir", dir, "--sprt", "20,0,0.05,0.05"}, 2, "--sprt"},
		{[]string{"nnue", "--dir", dir, "--games", "0"}, 2, "games 0"},
		{[]string{"nnue", "--dir", dir, "--variant", "nosuch"}, 2, "--variant"},
		{[]string{"nnue", "--dir", dir, "--lambda", "2"}, 2, "--lambda"},
		// Each training flag's error names that flag, not its neighbours.
		{[]string{"nnue", "--dir", dir, "--lr", "0"}, 2, "--lr: learning rate 0"},
		{[]string{"nnue", "--dir", dir, "--hidden", "0"}, 2, "--hidden: hidden 0"},
		{[]string{"nnue", "--dir", dir, "--lr-final", "0.01"}, 2, "--lr-final: final learning rate 0.01"},
		{[]string{"nnue", "--dir", dir, "--lr", "1e-4", "--lr-final", "5e-4"}, 2, "up to the learning rate 0.0001"},
		{[]string{"nnue", "--dir", dir, "--trainer", "gorgonia", "--lr-final", "1e-4"}, 2, "only the sparse trainer changes its rate"},
		{[]string{"nnue", "--dir", dir, "--epochs", "3", "--batch", "0"}, 2, "--batch: batch 0"},
		{[]string{"nnue", "--dir", dir, "--king-buckets", "3"}, 2, "--king-buckets: king buckets \"3\": want FILESxRANKS"},
		{[]string{"nnue", "--dir", dir, "--king-buckets", "9x9"}, 2, "at most 64"},
		{[]string{"nnue", "--dir", dir, "--king-buckets", "11x1"}, 2, "--king-buckets: king buckets 11x1 on a 10x10 board"},
		{[]string{"nnue", "--dir", dir, "--trainer", "gorgonia", "--king-buckets", "3x2"}, 2, "only the sparse trainer trains them"},
		{[]string{"nnue", "--dir", dir, "--mirror", "--king-buckets", "6x1"}, 2, "--mirror: king buckets 6x1 with the file mirror on a 10x10 board: want at most 5 file zones"},
		{[]string{"nnue", "--dir", dir, "--mirror", "--variant", "claustrophobia"}, 2, "--mirror: file mirror: variant claustrophobia's board is not symmetric"},
		{[]string{"nnue", "--dir", foreign, "--quiet"}, 1, learn.StatePath(foreign)},
		{[]string{"nnue", "--dir", dir, "--values", "N=x"}, 2, "--values: piece value \"N=x\""},
		{[]string{"nnue", "--dir", dir, "--values", "N"}, 2, "--values: piece value \"N\": want LETTER=PAWNS"},
	}
	for _, c := range cases {
		code, _, errs := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d naming %q", c.args, code, errs, c.code, c.want)
		}
	}
}

// TestNNUEWorkerWritesTheRunsChunks: two workers, each given half of a
// generation's chunks, write the chunks a "bomberzero nnue" run writes.
func TestNNUEWorkerWritesTheRunsChunks(t *testing.T) {
	base := t.TempDir()
	common := []string{"--variant", "../../train/testdata/gardner.toml", "--games", "4", "--chunk-games", "1", "--nodes", "200", "--max-plies", "60", "--seed", "3", "--quiet"}
	run := filepath.Join(base, "run")
	if code, _, errs := runCmd(t, append([]string{"nnue", "--dir", run, "--generations", "1", "--gate-games", "2", "--hidden", "8", "--l2", "4", "--epochs", "1"}, common...)...); code != 0 {
		t.Fatalf("nnue: exit %d: %s", code, errs)
	}
	out := filepath.Join(base, "workers")
	// The second worker plays one game per core (--workers 0): the games
	// do not depend on how many are played at once.
	for _, share := range [][]string{{"--first-chunk", "0", "--chunks", "2"}, {"--first-chunk", "2", "--workers", "0"}} {
		args := append(append([]string{"nnue", "worker", "--out", out}, common...), share...)
		code, stdout, errs := runCmd(t, args...)
		if code != 0 || !strings.Contains(stdout, "chunks") {
			t.Fatalf("%v: exit %d: %s %s", share, code, stdout, errs)
		}
	}
	for c := range 4 {
		want, _, err := learn.ReadChunk(learn.ChunkPath(run, 0, c))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := learn.ReadChunk(filepath.Join(out, filepath.Base(learn.ChunkPath(run, 0, c))))
		if err != nil {
			t.Fatal(err)
		}
		if got.Checksum != want.Checksum || got.Positions != want.Positions {
			t.Errorf("chunk %d: worker %s (%d positions), run %s (%d)", c, got.Checksum, got.Positions, want.Checksum, want.Positions)
		}
	}
	// nnue fit trains a net on the workers' chunks and the run's together.
	net := filepath.Join(base, "fit.nnue")
	code, stdout, errs := runCmd(t, "nnue", "fit", "--variant", "../../train/testdata/gardner.toml", "--data", out+","+run, "--out", net,
		"--hidden", "8", "--l2", "4", "--epochs", "2", "--batch", "8", "--quiet")
	if code != 0 || !strings.Contains(stdout, "positions") {
		t.Fatalf("nnue fit: exit %d: %s %s", code, stdout, errs)
	}
	v, err := env.LoadVariant("../../train/testdata/gardner.toml")
	if err != nil {
		t.Fatal(err)
	}
	n, err := learn.LoadNet(v, net)
	if err != nil || n.H != 8 || n.Meta["trainer"] != "sparse" {
		t.Errorf("the fitted net: %v, %+v", err, n)
	}
	if _, err := os.Stat(learn.CheckpointPath(net)); err == nil {
		t.Error("the training checkpoint is left after the net was written")
	}
	// --mirror trains a file-mirrored net; continuing from it keeps the
	// mirror without the flag, and asking for it on a net without is an
	// error.
	fitArgs := func(out string, more ...string) []string {
		return append([]string{"nnue", "fit", "--variant", "../../train/testdata/gardner.toml", "--data", out + "," + run,
			"--hidden", "8", "--l2", "4", "--epochs", "1", "--batch", "8", "--quiet"}, more...)
	}
	mirrored := filepath.Join(base, "mirror.nnue")
	again := filepath.Join(base, "again.nnue")
	for _, args := range [][]string{
		fitArgs(out, "--out", mirrored, "--mirror", "--king-buckets", "2x2"),
		fitArgs(out, "--out", again, "--init", mirrored),
	} {
		if code, stdout, errs := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s %s", args, code, stdout, errs)
		}
	}
	for _, path := range []string{mirrored, again} {
		n, err := learn.LoadNet(v, path)
		if err != nil {
			t.Fatal(err)
		}
		if !n.Mirror || n.Kings.String() != "2x2" {
			t.Errorf("%s: mirror %v, kings %q; want a mirrored 2x2 net", path, n.Mirror, n.Kings)
		}
	}
	if code, _, errs := runCmd(t, fitArgs(out, "--out", filepath.Join(base, "bad.nnue"), "--init", net, "--mirror")...); code == 0 || !strings.Contains(errs, "mirror") {
		t.Errorf("--mirror on a net without it: exit %d, %s; want an error naming the mirror", code, errs)
	}
	// A related variant (gardner's board and pieces, other promotions)
	// starts from gardner's net; its fit refuses gardner's chunks, and a
	// variant of another board refuses the net naming both variants.
	gardner, err := os.ReadFile("../../train/testdata/gardner.toml")
	if err != nil {
		t.Fatal(err)
	}
	related := filepath.Join(base, "related.toml")
	text := strings.Replace(strings.Replace(string(gardner), `name = "gardner"`, `name = "gardner-rooks"`, 1), `promote_to = "QRBN"`, `promote_to = "R"`, 1)
	if err := os.WriteFile(related, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	relatedOut := filepath.Join(base, "related")
	if code, _, errs := runCmd(t, "nnue", "worker", "--out", relatedOut, "--variant", related, "--games", "2", "--chunk-games", "1", "--nodes", "200",
		"--max-plies", "40", "--seed", "5", "--quiet"); code != 0 {
		t.Fatalf("worker of the related variant: exit %d: %s", code, errs)
	}
	relatedNet := filepath.Join(base, "related.nnue")
	relatedFit := func(data, init string) (int, string) {
		code, _, errs := runCmd(t, "nnue", "fit", "--variant", related, "--data", data, "--out", relatedNet, "--init", init,
			"--epochs", "1", "--batch", "8", "--quiet")
		return code, errs
	}
	if code, errs := relatedFit(relatedOut+","+out, net); code == 0 || !strings.Contains(errs, "variant ../../train/testdata/gardner.toml, not "+related) {
		t.Errorf("gardner's chunks for gardner-rooks: exit %d, %s; want them refused naming both variants", code, errs)
	}
	if code, errs := relatedFit(relatedOut, net); code != 0 {
		t.Fatalf("gardner-rooks from gardner's net: exit %d: %s", code, errs)
	}
	rv, err := env.LoadVariant(related)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := learn.LoadNet(rv, relatedNet); err != nil || n.H != 8 {
		t.Errorf("the related variant's net: %v, %+v; want a gardner-rooks net of gardner's net's sizes", err, n)
	}
	if _, err := learn.LoadNet(v, relatedNet); err == nil {
		t.Error("gardner-rooks's net loads as gardner's")
	}
	chess, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := learn.LoadInitNet(chess, net); err == nil || !strings.Contains(err.Error(), "not chess, with another input layout") {
		t.Errorf("chess from gardner's net: %v; want the layouts named", err)
	}
}

func TestNNUEWorkerRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.nnue")
	if err := os.WriteFile(junk, []byte("not a net"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"nnue", "worker", "--games", "4"}, 2, "--out"},
		{[]string{"nnue", "worker", "--out", dir}, 2, "--games"},
		{[]string{"nnue", "worker", "--out", dir, "--games", "4", "--first-chunk", "9"}, 2, "--first-chunk 9"},
		{[]string{"nnue", "worker", "--out", dir, "--games", "4", "--chunks", "0"}, 2, "--chunks"},
		{[]string{"nnue", "worker", "--out", dir, "--games", "4", "--workers", "-1"}, 2, "--workers -1"},
		{[]string{"nnue", "worker", "--out", dir, "--games", "4", "--nodes", "0"}, 2, "nodes 0"},
		{[]string{"nnue", "worker", "--out", dir, "--games", "4", "--bogus"}, 2, "bogus"},
		{[]string{"nnue", "worker", "--out", dir, "--games", "4", "--net", junk}, 1, junk},
		{[]string{"nnue", "worker", "--out", dir, "--games", "4", "--values", "Q=-1"}, 2, "--values"},
		{[]string{"nnue", "--dir", dir, "--trainer", "torch"}, 2, "--trainer"},
		{[]string{"nnue", "--dir", dir, "--threads", "-1"}, 2, "--threads"},
		{[]string{"nnue", "fit", "--out", junk}, 2, "--data"},
		{[]string{"nnue", "fit", "--data", dir, "--out", junk}, 1, "no chunk-*.parquet"},
		{[]string{"nnue", "fit", "--data", dir, "--out", junk, "--trainer", "x"}, 2, "--trainer"},
		{[]string{"nnue", "fit", "--data", dir, "--out", junk, "--l2", "0"}, 2, "--l2: l2 0"},
	}
	for _, c := range cases {
		code, _, errs := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d naming %q", c.args, code, errs, c.code, c.want)
		}
	}
	code, stdout, errs := runCmd(t, "nnue", "worker", "--help")
	if code != 0 || !strings.Contains(stdout+errs, "usage: bomberzero nnue worker") {
		t.Errorf("--help: exit %d, %q %q", code, stdout, errs)
	}
}

func TestDedupRowsKeepsTheFirstOfEachPosition(t *testing.T) {
	row := func(fen string, score int32) learn.Row { return learn.Row{FEN: fen, Score: score} }
	cases := []struct {
		name string
		in   []learn.Row
		want []int32 // scores of the rows kept
	}{
		{"none", nil, nil},
		{"distinct", []learn.Row{row("a w - - 0 1", 1), row("b w - - 0 1", 2)}, []int32{1, 2}},
		{"same but counters", []learn.Row{row("a w - - 0 1", 1), row("a w - - 3 9", 2), row("b w - - 0 1", 3)}, []int32{1, 3}},
		{"other side to move", []learn.Row{row("a w - - 0 1", 1), row("a b - - 0 1", 2)}, []int32{1, 2}},
		{"repeat later", []learn.Row{row("a w - - 0 1", 1), row("b w - - 0 1", 2), row("a w - - 0 5", 3)}, []int32{1, 2}},
	}
	for _, c := range cases {
		var got []int32
		for _, r := range dedupRows(c.in) {
			got = append(got, r.Score)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: kept %v; want %v", c.name, got, c.want)
		}
	}
}

// TestNNUEResumeKeepsTheNetSettings: a run started with --mirror
// --king-buckets 2x2 --hidden 8 and stopped before its training resumes
// with the plain command and trains a mirrored 2x2 net of 8 hidden units;
// a flag given another value than the run's is refused, naming the flag and
// both values, and writes nothing; a version-1 state resumes and records
// the command's settings.
func TestNNUEResumeKeepsTheNetSettings(t *testing.T) {
	if testing.Short() {
		t.Skip("plays and trains a generation")
	}
	dir := filepath.Join(t.TempDir(), "run")
	gardner := "../../train/testdata/gardner.toml"
	plain := []string{"nnue", "--variant", gardner, "--dir", dir, "--generations", "1", "--games", "4", "--chunk-games", "2",
		"--nodes", "200", "--max-plies", "80", "--gate-games", "2"}
	first := append(append([]string{}, plain...), "--hidden", "8", "--l2", "4", "--epochs", "1", "--mirror", "--king-buckets", "2x2", "--quiet")
	if code, _, errs := runCmd(t, first...); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errs)
	}
	// Back to the moment after generation 0's self-play, as a kill there
	// leaves the run: phase train, no net, no metrics.
	editState(t, dir, func(m map[string]any) {
		m["generation"], m["phase"], m["best"], m["best_generation"] = 0, learn.PhaseTrain, "", -1
		delete(m, "train")
	})
	net := filepath.Join(dir, learn.NetPath(0))
	for _, p := range []string{net, learn.MetricsPath(dir)} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	state, err := os.ReadFile(learn.StatePath(dir))
	if err != nil {
		t.Fatal(err)
	}
	refused := []struct {
		flags []string
		want  string
	}{
		{[]string{"--mirror=false"}, "--mirror false: the run in " + dir + " trains its nets with --mirror true"},
		{[]string{"--hidden", "16"}, "--hidden 16: the run in " + dir + " trains its nets with --hidden 8"},
		{[]string{"--king-buckets", "none"}, "--king-buckets none: the run in " + dir + " trains its nets with --king-buckets 2x2"},
		{[]string{"--epochs", "1", "--lr", "0.002"}, "--lr 0.002: the run in " + dir + " trains its nets with --lr 0.001"},
		{[]string{"--window", "1"}, "--window 1: the run in " + dir + " trains its nets with --window " + strconv.Itoa(learn.DefaultConfig().Window)},
	}
	for _, c := range refused {
		code, _, errs := runCmd(t, append(append([]string{}, plain...), c.flags...)...)
		if code != 1 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "start a new run with another --dir") {
			t.Errorf("%v: exit %d, %s; want 1 naming %q and a new run", c.flags, code, errs, c.want)
		}
		if now, err := os.ReadFile(learn.StatePath(dir)); err != nil || string(now) != string(state) {
			t.Errorf("%v: the state changed (%v)", c.flags, err)
		}
		if _, err := os.Stat(net); err == nil {
			t.Fatalf("%v: a net was written", c.flags)
		}
	}
	// The plain command (and a flag given the run's value) trains the net
	// the run was started for, and names its settings in the plan.
	code, _, errs := runCmd(t, append(append([]string{}, plain...), "--l2", "4")...)
	if code != 0 || !strings.Contains(errs, "nets --hidden 8 --l2 4 --residual false --king-buckets 2x2 --mirror true") {
		t.Fatalf("plain resume: exit %d: %s", code, errs)
	}
	v, err := env.LoadVariant(gardner)
	if err != nil {
		t.Fatal(err)
	}
	n, err := learn.LoadNet(v, net)
	if err != nil {
		t.Fatal(err)
	}
	if !n.Mirror || n.Kings.String() != "2x2" || n.H != 8 || n.L2 != 4 {
		t.Errorf("resumed net: mirror %v, kings %q, hidden %d, l2 %d; want the run's true, 2x2, 8, 4", n.Mirror, n.Kings, n.H, n.L2)
	}
	// A version-1 state has no record: the command's settings are recorded,
	// with a line saying so.
	editState(t, dir, func(m map[string]any) {
		m["version"] = 1
		delete(m, "net")
	})
	code, _, errs = runCmd(t, append(append([]string{}, plain...), "--hidden", "12", "--quiet")...)
	if code != 0 || !strings.Contains(errs, "layout version 1) has no record of the nets' settings; recording this command's: --hidden 12") {
		t.Fatalf("version-1 resume: exit %d: %s", code, errs)
	}
	st, ok, err := learn.LoadState(dir)
	if err != nil || !ok || st.Net == nil || st.Net.Hidden != 12 || st.Net.Mirror || st.Version != 2 {
		t.Errorf("version-1 state after the resume: %+v, %v, %v; want version 2 recording --hidden 12 unmirrored", st, ok, err)
	}
}

// editState rewrites dir's state.json through edit.
func editState(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(learn.StatePath(dir))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(learn.StatePath(dir), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNNUERunKeepsItsTable: a run started with --values records the table
// it plays by; a resume without the flag keeps it, one with another table is
// refused naming the state and writes nothing.
func TestNNUERunKeepsItsTable(t *testing.T) {
	if testing.Short() {
		t.Skip("plays and trains a generation")
	}
	dir := filepath.Join(t.TempDir(), "run")
	gardner := "../../train/testdata/gardner.toml"
	plain := []string{"nnue", "--variant", gardner, "--dir", dir, "--games", "4", "--chunk-games", "2",
		"--nodes", "200", "--max-plies", "80", "--gate-games", "2", "--hidden", "8", "--l2", "4", "--epochs", "1", "--quiet"}
	if code, _, errs := runCmd(t, append(append([]string{}, plain...), "--generations", "1", "--values", "N=5,Q=6")...); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errs)
	}
	st, ok, err := learn.LoadState(dir)
	if err != nil || !ok {
		t.Fatalf("state: %v %v", ok, err)
	}
	v, err := env.LoadVariant(gardner)
	if err != nil {
		t.Fatal(err)
	}
	want, err := agent.DefaultValues().With(agent.Values{'N': 5, 'Q': 6}).Table(v)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.Table, want) {
		t.Fatalf("recorded table %v, want %v", st.Table, want)
	}
	before, err := os.ReadFile(learn.StatePath(dir))
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCmd(t, append(append([]string{}, plain...), "--generations", "2", "--values", "N=4")...)
	if code != 1 || !strings.Contains(errs, learn.StatePath(dir)) || !strings.Contains(errs, "the run was started with the piece table") {
		t.Errorf("another table: exit %d, %s; want 1 naming the state and its table", code, errs)
	}
	if after, err := os.ReadFile(learn.StatePath(dir)); err != nil || string(after) != string(before) {
		t.Errorf("another table changed the state (%v)", err)
	}
	if code, _, errs := runCmd(t, append(append([]string{}, plain...), "--generations", "2")...); code != 0 {
		t.Fatalf("resume without --values: exit %d: %s", code, errs)
	}
	if st, _, err = learn.LoadState(dir); err != nil || st.Generation != 2 || !slices.Equal(st.Table, want) {
		t.Errorf("after the resume: generation %d, table %v, %v; want 2 and %v", st.Generation, st.Table, err, want)
	}
}
