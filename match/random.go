package match

import (
	"fmt"
	"math/rand/v2"

	"bomberzero/env"
)

// Random plays a uniformly random legal move; its choices follow its seed.
type Random struct {
	rng *rand.Rand
	buf []env.Move
}

// NewRandom returns a Random player seeded by seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, 0x72616e646f6d)), buf: make([]env.Move, 0, env.MaxMoves)}
}

// Name returns "random".
func (r *Random) Name() string { return "random" }

// Meter is MeterThread: the player moves on its caller's goroutine.
func (r *Random) Meter() Meter { return MeterThread }

// Choose returns a uniformly random legal move.
func (r *Random) Choose(pos *env.Position) (env.Move, error) {
	r.buf = pos.LegalMoves(r.buf[:0])
	if len(r.buf) == 0 {
		return env.NoMove, fmt.Errorf("random: no legal move in %s", pos)
	}
	return r.buf[r.rng.IntN(len(r.buf))], nil
}
