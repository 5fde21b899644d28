package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/selfplay"
	"bomberzero/study/values"
)

// writeValuesData writes n synthetic games of the named variants to dir:
// from ply 2 on, White is up dp pawns and dn knights; White wins, draws or
// loses with chances that rise with the imbalance (a knight worth 3 pawns).
func writeValuesData(t *testing.T, dir string, n int, variants ...string) {
	t.Helper()
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "test", GamesPerChunk: 100})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < n; i++ {
		dp, dn := int32(rng.IntN(5)-2), int32(rng.IntN(3)-1)
		z := 0.3 * float64(dp+3*dn)
		g := datasets.GameRecord{ID: datasets.NewGameID(), Variant: variants[i%len(variants)], Model: "none", Length: 16}
		switch u := rng.Float64(); {
		case u < 0.3:
			g.Termination = env.Repetition
		case rng.Float64() < 1/(1+math.Exp(-2*z)):
			g.Result, g.Termination = 1, env.Checkmate
		default:
			g.Result, g.Termination = -1, env.Checkmate
		}
		for ply := 0; ply < 16; ply++ {
			wp, wn, bp, bn := int32(8), int32(2), int32(8), int32(2)
			if ply >= 2 { // the loser of each exchange is down the difference
				wp, wn, bp, bn = 8+min(dp, 0), 2+min(dn, 0), 8-max(dp, 0), 2-max(dn, 0)
			}
			g.Positions = append(g.Positions, datasets.PositionRecord{Ply: ply, Position: "p", WhiteToMove: ply%2 == 0,
				PolicyIndex: []int32{0}, MoveText: []string{"a1-a2"}, Visits: []float32{1}, FullSearch: true,
				Pieces: []datasets.PieceCount{{Piece: "P", White: wp, Black: bp}, {Piece: "N", White: wn, Black: bn}, {Piece: "K", White: 1, Black: 1}}})
		}
		if err := w.AddGame(&g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestValuesCommandFitsARunsDataAndDrawsTheChart(t *testing.T) {
	runDir := t.TempDir()
	writeValuesData(t, filepath.Join(runDir, "data"), 600, "chess")
	chart := filepath.Join(t.TempDir(), "values.svg")
	var out, errOut bytes.Buffer
	code := run([]string{"values", "--run", runDir, "--json", "--bootstrap", "40", "--seed", "9", "--plot", chart}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep values.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if rep.Games != 600 || rep.Seed != 9 || rep.Bootstrap != 40 || len(rep.Fits) != 2 || rep.Unit != "P" {
		t.Fatalf("report games %d seed %d B %d fits %d unit %s; want 600, 9, 40, 2, P", rep.Games, rep.Seed, rep.Bootstrap, len(rep.Fits), rep.Unit)
	}
	for _, f := range rep.Fits {
		n := f.Pieces[1].Value
		if n == nil || !n.Contains(3) {
			t.Errorf("%s fit: knight %v, want about 3 pawns", f.Method, n)
		}
	}
	if b, err := os.ReadFile(chart); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("chart %s not written as SVG: %v", chart, err)
	}
	out.Reset()
	if code := run([]string{"values", "--data", filepath.Join(runDir, "data"), "--bootstrap", "20", "--fits", "tanh", "--unit", "N"}, &out, &errOut); code != 0 {
		t.Fatalf("text run: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "value (N = 1)") || !strings.Contains(out.String(), "tanh fit") || strings.Contains(out.String(), "logistic fit") {
		t.Errorf("text report:\n%s", out.String())
	}
	// --sums: N+N-P-P-P beside an imbalance match, from the same
	// replicates; its point is the pieces' points summed.
	out.Reset()
	if code := run([]string{"values", "--run", runDir, "--json", "--bootstrap", "20", "--fits", "tanh", "--sums", "N+N-P-P-P,N-N"}, &out, &errOut); code != 0 {
		t.Fatalf("--sums: exit %d: %s", code, errOut.String())
	}
	rep = values.Report{}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	f := rep.Fits[0]
	pts := map[string]float64{}
	for _, pv := range f.Pieces {
		if pv.Value != nil {
			pts[pv.Piece] = pv.Value.Point
		}
	}
	if len(f.Sums) != 2 || f.Sums[0].Expr != "N+N-P-P-P" || f.Sums[0].Value == nil || math.Abs(f.Sums[0].Value.Point-(2*pts["N"]-3)) > 1e-9 || f.Sums[1].Value.Point != 0 {
		t.Errorf("sums %+v, want N+N-P-P-P = %.3f and N-N = 0", f.Sums, 2*pts["N"]-3)
	}
}

func TestValuesCommandRejectsBadInvocations(t *testing.T) {
	dir := t.TempDir()
	writeValuesData(t, dir, 40, "chess", "fbgc")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"values"}, 2, "exactly one of --data DIR, --run DIR, --engine-data DIR, --player PLAYER and --positions FILE"},
		{[]string{"values", "--data", dir, "--engine-data", dir}, 2, "exactly one"},
		{[]string{"values", "--data", dir, "--engine-player", "engine:nodes=9"}, 2, "--engine-player names the player of --engine-data"},
		{[]string{"values", "--engine-data", dir, "--include-capped"}, 2, "do not apply to --engine-data"},
		{[]string{"values", "--engine-data", dir}, 1, "no usable engine self-play chunk"},
		{[]string{"values", "--data", dir, "--run", dir}, 2, "exactly one"},
		{[]string{"values", "--data", dir}, 2, "pick one with --variant"},
		{[]string{"values", "--data", dir, "--variant", "xiangqi"}, 1, `no game of variant "xiangqi"`},
		{[]string{"values", "--data", dir, "--fits", "magic"}, 2, `unknown fit "magic"`},
		{[]string{"values", "--data", dir, "--fits", "value"}, 2, "needs a network"},
		{[]string{"values", "--data", dir, "--variant", "chess", "--model", "missing.ckpt", "--bootstrap", "5"}, 1, "missing.ckpt"},
		{[]string{"values", "--data", dir, "--plot", "x.gif"}, 2, ".png or .svg"},
		{[]string{"values", "--data", dir, "--bootstrap", "0"}, 2, "--bootstrap 0"},
		{[]string{"values", "--data", dir, "--variant", "chess", "--unit", "Z", "--bootstrap", "5"}, 1, `unit piece "Z"`},
		{[]string{"values", "--data", filepath.Join(dir, "nope")}, 1, "values: listing"},
		{[]string{"values", "--data", dir, "--officers", "7"}, 2, `--officers: "7": want LO-HI`},
		{[]string{"values", "--data", dir, "--officers", "9-3"}, 2, "want LO-HI"},
		{[]string{"values", "--data", dir, "--variant", "chess", "--skip", "20", "--max-ply", "12"}, 1, "keeps no ply"},
		{[]string{"values", "--data", dir, "--save-games", dir}, 2, "--save-games needs --player"},
		{[]string{"values", "--data", dir, "--phase-bins", "9"}, 2, "--phase-bins 9, want 0 to 8"},
		{[]string{"values", "--data", dir, "--phase-bins", "-1"}, 2, "--phase-bins -1"},
		{[]string{"values", "--data", dir, "--values", "N=5"}, 2, "--values needs --player"},
		{[]string{"values", "--data", dir, "--variant", "chess", "--sums", "R+-Q"}, 2, "--sums: values: sum \"R+-Q\": a sign without a piece"},
		{[]string{"values", "--data", dir, "--variant", "chess", "--sums", "P-Z", "--bootstrap", "5"}, 2, "--sums: values: sum \"P-Z\": no piece Z"},
		{[]string{"values", "--player", "engine:nodes=100", "--variant", "chess", "--values", "N=x"}, 2, "--values"},
	} {
		var out, errOut bytes.Buffer
		code := run(tc.args, &out, &errOut)
		if code != tc.code || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut.String(), tc.code, tc.want)
		}
	}
}

