package values

import (
	"encoding/json"
	"math"
)

// CalibrationBin is one row of a fit's calibration table: the positions
// whose material balance for the side to move, valued by the fit itself in
// units of the unit piece, lies in [Lo, Hi), with the score the fit
// predicts for them and the score observed (for the logistic fit, among
// decisive games only, as it is fitted). A well-calibrated fit has
// Predicted close to Observed in every bin with enough positions.
type CalibrationBin struct {
	Lo        float64 `json:"lo"` // -Inf and +Inf for the end bins (JSON null)
	Hi        float64 `json:"hi"`
	Positions int     `json:"positions"`
	Predicted float64 `json:"predicted"` // mean predicted score of the side to move, 0 to 1
	Observed  float64 `json:"observed"`  // mean observed score, 0 to 1
}

// calibrationEdges are the bin edges in units of the unit piece: a pawn's
// worth either way of level, then widening.
var calibrationEdges = []float64{-8, -5, -3, -1.5, -0.5, 0.5, 1.5, 3, 5, 8}

// calibration returns p's calibration table at the fitted coefficients
// point, or nil when its values are not normalised (the unit's coefficient
// is not positive). Bins without positions are left out.
func calibration(p *problem, point []float64) []CalibrationBin {
	if p.unit < 0 || point[p.unit] <= 0 {
		return nil
	}
	n := len(calibrationEdges) + 1
	count, pred, obs := make([]float64, n), make([]float64, n), make([]float64, n)
	k := p.d.k
	for i := range p.d.y {
		x := p.d.x[i*k : (i+1)*k]
		material := 0.0
		for j := nFixed; j < k; j++ {
			material += point[j] * x[j]
		}
		material /= point[p.unit]
		b := 0
		for b < len(calibrationEdges) && material >= calibrationEdges[b] {
			b++
		}
		z := p.d.scale * dot(x, point)
		if p.scales != nil { // the phased model: the bin's scale on the material term
			z = p.d.scale * (dot(x[:nFixed], point[:nFixed]) + p.scales[p.d.bin[i]]*dot(x[nFixed:], point[nFixed:]))
		}
		w := p.d.count[i]
		count[b] += w
		pred[b] += w / (1 + math.Exp(-z))
		obs[b] += w * p.d.y[i]
	}
	var out []CalibrationBin
	for b := range n {
		if count[b] == 0 {
			continue
		}
		lo, hi := math.Inf(-1), math.Inf(1)
		if b > 0 {
			lo = calibrationEdges[b-1]
		}
		if b < len(calibrationEdges) {
			hi = calibrationEdges[b]
		}
		out = append(out, CalibrationBin{Lo: lo, Hi: hi, Positions: int(count[b]), Predicted: pred[b] / count[b], Observed: obs[b] / count[b]})
	}
	return out
}

// calibrationJSON is CalibrationBin on the wire: the open ends as null.
type calibrationJSON struct {
	Lo        *float64 `json:"lo"`
	Hi        *float64 `json:"hi"`
	Positions int      `json:"positions"`
	Predicted float64  `json:"predicted"`
	Observed  float64  `json:"observed"`
}

// MarshalJSON writes the bin with its open ends as null (JSON has no
// infinity).
func (c CalibrationBin) MarshalJSON() ([]byte, error) {
	return json.Marshal(calibrationJSON{finite(c.Lo), finite(c.Hi), c.Positions, c.Predicted, c.Observed})
}

// UnmarshalJSON reads what MarshalJSON writes (null ends become -Inf and
// +Inf).
func (c *CalibrationBin) UnmarshalJSON(b []byte) error {
	var v calibrationJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = CalibrationBin{Lo: math.Inf(-1), Hi: math.Inf(1), Positions: v.Positions, Predicted: v.Predicted, Observed: v.Observed}
	if v.Lo != nil {
		c.Lo = *v.Lo
	}
	if v.Hi != nil {
		c.Hi = *v.Hi
	}
	return nil
}
