package nn

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"bomberzero/eval"
	"bomberzero/internal/cputime"
)

// BenchOptions sizes the network benchmark.
type BenchOptions struct {
	Config      Config        // the network measured
	Workers     int           // inference goroutines, one Evaluator each (default: GOMAXPROCS)
	Batches     []int         // inference batch sizes (default 1, 8, 32, 128)
	TrainBatch  int           // training batch size (default 256)
	Duration    time.Duration // total time budget, split over the measurements (default 20s)
	Optimizer   string        // training optimizer (default "adam")
	SquareGemm  int           // edge of the square SGEMM ceiling (default 1024)
	ProgressOut func(string)  // called with a line per finished measurement, when not nil
}

// BenchResult is what the network benchmark measured: the build's SGEMM
// ceiling and the network's inference and training speed against it.
type BenchResult struct {
	BLAS                 string          `json:"blas"`
	BLASCore             string          `json:"blas_core"` // the kernel family the BLAS chose (BLASCore)
	Cores                int             `json:"cores"`
	Workers              int             `json:"workers"`
	Network              string          `json:"network"`
	FlopsPerPosition     float64         `json:"flops_per_position"` // the network's nominal FLOPs: every 3x3 convolution counted as a direct one
	InferAlgorithm       string          `json:"infer_algorithm"`
	InferGemmFlops       float64         `json:"infer_gemm_flops_per_position"` // the products inference actually issues (Winograd: 2.25x fewer for 3x3)
	SgemmConvGflops      float64         `json:"sgemm_conv_gflops"`             // conv GEMM shape (batch 32), one single-threaded product per worker; mean of the runs
	SgemmWinoGflops      float64         `json:"sgemm_winograd_gflops"`         // Winograd product shape (a slab's tiles x filters x filters), one per worker; mean of the runs
	Sgemm1024Gflops      float64         `json:"sgemm_1024_gflops"`             // 1024^3, one product split over every core; best run
	SgemmGflops          float64         `json:"sgemm_gflops"`                  // the best of the three (each ratio uses the ceiling measured next to it)
	InferPositionsPerS   map[int]float64 `json:"infer_positions_per_s"`
	InferGflops          float64         `json:"infer_gflops"` // at infer_best_batch, the batch with the best ratio
	InferBestBatch       int             `json:"infer_best_batch"`
	InferRatio           float64         `json:"infer_ratio"`              // best over the batches: nominal FLOPs per second over the ceiling
	InferGemmRatio       float64         `json:"infer_gemm_ratio"`         // at infer_best_batch: the FLOPs issued per second over the ceiling
	InferRatioByBatch    map[int]float64 `json:"infer_ratio_by_batch"`     // achieved over the ceiling measured just before
	InferRatioCPUByBatch map[int]float64 `json:"infer_ratio_cpu_by_batch"` // the same per CPU-second
	TrainSamplesPerS     float64         `json:"train_samples_per_s"`
	TrainGflops          float64         `json:"train_gflops"` // 3 forward passes' FLOPs per sample
	TrainRatio           float64         `json:"train_ratio"`
	TrainAllocMBPerStep  float64         `json:"train_alloc_mb_per_step"`
	MaxRSSMB             float64         `json:"max_rss_mb"`
	Seconds              float64         `json:"seconds"`

	// On a shared machine wall-clock rates depend on the load from moment to
	// moment; rates per CPU-second of this process do much less. The same
	// quantities per CPU-second, and the ratios between them:
	SgemmGflopsPerCPU float64 `json:"sgemm_gflops_per_cpu_s"` // the conv-shape ceiling, mean of the runs
	InferGflopsPerCPU float64 `json:"infer_gflops_per_cpu_s"` // at infer_best_batch
	TrainGflopsPerCPU float64 `json:"train_gflops_per_cpu_s"`
	InferRatioCPU     float64 `json:"infer_ratio_cpu"`
	TrainRatioCPU     float64 `json:"train_ratio_cpu"`
	LoadAverage       string  `json:"load_average"` // /proc/loadavg when the run started
}

