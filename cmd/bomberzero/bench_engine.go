package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/internal/cputime"
	"bomberzero/match"
	"bomberzero/match/external"
)

// engineBenchResult is one line of "bomberzero bench engine".
type engineBenchResult struct {
	Variant   string `json:"variant"`
	Threads   int    `json:"threads"`
	Positions int    `json:"positions"`
	Nodes     int64  `json:"nodes"`
	// NPS is nodes per wall second, CPUNPS per CPU-second of this process
	// (the steadier one on a shared machine); every node counts,
	// quiescence included.
	NPS    float64 `json:"nps"`
	CPUNPS float64 `json:"cpu_nps"`
	// MovegenCPURate is full legal-move generations per CPU-second on the
	// same positions, and NodesPerMovegen CPUNPS over it (the target: 1 or
	// more).
	MovegenCPURate  float64 `json:"movegen_cpu_rate"`
	NodesPerMovegen float64 `json:"nodes_per_movegen"`
	// FairyCPUNPS is Fairy-Stockfish's own bench (orthodox chess) in nodes
	// per CPU-second of its process, and OverFairy CPUNPS over it; absent
	// without fairy-stockfish.
	FairyCPUNPS float64 `json:"fairy_cpu_nps,omitempty"`
	OverFairy   float64 `json:"over_fairy,omitempty"`
	// FairyMovegenCPURate is Fairy-Stockfish's full legal-move generations
	// per CPU-second in its own perft from chess's start, and
	// FairyNodesPerMovegen its bench rate over it: the reference engine's
	// own ratio, the yardstick for NodesPerMovegen.
	FairyMovegenCPURate  float64 `json:"fairy_movegen_cpu_rate,omitempty"`
	FairyNodesPerMovegen float64 `json:"fairy_nodes_per_movegen,omitempty"`
}

