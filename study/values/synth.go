package values

import (
	"bomberzero/env"
	"fmt"
	"math"
	"math/rand/v2"
)

// SyntheticModel plants piece values in a known outcome model, for proving
// and benchmarking the fits (and for a user to check the method on a
// model of their own). A game reaches a material imbalance d (White minus
// Black, per type) at ply 2 and keeps it to the end; its result is drawn
// from the model given d, so every later position's result follows the
// same law and the fits can recover the planted coefficients. Captures at
// ply 2 fall inside any opening skip of at least 4 plies.
type SyntheticModel struct {
	Pieces []string  // piece letters, e.g. P N B R Q K
	Base   []int32   // each side's starting count per type
	Loss   []float64 // per type: chance that a side has lost one piece of it (pawns: up to 3)
	Coef   []float64 // planted coefficients β per type, in tanh units
	White  float64   // planted colour term, tanh units
	// With Logistic false, E[result] = tanh(z) for z = White + Σ Coef·d,
	// and a game is drawn with chance DrawFrac·(1-|tanh z|). With Logistic
	// true, a game is decisive with chance Decisive whatever d, and White
	// then wins with chance σ(2z) (so the logistic fit's coefficients are
	// 2·Coef).
	Logistic bool
	DrawFrac float64
	Decisive float64
}

// ChessModel returns a model of chess material (P N B R Q K) planting the
// given values per pawn (default 1, 3, 3.3, 5, 9, 0) with a pawn
// coefficient of 0.2 in tanh units and a small first-move advantage.
func ChessModel(logistic bool, vals ...float64) SyntheticModel {
	m := SyntheticModel{
		Pieces:   []string{"P", "N", "B", "R", "Q", "K"},
		Base:     []int32{8, 2, 2, 2, 1, 1},
		Loss:     []float64{0.6, 0.35, 0.35, 0.3, 0.25, 0},
		White:    0.05,
		Logistic: logistic,
		DrawFrac: 0.5,
		Decisive: 0.6,
	}
	if len(vals) == 0 {
		vals = []float64{1, 3, 3.3, 5, 9, 0}
	}
	for _, v := range vals {
		m.Coef = append(m.Coef, 0.2*v)
	}
	return m
}

// z returns the model's argument from White's view for imbalance d.
func (m *SyntheticModel) z(d []int32) float64 {
	z := m.White
	for i, c := range m.Coef {
		z += c * float64(d[i])
	}
	return z
}

// Games draws n games with the given seed (variant "synthetic").
func (m *SyntheticModel) Games(n int, seed uint64) *Dataset {
	rng := rand.New(rand.NewPCG(seed, 7))
	ds := &Dataset{Pieces: m.Pieces}
	k := len(m.Pieces)
	for gi := 0; gi < n; gi++ {
		wc, bc := make([]int32, k), make([]int32, k)
		d := make([]int32, k)
		for i := range m.Pieces {
			wc[i], bc[i] = m.Base[i]-m.lose(rng, i), m.Base[i]-m.lose(rng, i)
			d[i] = wc[i] - bc[i]
		}
		z := m.z(d)
		var result int
		u := rng.Float64()
		if m.Logistic {
			if u < m.Decisive {
				result = -1
				if rng.Float64() < 1/(1+math.Exp(-2*z)) {
					result = 1
				}
			}
		} else {
			t := math.Tanh(z)
			draw := m.DrawFrac * (1 - math.Abs(t))
			pw := (1 - draw + t) / 2
			switch {
			case u < pw:
				result = 1
			case u < pw+draw:
				result = 0
			default:
				result = -1
			}
		}
		length := 8 + rng.IntN(20)
		g := Game{ID: fmt.Sprintf("g%06d", gi), Variant: "synthetic", Result: result, Length: length, Termination: env.Checkmate, Index: gi}
		if result == 0 {
			g.Termination = env.Repetition
		}
		start := append([]int32(nil), m.Base...)
		for ply := 0; ply < length; ply++ {
			p := Position{Ply: ply, WhiteToMove: ply%2 == 0, Text: fmt.Sprintf("synthetic %d %d", gi, ply),
				White: start, Black: start}
			if ply >= 2 {
				p.White, p.Black = wc, bc
			}
			g.Positions = append(g.Positions, p)
		}
		ds.Games = append(ds.Games, g)
	}
	return ds
}

// lose draws how many pieces of type i a side has lost.
func (m *SyntheticModel) lose(rng *rand.Rand, i int) int32 {
	n := int32(0)
	limit := int32(1)
	if m.Pieces[i] == "P" {
		limit = 3
	}
	for n < limit && n < m.Base[i] && rng.Float64() < m.Loss[i] {
		n++
	}
	return n
}

// Truth returns the planted value of each piece relative to the first.
func (m *SyntheticModel) Truth() map[string]float64 {
	t := map[string]float64{}
	for i, p := range m.Pieces {
		t[p] = m.Coef[i] / m.Coef[0]
	}
	return t
}
