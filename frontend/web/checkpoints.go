package web

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
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

// Bounds and identifiers of the checkpoint header the listing reads
// (nn/checkpoint.go writes it; nn reads only whole files, so the listing
// reads the header itself, never the weights).
const (
	// maxCheckpointHeader bounds the JSON header the listing reads: the
	// shipped 4x32 networks' headers are about 11 KiB, and a header grows
	// with the tensors' count (blocks), not their size. nn itself allows
	// 64 MiB when it loads a whole file.
	maxCheckpointHeader = 1 << 20
	checkpointFormat    = "bomberzero-nn" // the metadata's "format"
	checkpointVersion   = 2               // the metadata's "format_version" this build loads
)

// checkpointHeader is what the listing reads from a checkpoint's header.
type checkpointHeader struct {
	Variant string
	Config  nn.Config
	Step    int64
}

// readCheckpointHeader reads the header of a checkpoint file of size bytes
// from r: the 8-byte header length, at most maxCheckpointHeader bytes of
// JSON, its __metadata__ (format, version, variant, network config, step)
// and the tensors' byte ranges, which must end where the file does. It
// never reads the weights, so it does not check their checksum (loading
// the model does). Errors say what was expected; no input makes it panic.
func readCheckpointHeader(r io.Reader, size int64) (checkpointHeader, error) {
	var h checkpointHeader
	var lenBuf [8]byte
	if n, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return h, fmt.Errorf("truncated: %d bytes, want at least 8 for the header length", n)
	}
	hlen := binary.LittleEndian.Uint64(lenBuf[:])
	if hlen < 2 || hlen > maxCheckpointHeader {
		return h, fmt.Errorf("header length %d: want 2 to %d bytes (not a checkpoint, or a damaged one?)", hlen, maxCheckpointHeader)
	}
	if int64(hlen) > size-8 {
		return h, fmt.Errorf("truncated: header length %d, but only %d bytes follow", hlen, max(size-8, 0))
	}
	js := make([]byte, hlen)
	if n, err := io.ReadFull(r, js); err != nil {
		return h, fmt.Errorf("truncated: %d of the header's %d bytes", n, hlen)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(js, &raw); err != nil {
		return h, fmt.Errorf("header is not a JSON object: %v (not a checkpoint, or a damaged one?)", err)
	}
	var meta map[string]string
	if m, ok := raw["__metadata__"]; !ok {
		return h, fmt.Errorf("header has no __metadata__: not a bomberzero checkpoint")
	} else if err := json.Unmarshal(m, &meta); err != nil {
		return h, fmt.Errorf("__metadata__ is not a map of strings: %v", err)
	}
	if meta["format"] != checkpointFormat {
		return h, fmt.Errorf("metadata format %q, want %q: not a bomberzero checkpoint", meta["format"], checkpointFormat)
	}
	switch v := meta["format_version"]; v {
	case strconv.Itoa(checkpointVersion):
	case "1":
		return h, fmt.Errorf("format_version 1, from an older bomberzero: its networks cannot be loaded (docs/network.md); train a new one")
	default:
		return h, fmt.Errorf("metadata format_version %q: this build loads version %d", v, checkpointVersion)
	}
	if h.Variant = meta["variant"]; h.Variant == "" {
		return h, fmt.Errorf("metadata names no variant")
	}
	if err := json.Unmarshal([]byte(meta["config"]), &h.Config); err != nil {
		return h, fmt.Errorf("metadata config: %v", err)
	}
	if err := h.Config.Validate(); err != nil {
		return h, fmt.Errorf("metadata config: %v", err)
	}
	var err error
	if h.Step, err = strconv.ParseInt(meta["step"], 10, 64); err != nil || h.Step < 0 {
		return h, fmt.Errorf("metadata step %q: want a count of training steps", meta["step"])
	}
	// The tensors' byte ranges, from the header alone, tell a file cut
	// short (a copy interrupted) from a whole one.
	var end int64
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		if name == "__metadata__" {
			continue
		}
		msg := raw[name]
		var e struct {
			Offsets [2]int64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(msg, &e); err != nil || e.Offsets[0] < 0 || e.Offsets[1] < e.Offsets[0] {
			return h, fmt.Errorf("tensor %q: want data_offsets [begin, end] in the data section", name)
		}
		end = max(end, e.Offsets[1])
	}
	if data := size - 8 - int64(hlen); end != data {
		if end > data {
			return h, fmt.Errorf("truncated: the tensors end at byte %d of the data section, which has %d", end, data)
		}
		return h, fmt.Errorf("the tensors end at byte %d of a %d-byte data section (a damaged file?)", end, data)
	}
	return h, nil
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
// generation and step from its header, or the reason it cannot be played.
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
	h, err := readCheckpointHeader(f, st.Size())
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
	out := []ModelInfo{}
	if root, err := openRoot(s.cfg.Models, "--models"); err == nil {
		_ = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(out) >= maxListed {
				return fs.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".safetensors") {
				out = append(out, checkpointInfo(root, "models", p))
			}
			return nil
		})
		root.Close()
	}
	if root, err := openRoot(s.cfg.Runs, "--runs"); err == nil {
		cks, _ := fs.Glob(root.FS(), "*/checkpoints/gen-*.safetensors")
		for _, c := range cks {
			if len(out) >= maxListed {
				break
			}
			out = append(out, checkpointInfo(root, "runs", c))
		}
		root.Close()
	}
	return out
}
