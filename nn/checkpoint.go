package nn

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// Checkpoints are safetensors files (https://huggingface.co/docs/safetensors):
// an 8-byte little-endian header length, a JSON header mapping each tensor
// name to its dtype ("F32"), shape and [begin, end) byte offsets in the
// data section, plus a "__metadata__" map of strings; then the data, raw
// little-endian float32. The metadata holds the format name and version, the
// variant, the network Config and TrainConfig as JSON, the step counter and
// the SHA-256 of the data section. Tensor names are the Params' names, and
// the optimizer state is "optimizer.velocity.<param>" (SGD) or
// "optimizer.m.<param>" and "optimizer.v.<param>" (Adam).

// Checkpoint format identifiers written to and required in the metadata.
const (
	checkpointFormat = "bomberzero-nn"
	// checkpointVersion 2: the input has the length-cap plane (one more
	// channel) and the network a moves-left head. Version 1 networks cannot
	// be converted and are refused (ErrOldFormat).
	checkpointVersion = 2
	// pooledVersion 3: a network with global pooling (Config.GlobalPool
	// above 0), whose block*.pool tensors a version-2 reader would leave
	// unread, playing another network without a word: such a reader
	// refuses version 3. Networks without pooling stay version 2, which
	// every reader since the moves-left head loads. (Pooled networks
	// saved before this version was introduced are version 2 and load.)
	pooledVersion  = 3
	maxHeaderBytes = 64 << 20
	// optimizerPrefix begins the names of the optimizer state's tensors.
	optimizerPrefix = "optimizer."
)

// Errors a checkpoint load wraps, for errors.Is.
var (
	ErrTruncated       = errors.New("checkpoint truncated")
	ErrCorrupt         = errors.New("checkpoint corrupt")
	ErrShapeMismatch   = errors.New("checkpoint network shape mismatch")
	ErrVariantMismatch = errors.New("checkpoint variant mismatch")
	// ErrOldFormat is a checkpoint of an older format version, whose
	// networks this build cannot run.
	ErrOldFormat = errors.New("checkpoint from an older bomberzero")
	// ErrNonFinite is a checkpoint with a NaN or infinite value in a
	// tensor; the error names the tensor.
	ErrNonFinite = errors.New("checkpoint has non-finite weights")
)

// Checkpoint is a parsed, checksum-verified checkpoint file: its header
// (version, variant, network and training configs, step) and its tensors.
type Checkpoint struct {
	CheckpointHeader
	Tensors map[string]CheckpointTensor // every tensor by name: Params, then optimizer state
}

// CheckpointTensor is one tensor of a checkpoint.
type CheckpointTensor struct {
	Shape []int     // dimensions, row-major
	Data  []float32 // the values
}

type safetensorsEntry struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// optimizerTensorNames returns the checkpoint names of p's optimizer state.
func optimizerTensorNames(kind, param string) []string {
	if kind == "adam" {
		return []string{optimizerPrefix + "m." + param, optimizerPrefix + "v." + param}
	}
	return []string{optimizerPrefix + "velocity." + param}
}