// Benchmark measures, in one run, the build's SGEMM ceiling and the speed of
// a network of o.Config: inference with one Evaluator per worker at each
// batch size, and training steps.
func Benchmark(o BenchOptions) (BenchResult, error) {
	start := time.Now()
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if len(o.Batches) == 0 {
		o.Batches = []int{1, 8, 32, 128}
	}
	if o.TrainBatch <= 0 {
		o.TrainBatch = 256
	}
	if o.Duration <= 0 {
		o.Duration = 20 * time.Second
	}
	if o.Optimizer == "" {
		o.Optimizer = "adam"
	}
	if o.SquareGemm <= 0 {
		o.SquareGemm = 1024
	}
	progress := func(format string, a ...any) {
		if o.ProgressOut != nil {
			o.ProgressOut(fmt.Sprintf(format, a...))
		}
	}
	cfg := o.Config
	net, err := New(cfg, 1)
	if err != nil {
		return BenchResult{}, err
	}
	folded := net.Fold()
	res := BenchResult{BLAS: BLASName, BLASCore: BLASCore(), Cores: runtime.NumCPU(), Workers: o.Workers,
		InferAlgorithm: "Winograd F(2x2,3x3) for 3x3 convolutions, padded NHWC", InferGemmFlops: folded.iw.gemmFlopsPerPosition(),
		Network: fmt.Sprintf("%d blocks x %d filters, %dx%dx%d in, %d policy planes", cfg.Blocks, cfg.Filters,
			cfg.Channels, cfg.Height, cfg.Width, cfg.PolicyPlanes),
		FlopsPerPosition: cfg.FlopsPerPosition(), InferPositionsPerS: map[int]float64{}}
	slice := o.Duration / time.Duration(2*len(o.Batches)+5)
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		res.LoadAverage = strings.TrimSpace(string(b))
	}

	// The ceiling is measured right before each measurement (and after the
	// training one), and each ratio uses its own, so that a shared machine's
	// load changing during the run moves both sides of a ratio alike.
	m, n, k := cfg.Filters, 32*cfg.Height*cfg.Width, 9*cfg.Filters
	var convSum, winoSum, perCPUSum float64
	var ceilings int
	ceiling := func() (wall, perCPU float64) {
		conv, convCPU := parallelGemmGflops(o.Workers, m, n, k, slice/6)
		wm := winoSlabPositions(cfg.Height, cfg.Width) * cfg.Height * cfg.Width / 4
		wf := roundUp8(cfg.Filters)
		wino, winoCPU := parallelGemmGflops(o.Workers, wm, wf, wf, slice/6)
		sq := o.SquareGemm
		big, _ := parallelGemmGflops(1, sq, sq, sq, slice/6)
		res.Sgemm1024Gflops = max(res.Sgemm1024Gflops, big)
		convSum += conv
		winoSum += wino
		perCPU = max(convCPU, winoCPU)
		perCPUSum += perCPU
		ceilings++
		progress("ceiling: sgemm %dx%dx%d, %d single-threaded products %.1f GFLOP/s; %dx%dx%d %.1f; %d^3 split over %d goroutines %.1f",
			m, n, k, o.Workers, conv, wm, wf, wf, wino, sq, maxProcs(), big)
		return max(conv, wino, big), perCPU
	}

	// Inference: one evaluator per worker over one shared snapshot.
	res.InferRatioByBatch, res.InferRatioCPUByBatch = map[int]float64{}, map[int]float64{}
	for _, bs := range o.Batches {
		ceil, ceilCPU := ceiling()
		pps, positions, cpu, err := inferRate(folded, o.Workers, bs, slice)
		if err != nil {
			return res, err
		}
		perCPU := float64(positions) * res.FlopsPerPosition / 1e9 / cpu
		res.InferPositionsPerS[bs] = pps
		g := pps * res.FlopsPerPosition / 1e9
		res.InferRatioByBatch[bs] = g / ceil
		res.InferRatioCPUByBatch[bs] = perCPU / ceilCPU
		if g/ceil > res.InferRatio {
			res.InferGflops, res.InferBestBatch, res.InferRatio = g, bs, g/ceil
			res.InferGemmRatio = pps * res.InferGemmFlops / 1e9 / ceil
			res.InferGflopsPerCPU, res.InferRatioCPU = perCPU, perCPU/ceilCPU
		}
		progress("inference batch %d, %d workers: %.0f positions/s, ratio %.2f", bs, o.Workers, pps, g/ceil)
	}

	// Training.
	tc := DefaultTrainConfig()
	tc.Optimizer = o.Optimizer
	tr, err := NewTrainer(net, tc)
	if err != nil {
		return res, err
	}
	b := benchTrainBatch(cfg, o.TrainBatch)
	if _, err := tr.TrainStep(b); err != nil { // builds the graph
		return res, err
	}
	before, beforeCPU := ceiling()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	alloc0 := ms.TotalAlloc
	steps := 0
	c0 := cputime.Seconds()
	t0 := time.Now()
	for steps < 2 || time.Since(t0) < 3*slice {
		if _, err := tr.TrainStep(b); err != nil {
			return res, err
		}
		steps++
	}
	el := time.Since(t0).Seconds()
	cpu := cputime.Seconds() - c0
	runtime.ReadMemStats(&ms)
	after, afterCPU := ceiling()
	res.TrainSamplesPerS = float64(steps*o.TrainBatch) / el
	res.TrainGflops = res.TrainSamplesPerS * 3 * res.FlopsPerPosition / 1e9
	res.TrainRatio = res.TrainGflops / ((before + after) / 2)
	res.TrainGflopsPerCPU = float64(steps*o.TrainBatch) * 3 * res.FlopsPerPosition / 1e9 / cpu
	res.TrainRatioCPU = res.TrainGflopsPerCPU / ((beforeCPU + afterCPU) / 2)
	res.TrainAllocMBPerStep = float64(ms.TotalAlloc-alloc0) / float64(steps) / (1 << 20)
	progress("training batch %d: %.0f samples/s, ratio %.2f", o.TrainBatch, res.TrainSamplesPerS, res.TrainRatio)

	res.SgemmConvGflops = convSum / float64(ceilings)
	res.SgemmWinoGflops = winoSum / float64(ceilings)
	res.SgemmGflopsPerCPU = perCPUSum / float64(ceilings)
	res.SgemmGflops = max(res.SgemmConvGflops, res.SgemmWinoGflops, res.Sgemm1024Gflops)

	res.MaxRSSMB = maxRSSMB()
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// parallelGemmGflops runs workers goroutines each multiplying (m x k) by
// (k x n) on one core for about d (one worker splits its product over
// GOMAXPROCS goroutines instead) and returns the rate in GFLOP per second
// and per CPU-second of the process. Setting up and a first product per
// worker happen before the clocks start.
func parallelGemmGflops(workers, m, n, k int, d time.Duration) (gflops, perCPU float64) {
	type mats struct{ a, b, c []float32 }
	ms := make([]mats, workers)
	r := rand.New(rand.NewPCG(uint64(m*n*k), 1))
	for w := range ms {
		ms[w] = mats{make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)}
		for i := range ms[w].a {
			ms[w].a[i] = r.Float32()
		}
		for i := range ms[w].b {
			ms[w].b[i] = r.Float32()
		}
		Sgemm(workers == 1, m, n, k, ms[w].a, ms[w].b, ms[w].c)
	}
	var wg sync.WaitGroup
	counts := make([]int, workers)
	c0 := cputime.Seconds()
	t0 := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for counts[w] == 0 || time.Since(t0) < d {
				Sgemm(workers == 1, m, n, k, ms[w].a, ms[w].b, ms[w].c)
				counts[w]++
			}
		}(w)
	}
	wg.Wait()
	total := 0
	for _, c := range counts {
		total += c
	}
	flops := float64(total) * 2 * float64(m*n*k) / 1e9
	return flops / time.Since(t0).Seconds(), flops / (cputime.Seconds() - c0)
}

