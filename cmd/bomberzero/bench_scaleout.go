package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"bomberzero/internal/runstore"
	"bomberzero/train"
)

const benchScaleoutUsage = `usage: bomberzero bench scaleout --runs URL[,URL...] [--procs 1,2] [--seconds 120] [--json]

Measures self-play workers over object storage. For each run location and
each process count P it creates a fresh run there (a trainer process that
only collects: no teacher, the untrained default network plays), starts P
worker processes (selfplay --run --follow --workers 1), waits until the
first game lands, then counts the games and positions landed in --seconds,
and stops them all. It prints games/hour in all and per worker with a 95%
interval and positions/s, each P's positions/s per worker against P=1's at
the same location, and each location's positions/s against the first
location's (give a file:// URL first for the local-disk baseline: 1 - ratio
is the store's overhead).
Credentials for the stores come from the environment (docs/scaling.md).`

// scaleoutResult is one measurement of "bench scaleout".
type scaleoutResult struct {
	Run           string  `json:"run"`
	Procs         int     `json:"procs"`
	Seconds       float64 `json:"seconds"`
	Games         int     `json:"games"`
	Positions     int     `json:"positions"`
	GamesPerHour  float64 `json:"games_per_hour"`
	GPHLow        float64 `json:"games_per_hour_low"`
	GPHHigh       float64 `json:"games_per_hour_high"`
	PerWorker     float64 `json:"games_per_hour_per_worker"`
	PositionsPerS float64 `json:"positions_per_s"`
	// Scaling is the positions/s per worker over P=1's at the same
	// location (positions, not games: game lengths vary more than the
	// rate of play).
	Scaling float64 `json:"scaling_vs_one,omitempty"`
	// VsFirst is PositionsPerS over the first location's at the same P:
	// 1 - VsFirst is the store's overhead.
	VsFirst float64 `json:"positions_per_s_vs_first_run,omitempty"`
	Cores   int     `json:"cores"`
}

