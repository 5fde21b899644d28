// Package external makes an outside UCI engine (Stockfish, Fairy-Stockfish,
// another build of bomberzero) a player of package match, as cutechess-cli
// does: a new game ("ucinewgame") on the process of a game that ended in
// order, or a fresh process, every move it sends checked by
// bomberzero's rules, and an engine that crashes, hangs or plays an illegal
// move losing that game with the reason recorded (match.ForfeitError),
// never the match (docs/match.md).
package external

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"bomberzero/env"
	"bomberzero/match"
)

// Prefix starts every outside engine's player spec: "uci:PATH[:OPTIONS]".
const Prefix = "uci:"

// Limits on the numbers a spec may give.
const (
	// MaxMoveTime is the longest time a move a spec may ask for.
	MaxMoveTime = time.Hour
	// MaxNodes is the largest node count a move a spec may ask for.
	MaxNodes = int64(1) << 40
	// MaxDepth is the deepest fixed-depth search a spec may ask for.
	MaxDepth = 200
	// DefaultGrace is how long past its own limit an engine may take to
	// answer before it forfeits the game as hung.
	DefaultGrace = 5 * time.Second
)

// Config is one outside engine player: the program, the UCI options to set
// and the limit of each move's search.
type Config struct {
	// Path is the engine's program (looked up on PATH and in /usr/games
	// when it has no "/").
	Path string
	// Options are the UCI options set after the handshake, in spec order,
	// each as "setoption name NAME value VALUE".
	Options []Option
	// MoveTime, Nodes and Depth limit each search ("go movetime N",
	// "go nodes N", "go depth N"); at least one is set. With more than one,
	// all are sent and the engine stops at the first reached.
	MoveTime time.Duration
	Nodes    int64
	Depth    int
	// Grace is how long past MoveTime (or past its start, for a node or
	// depth limit) the engine may take to send its best move before it
	// forfeits as hung.
	Grace time.Duration
	// Variant is the engine's name of the variant (sent as UCI_Variant when
	// it is not "" and not "chess"); "" uses bomberzero's variant name.
	Variant string
}

// Keys returns the keys of a spec that are bomberzero's own (ParseSpec);
// every other key is a UCI option of the engine. The commands' help lists
// them.
func Keys() []string { return []string{"movetime", "nodes", "depth", "grace", "variant"} }

// Option is one UCI option a spec sets.
type Option struct {
	Name, Value string
}

// ParseSpec reads the part of a player spec after "uci:":
//
//	PATH[:KEY=VALUE,KEY=VALUE,...]
//
// where the keys movetime (as "100ms" or "100", milliseconds), nodes,
// depth, grace (a duration) and variant are bomberzero's, and every other
// key is a UCI option of the engine, as "UCI_LimitStrength=true,UCI_Elo=1800"
// or "Threads=1,Hash=16". Without a limit a move gets movetime=100ms.
func ParseSpec(rest string) (Config, error) {
	path, opts, _ := strings.Cut(rest, ":")
	cfg := Config{Path: strings.TrimSpace(path), Grace: DefaultGrace}
	if cfg.Path == "" {
		return Config{}, fmt.Errorf("no engine program: want uci:PATH[:KEY=VALUE,...]")
	}
	if strings.TrimSpace(opts) != "" {
		for _, kv := range strings.Split(opts, ",") {
			k, val, ok := strings.Cut(kv, "=")
			k, val = strings.TrimSpace(k), strings.TrimSpace(val)
			if !ok || k == "" {
				return Config{}, fmt.Errorf("option %q: want KEY=VALUE", kv)
			}
			if err := cfg.set(k, val); err != nil {
				return Config{}, fmt.Errorf("option %q: %w", kv, err)
			}
		}
	}
	if cfg.MoveTime == 0 && cfg.Nodes == 0 && cfg.Depth == 0 {
		cfg.MoveTime = 100 * time.Millisecond
	}
	return cfg, nil
}

// set applies one KEY=VALUE of a spec.
func (c *Config) set(k, v string) error {
	switch strings.ToLower(k) {
	case "movetime":
		d, err := parseMillis(v)
		if err != nil || d <= 0 || d > MaxMoveTime {
			return fmt.Errorf("movetime %q is not a duration from 1ms to %v (as 100ms, or 100 for milliseconds)", v, MaxMoveTime)
		}
		c.MoveTime = d
	case "nodes":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 || n > MaxNodes {
			return fmt.Errorf("nodes %q is not a whole number from 1 to %d", v, MaxNodes)
		}
		c.Nodes = n
	case "depth":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxDepth {
			return fmt.Errorf("depth %q is not a whole number from 1 to %d", v, MaxDepth)
		}
		c.Depth = n
	case "grace":
		d, err := parseMillis(v)
		if err != nil || d < 0 || d > MaxMoveTime {
			return fmt.Errorf("grace %q is not a duration from 0 to %v", v, MaxMoveTime)
		}
		c.Grace = d
	case "variant":
		if v == "" || strings.ContainsAny(v, " \t\r\n") {
			return fmt.Errorf("variant %q: want one word", v)
		}
		c.Variant = v
	default:
		if strings.ContainsAny(k+v, "\r\n") {
			return fmt.Errorf("a UCI option holds no line break")
		}
		c.Options = append(c.Options, Option{Name: k, Value: v})
	}
	return nil
}

// parseMillis reads a Go duration ("100ms", "1.5s") or a bare number of
// milliseconds ("100").
func parseMillis(v string) (time.Duration, error) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n > int64(MaxMoveTime/time.Millisecond) || n < -int64(MaxMoveTime/time.Millisecond) {
			return 0, fmt.Errorf("out of range")
		}
		return time.Duration(n) * time.Millisecond, nil
	}
	return time.ParseDuration(v)
}

// goCommand is the "go" line of one search under c's limits.
func (c *Config) goCommand() string {
	s := "go"
	if c.Depth > 0 {
		s += " depth " + strconv.Itoa(c.Depth)
	}
	if c.Nodes > 0 {
		s += " nodes " + strconv.FormatInt(c.Nodes, 10)
	}
	if c.MoveTime > 0 {
		s += " movetime " + strconv.FormatInt(c.MoveTime.Milliseconds(), 10)
	}
	return s
}

// deadline is how long a search may take before the engine forfeits: its
// movetime (or, for node and depth limits, a minute) plus the grace.
func (c *Config) deadline() time.Duration {
	limit := c.MoveTime
	if limit == 0 {
		limit = time.Minute
	}
	return limit + c.Grace
}

// Loader is the match.EngineLoader of the command-line tools: it reads a
// whole "uci:..." spec and checks the engine (NewMaker) before the match.
func Loader(ctx context.Context) match.EngineLoader {
	return func(v *env.Variant, spec string) (match.Maker, error) {
		rest, ok := strings.CutPrefix(spec, Prefix)
		if !ok {
			return match.Maker{}, fmt.Errorf("not an outside engine's spec (want %sPATH[:KEY=VALUE,...])", Prefix)
		}
		cfg, err := ParseSpec(rest)
		if err != nil {
			return match.Maker{}, fmt.Errorf("%w: %w", err, match.ErrBadSpec)
		}
		return NewMaker(ctx, spec, cfg, v)
	}
}