// inferRate returns the positions per second, the positions and the CPU
// seconds of workers evaluators each evaluating batches of size bs for
// about d, after each has built its graph.
func inferRate(f *Folded, workers, bs int, d time.Duration) (pps float64, positions int, cpu float64, err error) {
	cfg := f.Config()
	evs := make([]*Evaluator, workers)
	batches := make([]*eval.Batch, workers)
	for w := range evs {
		ev, err := NewEvaluator(f, bs)
		if err != nil {
			return 0, 0, 0, err
		}
		tb := benchTrainBatch(cfg, bs)
		b := eval.NewBatch(cfg.Shape(), bs)
		copy(b.Planes, tb.Planes)
		copy(b.Legal, tb.Legal)
		if err := ev.Evaluate(b); err != nil { // builds the graph
			return 0, 0, 0, err
		}
		evs[w], batches[w] = ev, b
	}
	var wg sync.WaitGroup
	counts := make([]int, workers)
	errs := make([]error, workers)
	c0 := cputime.Seconds()
	t0 := time.Now()
	for w := range evs {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for counts[w] == 0 || time.Since(t0) < d {
				if err := evs[w].Evaluate(batches[w]); err != nil {
					errs[w] = err
					return
				}
				counts[w]++
			}
		}(w)
	}
	wg.Wait()
	total := 0
	for w, c := range counts {
		if errs[w] != nil {
			return 0, 0, 0, errs[w]
		}
		total += c
	}
	return float64(total*bs) / time.Since(t0).Seconds(), total * bs, cputime.Seconds() - c0, nil
}

// benchTrainBatch returns a batch of random positions with about 30 legal
// moves each and one-hot targets.
func benchTrainBatch(cfg Config, size int) *TrainBatch {
	r := rand.New(rand.NewPCG(uint64(size), 2))
	b := NewTrainBatch(cfg, size)
	s := cfg.Shape()
	for i := range b.Planes {
		if r.IntN(8) == 0 {
			b.Planes[i] = 1
		}
	}
	for pos := 0; pos < size; pos++ {
		for j := 0; j < 30; j++ {
			b.Legal[pos*s.PolicySize+r.IntN(s.PolicySize)] = 1
		}
		i := r.IntN(s.PolicySize)
		b.Legal[pos*s.PolicySize+i] = 1
		b.Policy[pos*s.PolicySize+i] = 1
		b.WDL[pos*3+r.IntN(3)] = 1
	}
	return b
}
