package setup

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"

	"bomberzero/eval"
	"bomberzero/internal/keys"
)

// Memory is the estimated peak memory of a run, by part, in bytes
// (MemoryBytes; docs/training.md explains the estimate). The parts are
// float64: the product of the keys' upper bounds overflows an int64.
type Memory struct {
	Weights  float64 // the network's parameters and their copies
	Training float64 // one training step's activations and gradients
	SelfPlay float64 // self-play's inference batches, search trees and caches
	Eval     float64 // the evaluation matches' search trees
	Window   float64 // the training window's positions
}

// Total is the peak: the weights and window are always held, and one of
// training, self-play and evaluation runs at a time.
func (m Memory) Total() float64 { return m.Weights + m.Window + max(m.Training, m.SelfPlay, m.Eval) }

// Bytes per unit of the estimate, measured on the Go network (a training
// step allocates about 35 bytes per sample, filter and cell for each
// residual block, and 60 to 105 for the whole network per filter and cell:
// 48 per unit is the rounded-up figure) and the data window (about 100
// bytes plus 8 per visited move per position).
const (
	trainUnitBytes = 48
	inferUnitBytes = 16
	windowPosBytes = 400
	// weightCopies: the trainer's data, gradient and two optimizer
	// moments, with a checkpoint read on resume (its file and its parsed
	// tensors, three each) alongside; the folded copy self-play uses comes
	// when the read ones are gone, and a save streams (no copy).
	weightCopies  = 10
	treeMoves     = 128
	treeNodeBytes = 48
)

// MemoryBytes estimates the run's memory on a variant of shape s: the
// network's weights, one training batch's activations, self-play's
// workers (inference batches of slots*leaves_per_game positions, search
// trees and caches: selfplay.Settings.MemoryBytes), the evaluation
// matches' trees and the window's positions. It is an upper estimate for
// refusing settings that cannot fit, not a measurement.
func (c Config) MemoryBytes(s eval.Shape) Memory {
	n := c.Net
	fl := func(i int) float64 { return float64(i) }
	cells := fl(s.Height * s.Width)
	f, blocks := fl(n.Filters), fl(n.Blocks)
	// Units (floats per cell) of one position through the network.
	units := f*(blocks+2) + fl(n.PolicyFilters+n.ValueFilters+s.Channels)
	// The value and the moves-left heads each have a dense layer of
	// cells*value_filters*value_hidden weights: with a large value_hidden
	// they outweigh the tower.
	params := blocks*18*f*f + 9*fl(s.Channels)*f + f*fl(n.PolicyFilters+2*n.ValueFilters) +
		fl(n.PolicyFilters)*fl(s.PolicySize) + 2*cells*fl(n.ValueFilters)*fl(n.ValueHidden) + 6*fl(n.ValueHidden)
	sp := c.SelfPlay.Settings
	inferBatch := fl(sp.Slots) * fl(sp.Search.LeavesPerGame)
	evalWorkers := fl(c.Eval.Workers)
	if evalWorkers == 0 {
		evalWorkers = fl(sp.WorkerCount())
	}
	return Memory{
		Weights:  params * 4 * weightCopies,
		Training: fl(c.Train.Batch) * (cells*units + fl(s.PolicySize) + fl(n.ValueHidden)) * trainUnitBytes,
		SelfPlay: sp.MemoryBytes() + fl(sp.WorkerCount())*inferBatch*(cells*units+fl(s.PolicySize))*inferUnitBytes,
		Eval:     evalWorkers * 2 * 2 * fl(c.Eval.Sims+1) * treeMoves * treeNodeBytes,
		Window:   fl(c.Train.Window) * windowPosBytes,
	}
}

// CheckMemory refuses a config whose estimated memory on a variant of
// shape s (MemoryBytes) exceeds limit bytes, naming the keys that drive
// the largest part. The error is a *keys.KeyError on that part's main key,
// so that its message says what to lower.
func (c Config) CheckMemory(s eval.Shape, limit int64) error {
	m := c.MemoryBytes(s)
	if m.Total() <= float64(limit) {
		return nil
	}
	part, k, v, lower := "the network's weights", "net.filters", strconv.Itoa(c.Net.Filters), "net.filters or net.blocks"
	if heads, tower := 2*float64(s.Height*s.Width)*float64(c.Net.ValueFilters)*float64(c.Net.ValueHidden),
		18*float64(c.Net.Blocks)*float64(c.Net.Filters)*float64(c.Net.Filters); heads > tower {
		part, k, v, lower = "the network's value and moves-left heads", "net.value_hidden", strconv.Itoa(c.Net.ValueHidden), "net.value_hidden or net.value_filters"
	}
	biggest := max(m.Weights, m.Window, m.Training, m.SelfPlay, m.Eval)
	switch biggest {
	case m.Training:
		part, k, v, lower = "a training step", "train.batch", strconv.Itoa(c.Train.Batch), "train.batch, net.filters or net.blocks"
	case m.SelfPlay:
		part, k, v, lower = "self-play", "selfplay.slots", strconv.Itoa(c.SelfPlay.Slots),
			"selfplay.slots, selfplay.workers, selfplay.sims, selfplay.cache_entries or the network's size"
	case m.Eval:
		part, k, v, lower = "the evaluation matches", "eval.sims", strconv.Itoa(c.Eval.Sims), "eval.sims or eval.workers"
	case m.Window:
		part, k, v, lower = "the training window", "train.window", strconv.Itoa(c.Train.Window), "train.window"
	}
	return fmt.Errorf("train: config: %w", &keys.KeyError{Key: k, Value: v,
		Want: fmt.Sprintf("less memory: the run would need about %s (%s about %s), over the limit of %s; lower %s",
			gib(m.Total()), part, gib(biggest), gib(float64(limit)), lower)})
}

// String is the estimate in MiB, total first, then by part.
func (m Memory) String() string {
	mib := func(n float64) string { return fmt.Sprintf("%.0f MiB", n/(1<<20)) }
	return fmt.Sprintf("%s (weights %s, window %s, training %s, self-play %s, evaluation %s)",
		mib(m.Total()), mib(m.Weights), mib(m.Window), mib(m.Training), mib(m.SelfPlay), mib(m.Eval))
}

// gib formats n bytes in GiB.
func gib(n float64) string { return fmt.Sprintf("%.1f GiB", n/(1<<30)) }

// DefaultMemoryLimit is the memory limit where the machine's memory cannot
// be read (no /proc/meminfo).
const DefaultMemoryLimit = 16 << 30

// MemoryLimit is the memory a run may be estimated to need: half the
// machine's memory (MemTotal of /proc/meminfo), or DefaultMemoryLimit
// where that cannot be read.
func MemoryLimit() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return DefaultMemoryLimit
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); err == nil && kb > 0 {
			return kb * 1024 / 2
		}
	}
	return DefaultMemoryLimit
}