// runBenchScaleout runs "bomberzero bench scaleout".
func runBenchScaleout(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench scaleout", benchScaleoutUsage, stderr)
	runs := fs.String("runs", "", "comma-separated run locations (object-store URLs; file:///DIR for local disk), each measured")
	procs := fs.String("procs", "1,2", "comma-separated worker process counts")
	seconds := fs.Float64("seconds", 120, "measuring time of each measurement, after the first game lands")
	asJSON := fs.Bool("json", false, "one JSON object per measurement")
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	locs := splitList(*runs)
	if len(locs) == 0 {
		return fmt.Errorf("%w: --runs: give at least one object-store URL", errUsage)
	}
	for _, l := range locs {
		if !runstore.IsURL(l) {
			return fmt.Errorf("%w: --runs %q: not an object-store URL (file:///DIR measures the local disk)", errUsage, l)
		}
	}
	var ps []int
	for _, p := range splitList(*procs) {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 256 {
			return fmt.Errorf("%w: --procs %q: want counts from 1 to 256", errUsage, p)
		}
		ps = append(ps, n)
	}
	if !(*seconds >= 1 && *seconds <= 86400) {
		return fmt.Errorf("%w: --seconds %v: want 1 to 86400", errUsage, *seconds)
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	ctx, stop := stopContext()
	defer stop()
	progress := progressTo(stderr, *quiet)
	var results []scaleoutResult
	for li, loc := range locs {
		for _, p := range ps {
			res, err := measureScaleout(ctx, exe, loc, p, time.Duration(*seconds*float64(time.Second)), progress)
			if err != nil {
				return err
			}
			for _, prev := range results {
				if prev.Run == loc && prev.Procs == 1 && prev.PositionsPerS > 0 {
					res.Scaling = res.PositionsPerS / float64(p) / prev.PositionsPerS
				}
				if li > 0 && prev.Run == locs[0] && prev.Procs == p && prev.PositionsPerS > 0 {
					res.VsFirst = res.PositionsPerS / prev.PositionsPerS
				}
			}
			results = append(results, res)
			if *asJSON {
				b, _ := json.Marshal(res)
				fmt.Fprintln(stdout, string(b))
			} else {
				fmt.Fprintf(stdout, "%s, %d worker processes: %d games in %.0f s, %.0f games/h [%.0f, %.0f], %.0f per worker, %.1f positions/s",
					res.Run, res.Procs, res.Games, res.Seconds, res.GamesPerHour, res.GPHLow, res.GPHHigh, res.PerWorker, res.PositionsPerS)
				if res.Scaling > 0 {
					fmt.Fprintf(stdout, ", positions/s per worker %.2f of one worker's", res.Scaling)
				}
				if res.VsFirst > 0 {
					fmt.Fprintf(stdout, ", positions/s %.3f of %s's", res.VsFirst, locs[0])
				}
				fmt.Fprintln(stdout)
			}
		}
	}
	return nil
}

// measureScaleout is one measurement: a fresh run under loc, a trainer
// and p workers, the games landed in d after the first.
func measureScaleout(ctx context.Context, exe, loc string, p int, d time.Duration, progress io.Writer) (scaleoutResult, error) {
	tag := make([]byte, 4)
	rand.Read(tag)
	run := joinLocation(loc, fmt.Sprintf("scaleout-%d-%s", p, hex.EncodeToString(tag)))
	tmp, err := os.MkdirTemp("", "bomberzero-scaleout")
	if err != nil {
		return scaleoutResult{}, err
	}
	defer os.RemoveAll(tmp)
	var procs []*exec.Cmd
	exited := make(chan error, p+1)
	start := func(args ...string) error {
		cmd := exec.Command(exe, args...)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			return err
		}
		procs = append(procs, cmd)
		go func() { exited <- cmd.Wait() }()
		return nil
	}
	defer func() {
		for _, c := range procs {
			c.Process.Signal(syscall.SIGTERM)
		}
		for range procs {
			<-exited
		}
	}()
	if err := start("train", "--run", run, "--role", train.RoleTrainer, "--quiet", "--cache", filepath.Join(tmp, "trainer"),
		"--set", "teacher.enabled=false", "--set", "selfplay.first_model=net", "--set", "selfplay.first_games=100000000"); err != nil {
		return scaleoutResult{}, err
	}
	for i := range p {
		if err := start("selfplay", "--run", run, "--follow", "--workers", "1", "--quiet", "--cache", filepath.Join(tmp, fmt.Sprint("w", i))); err != nil {
			return scaleoutResult{}, err
		}
	}
	s, err := runstore.Open(ctx, run, runstore.Options{})
	if err != nil {
		return scaleoutResult{}, err
	}
	defer s.Close()
	fmt.Fprintf(progress, "bench scaleout: %s, %d workers: waiting for the first game\n", run, p)
	seen := map[string]bool{}
	for {
		if err := sleepCtx(ctx, time.Second); err != nil {
			return scaleoutResult{}, err
		}
		games, _, err := landedSince(ctx, s, seen)
		if err != nil {
			return scaleoutResult{}, err
		}
		if games > 0 {
			break
		}
		select {
		case err := <-exited:
			exited <- err // for the deferred wait
			return scaleoutResult{}, fmt.Errorf("bench scaleout: a trainer or worker process of %s ended before any game landed (%v)", run, err)
		default:
		}
	}
	fmt.Fprintf(progress, "bench scaleout: %s, %d workers: measuring for %s\n", run, p, d)
	t0 := time.Now()
	if err := sleepCtx(ctx, d); err != nil {
		return scaleoutResult{}, err
	}
	games, positions, err := landedSince(ctx, s, seen)
	if err != nil {
		return scaleoutResult{}, err
	}
	secs := time.Since(t0).Seconds()
	res := scaleoutResult{Run: loc, Procs: p, Seconds: secs, Games: games, Positions: positions, Cores: runtime.GOMAXPROCS(0)}
	res.GamesPerHour = float64(games) * 3600 / secs
	// A Poisson count's 95% interval (normal approximation).
	half := 1.96 * math.Sqrt(float64(max(games, 1)))
	res.GPHLow, res.GPHHigh = math.Max(0, float64(games)-half)*3600/secs, (float64(games)+half)*3600/secs
	res.PerWorker = res.GamesPerHour / float64(p)
	res.PositionsPerS = float64(positions) / secs
	return res, nil
}

// landedSince returns the games and positions of the manifest entries not
// in seen, and adds them to it.
func landedSince(ctx context.Context, s *runstore.Store, seen map[string]bool) (int, int, error) {
	objs, err := s.List(ctx, "manifest/")
	if err != nil {
		return 0, 0, err
	}
	games, positions := 0, 0
	for _, o := range objs {
		if seen[o.Key] {
			continue
		}
		raw, err := s.Read(ctx, o.Key, 64<<10)
		if err != nil {
			return 0, 0, err
		}
		var e train.ManifestEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return 0, 0, fmt.Errorf("%s: %w", o.Key, err)
		}
		seen[o.Key] = true
		games += e.Games
		positions += e.Positions
	}
	return games, positions, nil
}

// joinLocation appends a path element to a store location's prefix,
// keeping its query.
func joinLocation(loc, elem string) string {
	base, query, _ := strings.Cut(loc, "?")
	out := strings.TrimRight(base, "/") + "/" + elem
	if query != "" {
		out += "?" + query
	}
	return out
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
