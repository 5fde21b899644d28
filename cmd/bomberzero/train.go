package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"bomberzero/env"
	"bomberzero/train"
)

// runTrain runs or resumes a self-play training run ("bomberzero train
// [--variant V] [--config FILE] [--budget D] [--generations N] [--run DIR]").
func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", "usage: bomberzero train [flags]\n\nTrains an agent by self-play in generations (self-play, training, evaluation)\nand keeps everything in the run directory; --run on an existing run resumes it.", stderr)
	variant := variantFlag(fs)
	cf := addConfigFlags(fs)
	budget := fs.Duration("budget", 0, "stop cleanly after this long (e.g. 90m; 0: no limit)")
	gens := fs.Int("generations", 0, "stop once this many generations are done (0: the config's)")
	dir := fs.String("run", "", "run directory: an existing run resumes, else a new run starts there (default runs/<variant>-<time>)")
	quiet := fs.Bool("quiet", false, "no progress bars")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	opt := train.Options{Dir: *dir, Budget: *budget, Generations: *gens, Out: stdout, Progress: stderr}
	if *quiet {
		opt.Progress = nil
	}
	if opt.Dir != "" && train.IsRun(opt.Dir) {
		fmt.Fprintf(stderr, "resuming %s with its own config.toml\n", opt.Dir)
		if cf.file != "" || len(cf.sets) > 0 {
			fmt.Fprintln(stderr, "(--config and --set apply to new runs only: they are not read)")
		}
	} else {
		cfg, err := cf.load(*variant)
		if err != nil {
			return usageErr(err)
		}
		if _, err := env.LoadVariant(cfg.Variant); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		opt.Config = cfg
		if opt.Dir == "" {
			opt.Dir = filepath.Join("runs", fmt.Sprintf("%s-%s", filepath.Base(*variant), time.Now().UTC().Format("20060102-150405")))
		}
		fmt.Fprintf(stderr, "new run in %s\n", opt.Dir)
	}
	ctx, stop := stopContext()
	defer stop()
	rep, err := train.Run(ctx, opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "run %s: %d generations, %d training steps, stopped by %s; newest model %s\n",
		rep.Dir, rep.Generations, rep.Steps, rep.Stopped, rep.Model)
	if rep.Stopped == "cancelled" {
		return &exitError{130, fmt.Errorf("interrupted: resume with --run %s", rep.Dir)}
	}
	return nil
}
