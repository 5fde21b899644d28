package session

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"bomberzero/engine"
	"bomberzero/engine/nnue"
	"bomberzero/env"
	"bomberzero/frontend"
	"bomberzero/mcts"
)

// DefaultEngineNodes is the node limit of an engine search given no
// limit at all (a bare "go"): the engine player's default
// (engine.DefaultNodes).
const DefaultEngineNodes = engine.DefaultNodes

// setEngineOption stores a checked whole number into one of the engine's
// options; the engine is rebuilt with it by the next search that needs a
// new one (a running search keeps its engine).
func (s *Session) setEngineOption(field *int, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return err
	}
	s.engMu.Lock()
	defer s.engMu.Unlock()
	*field = n
	return nil
}

// HashMB is the option Hash: the engine's table in megabytes.
func (s *Session) HashMB() int {
	s.engMu.Lock()
	defer s.engMu.Unlock()
	return s.hashMB
}

// Threads is the option Threads: the engine's search threads.
func (s *Session) Threads() int {
	s.engMu.Lock()
	defer s.engMu.Unlock()
	return s.threads
}

// setEvalFile is the option EvalFile: "" or "classical" is the classical
// evaluation, anything else the path of a learned net, read and checked
// now (a bad file leaves the option as it was); the engine is rebuilt with
// it by the next search.
func (s *Session) setEvalFile(path string) error {
	var net *nnue.Net
	if path != "" && path != "classical" {
		n, err := nnue.ReadFile(path)
		if err != nil {
			return err
		}
		net = n
	} else {
		path = ""
	}
	s.engMu.Lock()
	defer s.engMu.Unlock()
	s.net, s.netFile = net, path
	return nil
}

// EvalFile is the option EvalFile: the learned net's file, or "" for the
// classical evaluation.
func (s *Session) EvalFile() string {
	s.engMu.Lock()
	defer s.engMu.Unlock()
	return s.netFile
}

// MultiPV is the option MultiPV: the engine's best lines reported.
func (s *Session) MultiPV() int {
	s.engMu.Lock()
	defer s.engMu.Unlock()
	return s.multiPV
}

// NewGame stops any search and makes the engine forget what it learnt in
// earlier searches (its table and move order), as a new game asks.
func (s *Session) NewGame() {
	s.Stop()
	s.engMu.Lock()
	defer s.engMu.Unlock()
	if s.eng != nil {
		s.eng.Clear()
	}
}

// engineFor returns the engine for the variant played with the options
// Hash, Threads and EvalFile, building a new one only when one of them
// changed, and the option MultiPV. A net of another variant than v is
// refused here, naming the file and both variants.
func (s *Session) engineFor(v *env.Variant) (*engine.Engine, int, error) {
	s.engMu.Lock()
	defer s.engMu.Unlock()
	// The variant by its address: a variant loaded again is another one to
	// the engine.
	key := fmt.Sprintf("%p/%d/%d/%p", v, s.hashMB, s.threads, s.net)
	if s.eng == nil || s.engKey != key {
		s.eng = nil // the old table may go before the new one is made
		e, err := frontend.NewEngine(v, engine.Spec{HashMB: s.hashMB, Threads: s.threads, Net: s.net, NetFile: s.netFile})
		if err != nil {
			return nil, 0, err
		}
		s.eng, s.engKey = e, key
		s.limitMemory()
	}
	return s.eng, s.multiPV, nil
}

// searchEngine is Search with the alpha-beta engine within lim.
func (s *Session) searchEngine(ctx context.Context, pos *env.Position, legal []env.Move, lim engine.Limits, each func(Info)) (env.Move, error) {
	e, lines, err := s.engineFor(pos.Variant())
	if err != nil {
		return legal[0], fmt.Errorf("model %q: %w", EngineModel, err)
	}
	if err := e.SetMultiPV(lines); err != nil {
		return legal[0], fmt.Errorf("MultiPV: %w", err)
	}
	var report func(engine.Info)
	if each != nil {
		report = func(i engine.Info) {
			each(s.engineInfo(pos, i, lines))
		}
	}
	res, err := e.Search(ctx, pos, lim, report)
	if err != nil {
		return legal[0], err
	}
	return res.Move, nil
}

// engineInfo reads one line of an engine iteration for the protocols.
func (s *Session) engineInfo(pos *env.Position, i engine.Info, lines int) Info {
	out := Info{
		Depth: i.Depth, SelDepth: i.SelDepth, Nodes: int(i.Nodes), NPS: i.NPS, HashFull: i.HashFull,
		Elapsed: i.Time, Mate: engine.MateMoves(i.Score), Centipawns: int(i.Score), Engine: true,
		PV: s.formatLine(pos, i.PV),
	}
	if lines > 1 {
		out.MultiPV = i.MultiPV
	}
	return out
}

// formatLine writes a line of moves of pos in the session's notation.
func (s *Session) formatLine(pos *env.Position, line []env.Move) []string {
	q := pos.Clone()
	out := make([]string, 0, len(line))
	for _, m := range line {
		out = append(out, s.moves.FormatMove(q, m))
		q.DoMove(m)
	}
	return out
}

// EngineLimits are the limits of an engine search read from a protocol's
// clock: the side to move's time left and increment and the moves to the
// next time control, in milliseconds as UCI sends them; negative values
// are refused by the engine's own check (engine.Limits.Validate).
func EngineLimits(timeMS, incMS, movesToGo int) engine.Limits {
	return engine.Limits{Time: time.Duration(timeMS) * time.Millisecond, Inc: time.Duration(incMS) * time.Millisecond, MovesToGo: movesToGo}
}

// MemorySlackMB is the room the soft memory limit (limitMemory) leaves
// above the search tree's cap and the engine's table: the model, the
// evaluation cache, the old copy of a tree's nodes while they grow.
const MemorySlackMB = 512

// MemoryLimit is the soft memory limit of a session: the search tree's cap
// (treeMB, mcts.Config.TreeMemoryMB, 0 for its default) plus the engine's
// table (hashMB) plus MemorySlackMB, in bytes.
func MemoryLimit(treeMB, hashMB int) int64 {
	if treeMB == 0 {
		treeMB = mcts.DefaultTreeMemoryMB
	}
	return int64(treeMB+hashMB+MemorySlackMB) << 20
}

// limitMemory sets Go's soft memory limit (runtime/debug.SetMemoryLimit)
// to MemoryLimit of the session's tree cap and Hash, so the collector
// frees a growing tree's old copies before the heap doubles and a long
// search ("go infinite") peaks near its cap; GOMEMLIMIT in the
// environment, when set, is left to rule. The caller holds engMu.
func (s *Session) limitMemory() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(MemoryLimit(s.base.TreeMemoryMB, s.hashMB))
}
