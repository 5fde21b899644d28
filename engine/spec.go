package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"bomberzero/engine/nnue"
	"bomberzero/env"
)

// Spec is an engine player's settings: its limits, table size and
// threads, as the options of a player spec write them.
type Spec struct {
	Limits  Limits
	HashMB  int
	Threads int
	// Weights, when not nil, are the classical evaluation's weights, read
	// from the file WeightsFile (tuned on variant WeightsVariant, if it
	// says); nil is DefaultWeights.
	Weights        *Weights
	WeightsFile    string
	WeightsVariant string
	// Net, when not nil, is the learned evaluation's net, read from the
	// file NetFile (eval=FILE); it takes the place of the classical
	// evaluation.
	Net     *nnue.Net
	NetFile string
	// DefaultLimit says that the spec named no depth, nodes or movetime,
	// so that Limits is DefaultNodes nodes: a caller with its own default
	// (analysis) replaces it, and an explicit nodes=DefaultNodes is kept.
	DefaultLimit bool
}

// DefaultNodes is the node limit of a spec that names no limit.
const DefaultNodes = 20000

// specKeys is the help for the keys ParseSpec reads.
const specKeys = "depth=PLIES, nodes=N, movetime=DURATION (as 100ms), hash=MB, threads=N, weights=FILE (classical weights from bomberzero tune), eval=classical or eval=FILE (a learned net from engine/nnue)"

// ParseSpec reads the options of an engine player spec, the text after
// "engine:": keys joined by ":", as "nodes=5000:hash=16:threads=1" or
// "movetime=100ms". Without depth, nodes or movetime the limit is
// DefaultNodes nodes. Each error names the option and what it should be.
func ParseSpec(text string) (Spec, error) {
	s := Spec{HashMB: 16, Threads: 1}
	seen := map[string]bool{}
	if strings.TrimSpace(text) != "" {
		for _, item := range strings.Split(text, ":") {
			key, val, ok := strings.Cut(strings.TrimSpace(item), "=")
			if !ok {
				return Spec{}, fmt.Errorf("engine option %q: want KEY=VALUE, one of %s", item, specKeys)
			}
			if seen[key] {
				return Spec{}, fmt.Errorf("engine option %q: %s given twice", item, key)
			}
			seen[key] = true
			if err := s.set(key, val); err != nil {
				return Spec{}, fmt.Errorf("engine option %q: %w", item, err)
			}
		}
	}
	if s.Net != nil && s.Weights != nil {
		return Spec{}, fmt.Errorf("engine options weights=%s and eval=%s: classical weights and a learned net exclude each other; give one", s.WeightsFile, s.NetFile)
	}
	if s.Limits.Depth == 0 && s.Limits.Nodes == 0 && s.Limits.MoveTime == 0 {
		s.Limits.Nodes, s.DefaultLimit = DefaultNodes, true
	}
	return s, nil
}

// set reads one option.
func (s *Spec) set(key, val string) error {
	whole := func(lo, hi int64) (int64, error) {
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("%s %q: want a whole number from %d to %d", key, val, lo, hi)
		}
		return n, nil
	}
	switch key {
	case "depth":
		n, err := whole(1, MaxDepth)
		s.Limits.Depth = int(n)
		return err
	case "nodes":
		n, err := whole(1, MaxNodes)
		s.Limits.Nodes = n
		return err
	case "movetime":
		d, err := time.ParseDuration(val)
		if err != nil {
			if ms, e := strconv.ParseInt(val, 10, 64); e == nil {
				d, err = time.Duration(ms)*time.Millisecond, nil
			}
		}
		if err != nil || d < time.Millisecond || d > MaxMoveTime {
			return fmt.Errorf("movetime %q: want a duration from 1ms to %v, as 100ms", val, MaxMoveTime)
		}
		s.Limits.MoveTime = d
		return nil
	case "hash":
		hi := int64(MaxHashMB)
		if total := totalMemoryMB(); total > 0 {
			hi = min(hi, int64(total/2)) // half of this machine's memory
		}
		n, err := whole(1, hi)
		s.HashMB = int(n)
		return err
	case "threads":
		n, err := whole(1, MaxThreads)
		s.Threads = int(n)
		return err
	case "weights":
		if val == "" {
			return fmt.Errorf("weights: want the path of a weights file")
		}
		f, err := ReadWeightsFile(val)
		if err != nil {
			return err
		}
		s.Weights, s.WeightsFile, s.WeightsVariant = &f.Weights, val, f.Variant
		return nil
	case "eval":
		switch val {
		case "":
			return fmt.Errorf("eval: want classical or the path of a net file")
		case "classical":
			return nil
		}
		n, err := nnue.ReadFile(val)
		if err != nil {
			return err
		}
		s.Net, s.NetFile = n, val
		return nil
	}
	return fmt.Errorf("unknown key %q; want %s", key, specKeys)
}

// Evaluator returns the evaluation the spec names for variant v over
// piece table table: the learned evaluation of the spec's net, else nil
// (the engine's default) without weights, else the classical evaluation
// with the spec's weights. Weights or a net for another variant are
// refused, naming the file and both variants.
func (s Spec) Evaluator(v *env.Variant, table []int32) (Evaluator, error) {
	if s.Net != nil {
		ev, err := NewLearned(v, s.Net, learnedName(s.NetFile))
		if err != nil {
			return nil, fmt.Errorf("net file %s: %w", s.NetFile, err)
		}
		return ev, nil
	}
	if s.Weights == nil {
		return nil, nil
	}
	if s.WeightsVariant != "" && s.WeightsVariant != v.Name {
		return nil, fmt.Errorf("weights file %s: tuned on variant %s, not %s", s.WeightsFile, s.WeightsVariant, v.Name)
	}
	ev, err := NewClassical(v, table, *s.Weights)
	if err != nil {
		return nil, fmt.Errorf("weights file %s: %w", s.WeightsFile, err)
	}
	return ev, nil
}