// Save writes the network, its optimizer state and step counter to path as
// one safetensors file, atomically: a temporary file in the same directory
// is written, synced and renamed over path, and the directory is synced.
// variant, the variant the network plays, must not be empty.
func (t *Trainer) Save(path, variant string) error {
	if variant == "" {
		// The readers refuse a checkpoint of no variant: none is written.
		return fmt.Errorf("nn: save %s: no variant named (a checkpoint plays the variant it names)", path)
	}
	type item struct {
		name  string
		shape []int
		data  []float32
	}
	var items []item
	for i, p := range t.net.params {
		items = append(items, item{p.Name, p.Shape, p.Data})
		if p.Learnable() {
			for j, name := range optimizerTensorNames(t.cfg.Optimizer, p.Name) {
				items = append(items, item{name, p.Shape, t.opt.state[i][j]})
			}
		}
	}
	// The data section is streamed twice, once into its checksum and once
	// into the file, so that saving holds no copy of the weights: a
	// buffered copy (and the copy of it with the header) needed several
	// times the network's memory again.
	header := map[string]any{}
	var begin int64
	for _, it := range items {
		end := begin + 4*int64(len(it.data))
		header[it.name] = safetensorsEntry{DType: "F32", Shape: it.shape, Offsets: [2]int64{begin, end}}
		begin = end
	}
	writeData := func(w io.Writer) error {
		buf := make([]byte, 0, 64<<10)
		for _, it := range items {
			for _, v := range it.data {
				if len(buf) == cap(buf) {
					if _, err := w.Write(buf); err != nil {
						return err
					}
					buf = buf[:0]
				}
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
			}
		}
		_, err := w.Write(buf)
		return err
	}
	cfgJSON, err := json.Marshal(t.net.cfg)
	if err != nil {
		return fmt.Errorf("nn: save %s: %w", path, err)
	}
	trainJSON, err := json.Marshal(t.cfg)
	if err != nil {
		return fmt.Errorf("nn: save %s: %w", path, err)
	}
	h := sha256.New()
	writeData(h) // a hash's Write never fails
	header["__metadata__"] = map[string]string{
		"format":         checkpointFormat,
		"format_version": strconv.Itoa(formatVersion(t.net.cfg)),
		"variant":        variant,
		"config":         string(cfgJSON),
		"train_config":   string(trainJSON),
		"step":           strconv.FormatInt(t.step, 10),
		"data_sha256":    hex.EncodeToString(h.Sum(nil)),
	}
	hj, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("nn: save %s: %w", path, err)
	}
	for len(hj)%8 != 0 {
		hj = append(hj, ' ')
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		if err := binary.Write(w, binary.LittleEndian, uint64(len(hj))); err != nil {
			return err
		}
		if _, err := w.Write(hj); err != nil {
			return err
		}
		return writeData(w)
	})
	if err != nil {
		return fmt.Errorf("nn: save %s: %w", path, err)
	}
	return nil
}

// MaxCheckpointBytes is the largest checkpoint file ReadCheckpoint reads:
// above the largest network a run's memory estimate lets a machine train
// with its optimizer state (setup.MemoryBytes). A larger file, a FIFO or a
// device such as /dev/zero is refused, naming the file, before anything
// is read.
const MaxCheckpointBytes = 4 << 30

// ReadCheckpoint reads and verifies the checkpoint file at path: a regular
// file of at most MaxCheckpointBytes.
func ReadCheckpoint(path string) (*Checkpoint, error) {
	data, err := readfile.Regular(path, MaxCheckpointBytes)
	if err != nil {
		return nil, fmt.Errorf("nn: %w", err)
	}
	c, err := ParseCheckpoint(data)
	if err != nil {
		return nil, fmt.Errorf("nn: checkpoint %s: %w", path, err)
	}
	return c, nil
}

// MaxCheckpointHeaderBytes bounds the JSON header ReadCheckpointHeader
// reads. A header grows with the tensors' count, not their size: the
// shipped 4x32 networks' headers are about 11 KiB (116 tensors with SGD
// state, some 100 bytes each), and a residual block adds about 2 KiB of
// entries with Adam state, so a bound of 1 MiB leaves room for hundreds of
// blocks while a listing of many files reads little. A whole
// file (ParseCheckpoint) may hold a header of up to 64 MiB.
const MaxCheckpointHeaderBytes = 1 << 20

// CheckpointHeader is what a checkpoint says of itself before its data:
// enough to list and label a network (its variant, shape and step) without
// reading, or trusting, the weights.
type CheckpointHeader struct {
	Version int         // format version
	Variant string      // the variant the network was trained for
	Config  Config      // the network's shape
	Train   TrainConfig // the optimizer settings
	Step    int64       // training steps taken
}

// ReadCheckpointHeader reads the header of a checkpoint file of size bytes
// from r: the 8-byte header length and at most MaxCheckpointHeaderBytes of
// JSON, never the weights, so it does not check their checksum or values
// (ParseCheckpoint does). The header is checked as ParseCheckpoint checks
// it, with the same errors: the format, its version, the variant, the
// network and training configs, the step, and each tensor's dtype, shape
// and byte range, which together must end where the file does. Errors wrap
// ErrTruncated, ErrCorrupt or ErrOldFormat and say what was expected; no
// input makes it panic.
func ReadCheckpointHeader(r io.Reader, size int64) (CheckpointHeader, error) {
	if size < 8 {
		return CheckpointHeader{}, fmt.Errorf("%w: %d bytes, want at least 8 for the header length", ErrTruncated, max(size, 0))
	}
	var lenBuf [8]byte
	if n, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return CheckpointHeader{}, fmt.Errorf("%w: %d bytes, want at least 8 for the header length", ErrTruncated, n)
	}
	hlen := binary.LittleEndian.Uint64(lenBuf[:])
	if err := checkHeaderLength(hlen, MaxCheckpointHeaderBytes, size-8); err != nil {
		return CheckpointHeader{}, err
	}
	js := make([]byte, hlen)
	if n, err := io.ReadFull(r, js); err != nil {
		return CheckpointHeader{}, fmt.Errorf("%w: %d of the header's %d bytes", ErrTruncated, n, hlen)
	}
	h, _, _, err := parseHeader(js, size-8-int64(hlen))
	return h, err
}

