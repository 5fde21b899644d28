package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Spec is an engine player's settings: its limits, table size and
// threads, as the options of a player spec write them.
type Spec struct {
	Limits  Limits
	HashMB  int
	Threads int
}

// DefaultNodes is the node limit of a spec that names no limit.
const DefaultNodes = 20000

// specKeys is the help for the keys ParseSpec reads.
const specKeys = "depth=PLIES, nodes=N, movetime=DURATION (as 100ms), hash=MB, threads=N"

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
	if s.Limits.Depth == 0 && s.Limits.Nodes == 0 && s.Limits.MoveTime == 0 {
		s.Limits.Nodes = DefaultNodes
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
	}
	return fmt.Errorf("unknown key %q; want %s", key, specKeys)
}
