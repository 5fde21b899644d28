//go:build linux

package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/datasets/record"
	"bomberzero/env"
	"bomberzero/frontend/xboard"
	"bomberzero/frontend/xboard/xboardtest"
)

// TestDebiansXBoardLoadsReplaysPGN has Debian's XBoard 4.9 load what
// "replay --pgn" writes of a random game record, of fbgc (ranks from 0 for
// XBoard) and of birds-ninjas (a drop and a two-leg move among them), and checks it
// read every move as written (xboardtest.LoadPGN). Skipped without xboard
// and xvfb-run, and with -short.
func TestDebiansXBoardLoadsReplaysPGN(t *testing.T) {
	xboardtest.Programs(t)
	for _, variant := range []string{"fbgc", "birds-ninjas"} {
		t.Run(variant, func(t *testing.T) {
			v, err := env.LoadVariant(variant)
			if err != nil {
				t.Fatal(err)
			}
			// The first seed whose birds-ninjas game has a drop and a
			// two-leg move ("d0d4-d5"), the moves XBoard misread before.
			var p *env.Position
			var moves, written []string
			for seed := uint64(1); seed <= 64; seed++ {
				rng := rand.New(rand.NewPCG(seed, 3))
				p, moves, written = v.NewPosition(), nil, nil
				for i := 0; i < 60; i++ {
					if res, _ := p.Status(); res != env.Ongoing {
						break
					}
					legal := p.LegalMoves(nil)
					m := legal[rng.IntN(len(legal))]
					moves = append(moves, p.FormatGC(m))
					written = append(written, xboard.PGNNotation{}.FormatMove(p, m))
					p.DoMove(m)
				}
				joined := strings.Join(written, " ")
				if variant != "birds-ninjas" || strings.Contains(joined, "@") && strings.Contains(joined, "-") {
					break
				}
			}
			if joined := strings.Join(written, " "); variant == "birds-ninjas" && (!strings.Contains(joined, "@") || !strings.Contains(joined, "-")) {
				t.Fatalf("no seed gave a game with a drop and a two-leg move: %s", joined)
			}
			res, why := p.Status()
			g := record.New("replay xboard test", v.NewPosition(), "random", "random", res, why, moves)
			file := filepath.Join(t.TempDir(), "g.txt")
			if err := os.WriteFile(file, []byte(g.Format()), 0o644); err != nil {
				t.Fatal(err)
			}
			code, pgn, errs := runCmd(t, "replay", "--pgn", file)
			if code != 0 || !strings.Contains(pgn, `[Notation "XBoard"]`) {
				t.Fatalf("replay --pgn: exit %d, %q (stderr %q)", code, pgn, errs)
			}
			lines, err := xboard.Setup(v)
			if err != nil {
				t.Fatal(err)
			}
			xboardtest.LoadPGN(t, lines[0], pgn, written)
		})
	}
}