// checkHeaderLength checks a header length read from a file: at most bound
// bytes, and no more than the follow bytes after the length.
func checkHeaderLength(hlen, bound uint64, follow int64) error {
	if hlen > bound {
		return fmt.Errorf("%w: header length %d exceeds %d bytes", ErrCorrupt, hlen, bound)
	}
	if hlen > uint64(follow) {
		return fmt.Errorf("%w: header length %d, but only %d bytes follow", ErrTruncated, hlen, follow)
	}
	return nil
}

// headerTensor is one tensor's entry in a checked header.
type headerTensor struct {
	name  string
	shape []int
	begin int64 // byte offset in the data section
	n     int64 // values
}

// parseHeader parses and checks a checkpoint's JSON header js, whose data
// section has dataLen bytes: everything that can be checked without the
// data (ParseCheckpoint and ReadCheckpointHeader both check with it). It
// returns the header, the tensors in name order and the metadata.
func parseHeader(js []byte, dataLen int64) (CheckpointHeader, []headerTensor, map[string]string, error) {
	var h CheckpointHeader
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(js, &raw); err != nil {
		return h, nil, nil, fmt.Errorf("%w: header is not a JSON object: %v", ErrCorrupt, err)
	}
	var meta map[string]string
	if m, ok := raw["__metadata__"]; !ok {
		return h, nil, nil, fmt.Errorf("%w: header has no __metadata__", ErrCorrupt)
	} else if err := json.Unmarshal(m, &meta); err != nil {
		return h, nil, nil, fmt.Errorf("%w: __metadata__ is not a map of strings: %v", ErrCorrupt, err)
	}
	if meta["format"] != checkpointFormat {
		return h, nil, nil, fmt.Errorf("%w: metadata format %q, want %q", ErrCorrupt, meta["format"], checkpointFormat)
	}
	var err error
	h.Version, err = strconv.Atoi(meta["format_version"])
	switch {
	case err == nil && h.Version == 1:
		return h, nil, nil, fmt.Errorf("%w: format_version 1 networks read no length-cap input plane and have no moves-left head "+
			"(format_version %d, docs/network.md): they cannot be loaded; train a new network", ErrOldFormat, checkpointVersion)
	case err != nil || h.Version != checkpointVersion && h.Version != pooledVersion:
		return h, nil, nil, fmt.Errorf("%w: metadata format_version %q, want %d (or %d, a network with global pooling)",
			ErrCorrupt, meta["format_version"], checkpointVersion, pooledVersion)
	}
	// Save always names one (train's runs their variant's): a network of
	// no variant would be offered for none, and loaded for none.
	if h.Variant = meta["variant"]; h.Variant == "" {
		return h, nil, nil, fmt.Errorf("%w: metadata names no variant", ErrCorrupt)
	}
	if h.Step, err = strconv.ParseInt(meta["step"], 10, 64); err != nil || h.Step < 0 {
		return h, nil, nil, fmt.Errorf("%w: metadata step %q is not a step count", ErrCorrupt, meta["step"])
	}
	if err := json.Unmarshal([]byte(meta["config"]), &h.Config); err != nil {
		return h, nil, nil, fmt.Errorf("%w: metadata config: %v", ErrCorrupt, err)
	}
	if err := h.Config.Validate(); err != nil {
		return h, nil, nil, fmt.Errorf("%w: metadata config: %v", ErrCorrupt, err)
	}
	if h.Version == pooledVersion && h.Config.GlobalPool == 0 {
		return h, nil, nil, fmt.Errorf("%w: metadata format_version %d is a pooled network's, but its config has GlobalPool 0", ErrCorrupt, pooledVersion)
	}
	for _, d := range []int{h.Config.Channels, h.Config.Height, h.Config.Width, h.Config.PolicyPlanes, h.Config.Blocks,
		h.Config.Filters, h.Config.PolicyFilters, h.Config.ValueFilters, h.Config.ValueHidden, h.Config.GlobalPool} {
		if d > 1<<16 {
			return h, nil, nil, fmt.Errorf("%w: metadata config %+v has a dimension over %d", ErrCorrupt, h.Config, 1<<16)
		}
	}
	if err := json.Unmarshal([]byte(meta["train_config"]), &h.Train); err != nil {
		return h, nil, nil, fmt.Errorf("%w: metadata train_config: %v", ErrCorrupt, err)
	}
	names := make([]string, 0, len(raw))
	for name := range raw {
		if name != "__metadata__" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	tensors := make([]headerTensor, 0, len(names))
	var covered int64
	for _, name := range names {
		var e safetensorsEntry
		if err := json.Unmarshal(raw[name], &e); err != nil {
			return h, nil, nil, fmt.Errorf("%w: tensor %q: %v", ErrCorrupt, name, err)
		}
		if e.DType != "F32" {
			return h, nil, nil, fmt.Errorf("%w: tensor %q has dtype %q, want F32", ErrCorrupt, name, e.DType)
		}
		n := int64(1)
		for _, d := range e.Shape {
			if d < 0 || d > 1<<30 {
				return h, nil, nil, fmt.Errorf("%w: tensor %q has dimension %d", ErrCorrupt, name, d)
			}
			n *= int64(d)
			if n > 1<<31 {
				return h, nil, nil, fmt.Errorf("%w: tensor %q shape %v is too large", ErrCorrupt, name, e.Shape)
			}
		}
		b, end := e.Offsets[0], e.Offsets[1]
		if b < 0 || end < b || end-b != 4*n {
			return h, nil, nil, fmt.Errorf("%w: tensor %q offsets [%d, %d] do not fit shape %v", ErrCorrupt, name, b, end, e.Shape)
		}
		if end > dataLen {
			return h, nil, nil, fmt.Errorf("%w: tensor %q ends at byte %d of the data, which has %d", ErrTruncated, name, end, dataLen)
		}
		covered += end - b
		tensors = append(tensors, headerTensor{name: name, shape: e.Shape, begin: b, n: n})
	}
	if need := h.Config.paramCount(); need > float64(covered/4) {
		return h, nil, nil, fmt.Errorf("%w: config needs %.0f values, the tensors hold %d", ErrCorrupt, need, covered/4)
	}
	if covered != dataLen {
		return h, nil, nil, fmt.Errorf("%w: tensors cover %d bytes of a %d-byte data section", ErrCorrupt, covered, dataLen)
	}
	return h, tensors, meta, nil
}

// ParseCheckpoint parses and verifies a checkpoint held in memory: its
// header as ReadCheckpointHeader checks it, then the data's checksum and
// values. Errors wrap ErrTruncated, ErrCorrupt, ErrOldFormat (format
// version 1) or ErrNonFinite (a NaN or infinite value, naming its tensor)
// and say which part is wrong.
func ParseCheckpoint(data []byte) (*Checkpoint, error) {
	if len(data) < 8 {
		return nil, fmt.Errorf("%w: %d bytes, want at least 8 for the header length", ErrTruncated, len(data))
	}
	hlen := binary.LittleEndian.Uint64(data[:8])
	if err := checkHeaderLength(hlen, maxHeaderBytes, int64(len(data)-8)); err != nil {
		return nil, err
	}
	body := data[8+hlen:]
	h, tensors, meta, err := parseHeader(data[8:8+hlen], int64(len(body)))
	if err != nil {
		return nil, err
	}
	c := &Checkpoint{CheckpointHeader: h, Tensors: make(map[string]CheckpointTensor, len(tensors))}
	var nonFinite error
	for _, e := range tensors {
		t := CheckpointTensor{Shape: e.shape, Data: make([]float32, e.n)}
		for i := range t.Data {
			v := math.Float32frombits(binary.LittleEndian.Uint32(body[e.begin+4*int64(i):]))
			if f := float64(v); nonFinite == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
				// A network (or its optimizer state) that diverged would
				// play, or train on, garbage without a word. Reported
				// after the checksum, so that a damaged file says so.
				nonFinite = fmt.Errorf("%w: tensor %q holds %v at index %d (a diverged network): its values must all be finite", ErrNonFinite, e.name, v, i)
			}
			t.Data[i] = v
		}
		c.Tensors[e.name] = t
	}
	sum := sha256.Sum256(body)
	if got := hex.EncodeToString(sum[:]); got != meta["data_sha256"] {
		return nil, fmt.Errorf("%w: data SHA-256 %s, metadata says %q", ErrCorrupt, got, meta["data_sha256"])
	}
	if nonFinite != nil {
		return nil, nonFinite
	}
	return c, nil
}