// runBenchEngine measures the alpha-beta engine's speed, one thread,
// against move generation and Fairy-Stockfish in the same run.
func runBenchEngine(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench engine", "usage: bomberzero bench engine [flags]\n\nMeasures the alpha-beta engine's nodes/s (one thread, quiescence included) on\npositions from seeded random games, beside the rate of full legal-move\ngenerations on the same positions and, when fairy-stockfish is on PATH,\nFairy-Stockfish's own bench nodes/s: as ratios, all in one run.", stderr)
	variants := fs.String("variants", "fbgc,chess", "comma-separated variants")
	nodes := fs.Int64("nodes", 50000, "node limit of each position's search (all threads together)")
	threads := fs.Int("threads", 1, "search threads (Lazy SMP); compare nps at 1 and 2 on an idle machine")
	positions := fs.Int("positions", 12, "positions per variant")
	genTime := fs.Duration("movegen-time", time.Second, "measuring time of the move generation rate")
	fairy := fs.String("fairy", "fairy-stockfish", "Fairy-Stockfish binary for its bench (\"\" skips it)")
	fairyDepth := fs.Int("fairy-perft", 6, "depth of Fairy-Stockfish's perft from chess's start that measures its move generation rate (1 to 7)")
	asJSON := fs.Bool("json", false, "print JSON lines")
	quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *nodes < 1 || *positions < 1 {
		return fmt.Errorf("%w: --nodes and --positions must be at least 1", errUsage)
	}
	if *fairyDepth < 1 || *fairyDepth > 7 {
		return fmt.Errorf("%w: --fairy-perft %d: want 1 to 7", errUsage, *fairyDepth)
	}
	if *threads < 1 || *threads > engine.MaxThreads {
		return fmt.Errorf("%w: --threads %d: want 1 to %d", errUsage, *threads, engine.MaxThreads)
	}
	fairyNPS, fairyGen := 0.0, 0.0
	if *fairy != "" {
		path, err := external.LookPath(*fairy)
		if err != nil {
			fmt.Fprintf(stderr, "no Fairy-Stockfish: %v (its bench skipped; --fairy names the binary, Debian puts it in /usr/games)\n", err)
		} else if fairyNPS, err = fairyBench(path); err != nil {
			fmt.Fprintf(stderr, "fairy-stockfish bench: %v (skipped)\n", err)
		} else if fairyGen, err = fairyMovegen(path, *fairyDepth); err != nil {
			fmt.Fprintf(stderr, "fairy-stockfish perft: %v (its ratio skipped)\n", err)
		}
	}
	for _, name := range strings.Split(*variants, ",") {
		v, err := env.LoadVariant(strings.TrimSpace(name))
		if err != nil {
			return fmt.Errorf("%w: --variants: %v", errUsage, err)
		}
		res, err := benchEngine(v, *threads, *nodes, *positions, *genTime)
		if err != nil {
			return err
		}
		if fairyNPS > 0 {
			res.FairyCPUNPS, res.OverFairy = fairyNPS, res.CPUNPS/fairyNPS
		}
		if fairyGen > 0 {
			res.FairyMovegenCPURate, res.FairyNodesPerMovegen = fairyGen, fairyNPS/fairyGen
		}
		if *asJSON {
			if err := json.NewEncoder(stdout).Encode(res); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(stdout, "%-15s %d thread(s), %d positions, %d nodes: nps=%.0fk cpu_nps=%.0fk; movegen %.0fk/cpu-s, nodes/movegen %.2f",
			res.Variant, res.Threads, res.Positions, res.Nodes, res.NPS/1e3, res.CPUNPS/1e3, res.MovegenCPURate/1e3, res.NodesPerMovegen)
		if fairyNPS > 0 {
			fmt.Fprintf(stdout, "; fairy-stockfish bench %.0fk/cpu-s, engine/fairy %.2f", fairyNPS/1e3, res.OverFairy)
		}
		if fairyGen > 0 {
			fmt.Fprintf(stdout, "; fairy-stockfish movegen %.0fk/cpu-s, its nodes/movegen %.2f", fairyGen/1e3, res.FairyNodesPerMovegen)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

// benchEngine searches n positions of v from seeded random games with
// the given threads, each from a cleared table, and times move generation
// on them.
func benchEngine(v *env.Variant, threads int, nodes int64, n int, genTime time.Duration) (engineBenchResult, error) {
	table, err := agent.DefaultValues().Table(v)
	if err != nil {
		return engineBenchResult{}, err
	}
	var sample []*env.Position
	for g := uint64(0); len(sample) < n && g < 100; g++ {
		r := match.NewRandom(g)
		p := v.NewPosition()
		for ply := 0; ply < 60 && len(sample) < n; ply++ {
			if res, _ := p.Status(); res != env.Ongoing {
				break
			}
			if ply%6 == 0 {
				sample = append(sample, p.Clone())
			}
			m, err := r.Choose(p)
			if err != nil {
				return engineBenchResult{}, err
			}
			p.DoMove(m)
		}
	}
	e, err := engine.New(v, engine.Options{HashMB: 16, Threads: threads, Table: table})
	if err != nil {
		return engineBenchResult{}, err
	}
	res := engineBenchResult{Variant: v.Name, Threads: threads, Positions: len(sample)}
	var wall, cpu float64
	for _, p := range sample {
		e.Clear()
		start, c0 := time.Now(), cputime.Seconds()
		r, err := e.Search(context.Background(), p, engine.Limits{Nodes: nodes}, nil)
		if err != nil {
			return res, err
		}
		wall += time.Since(start).Seconds()
		cpu += cputime.Seconds() - c0
		res.Nodes += r.Nodes
	}
	res.NPS, res.CPUNPS = float64(res.Nodes)/max(wall, 1e-9), float64(res.Nodes)/max(cpu, 1e-9)
	buf := make([]env.Move, 0, env.MaxMoves)
	gens := 0
	start, c0 := time.Now(), cputime.Seconds()
	for gens == 0 && len(sample) > 0 || time.Since(start) < genTime { // one round at least, whatever the clock
		for _, p := range sample {
			buf = p.LegalMoves(buf[:0])
			gens++
		}
	}
	res.MovegenCPURate = float64(gens) / max(cputime.Seconds()-c0, 1e-9)
	res.NodesPerMovegen = res.CPUNPS / res.MovegenCPURate
	return res, nil
}

// fairyBench runs "fairy-stockfish bench" (orthodox chess, one thread,
// its default depth) and returns its nodes per CPU-second of its process.
func fairyBench(path string) (float64, error) {
	nodes, cpu, err := runFairy(path, nil, "bench")
	if err != nil {
		return 0, fmt.Errorf("%s bench: %w", path, err)
	}
	return float64(nodes) / cpu, nil
}

// fairyMovegen runs Fairy-Stockfish's "go perft depth" from orthodox
// chess's start and returns its full legal-move generations per CPU-second
// of its process, less the CPU of a process that only starts, counts a
// perft of one ply and quits.
// Its perft counts the last ply in bulk, so it generates the legal moves of
// every position above that ply: perft(0) + ... + perft(depth-1), which
// env counts; the leaves it reports must be env's perft(depth) too, which
// its leaf count checks for depths env counts quickly.
func fairyMovegen(path string, depth int) (float64, error) {
	if depth < 1 {
		return 0, fmt.Errorf("perft depth %d: want at least 1 (a perft of no plies generates nothing)", depth)
	}
	start, err := env.LoadVariant("chess")
	if err != nil {
		return 0, err
	}
	p := start.NewPosition()
	var gens uint64
	for k := 0; k < depth; k++ {
		gens += p.Perft(k)
	}
	perft := func(d int) (int64, float64, error) {
		return runFairy(path, []string{"position startpos", "go perft " + strconv.Itoa(d)})
	}
	leaves, cpu, err := perft(depth)
	if err != nil {
		return 0, fmt.Errorf("%s perft %d: %w", path, depth, err)
	}
	if depth <= 5 {
		if want := p.Perft(depth); uint64(leaves) != want {
			return 0, fmt.Errorf("%s perft %d counted %d leaves, env %d: not the same game", path, depth, leaves, want)
		}
	}
	_, idle, err := perft(1)
	if err != nil {
		return 0, fmt.Errorf("%s perft 1: %w", path, err)
	}
	if cpu -= idle; cpu <= 0 {
		return 0, fmt.Errorf("%s perft %d took no more CPU than starting it (%.3f s): raise --fairy-perft", path, depth, idle)
	}
	return float64(gens) / cpu, nil
}

// runFairy runs the engine with the command-line arguments args and the
// lines on its standard input followed by "quit", and returns the count of
// its "Nodes searched" line, which it must print, and its process's CPU
// seconds.
func runFairy(path string, lines []string, args ...string) (int64, float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = strings.NewReader(strings.Join(append(lines, "quit"), "\n") + "\n")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return 0, 0, err
	}
	var nodes int64
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if k, val, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "Nodes searched" {
			nodes, _ = strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		}
	}
	cpu := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	if nodes <= 0 || cpu <= 0 {
		return 0, 0, fmt.Errorf("no \"Nodes searched\" line in its output")
	}
	return nodes, cpu, nil
}
