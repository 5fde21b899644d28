package engine

import (
	"fmt"
	"time"
)

// Limits say when a search stops. Zero fields are no limit; a search with
// none at all (and not Infinite) stops at MaxDepth. The first limit reached
// ends it; a stop from the caller (the context) ends it at any time.
type Limits struct {
	// Depth is the last iteration's depth in plies (1 to MaxDepth).
	Depth int
	// Nodes caps the positions visited, quiescence included. With one
	// thread, a node limit makes the search deterministic.
	Nodes int64
	// MoveTime is the time for this move.
	MoveTime time.Duration
	// Time and Inc are the side to move's clock and increment, MovesToGo
	// the moves left to the next time control (0: sudden death); the
	// search budgets its move from them.
	Time, Inc time.Duration
	MovesToGo int
	// Infinite searches until stopped, whatever MaxDepth.
	Infinite bool
}

// MaxDepth is the deepest iteration a search makes.
const MaxDepth = MaxPly - 28

// MaxNodes bounds a node limit.
const MaxNodes = int64(1) << 50

// MaxMoveTime bounds a time limit.
const MaxMoveTime = 24 * time.Hour

// Validate checks every field's range, naming the bad one and what it
// should be.
func (l Limits) Validate() error {
	switch {
	case l.Depth < 0 || l.Depth > MaxDepth:
		return fmt.Errorf("depth %d: want 1 to %d (0: no depth limit)", l.Depth, MaxDepth)
	case l.Nodes < 0 || l.Nodes > MaxNodes:
		return fmt.Errorf("nodes %d: want 1 to %d (0: no node limit)", l.Nodes, MaxNodes)
	case l.MoveTime < 0 || l.MoveTime > MaxMoveTime:
		return fmt.Errorf("movetime %v: want 1ms to %v (0: no time limit)", l.MoveTime, MaxMoveTime)
	case l.Time < 0 || l.Time > MaxMoveTime*30:
		return fmt.Errorf("clock time %v: want 0 to %v", l.Time, MaxMoveTime*30)
	case l.Inc < 0 || l.Inc > MaxMoveTime:
		return fmt.Errorf("increment %v: want 0 to %v", l.Inc, MaxMoveTime)
	case l.MovesToGo < 0 || l.MovesToGo > 10000:
		return fmt.Errorf("moves to go %d: want 0 to 10000 (0: sudden death)", l.MovesToGo)
	}
	return nil
}

// clocked says whether the limits include a clock.
func (l Limits) clocked() bool { return l.Time > 0 || l.Inc > 0 }
