package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// WeightsFileVersion is the version of the weights file format
// WriteWeightsFile writes and ReadWeightsFile reads.
const WeightsFileVersion = 1

// MaxWeightsFileBytes bounds the size of a weights file ReadWeightsFile
// accepts.
const MaxWeightsFileBytes = 1 << 16

// WeightsFile is a file of classical weights, as "bomberzero tune" writes
// it: the weights by field name, the variant they were tuned on and how
// the fit went.
type WeightsFile struct {
	Version int         `json:"version"`
	Variant string      `json:"variant,omitempty"`
	Weights Weights     `json:"weights"`
	Fit     *TuneReport `json:"fit,omitempty"`
	// Games, Nodes and Seed say how the fitted positions were played.
	Games int    `json:"games,omitempty"`
	Nodes int64  `json:"nodes,omitempty"`
	Seed  uint64 `json:"seed,omitempty"`
}

// WriteWeightsFile writes f (its Version set to WeightsFileVersion) to path
// atomically: a reader sees the old file or the whole new one.
func WriteWeightsFile(path string, f WeightsFile) error {
	f.Version = WeightsFileVersion
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("weights file %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n')); err != nil {
		return fmt.Errorf("weights file %s: %w", path, err)
	}
	return nil
}

// ReadWeightsFile reads a weights file. Every weight must be present and a
// whole number fitting an int32, no unknown field is accepted, and the
// version must be WeightsFileVersion; errors name the file and the field.
func ReadWeightsFile(path string) (WeightsFile, error) {
	data, err := readfile.Regular(path, MaxWeightsFileBytes)
	if err != nil {
		return WeightsFile{}, fmt.Errorf("weights file: %w", err)
	}
	var raw struct {
		Version *int                       `json:"version"`
		Variant string                     `json:"variant"`
		Weights map[string]json.RawMessage `json:"weights"`
		Fit     *TuneReport                `json:"fit"`
		Games   int                        `json:"games"`
		Nodes   int64                      `json:"nodes"`
		Seed    uint64                     `json:"seed"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return WeightsFile{}, fmt.Errorf("weights file %s: %w", path, err)
	}
	switch {
	case raw.Version == nil:
		return WeightsFile{}, fmt.Errorf("weights file %s: no \"version\" field; want %d", path, WeightsFileVersion)
	case *raw.Version != WeightsFileVersion:
		return WeightsFile{}, fmt.Errorf("weights file %s: version %d; this build reads version %d", path, *raw.Version, WeightsFileVersion)
	case raw.Weights == nil:
		return WeightsFile{}, fmt.Errorf("weights file %s: no \"weights\" object", path)
	}
	known := map[string]bool{}
	var x [NumTerms]float64
	for i, name := range TermNames {
		known[name] = true
		v, ok := raw.Weights[name]
		if !ok {
			return WeightsFile{}, fmt.Errorf("weights file %s: weights.%s missing; want all of %s", path, name, strings.Join(TermNames[:], ", "))
		}
		var n int64
		if err := json.Unmarshal(v, &n); err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			return WeightsFile{}, fmt.Errorf("weights file %s: weights.%s is %s; want a whole number", path, name, v)
		}
		x[i] = float64(n)
	}
	var unknown []string
	for name := range raw.Weights {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return WeightsFile{}, fmt.Errorf("weights file %s: unknown weights.%s; want only %s", path, unknown[0], strings.Join(TermNames[:], ", "))
	}
	if x[0] < 0 || x[0] > 1000 {
		return WeightsFile{}, fmt.Errorf("weights file %s: weights.Material is %v; want 0 to 1000 (percent)", path, x[0])
	}
	return WeightsFile{Version: *raw.Version, Variant: raw.Variant, Weights: WeightsOf(x), Fit: raw.Fit, Games: raw.Games, Nodes: raw.Nodes, Seed: raw.Seed}, nil
}