// check reports whether c belongs to variant and has shape cfg.
func (c *Checkpoint) check(cfg Config, variant string) error {
	if c.Variant != variant {
		return fmt.Errorf("%w: checkpoint is for variant %q, want %q", ErrVariantMismatch, c.Variant, variant)
	}
	if c.Config != cfg {
		return fmt.Errorf("%w: %s", ErrShapeMismatch, configDiff(c.Config, cfg))
	}
	return nil
}

// configDiff names the fields where the checkpoint's config got differs
// from the wanted one.
func configDiff(got, want Config) string {
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	var parts []string
	for i := 0; i < g.NumField(); i++ {
		if g.Field(i).Interface() != w.Field(i).Interface() {
			parts = append(parts, fmt.Sprintf("%s is %v in the checkpoint, want %v", g.Type().Field(i).Name, g.Field(i), w.Field(i)))
		}
	}
	return strings.Join(parts, "; ")
}

// formatVersion is the format_version a network of shape cfg is saved
// with.
func formatVersion(cfg Config) int {
	if cfg.GlobalPool > 0 {
		return pooledVersion
	}
	return checkpointVersion
}

// Net returns the checkpoint's network after checking that it has shape
// cfg and belongs to variant. A tensor that is neither one of the
// network's nor optimizer state is refused: it belongs to a part this
// build does not know, and loading the rest would be another network.
func (c *Checkpoint) Net(cfg Config, variant string) (*Net, error) {
	if err := c.check(cfg, variant); err != nil {
		return nil, err
	}
	n, err := New(cfg, 0)
	if err != nil {
		return nil, err
	}
	for _, p := range n.params {
		if err := c.load(p.Name, p.Shape, p.Data); err != nil {
			return nil, err
		}
	}
	for name := range c.Tensors {
		if !strings.HasPrefix(name, optimizerPrefix) && n.Param(name) == nil {
			return nil, fmt.Errorf("%w: tensor %q is no part of a network of this shape (%+v)", ErrShapeMismatch, name, cfg)
		}
	}
	return n, nil
}

