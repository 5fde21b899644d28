package selfplay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/stats"
)

// Progress is a snapshot of a run for a progress display.
type Progress struct {
	Games     int           // games finished and on disk
	Target    int           // games the run will finish
	Positions int64         // positions searched so far (all workers)
	Elapsed   time.Duration // since the run started
}

// Summary is what a finished run wrote.
type Summary struct {
	Games     int // games written
	Positions int // positions recorded in them
	WhiteWins int
	Draws     int
	BlackWins int
	// Ends counts the games by how they ended.
	Ends map[env.Termination]int
	// Resignations, LengthCaps (games drawn by reaching the length cap)
	// and Adjudications (games stopped at the cap and won on material) are
	// the Ends that self-play's summary line names.
	Resignations  int
	LengthCaps    int
	Adjudications int
	TotalPlies    int
	Elapsed       time.Duration
}

// Decisive returns the share of the games won by either side.
func (s *Summary) Decisive() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.WhiteWins+s.BlackWins) / float64(s.Games)
}

// MeanPlies returns the games' mean length in plies.
func (s *Summary) MeanPlies() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.TotalPlies) / float64(s.Games)
}

// add counts one written game.
func (s *Summary) add(g tally) {
	s.Games++
	s.Positions += g.positions
	s.TotalPlies += g.length
	var w stats.WDL // White's side of the game
	w.Count(g.result)
	s.WhiteWins += w.Wins
	s.Draws += w.Draws
	s.BlackWins += w.Losses
	if s.Ends == nil {
		s.Ends = map[env.Termination]int{}
	}
	s.Ends[g.termination]++
	switch g.termination {
	case env.Resignation:
		s.Resignations++
	case env.LengthCap:
		s.LengthCaps++
	case env.Adjudication:
		s.Adjudications++
	}
}

// tally is what a Summary counts of one written game.
type tally struct {
	result      int // White's view
	termination env.Termination
	length      int
	positions   int
}

// Driver is a run of games on a pool of workers: each worker plays with a
// Player of its own and writes every game it finishes as training rows
// (its own datasets.ChunkWriter) and a game record (the records
// subdirectory), buffering games into chunks and reporting them finished
// only once they are on disk. Self-play (its batched MCTS, many games at
// once per worker) and the teacher (package teacher: alpha-beta, one game
// at a time) are two Players on this one driver.
type Driver struct {
	// Out is the directory that receives the chunks; game records go to
	// its "records" subdirectory.
	Out string
	// Games is the number of games to finish.
	Games int
	// First and Skip number the games: the run plays games First, First+1
	// and on, leaving out those in Skip (a resumed run's games finished
	// before), until Games are played. A game's number is fixed before any
	// worker claims it, so a Player that derives everything random about a
	// game from its number (self-play: GameSeed) plays the same game on any
	// worker, beside any others, in a run resumed or not.
	First int
	Skip  map[int]bool
	// Workers is the number of workers, each on its own goroutine.
	Workers int
	// Writer identifies the run in its chunks' writer metadata (worker n
	// writes as Writer-wn); "" means host-pid.
	Writer string
	// Start is the FEN tag of every record: the position text the games
	// start from, "" for the variant's start.
	Start string
	// FlushGames is the number of finished games a worker buffers before
	// it writes them as one chunk; a worker also writes its buffer once it
	// is FlushEvery old (0: only when full).
	FlushGames int
	FlushEvery time.Duration
}

// Player plays one worker's games: the move chooser a Driver runs. Play
// plays the games w.Claim grants, hands each finished game to w.Done and
// reports its searched positions to w.Searched, until no game is left to
// claim and every game it started is finished, or ctx ends (the games in
// progress are then dropped). A Player that plays for long between two
// finished games calls w.Tick now and then, so that buffered games reach
// the disk on time.
type Player interface {
	Play(ctx context.Context, w *Worker) error
}

// Finished is one finished game as a Player hands it to Worker.Done.
type Finished struct {
	// Rec is the game's training rows; Rec.Result and Rec.Termination
	// are also the record's.
	Rec *datasets.GameRecord
	// Moves is the game's moves in Game Courier text, from Driver.Start.
	Moves []string
}

// Worker is one worker of a Driver's run as its Player sees it: it hands
// out the games to play and writes the finished ones.
type Worker struct {
	d         *Driver
	out       *datasets.ChunkWriter
	records   string
	claim     func() (int, bool)
	searched  func(int)
	written   func([]tally)
	pending   []tally // games added to the chunk writer, not yet flushed
	lastFlush time.Time
}

// Claim reserves one more game of the run and returns its number (each of
// the run's game numbers once, in increasing order: Driver.First on, those
// in Driver.Skip left out); false when every game has been claimed or the
// run is stopping.
func (w *Worker) Claim() (int, bool) { return w.claim() }

// Searched counts n more positions searched, for the progress rate.
func (w *Worker) Searched(n int) { w.searched(n) }

// Done writes g's game record, adds its rows to the worker's chunk writer
// and writes the buffered games as a chunk when FlushGames are buffered or
// the buffer is FlushEvery old. g is not kept.
func (w *Worker) Done(g Finished) error {
	rec := g.Rec
	text := GameText{ID: rec.ID, Variant: rec.Variant, Model: rec.Model, Generation: rec.Generation,
		Result: resultOf(rec.Result).String(), Termination: rec.Termination.String(), Start: w.d.Start, Moves: g.Moves}
	if _, err := WriteRecord(w.records, &text); err != nil {
		return err
	}
	if err := w.out.AddGame(rec); err != nil {
		return fmt.Errorf("game %s: %w", rec.ID, err)
	}
	w.pending = append(w.pending, tally{rec.Result, rec.Termination, rec.Length, len(rec.Positions)})
	if len(w.pending) >= w.d.FlushGames || w.d.FlushEvery > 0 && time.Since(w.lastFlush) >= w.d.FlushEvery {
		return w.flush()
	}
	return nil
}

