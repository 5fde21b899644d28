package selfplay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"bomberzero/datasets"
	"bomberzero/env"
)

// fakePlayer plays game k as one ply: White wins, draws or loses by k%3,
// and fails on game failAt (when not negative).
type fakePlayer struct {
	failAt int
	mu     *sync.Mutex
	seen   map[int]int // claims per game number, shared by the workers
}

func (p *fakePlayer) Play(ctx context.Context, w *Worker) error {
	for {
		k, ok := w.Claim()
		if !ok {
			return nil
		}
		p.mu.Lock()
		p.seen[k]++
		p.mu.Unlock()
		if k == p.failAt {
			return errors.New("the fake player broke")
		}
		result := []int{1, 0, -1}[k%3]
		why := map[int]env.Termination{1: env.Checkmate, 0: env.LengthCap, -1: env.Resignation}[result]
		rec := datasets.GameRecord{ID: fmt.Sprintf("game%03d", k), Variant: "fbgc", Model: "fake", Result: result,
			Termination: why, Length: 1, Positions: []datasets.PositionRecord{{Position: "start", Played: "a2-a3",
				PolicyIndex: []int32{0}, MoveText: []string{"a2-a3"}, Visits: []float32{1}, FullSearch: true}}}
		w.Searched(1)
		if err := w.Done(Finished{Rec: &rec, Moves: []string{"a2-a3"}}); err != nil {
			return err
		}
	}
}

// runFake runs d with fake players into a fresh directory d.Out and
// returns how often each game number was claimed.
func runFake(t *testing.T, d *Driver, failAt int) (*Summary, map[int]int, error) {
	t.Helper()
	d.Out = t.TempDir()
	p := &fakePlayer{failAt: failAt, mu: &sync.Mutex{}, seen: map[int]int{}}
	sum, err := d.Run(context.Background(), func(int) (Player, error) { return p, nil }, nil)
	return sum, p.seen, err
}

// onDisk returns the games of d's chunks by ID, failing on a chunk of more
// than flushGames games, and checks each has its record with its result.
func onDisk(t *testing.T, dir string, flushGames int) map[string]datasets.GameRecord {
	t.Helper()
	games := map[string]datasets.GameRecord{}
	chunks, problems, err := datasets.List(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("listing %s: %v %v", dir, err, problems)
	}
	for _, c := range chunks {
		if c.Games > flushGames {
			t.Errorf("chunk %s holds %d games, want at most FlushGames %d", c.Name, c.Games, flushGames)
		}
		ch, err := datasets.ReadChunk(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range datasets.Games(ch.Rows) {
			games[g.ID] = g
			text, err := os.ReadFile(filepath.Join(dir, "records", g.ID+".txt"))
			if err != nil {
				t.Fatalf("game %s has no record: %v", g.ID, err)
			}
			if want := fmt.Sprintf("[Result %q]", resultOf(g.Result)); !strings.Contains(string(text), want) {
				t.Errorf("game %s: record lacks %s:\n%s", g.ID, want, text)
			}
		}
	}
	return games
}

func TestDriverWritesEveryGameOnceAndCountsIt(t *testing.T) {
	for _, c := range []struct{ games, workers, flush int }{
		{1, 1, 1},
		{7, 1, 3},
		{7, 3, 2},
		{12, 4, 5},
	} {
		t.Run(fmt.Sprintf("%d games %d workers flush %d", c.games, c.workers, c.flush), func(t *testing.T) {
			d := &Driver{Games: c.games, Workers: c.workers, FlushGames: c.flush, Writer: "test"}
			sum, seen, err := runFake(t, d, -1)
			if err != nil {
				t.Fatal(err)
			}
			for k := range c.games {
				if seen[k] != 1 {
					t.Errorf("game %d claimed %d times, want once", k, seen[k])
				}
			}
			if len(seen) != c.games {
				t.Errorf("%d game numbers claimed, want %d", len(seen), c.games)
			}
			games := onDisk(t, d.Out, c.flush)
			want := Summary{Games: c.games, Positions: c.games, TotalPlies: c.games, Ends: map[env.Termination]int{}}
			for k := range c.games {
				if _, ok := games[fmt.Sprintf("game%03d", k)]; !ok {
					t.Errorf("game %d is not on disk", k)
				}
				switch k % 3 {
				case 0:
					want.WhiteWins++
					want.Ends[env.Checkmate]++
				case 1:
					want.Draws++
					want.LengthCaps++
					want.Ends[env.LengthCap]++
				case 2:
					want.BlackWins++
					want.Resignations++
					want.Ends[env.Resignation]++
				}
			}
			sum.Elapsed = 0
			if got, w := fmt.Sprintf("%+v", *sum), fmt.Sprintf("%+v", want); got != w {
				t.Errorf("summary\n%s\nwant\n%s", got, w)
			}
		})
	}
}

func TestDriverStopsOnAPlayersErrorAndKeepsTheGamesItWrote(t *testing.T) {
	d := &Driver{Games: 10, Workers: 1, FlushGames: 1, Writer: "test"}
	sum, _, err := runFake(t, d, 3)
	if err == nil || !strings.Contains(err.Error(), "worker 0: the fake player broke") {
		t.Fatalf("error %v, want worker 0's", err)
	}
	if games := onDisk(t, d.Out, 1); sum == nil || sum.Games != 3 || len(games) != 3 {
		t.Fatalf("summary %+v and %d games on disk, want the 3 games before the error", sum, len(games))
	}
}

func TestDriverRefusesAnEmptyRun(t *testing.T) {
	for _, d := range []Driver{
		{Games: 0, Workers: 1, FlushGames: 1},
		{Games: 1, Workers: 0, FlushGames: 1},
		{Games: 1, Workers: 1, FlushGames: 0},
	} {
		if _, _, err := runFake(t, &d, -1); err == nil {
			t.Errorf("%+v: no error", d)
		}
	}
}