// Trainer returns the checkpoint's network with its optimizer state and
// step counter, ready to continue training where it stopped.
func (c *Checkpoint) Trainer(cfg Config, variant string) (*Trainer, error) {
	n, err := c.Net(cfg, variant)
	if err != nil {
		return nil, err
	}
	t, err := NewTrainer(n, c.Train)
	if err != nil {
		return nil, fmt.Errorf("%w: train_config: %v", ErrCorrupt, err)
	}
	for i, p := range n.params {
		if !p.Learnable() {
			continue
		}
		for j, name := range optimizerTensorNames(c.Train.Optimizer, p.Name) {
			if err := c.load(name, p.Shape, t.opt.state[i][j]); err != nil {
				return nil, err
			}
		}
	}
	t.step = c.Step
	return t, nil
}

// load copies tensor name into dst after checking its shape.
func (c *Checkpoint) load(name string, shape []int, dst []float32) error {
	t, ok := c.Tensors[name]
	if !ok {
		return fmt.Errorf("%w: tensor %q is missing", ErrShapeMismatch, name)
	}
	if !slices.Equal(t.Shape, shape) {
		return fmt.Errorf("%w: tensor %q has shape %s, want %s", ErrShapeMismatch, name, shapeString(t.Shape), shapeString(shape))
	}
	copy(dst, t.Data)
	return nil
}

// LoadTrainer reads the checkpoint at path and returns its Trainer, checking
// that it has shape cfg and belongs to variant.
func LoadTrainer(path string, cfg Config, variant string) (*Trainer, error) {
	c, err := ReadCheckpoint(path)
	if err != nil {
		return nil, err
	}
	t, err := c.Trainer(cfg, variant)
	if err != nil {
		return nil, fmt.Errorf("nn: checkpoint %s: %w", path, err)
	}
	return t, nil
}

// LoadNet reads the checkpoint at path and returns its network, checking
// that it has shape cfg and belongs to variant.
func LoadNet(path string, cfg Config, variant string) (*Net, error) {
	c, err := ReadCheckpoint(path)
	if err != nil {
		return nil, err
	}
	n, err := c.Net(cfg, variant)
	if err != nil {
		return nil, fmt.Errorf("nn: checkpoint %s: %w", path, err)
	}
	return n, nil
}