// Tick writes the buffered games once the buffer is older than FlushEvery.
func (w *Worker) Tick() error {
	if len(w.pending) > 0 && w.d.FlushEvery > 0 && time.Since(w.lastFlush) > w.d.FlushEvery {
		return w.flush()
	}
	return nil
}

// flush writes the buffered games as one chunk and reports them.
func (w *Worker) flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	if _, err := w.out.Flush(); err != nil {
		return fmt.Errorf("writing %d finished games: %w", len(w.pending), err)
	}
	w.written(w.pending)
	w.pending = w.pending[:0]
	w.lastFlush = time.Now()
	return nil
}

// resultOf returns the result of a game White scored white (+1, 0, -1).
func resultOf(white int) env.Result {
	switch white {
	case 1:
		return env.WhiteWins
	case -1:
		return env.BlackWins
	}
	return env.Draw
}

// Run plays d.Games games on d.Workers workers, each playing with the
// Player newPlayer returns for its number (called on the worker's
// goroutine), and returns what was written. progress, if not nil, is
// called about twice a second and at the end. Cancelling ctx stops the
// run after writing the games already finished; games in progress are
// dropped. A worker's error stops the run; the games finished before it
// are still written and counted.
func (d *Driver) Run(ctx context.Context, newPlayer func(id int) (Player, error), progress func(Progress)) (*Summary, error) {
	if d.Games < 1 || d.Workers < 1 || d.FlushGames < 1 || d.First < 0 {
		return nil, fmt.Errorf("driver: %d games from number %d, %d workers, %d games a chunk: want at least 1 of each, numbers from 0", d.Games, d.First, d.Workers, d.FlushGames)
	}
	numbers := make([]int, 0, d.Games)
	for k := d.First; len(numbers) < d.Games; k++ {
		if !d.Skip[k] {
			numbers = append(numbers, k)
		}
	}
	if err := os.MkdirAll(d.Out, 0o755); err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t0 := time.Now()
	var (
		claimed   atomic.Int64
		positions atomic.Int64
		mu        sync.Mutex
		sum       Summary
	)
	claim := func() (int, bool) {
		if ctx.Err() != nil {
			return 0, false
		}
		k := claimed.Add(1) - 1
		if k >= int64(d.Games) {
			claimed.Add(-1)
			return 0, false
		}
		return numbers[k], true
	}
	written := func(games []tally) {
		mu.Lock()
		defer mu.Unlock()
		for _, g := range games {
			sum.add(g)
		}
	}
	report := func() {
		if progress == nil {
			return
		}
		mu.Lock()
		games := sum.Games
		mu.Unlock()
		progress(Progress{Games: games, Target: d.Games, Positions: positions.Load(), Elapsed: time.Since(t0)})
	}
	writer := d.Writer
	if writer == "" {
		host, _ := os.Hostname()
		writer = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	errs := make([]error, d.Workers)
	var wg sync.WaitGroup
	for id := range d.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := d.work(ctx, id, fmt.Sprintf("%s-w%d", writer, id), newPlayer,
				claim, func(n int) { positions.Add(int64(n)) }, written)
			if err != nil {
				errs[id] = fmt.Errorf("worker %d: %w", id, err)
				cancel()
			}
		}()
	}
	// The ticker's goroutine is waited for before the last report, so no
	// progress call is still running when Run returns: callers read and
	// write their own state around Run without a lock.
	stop, ticking := make(chan struct{}), make(chan struct{})
	ticker := time.NewTicker(500 * time.Millisecond)
	go func() {
		defer close(ticking)
		for {
			select {
			case <-stop:
				return
			case <-ticker.C:
				report()
			}
		}
	}()
	wg.Wait()
	ticker.Stop()
	close(stop)
	<-ticking
	report()
	sum.Elapsed = time.Since(t0)
	return &sum, errors.Join(errs...)
}

// work runs worker id until its Player returns, then writes what it
// buffered and closes its chunk writer.
func (d *Driver) work(ctx context.Context, id int, name string, newPlayer func(int) (Player, error),
	claim func() (int, bool), searched func(int), written func([]tally)) error {
	p, err := newPlayer(id)
	if err != nil {
		return err
	}
	w, err := d.newWorker(name, claim, searched, written)
	if err != nil {
		return err
	}
	err = p.Play(ctx, w)
	if ferr := w.flush(); ferr != nil && err == nil {
		err = ferr
	}
	if cerr := w.out.Close(); cerr != nil && err == nil {
		err = cerr
	}
	return err
}

// newWorker returns a worker writing chunks as name into d.Out.
func (d *Driver) newWorker(name string, claim func() (int, bool), searched func(int), written func([]tally)) (*Worker, error) {
	out, err := datasets.NewChunkWriter(d.Out, datasets.ChunkMeta{Writer: name})
	if err != nil {
		return nil, err
	}
	return &Worker{d: d, out: out, records: filepath.Join(d.Out, "records"),
		claim: claim, searched: searched, written: written, lastFlush: time.Now()}, nil
}