// TestValuesCommandOnRealSelfPlayRecoversTheMaterialEvaluatorsValues runs
// the whole pipeline on real data: chess self-play with the network-free
// material evaluator (whose value is tanh(material/scale), material
// counted with agent.PieceValue), written as chunks by the self-play
// workers; the value fit of "bomberzero values --model none" on those
// positions must give back the evaluator's own piece values, an
// independent truth.
func TestValuesCommandOnRealSelfPlayRecoversTheMaterialEvaluatorsValues(t *testing.T) {
	dir := t.TempDir()
	cfg, err := selfplay.DefaultConfig("chess")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Games, cfg.Out, cfg.Workers, cfg.Slots, cfg.MaxPlies = 6, dir, 1, 6, 160
	cfg.Search.Sims, cfg.Search.CheapSims = 8, 4
	cfg.ResignMoves = 0
	if _, err := selfplay.Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run([]string{"values", "--data", dir, "--model", "material", "--fits", "value,search",
		"--skip", "0", "--quiet-plies", "0", "--with-captures", "--include-capped", "--bootstrap", "20", "--json"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep values.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Fits[0]
	if f.Method != values.Value || f.Positions == 0 {
		t.Fatalf("first fit %s on %d positions, want the value fit", f.Method, f.Positions)
	}
	checked := 0
	for _, pv := range f.Pieces {
		if pv.Value == nil {
			continue // never captured in these few games
		}
		want := agent.PieceValue(v.Pieces[v.PieceByLetter(pv.Piece[0])])
		if math.Abs(pv.Value.Point-want) > 0.02*want {
			t.Errorf("piece %s: value %.4f, want the evaluator's %.4g within 2%%", pv.Piece, pv.Value.Point, want)
		}
		checked++
	}
	if checked < 3 {
		t.Errorf("only %d pieces varied in the self-play games: %+v", checked, f.Pieces)
	}
}

// TestValuesSavedGamesFitAsThePlayedOnes: --save-games keeps every game
// played, the capped ones included, and --data on that folder fits the same
// positions, so a phase or weighting refit needs no replay; a second seed
// adds its games beside the first's.
// valuesReport runs "values --json --quiet ARGS..." and returns its report,
// failing the test on a non-zero exit or output that is not a report.
func valuesReport(t *testing.T, args ...string) values.Report {
	t.Helper()
	var out, errOut bytes.Buffer
	args = append([]string{"values", "--json", "--quiet"}, args...)
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
	}
	var rep values.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: output is not JSON: %v", args, err)
	}
	return rep
}

