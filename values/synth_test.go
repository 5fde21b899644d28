package values

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// synthModel plants piece values in a known outcome model. A game reaches
// a material imbalance d (White minus Black, per type) at ply 2 and keeps it
// to the end; its result is drawn from the model given d, so every later
// position's result follows the same law and the fits can recover the
// planted coefficients. Captures at ply 2 fall inside the skipped opening.
type synthModel struct {
	pieces []string  // piece letters, e.g. P N B R Q K
	base   []int32   // each side's starting count per type
	loss   []float64 // per type: chance that a side has lost one piece of it (pawns: up to 3)
	coef   []float64 // planted coefficients β per type, in tanh units
	white  float64   // planted colour term, tanh units
	// outcome "tanh": E[result] = tanh(z) with draws, draw chance
	// drawFrac·(1-|tanh z|). outcome "logistic": a game is decisive with
	// chance decisive, and White then wins with chance σ(2z) (so the
	// logistic fit's coefficients are 2β).
	outcome  string
	drawFrac float64
	decisive float64
}

// chessModel plants the given per-pawn values with a pawn coefficient of
// 0.2 in tanh units and a small first-move advantage.
func chessModel(outcome string, vals ...float64) synthModel {
	m := synthModel{
		pieces:   []string{"P", "N", "B", "R", "Q", "K"},
		base:     []int32{8, 2, 2, 2, 1, 1},
		loss:     []float64{0.6, 0.35, 0.35, 0.3, 0.25, 0},
		white:    0.05,
		outcome:  outcome,
		drawFrac: 0.5,
		decisive: 0.6,
	}
	if len(vals) == 0 {
		vals = []float64{1, 3, 3.3, 5, 9, 0}
	}
	for _, v := range vals {
		m.coef = append(m.coef, 0.2*v)
	}
	return m
}

// z returns the model's argument from White's view for imbalance d.
func (m *synthModel) z(d []int32) float64 {
	z := m.white
	for i, c := range m.coef {
		z += c * float64(d[i])
	}
	return z
}

// games draws n games with the given seed.
func (m *synthModel) games(n int, seed uint64) *Dataset {
	rng := rand.New(rand.NewPCG(seed, 7))
	ds := &Dataset{Pieces: m.pieces}
	k := len(m.pieces)
	for gi := 0; gi < n; gi++ {
		wc, bc := make([]int32, k), make([]int32, k)
		d := make([]int32, k)
		for i := range m.pieces {
			wc[i], bc[i] = m.base[i]-m.lose(rng, i), m.base[i]-m.lose(rng, i)
			d[i] = wc[i] - bc[i]
		}
		z := m.z(d)
		var result int
		u := rng.Float64()
		switch m.outcome {
		case "tanh":
			t := math.Tanh(z)
			draw := m.drawFrac * (1 - math.Abs(t))
			pw := (1 - draw + t) / 2
			switch {
			case u < pw:
				result = 1
			case u < pw+draw:
				result = 0
			default:
				result = -1
			}
		case "logistic":
			if u < m.decisive {
				result = -1
				if rng.Float64() < 1/(1+math.Exp(-2*z)) {
					result = 1
				}
			}
		default:
			panic("unknown outcome " + m.outcome)
		}
		length := 8 + rng.IntN(20)
		g := Game{ID: fmt.Sprintf("g%06d", gi), Variant: "synthetic", Result: result, Length: length, Termination: "checkmate"}
		if result == 0 {
			g.Termination = "repetition"
		}
		start := append([]int32(nil), m.base...)
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
func (m *synthModel) lose(rng *rand.Rand, i int) int32 {
	n := int32(0)
	limit := int32(1)
	if m.pieces[i] == "P" {
		limit = 3
	}
	for n < limit && n < m.base[i] && rng.Float64() < m.loss[i] {
		n++
	}
	return n
}

// truth returns the planted value of each piece relative to the first.
func (m *synthModel) truth() map[string]float64 {
	t := map[string]float64{}
	for i, p := range m.pieces {
		t[p] = m.coef[i] / m.coef[0]
	}
	return t
}

// valueFunc returns a synthetic network value: the model's expected result
// for the side to move plus Gaussian noise of standard deviation noise
// (clamped to [-1,1]), keyed by the positions' texts.
func (m *synthModel) valueFunc(ds *Dataset, noise float64, seed uint64) ValueFunc {
	rng := rand.New(rand.NewPCG(seed, 11))
	vals := map[string]float64{}
	k := len(m.pieces)
	for gi := range ds.Games {
		for _, p := range ds.Games[gi].Positions {
			d := make([]int32, k)
			for i := range d {
				d[i] = p.White[i] - p.Black[i]
			}
			v := math.Tanh(m.z(d))
			if !p.WhiteToMove {
				v = -v
			}
			vals[p.Text] = max(-1, min(1, v+noise*rng.NormFloat64()))
		}
	}
	return func(text string) (float64, error) {
		v, ok := vals[text]
		if !ok {
			return 0, fmt.Errorf("unknown position %q", text)
		}
		return v, nil
	}
}

// sortGames orders ds's games by ID.
func sortGames(ds *Dataset) {
	slices.SortFunc(ds.Games, func(a, b Game) int { return strings.Compare(a.ID, b.ID) })
}
