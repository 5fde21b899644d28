package setup

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"

	"bomberzero/eval"
	"bomberzero/internal/keys"
	"bomberzero/selfplay"
	"bomberzero/selfplay/teacher"
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
	Teacher  float64 // the engine teacher's transposition tables, one a worker
	// Runtime is what the process holds beside its heap: the program's
	// code, the Go runtime, goroutine stacks and thread buffers.
	Runtime float64
	// Program is the heap the program holds whatever the config: the
	// variant's rules and tables, the network's graph, the data's index.
	Program float64
	// GC is the heap's peak over its live data: Go's collector lets the
	// heap grow to 1+GOGC/100 times what was live after the last
	// collection before it collects again (2 at the default GOGC=100).
	GC float64
}

// Total is the peak resident memory: the runtime beside the heap, and the
// heap's peak over the program's own heap, the weights and the window,
// always held, with one of training, self-play, the teacher and evaluation at a time.
// Self-play's and evaluation's trees and caches and the teacher's tables
// are live data, and the
// collector lets the heap grow to GC times what is live; a training
// step's part is already its allocations' peak (measured at 35 of its 48
// bytes per unit), the garbage the headroom would hold, so it is added
// once. Checked against the peak RSS of five runs of bomberzero train at
// 0.89 to 1.12 of it (docs/BENCHMARKS.md, TestMemoryEstimateMatchesPeakRSS).
func (m Memory) Total() float64 {
	gc := max(m.GC, 1)
	base := m.Program + m.Weights + m.Window
	return m.Runtime + max(base+m.Training, gc*(base+max(m.SelfPlay, m.Eval, m.Teacher)))
}

// gcHeadroom is the heap's peak over its live data at the process's GOGC
// (1+GOGC/100; 2 when GOGC is unset, "off" or not a number).
func gcHeadroom() float64 {
	if p, err := strconv.Atoi(os.Getenv("GOGC")); err == nil && p > 0 {
		return 1 + float64(p)/100
	}
	return 2
}

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
	// runtimeBytes: the resident memory of the program idle (measured
	// at 52 to 57 MB with a heap of about 4 MB).
	runtimeBytes = 48 << 20
	// programBytes: the live heap of a run before its first game, less
	// its weights (measured at 13 to 23 MB), and what self-play holds
	// beside its trees and caches (14 to 19 MB over them in three runs).
	programBytes = 16 << 20
)

// MemoryBytes estimates the run's memory on a variant of shape s: the
// network's weights, one training batch's activations, self-play's
// workers (inference batches of slots*leaves_per_game positions, search
// trees and caches: selfplay.Settings.MemoryBytes), the evaluation
// matches' trees and the window's positions, with the runtime and the
// collector's headroom (Memory.Total). It estimates the peak RSS, for
// refusing settings that cannot fit; docs/BENCHMARKS.md has it against
// measured peaks.
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
	if n.GlobalPool > 0 {
		// Each block's pooling: its dense layer, and its output and
		// gradient beside the convolutions'.
		params += blocks * (2*fl(n.GlobalPool) + 1) * f
		units += 2 * f * blocks
	}
	sp := c.SelfPlay.Settings
	inferBatch := fl(sp.Slots) * fl(sp.Search.LeavesPerGame)
	evalWorkers := fl(c.Eval.Workers)
	if evalWorkers == 0 {
		evalWorkers = fl(sp.WorkerCount())
	}
	teach := 0.0
	if c.Teacher.Enabled && c.Teacher.isEngine() {
		teach = fl(sp.WorkerCount()) * teacher.EngineHashMB * (1 << 20)
	}
	return Memory{
		Teacher:  teach,
		Weights:  params * 4 * weightCopies,
		Training: fl(c.Train.Batch) * (cells*units + fl(s.PolicySize) + fl(n.ValueHidden)) * trainUnitBytes,
		SelfPlay: sp.MemoryBytes() + fl(sp.WorkerCount())*inferBatch*(cells*units+fl(s.PolicySize))*inferUnitBytes,
		Eval:     evalWorkers * 2 * 2 * fl(c.Eval.Sims+1) * treeMoves * treeNodeBytes,
		Window:   fl(c.Train.Window) * windowPosBytes,
		Runtime:  runtimeBytes,
		Program:  programBytes,
		GC:       gcHeadroom(),
	}
}

// SelfPlayPeak estimates the peak RSS of bomberzero selfplay with
// settings s: the runtime and the program's heap as in a run, and the
// searches (selfplay.Settings.MemoryBytes) times the collector's headroom
// (Memory.Total explains both).
func SelfPlayPeak(s *selfplay.Settings) float64 {
	return runtimeBytes + gcHeadroom()*(programBytes+s.MemoryBytes())
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
	gc := max(m.GC, 1)
	weights, window, training, selfPlay, evals, teach := gc*m.Weights, gc*m.Window, m.Training, gc*m.SelfPlay, gc*m.Eval, gc*m.Teacher
	biggest := max(weights, window, training, selfPlay, evals, teach)
	switch biggest {
	case training:
		part, k, v, lower = "a training step", "train.batch", strconv.Itoa(c.Train.Batch), "train.batch, net.filters or net.blocks"
	case selfPlay:
		part, k, v, lower = "self-play", "selfplay.slots", strconv.Itoa(c.SelfPlay.Slots),
			"selfplay.slots, selfplay.workers, selfplay.sims, selfplay.cache_entries or the network's size"
	case evals:
		part, k, v, lower = "the evaluation matches", "eval.sims", strconv.Itoa(c.Eval.Sims), "eval.sims or eval.workers"
	case window:
		part, k, v, lower = "the training window", "train.window", strconv.Itoa(c.Train.Window), "train.window"
	case teach:
		part, k, v, lower = "the engine teacher", "selfplay.workers", strconv.Itoa(c.SelfPlay.Workers), "selfplay.workers"
	}
	return fmt.Errorf("train: config: %w", &keys.KeyError{Key: k, Value: v,
		Want: fmt.Sprintf("less memory: the run would need about %s (%s about %s), over the limit of %s; lower %s",
			gib(m.Total()), part, gib(biggest), gib(float64(limit)), lower)})
}

// String is the estimate in MiB, total first, then by part.
func (m Memory) String() string {
	mib := func(n float64) string { return fmt.Sprintf("%.0f MiB", n/(1<<20)) }
	teacher := ""
	if m.Teacher > 0 {
		teacher = " or the engine teacher " + mib(m.Teacher)
	}
	return fmt.Sprintf("%s (runtime %s; held: program %s, weights %s, window %s; with a training step %s, or with self-play %s%s or evaluation %s, all live, times %.1f for the collector's headroom)",
		mib(m.Total()), mib(m.Runtime), mib(m.Program), mib(m.Weights), mib(m.Window), mib(m.Training), mib(m.SelfPlay), teacher, mib(m.Eval), max(m.GC, 1))
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
