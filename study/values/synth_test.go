package values

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// valueFunc returns a synthetic network value: the model's expected result
// for the side to move plus Gaussian noise of standard deviation noise
// (clamped to [-1,1]), keyed by the positions' texts.
func (m *SyntheticModel) valueFunc(ds *Dataset, noise float64, seed uint64) ValueFunc {
	rng := rand.New(rand.NewPCG(seed, 11))
	vals := map[string]float64{}
	k := len(m.Pieces)
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
