package selfplay_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bomberzero/datasets"
	"bomberzero/mcts"
	"bomberzero/selfplay"
	"bomberzero/selfplay/teacher"
)

// updateGames rewrites testdata/games/ from this build (go test ./selfplay
// -run SameGames -update-games). The files were made by the code before
// self-play and the teacher shared one driver (commit c414cb9), so that the
// driver is held to the games, chunks and records that code wrote; the
// self-play ones again when each game got its own seed from its number
// (selfplay.GameSeed, issue 34), which changed every draw of its games.
var updateGames = flag.Bool("update-games", false, "rewrite the golden runs under testdata/games/ from this build")

// goldenStart is a position 20 plies into fbgc, for a run that starts
// away from the variant's start (its records carry a FEN tag).
const goldenStart = "frn1qkb1rf/p4pp1p1/3p1bn3/1pp7/P3p2p1p/3P6/1P8/5F2PP/2P1PPPP2/1RNBQKBNRF w KQkq - 1 11"

// selfPlayRun is a small self-play run on one worker, so that its games
// and their order in the chunks depend on the seed alone.
func selfPlayRun(t *testing.T, start string, games int) selfplay.Config {
	t.Helper()
	c, err := selfplay.DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	c.Games, c.Workers, c.Slots, c.MaxPlies, c.FlushGames = games, 1, 3, 20, 2
	c.Start, c.Writer, c.Seed, c.Out = start, "golden", 7, t.TempDir()
	c.ResignThreshold, c.ResignMoves, c.ResignOffShare = -0.25, 2, 0.5
	c.Search = mcts.DefaultConfig()
	c.Search.Sims, c.Search.CheapSims, c.Search.CheapShare, c.Search.TempPlies = 8, 4, 0.5, 6
	c.Search.CacheEntries = 1 << 10
	return c
}

// teacherRun is a small teacher run on one worker.
func teacherRun(t *testing.T, policy string, valueScale float64, games, maxPlies int) teacher.Config {
	t.Helper()
	c := teacher.DefaultConfig("fbgc")
	c.Depth, c.Games, c.MaxPlies, c.RandomPlies, c.Workers, c.FlushGames = 1, games, maxPlies, 4, 1, 2
	c.Policy, c.ValueScale, c.Writer, c.Seed, c.Out = policy, valueScale, "golden", 3, t.TempDir()
	return c
}

func TestSelfPlayAndTeacherWriteTheSameGamesAsBeforeTheSharedDriver(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		run  func(t *testing.T) string // plays the run, returns its directory
	}{
		{"selfplay", func(t *testing.T) string {
			cfg := selfPlayRun(t, "", 4)
			if _, err := selfplay.Run(ctx, cfg, nil); err != nil {
				t.Fatal(err)
			}
			return cfg.Out
		}},
		{"selfplay-fen", func(t *testing.T) string {
			cfg := selfPlayRun(t, goldenStart, 2)
			if _, err := selfplay.Run(ctx, cfg, nil); err != nil {
				t.Fatal(err)
			}
			return cfg.Out
		}},
		{"teacher-played", func(t *testing.T) string {
			cfg := teacherRun(t, teacher.PolicyPlayed, 0, 3, 24)
			if _, err := teacher.Run(ctx, cfg, nil); err != nil {
				t.Fatal(err)
			}
			return cfg.Out
		}},
		{"teacher-softmax", func(t *testing.T) string {
			cfg := teacherRun(t, teacher.PolicySoftmax, 0.5, 2, 16)
			if _, err := teacher.Run(ctx, cfg, nil); err != nil {
				t.Fatal(err)
			}
			return cfg.Out
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && strings.HasPrefix(c.name, "teacher") {
				t.Skip("plays teacher games")
			}
			got := runText(t, c.run(t))
			path := filepath.Join("testdata", "games", c.name+".txt")
			if *updateGames {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("%s differs from this build's run at line %d:\n got %s\nwant %s", path, i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%s has %d lines, this build's run %d", path, len(wl), len(gl))
			}
		})
	}
}

// gameIDTag matches a record's GameID tag.
var gameIDTag = regexp.MustCompile(`\[GameID "[0-9a-f]+"\]`)

// runText is a run directory as text that two runs of one seed share: each
// chunk in its writer's order with its writer, sequence and counts, every
// row of it, and each game's record after its rows. The random parts (game
// IDs, chunk names and times, and so the checksums) are left out: game IDs
// become their game's number in the run.
func runText(t *testing.T, dir string) string {
	t.Helper()
	chunks, problems, err := datasets.List(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("listing %s: %v %v", dir, err, problems)
	}
	slices.SortFunc(chunks, func(a, b datasets.ChunkInfo) int {
		return strings.Compare(fmt.Sprintf("%s %08d", a.Writer, a.Sequence), fmt.Sprintf("%s %08d", b.Writer, b.Sequence))
	})
	var b strings.Builder
	ids := map[string]string{}
	for _, info := range chunks {
		ch, err := datasets.ReadChunk(info.Path)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "chunk writer=%s sequence=%d games=%d positions=%d full=%d version=%d\n",
			info.Writer, info.Sequence, info.Games, info.Positions, info.FullPositions, info.Version)
		for i, row := range ch.Rows {
			id := row.GameID
			if ids[id] == "" {
				ids[id] = fmt.Sprintf("game-%d", len(ids))
			}
			row.GameID = ids[id]
			line, err := json.Marshal(row)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(line)
			b.WriteByte('\n')
			if i+1 == len(ch.Rows) || ch.Rows[i+1].GameID != id {
				rec, err := os.ReadFile(filepath.Join(dir, "records", id+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				b.WriteString(gameIDTag.ReplaceAllString(string(rec), `[GameID "`+ids[id]+`"]`))
			}
		}
	}
	return b.String()
}
