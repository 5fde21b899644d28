package web

import (
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"

	"bomberzero/nn"
)

// ModelInfo is one network checkpoint (*.safetensors) the board offers as
// a search model: one under --models, or a generation's checkpoint of a
// run under --runs. Like an engine's net, it plays only the variant it was
// trained for, which the listing reads from the checkpoint's own metadata.
type ModelInfo struct {
	// Name is the model spec without playouts: models/PATH or
	// runs/RUN/checkpoints/gen-NNNN.safetensors.
	Name string `json:"name"`
	// Label tells the checkpoints apart for a person: the file, the
	// variant, the network's size, the generation and the training step.
	Label string `json:"label"`
	// Variant is the variant the network was trained for, the only one
	// it plays; "" when the header does not read (Error says why).
	Variant string `json:"variant,omitempty"`
	// Blocks and Filters are the network's residual tower: its blocks
	// and the filters of each convolution.
	Blocks  int `json:"blocks,omitempty"`
	Filters int `json:"filters,omitempty"`
	// Generation is the training run's generation, read from the file's
	// name (gen-NNNN.safetensors); absent for a file named otherwise.
	Generation *int `json:"generation,omitempty"`
	// Step is the training steps the network had taken.
	Step int64 `json:"step"`
	// Error says why the checkpoint cannot be played (its header does
	// not read); the page lists it, unplayable, with the reason.
	Error string `json:"error,omitempty"`
}

// generationOf reads the generation from a file's name, gen-NNNN.EXT (the
// names train and nnue runs give their checkpoints and nets); ok is false
// for a file named otherwise.
func generationOf(name string) (gen int, ok bool) {
	base := path.Base(name)
	digits, found := strings.CutPrefix(strings.TrimSuffix(base, path.Ext(base)), "gen-")
	if !found || digits == "" {
		return 0, false
	}
	g, err := strconv.Atoi(digits)
	if err != nil || g < 0 {
		return 0, false
	}
	return g, true
}

// checkpointInfo describes the checkpoint rel of a server folder (root,
// whose models are named prefix/PATH) for the board: its variant, size,
// generation and step from its header (nn.ReadCheckpointHeader: at most
// nn.MaxCheckpointHeaderBytes, never the weights), or the reason it cannot
// be played.
func checkpointInfo(root *os.Root, prefix, rel string) ModelInfo {
	name := prefix + "/" + rel
	info := ModelInfo{Name: name}
	gen, hasGen := generationOf(rel)
	if hasGen {
		info.Generation = &gen
	}
	f, st, err := openRegular(root, rel)
	if err != nil {
		info.Error = fmt.Sprintf("checkpoint %s: %v", name, err)
		info.Label = fmt.Sprintf("network %s: unreadable", name)
		return info
	}
	defer f.Close()
	h, err := nn.ReadCheckpointHeader(f, st.Size())
	if err != nil {
		info.Error = fmt.Sprintf("checkpoint %s: %v", name, err)
		info.Label = fmt.Sprintf("network %s: damaged", name)
		return info
	}
	info.Variant, info.Blocks, info.Filters, info.Step = h.Variant, h.Config.Blocks, h.Config.Filters, h.Step
	blocks := "blocks"
	if h.Config.Blocks == 1 {
		blocks = "block"
	}
	parts := []string{h.Variant, fmt.Sprintf("%d %s x %d filters", h.Config.Blocks, blocks, h.Config.Filters)}
	if hasGen {
		parts = append(parts, fmt.Sprintf("generation %d", gen))
	}
	parts = append(parts, fmt.Sprintf("step %d", h.Step))
	info.Label = fmt.Sprintf("network %s (%s)", name, strings.Join(parts, ", "))
	return info
}

// listModels lists the checkpoints the board offers as search models: each
// *.safetensors under --models, in path order, then the generation
// checkpoints of the runs under --runs (RUN/checkpoints/gen-NNNN.safetensors),
// each described from its header (checkpointInfo); at most maxListed.
func (s *Server) listModels() []ModelInfo {
	return listFiles(s, []ModelInfo{}, ".safetensors", "*/checkpoints/gen-*.safetensors", checkpointInfo)
}