func TestValuesSavedGamesFitAsThePlayedOnes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "games")
	fit := func(args ...string) values.Report {
		t.Helper()
		return valuesReport(t, append([]string{"--variant", "chess", "--fits", "tanh", "--bootstrap", "5", "--per-game", "0"}, args...)...)
	}
	played := fit("--player", "alphabeta:1", "--games", "12", "--seed", "3", "--save-games", dir)
	loaded := fit("--data", dir, "--seed", "3")
	if played.Games != loaded.Games || played.Sampled != loaded.Sampled || played.Sampled == 0 {
		t.Errorf("played: %d games, %d sampled; loaded: %d games, %d sampled; want the same, positive",
			played.Games, played.Sampled, loaded.Games, loaded.Sampled)
	}
	if len(loaded.Players) != 1 || !strings.Contains(loaded.Players[0], "alphabeta") || len(loaded.Warnings) == 0 || !strings.Contains(loaded.Warnings[0], "too weak") {
		t.Errorf("--data of saved games: players %q, warnings %q; want the player that played them, warned about", loaded.Players, loaded.Warnings)
	}
	fit("--player", "alphabeta:1", "--games", "12", "--seed", "4", "--save-games", dir)
	both := fit("--data", dir, "--include-capped")
	if both.Games != 24 {
		t.Errorf("two seeds of 12 games kept %d games, want 24 (no ID shared across seeds, capped games kept)", both.Games)
	}
	phase := fit("--data", dir, "--include-capped", "--skip", "10", "--max-ply", "30", "--officers", "10-14", "--equal-games")
	if phase.Sampled == 0 || phase.Sampled >= both.Sampled || !phase.Sample.EqualGames || phase.Sample.MaxOfficers != 14 {
		t.Errorf("phase fit sampled %d of %d (sample %+v); want fewer, the settings reported", phase.Sampled, both.Sampled, phase.Sample)
	}
	// A named phase takes its bounds from the variant's start (14 officers
	// in chess): the middlegame and the endgame split the positions.
	mid := fit("--data", dir, "--include-capped", "--officers", "middlegame")
	end := fit("--data", dir, "--include-capped", "--officers", "endgame")
	if mid.Sample.MinOfficers != 7 || mid.Sample.Phase != "middlegame" || end.Sample.MaxOfficers != 6 || end.Sample.Phase != "endgame" {
		t.Errorf("--officers middlegame, endgame: samples %+v and %+v; want 7 officers and up, 0-6, named", mid.Sample, end.Sample)
	}
	if mid.Sampled == 0 || end.Sampled == 0 || mid.Sampled >= both.Sampled || end.Sampled >= both.Sampled {
		t.Errorf("middlegame %d, endgame %d positions; want each some of the whole games' %d", mid.Sampled, end.Sampled, both.Sampled)
	}
	phased := fit("--data", dir, "--include-capped", "--phase-bins", "2")
	f := phased.Fits[0]
	if len(f.Phases) != 2 || f.Phases[0].Scale != 1 || f.Phases[0].Positions+f.Phases[1].Positions != f.Positions {
		t.Errorf("--phase-bins 2: phases %+v of %d positions; want two bins holding them, the opening's at scale 1", f.Phases, f.Positions)
	}
}

