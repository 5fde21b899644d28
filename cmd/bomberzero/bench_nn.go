package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"bomberzero/nn"
)

// runBenchNN is "bomberzero bench nn": the network's inference and training
// speed against the SGEMM ceiling of this build's BLAS, measured in one run.
func runBenchNN(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench nn", "usage: bomberzero bench nn [flags]\n\nMeasures the network's inference and training speed against the SGEMM ceiling\nof this build's BLAS, in one run (docs/BENCHMARKS.md).", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	seconds := fs.Float64("seconds", 20, "total time budget in seconds")
	workers := fs.Int("workers", 0, "inference workers, one evaluator each (0: one per core)")
	blocks := fs.Int("blocks", 6, "residual blocks")
	filters := fs.Int("filters", 64, "filters per convolution")
	channels := fs.Int("channels", 30, "input planes")
	size := fs.Int("board", 10, "board height and width")
	planes := fs.Int("policy-planes", 80, "policy planes")
	policyFilters := fs.Int("policy-filters", 32, "channels of the policy head's 1x1 convolution")
	globalPool := fs.Int("global-pool", 0, "channels each block pools over the board (net.global_pool; 0: none)")
	trainBatch := fs.Int("train-batch", 256, "training batch size")
	square := fs.Int("square-gemm", 1024, "edge of the square SGEMM ceiling")
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg := nn.DefaultConfig(*channels, *size, *size, *planes)
	cfg.Blocks, cfg.Filters, cfg.PolicyFilters, cfg.GlobalPool = *blocks, *filters, *policyFilters, *globalPool
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	opts := nn.BenchOptions{Config: cfg, Workers: *workers, TrainBatch: *trainBatch, SquareGemm: *square,
		Duration: time.Duration(*seconds * float64(time.Second))}
	if !*asJSON && !*quiet {
		opts.ProgressOut = func(line string) { fmt.Fprintln(stderr, line) }
	}
	if core := nn.BLASCore(); betterBLASCore(core, hostFeatures()) != "" {
		fmt.Fprintf(stderr, "warning: OpenBLAS runs its %q kernels, below this processor's; "+
			"the ceiling and every rate are then 2-5x below the hardware's. "+
			"Unset OPENBLAS_CORETYPE (bomberzero then picks the kernels) or set it to %s (docs/BENCHMARKS.md)\n",
			core, betterBLASCore(core, hostFeatures()))
	}
	res, err := nn.Benchmark(opts)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(res)
	}
	fmt.Fprintf(stdout, "network   %s, %.1f MFLOP per position\n", res.Network, res.FlopsPerPosition/1e6)
	fmt.Fprintf(stdout, "BLAS      %s (%s kernels), %d cores, %d workers\n", res.BLAS, res.BLASCore, res.Cores, res.Workers)
	fmt.Fprintf(stdout, "ceiling   %.1f GFLOP/s (im2col conv shape %.1f, Winograd shape %.1f, 1024^3 %.1f)\n",
		res.SgemmGflops, res.SgemmConvGflops, res.SgemmWinoGflops, res.Sgemm1024Gflops)
	fmt.Fprintf(stdout, "inference %s: %.1f MFLOP of products per position\n", res.InferAlgorithm, res.InferGemmFlops/1e6)
	var bs []int
	for b := range res.InferPositionsPerS {
		bs = append(bs, b)
	}
	sort.Ints(bs)
	for _, b := range bs {
		fmt.Fprintf(stdout, "infer     batch %-4d %8.0f positions/s\n", b, res.InferPositionsPerS[b])
	}
	fmt.Fprintf(stdout, "infer     %.1f GFLOP/s at batch %d, ratio %.2f (products issued: ratio %.2f)\n",
		res.InferGflops, res.InferBestBatch, res.InferRatio, res.InferGemmRatio)
	fmt.Fprintf(stdout, "train     %.0f samples/s, %.1f GFLOP/s, ratio %.2f, %.1f MB allocated per step\n",
		res.TrainSamplesPerS, res.TrainGflops, res.TrainRatio, res.TrainAllocMBPerStep)
	fmt.Fprintf(stdout, "per CPU-s ceiling %.1f, infer %.1f (ratio %.2f), train %.1f (ratio %.2f) GFLOP per CPU-second\n",
		res.SgemmGflopsPerCPU, res.InferGflopsPerCPU, res.InferRatioCPU, res.TrainGflopsPerCPU, res.TrainRatioCPU)
	fmt.Fprintf(stdout, "max RSS   %.0f MB; load average at start %s\n", res.MaxRSSMB, res.LoadAverage)
	return nil
}
