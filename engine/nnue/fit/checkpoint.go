package fit

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io/fs"
	"math"
	"os"

	"bomberzero/engine/nnue"
	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// A checkpoint is the sparse trainer's state after a whole epoch: the
// net's weights, Adam's moments and step count, and the report so far,
// with a fingerprint of what the training started from (samples, targets,
// settings, start net), so that a file of another training is not resumed.
//
// File layout, little-endian: the magic "BZFITCK1"; the fingerprint
// (uint64); the epochs done E (uint32); Adam's step count (uint64); E
// training losses and E+1 validation losses (float64); then for each of
// W1, B1, W2, B2, W3, B3, PSQT its weights, Adam's first and second
// moments (float32); last a CRC-32 (IEEE) of all before it.
const checkpointMagic = "BZFITCK1"

type checkpoint struct {
	fingerprint uint64
	epochs      int
	arrays      int // float32 values of the weights, the moments included
}

// newCheckpoint fingerprints a training about to start from net on d.
func newCheckpoint(cfg Config, net *nnue.Net, d *data) *checkpoint {
	h := fnv.New64a()
	w := func(x any) { binary.Write(h, binary.LittleEndian, x) }
	h.Write([]byte(net.Variant + "\x00" + net.Layout + "\x00"))
	w([]int64{int64(net.Features), int64(net.H), int64(net.L2), int64(cfg.Batch), int64(cfg.Epochs), int64(len(d.target))})
	w([]float64{cfg.LearningRate, cfg.Lambda, cfg.Scale, cfg.ValidationShare})
	w(cfg.Seed)
	if cfg.LearningRateFinal != 0 { // absent from the checkpoints of constant-rate trainings
		w(cfg.LearningRateFinal)
	}
	w(d.feats)
	w(d.target)
	w(d.base)
	for _, a := range weightArrays(net) {
		w(a)
	}
	n := 0
	for _, a := range weightArrays(net) {
		n += 3 * len(a)
	}
	return &checkpoint{fingerprint: h.Sum64(), epochs: cfg.Epochs, arrays: n}
}

// weightArrays lists the net's weights in checkpoint order (B3 as a
// one-element copy).
func weightArrays(n *nnue.Net) [7][]float32 {
	return [7][]float32{n.W1, n.B1, n.W2, n.B2, n.W3, {n.B3}, n.PSQT}
}

func (c *checkpoint) size(epochs int) int {
	return len(checkpointMagic) + 8 + 4 + 8 + 8*(2*epochs+1) + 4*c.arrays + 4
}

// save writes the state after epochs epochs to path atomically.
func (c *checkpoint) save(path string, epochs int, t *sparse, rep Report) error {
	var b bytes.Buffer
	b.Grow(c.size(epochs))
	w := func(x any) { binary.Write(&b, binary.LittleEndian, x) }
	b.WriteString(checkpointMagic)
	w(c.fingerprint)
	w(uint32(epochs))
	w(uint64(t.iter))
	w(rep.TrainLoss[:epochs])
	w(rep.ValidationLoss[:epochs+1])
	for i, a := range weightArrays(t.net) {
		w(a)
		w(t.opt[i].m)
		w(t.opt[i].v)
	}
	w(crc32.ChecksumIEEE(b.Bytes()))
	if err := atomicfile.WriteFile(path, b.Bytes()); err != nil {
		return fmt.Errorf("writing the checkpoint: %w", err)
	}
	return nil
}

// load restores the state of the checkpoint at path into t and rep and
// returns the epochs done: 0 when there is no file or it is another
// training's. A damaged file is an error naming it.
func (c *checkpoint) load(path string, t *sparse, rep *Report) (int, error) {
	data, err := readfile.Regular(path, int64(c.size(c.epochs)))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	head := len(checkpointMagic) + 8 + 4 + 8
	if len(data) < head+4 || string(data[:len(checkpointMagic)]) != checkpointMagic {
		return 0, fmt.Errorf("checkpoint %s: not a training checkpoint (want the magic %q); remove it to train the generation from the start", path, checkpointMagic)
	}
	le := binary.LittleEndian
	body, sum := data[:len(data)-4], le.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return 0, fmt.Errorf("checkpoint %s: checksum mismatch, the file is damaged; remove it to train the generation from the start", path)
	}
	if le.Uint64(data[8:]) != c.fingerprint {
		// Another training's state (other samples or settings): start over.
		return 0, os.Remove(path)
	}
	epochs := int(le.Uint32(data[16:]))
	if epochs < 1 || epochs > c.epochs || len(data) != c.size(epochs) {
		return 0, fmt.Errorf("checkpoint %s: %d bytes for %d epochs done; want %d bytes and 1 to %d epochs", path, len(data), epochs, c.size(epochs), c.epochs)
	}
	iter := le.Uint64(data[20:])
	p := data[head:]
	f64 := func(n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = math.Float64frombits(le.Uint64(p))
			p = p[8:]
		}
		return out
	}
	f32 := func(dst []float32) {
		for i := range dst {
			dst[i] = math.Float32frombits(le.Uint32(p))
			p = p[4:]
		}
	}
	rep.TrainLoss = f64(epochs)
	rep.ValidationLoss = f64(epochs + 1)
	ws := weightArrays(t.net)
	for i, a := range ws {
		f32(a)
		f32(t.opt[i].m)
		f32(t.opt[i].v)
	}
	t.net.B3 = ws[5][0]
	t.iter = int(iter)
	if err := t.net.Check(); err != nil {
		return 0, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return epochs, nil
}