func TestValuesOfAPlayersOwnGames(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"values", "--player", "alphabeta:1", "--variant", "chess", "--games", "24", "--fits", "tanh",
		"--bootstrap", "10", "--json", "--quiet"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep values.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if rep.Games == 0 || rep.Games > 24 || len(rep.Variants) != 1 || rep.Variants[0] != "chess" {
		t.Errorf("report of %d games of %v, want at most 24 chess games", rep.Games, rep.Variants)
	}
	// The weak player is named in the report and once on stderr.
	if len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[0], "alphabeta:1 is too weak") || strings.Count(errOut.String(), "alphabeta:1 is too weak") != 1 {
		t.Errorf("warnings %q, stderr %q: want alphabeta:1 named as too weak in both", rep.Warnings, errOut.String())
	}
	if len(rep.Players) != 1 || rep.Players[0] != "alphabeta:1" || len(rep.ChessCheck) != 1 || !strings.Contains(rep.ChessCheck[0], "alphabeta:1 is not calibrated") {
		t.Errorf("players %q, chess check %q: want alphabeta:1 and its missing calibration", rep.Players, rep.ChessCheck)
	}
	// From a book of openings, each played with both colours.
	out.Reset()
	errOut.Reset()
	if code := run([]string{"values", "--player", "engine:nodes=100", "--variant", "chess", "--games", "8", "--book", "4", "--fits", "tanh",
		"--bootstrap", "10", "--json", "--quiet"}, &out, &errOut); code != 0 {
		t.Fatalf("--book: exit %d: %s", code, errOut.String())
	}
	// A player with no calibration record gets one line on stderr and in the report.
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("--book: output is not JSON: %v", err)
	}
	const uncalibrated = "engine:nodes=100 has no chess calibration"
	if strings.Count(errOut.String(), uncalibrated) != 1 || len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[0], uncalibrated) {
		t.Errorf("warnings %q, stderr %q: want %q once in each", rep.Warnings, errOut.String(), uncalibrated)
	}
	for _, bad := range [][]string{{"values", "--player", "alphabeta:1"}, {"values", "--player", "alphabeta:1", "--variant", "chess", "--data", "x"},
		{"values", "--player", "nosuch", "--variant", "chess"}, {"values", "--data", "x", "--book", "4"}, {"values", "--player", "random", "--variant", "chess", "--book", "-1"}} {
		if code := run(bad, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}

// Degenerate data (every game drawn) give the fit's message, what is
// missing and how many games would fix it, on stderr or in the report, and
// never NaN or an infinity printed as a number on stdout or in the JSON.
func TestValuesCommandOnDegenerateDataSaysWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "test", GamesPerChunk: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 120 {
		g := datasets.GameRecord{ID: datasets.NewGameID(), Variant: "chess", Model: "alphabeta:3", Length: 16, Termination: env.Repetition}
		d := int32(i%3 - 1) // a pawn up or down, and still a draw
		for ply := range 16 {
			wp, bp := int32(8), int32(8)
			if ply >= 2 {
				wp, bp = 8+min(d, 0), 8-max(d, 0)
			}
			g.Positions = append(g.Positions, datasets.PositionRecord{Ply: ply, Position: "p", WhiteToMove: ply%2 == 0,
				PolicyIndex: []int32{0}, MoveText: []string{"a1-a2"}, Visits: []float32{1}, FullSearch: true,
				Pieces: []datasets.PieceCount{{Piece: "P", White: wp, Black: bp}, {Piece: "N", White: 2, Black: 2}, {Piece: "K", White: 1, Black: 1}}})
		}
		if err := w.AddGame(&g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	base := []string{"values", "--data", dir, "--bootstrap", "20", "--skip", "4", "--quiet"}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string // in stdout (code 0) or stderr
	}{
		// 120 draws: the decisive rate is below 3/120, so 300 decisive games need at least 300·120/3.
		{"logistic", nil, 1, "none of the 120 games was decisive (no decisive game in 120 games puts its rate below 2.5% at 95%)"},
		{"tanh", []string{"--fits", "tanh"}, 0, "missing: none of these 120 games was decisive"},
		{"tanh JSON", []string{"--fits", "tanh", "--json"}, 0, `"advice": "none of these 120 games was decisive`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append(append([]string{}, base...), c.args...), &out, &errOut)
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s", code, c.code, errOut.String())
			}
			where := out.String()
			if c.code != 0 {
				where = errOut.String()
			}
			if !strings.Contains(where, c.want) || !strings.Contains(where, "at least 12000 games") {
				t.Errorf("output lacks %q and the games that would fix it:\n%s", c.want, where)
			}
			if strings.Count(errOut.String(), "alphabeta:3 has no chess calibration") != 1 {
				t.Errorf("stderr lacks the uncalibrated player's warning:\n%s", errOut.String())
			}
			for _, bad := range []string{"NaN", "Inf"} {
				if strings.Contains(out.String(), bad) || strings.Contains(errOut.String(), bad) {
					t.Errorf("%s printed:\n%s\n%s", bad, out.String(), errOut.String())
				}
			}
		})
	}
}

