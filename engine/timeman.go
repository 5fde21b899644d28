package engine

import "time"

// moveOverhead is kept back from every clock budget for the time the
// move takes to reach the opponent.
const moveOverhead = 10 * time.Millisecond

// budget returns the time the search aims to spend (soft: no new iteration
// starts after 60% of it) and the most it may spend (hard: the search
// stops), from the limits; zero for none. A fixed time a move has only the
// hard limit: the search uses all of it.
func budget(l Limits) (soft, hard time.Duration) {
	if l.MoveTime > 0 {
		return 0, l.MoveTime
	}
	if !l.clocked() {
		return 0, 0
	}
	mtg := l.MovesToGo
	if mtg <= 0 || mtg > 40 {
		mtg = 40
	}
	left := max(l.Time-moveOverhead, time.Millisecond)
	soft = left/time.Duration(mtg) + l.Inc*3/4
	hard = min(soft*4, left*2/3)
	if mtg == 1 {
		hard = left * 9 / 10
	}
	soft = min(soft, hard)
	return max(soft, time.Millisecond), max(hard, time.Millisecond)
}
