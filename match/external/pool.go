package external

import (
	"sync"
	"time"
)

// idleKeep is how long the process of a finished game waits for its
// Maker's next game before it is ended.
const idleKeep = 5 * time.Second

// pool keeps the processes of one Maker's finished games for its next
// games, as cutechess-cli keeps an engine running between games: a new game
// sends "ucinewgame" instead of starting the program again (for Stockfish,
// a quarter of a second of CPU a game, more than its moves take at a small
// node limit). Only a process whose last search ended with a legal move is
// kept; one that waits longer than its keep (idleKeep) is ended, so a pool holds at
// most as many processes as its Maker had games at once, and none for long.
type pool struct {
	// keep is how long a process waits for the next game (idleKeep when 0).
	keep time.Duration
	mu   sync.Mutex
	idle []*idleProcess
}

// idleProcess is one kept process and the timer that ends it.
type idleProcess struct {
	proc  *process
	timer *time.Timer
}

// get returns a kept process that is still running, or nil.
func (q *pool) get() *process {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.idle) > 0 {
		ip := q.idle[len(q.idle)-1]
		q.idle = q.idle[:len(q.idle)-1]
		ip.timer.Stop() // a timer that fired already finds ip gone and leaves it
		if ip.proc.alive() {
			return ip.proc
		}
		go ip.proc.close()
	}
	return nil
}

// put keeps proc for the next game, or ends it when it has exited.
func (q *pool) put(proc *process) {
	if !proc.alive() {
		proc.close()
		return
	}
	ip := &idleProcess{proc: proc}
	q.mu.Lock()
	defer q.mu.Unlock()
	keep := q.keep
	if keep <= 0 {
		keep = idleKeep
	}
	ip.timer = time.AfterFunc(keep, func() { q.expire(ip) })
	q.idle = append(q.idle, ip)
}

// expire ends ip's process if it is still kept.
func (q *pool) expire(ip *idleProcess) {
	q.mu.Lock()
	for i, x := range q.idle {
		if x == ip {
			q.idle = append(q.idle[:i], q.idle[i+1:]...)
			q.mu.Unlock()
			ip.proc.close()
			return
		}
	}
	q.mu.Unlock()
}