// TestValuesPositionsFileFitsAsItsGames: --write-positions writes the
// sampled positions of a fit, and --positions FILE fits them to the same
// values and intervals as the games they came from; the sampling flags that
// read a position's neighbours are refused with --positions.
func TestValuesPositionsFileFitsAsItsGames(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	writeValuesData(t, data, 400, "chess")
	file := filepath.Join(dir, "sampled.bzpos")
	fit := func(args ...string) values.Report {
		t.Helper()
		return valuesReport(t, append([]string{"--fits", "logistic,tanh", "--bootstrap", "20", "--seed", "7"}, args...)...)
	}
	full := fit("--data", data, "--skip", "3", "--quiet-plies", "1", "--spacing", "3", "--per-game", "2", "--write-positions", file)
	small := fit("--positions", file)
	if small.Games != full.Games || small.Positions != full.Sampled || small.Sampled != full.Sampled || full.Sampled == 0 {
		t.Fatalf("file: %d games, %d positions, %d sampled; full data: %d games, %d sampled", small.Games, small.Positions, small.Sampled, full.Games, full.Sampled)
	}
	if small.PositionsFile != file || full.PositionsFile != "" {
		t.Errorf("positions file recorded as %q (file) and %q (games); want %q and none", small.PositionsFile, full.PositionsFile, file)
	}
	var text, textErr bytes.Buffer
	if code := run([]string{"values", "--positions", file, "--fits", "logistic", "--bootstrap", "5", "--quiet"}, &text, &textErr); code != 0 ||
		!strings.Contains(text.String(), "from the positions file "+file) || strings.Contains(text.String(), "skip 0 plies") {
		t.Errorf("the text report of a positions file (exit %d, %s) should name the file and not claim a sampling it did not do:\n%s", code, textErr.String(), text.String())
	}
	a, _ := json.Marshal(full.Fits)
	b, _ := json.Marshal(small.Fits)
	if !bytes.Equal(a, b) {
		t.Fatalf("the positions file's fits differ from its games':\n%s\n%s", b, a)
	}
	for _, bad := range [][]string{{"--positions", file, "--spacing", "2"}, {"--positions", file, "--with-captures"}, {"--positions", file, "--write-positions", file}, {"--positions", file, "--data", data}} {
		var out, errOut bytes.Buffer
		if code := run(append([]string{"values"}, bad...), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "--") {
			t.Errorf("%v: exit %d, %q; want a usage error naming the flag", bad, code, errOut.String())
		}
	}
	if err := os.WriteFile(file, []byte("BZVALPOS damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"values", "--positions", file}, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), file) {
		t.Errorf("a damaged positions file: exit %d, %q; want an error naming it", code, errOut.String())
	}
}

// TestValuesOfTheEnginesSelfPlayChunks fits the chunks "nnue worker" writes
// (the engine's self-play as the nnue loop plays it): every game is read,
// the positions the engine found quiet are kept although a capture may be
// available (the default there), and the report names the player given.
func TestValuesOfTheEnginesSelfPlayChunks(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := run([]string{"nnue", "worker", "--variant", "chess", "--out", dir, "--games", "30", "--nodes", "200", "--workers", "2", "--quiet"}, &out, &errOut); code != 0 {
		t.Fatalf("nnue worker: exit %d: %s", code, errOut.String())
	}
	fit := func(extra ...string) values.Report {
		t.Helper()
		args := append([]string{"values", "--engine-data", dir, "--engine-player", "engine:nodes=200", "--fits", "logistic", "--bootstrap", "5", "--per-game", "0", "--json", "--quiet"}, extra...)
		out.Reset()
		errOut.Reset()
		if code := run(args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		var rep values.Report
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := fit()
	if rep.Games != 30 && rep.Games != 29 && rep.Games != 28 {
		t.Errorf("%d games read, want the 30 played (less a game that recorded no position)", rep.Games)
	}
	if len(rep.Players) != 1 || rep.Players[0] != "engine:nodes=200" || len(rep.ChessCheck) == 0 {
		t.Errorf("players %v, chess check %v: want the player named and its calibration line", rep.Players, rep.ChessCheck)
	}
	if rep.Sample.NoCaptures {
		t.Error("the engine's data are sampled without the capture filter by default")
	}
	filtered := fit("--with-captures=false")
	if !filtered.Sample.NoCaptures || filtered.Sampled >= rep.Sampled {
		t.Errorf("--with-captures=false: sampled %d of the default's %d, filter %v; want fewer, filtered", filtered.Sampled, rep.Sampled, filtered.Sample.NoCaptures)
	}
}
