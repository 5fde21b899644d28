package agent

import (
	"fmt"
	"strings"
	"sync"

	"bomberzero/engine"
)

// leafEngines lends the engine's quiescence search to the games of one
// Rules: one engine.Leaf a goroutine scoring at a time, kept on a free list
// (a Leaf keeps no table, so which one scores a position does not matter).
type leafEngines struct {
	name string
	mu   sync.Mutex
	free []*engine.Leaf
	base *engine.Leaf // forked for a goroutine that finds the list empty
}

func (l *leafEngines) get() *engine.Leaf {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.free); n > 0 {
		f := l.free[n-1]
		l.free = l.free[:n-1]
		return f
	}
	return l.base.Fork()
}

func (l *leafEngines) put(f *engine.Leaf) {
	l.mu.Lock()
	l.free = append(l.free, f)
	l.mu.Unlock()
}

// SetLeafEngine chooses what Game.Quiescence (the search's leaf material
// mix) reads: "" the capture-only material search over the piece-value
// table (the default), or an engine player spec, "engine[:KEY=VALUE...]",
// for a short search of the alpha-beta engine: its quiescence search
// alone, or depth=D plies (1 to engine.MaxLeafDepth) of full search before
// it, over the spec's evaluation (classical by default, eval=FILE a
// learned net, weights=FILE tuned classical weights). The engine's score,
// in centipawns, is read as pawns (a hundredth), so
// selfplay.leaf_material_scale applies to it as to the material. Call it
// before the rules' games are searched. An error names the option and what
// is wrong with it.
func (r *Rules) SetLeafEngine(spec string) error {
	if spec == "" {
		r.leaf = nil
		return nil
	}
	rest, ok := strings.CutPrefix(spec, "engine")
	if ok && rest != "" {
		rest, ok = strings.CutPrefix(rest, ":")
	}
	if !ok {
		return fmt.Errorf("leaf engine %q: want engine[:depth=D][:eval=FILE|classical][:weights=FILE]", spec)
	}
	es, err := engine.ParseSpec(rest)
	if err != nil {
		return fmt.Errorf("leaf engine %q: %w", spec, err)
	}
	if !es.DefaultLimit && (es.Limits.Nodes != 0 || es.Limits.MoveTime != 0) || es.Threads != 1 {
		return fmt.Errorf("leaf engine %q: a leaf search is limited by depth=D (0: the quiescence search alone, up to %d) on one thread; nodes, movetime and threads do not apply", spec, engine.MaxLeafDepth)
	}
	ev, err := es.Evaluator(r.Variant, r.table)
	if err != nil {
		return fmt.Errorf("leaf engine %q: %w", spec, err)
	}
	base, err := engine.NewLeaf(r.Variant, r.table, ev, es.Limits.Depth)
	if err != nil {
		return fmt.Errorf("leaf engine %q: %w", spec, err)
	}
	r.leaf = &leafEngines{name: spec, base: base}
	return nil
}

// LeafEngine returns what SetLeafEngine chose: "" for the material search.
func (r *Rules) LeafEngine() string {
	if r.leaf == nil {
		return ""
	}
	return r.leaf.name
}

// engineQuiescence is Quiescence by the engine: its quiescence score in
// pawns, a forced game end as quiescenceMate.
func (g *Game) engineQuiescence() float64 {
	l := g.r.leaf.get()
	s := l.Score(g.p)
	g.r.leaf.put(l)
	switch {
	case s >= engine.MateBound:
		s = quiescenceMate
	case s <= -engine.MateBound:
		s = -quiescenceMate
	}
	return float64(s) / 100
}
