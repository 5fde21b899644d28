package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"bomberzero/env"
	"bomberzero/internal/runstore"
	"bomberzero/train"
)

// runTrain runs or resumes a self-play training run ("bomberzero train
// [--variant V] [--config FILE] [--budget D] [--generations N] [--run DIR]").
func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", "usage: bomberzero train [flags]\n\nTrains an agent by self-play in generations (self-play, training, evaluation)\nand keeps everything in the run directory; --run on an existing run resumes it.\nIt prints its plan first (every phase, its estimated time, the time to the first\nmodel) and again as each phase begins; --quiet prints none of it.\nWith --run URL the run lives in an object store; --role trainer and --role evaluator\nsplit it over machines, with self-play workers (bomberzero selfplay --run URL --follow):\nsee docs/scaling.md.", stderr)
	variant := variantFlag(fs)
	cf := addConfigFlags(fs)
	budget := fs.Duration("budget", 0, "stop cleanly after this long (e.g. 90m; 0: no limit)")
	gens := fs.Int("generations", 0, "stop once this many generations are done (0: the config's)")
	dir := fs.String("run", "", runHelp+"; an existing run resumes, else a new run starts there (default runs/<variant>-<time>)")
	role := fs.String("role", train.RoleAll, "all (self-play, training and evaluation here), trainer or evaluator (with --run URL; docs/scaling.md)")
	leaseTTL := fs.Duration("lease-ttl", train.DefaultLeaseTTL, "with --run URL: how long the run's lease outlives a dead trainer's last heartbeat")
	sf := addStoreFlags(fs)
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *gens < 0 {
		return fmt.Errorf("%w: --generations %d: want 0 (the config's) or more", errUsage, *gens)
	}
	if *leaseTTL < time.Second {
		return fmt.Errorf("%w: --lease-ttl %s: want at least 1s", errUsage, *leaseTTL)
	}
	if err := checkLocation(*dir); err != nil {
		return err
	}
	remote := runstore.IsURL(*dir)
	switch *role {
	case train.RoleAll:
	case train.RoleTrainer, train.RoleEvaluator:
		if !remote {
			return fmt.Errorf("%w: --role %s needs --run URL (an object store the roles share; docs/scaling.md)", errUsage, *role)
		}
	default:
		return fmt.Errorf("%w: --role %q: want all, trainer or evaluator", errUsage, *role)
	}
	ctx, stop := stopContext()
	defer stop()
	opt := train.Options{Dir: *dir, Budget: *budget, Generations: *gens, Out: stdout, Progress: stderr, Log: stderr, Role: *role, LeaseTTL: *leaseTTL}
	if *quiet {
		opt.Progress = nil
	}
	exists := opt.Dir != "" && train.IsRun(opt.Dir)
	if remote {
		s, err := openStore(ctx, *dir, stderr) // the store's warnings: stderr, --quiet or not
		if err != nil {
			return err
		}
		defer s.Close()
		if *role == train.RoleEvaluator {
			return runEvaluator(ctx, s, sf.cacheFor(*dir, *role), stdout, progressTo(stderr, *quiet))
		}
		if exists, err = storeHasRun(ctx, s); err != nil {
			return err
		}
		opt.Store, opt.Dir = s, sf.cacheFor(*dir, *role)
	}
	if exists {
		fmt.Fprintf(stderr, "resuming %s with its own config.toml\n", *dir)
		if cf.file != "" {
			fmt.Fprintln(stderr, "(--config applies to new runs only: it is not read; --set KEY=VALUE changes a key of this run)")
		}
		opt.Sets = cf.sets // saved into the run's config.toml once valid
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
			*dir = opt.Dir
		}
		fmt.Fprintf(stderr, "new run in %s\n", *dir)
	}
	if remote {
		fmt.Fprintf(stderr, "role %s; working copy in %s\n", *role, opt.Dir)
	}
	rep, err := train.Run(ctx, opt)
	if err != nil {
		return err
	}
	rep.Dir = *dir
	resume := trainResumeCommand(programName(), *dir, *budget, *gens, *quiet)
	if *role != train.RoleAll {
		resume += " --role " + *role
	}
	if peak, ok := peakRSS(); ok {
		fmt.Fprintf(stdout, "peak resident memory: %d MiB (the estimate is printed at the start)\n", peak>>20)
	}
	writeTrainEnd(stdout, rep, resume)
	if rep.Stopped == "cancelled" {
		return &exitError{code: 130} // the lines above said everything
	}
	return nil
}

// runEvaluator runs the evaluator role of the run in s until interrupted.
func runEvaluator(ctx context.Context, s *runstore.Store, cache string, stdout, progress io.Writer) error {
	fmt.Fprintf(progress, "evaluator of %s; working copy in %s\n", s, cache)
	rep, err := train.Evaluate(ctx, train.EvaluateOptions{Store: s, Dir: cache, Out: stdout, Progress: progress})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "evaluator of %s: rated %d models; stopped by an interrupt\n", s, len(rep.Rated))
	return &exitError{code: 130}
}

// writeTrainEnd prints how a train call ended: the run, why it stopped,
// where its newest model is and, unless its generations are done, the
// command that resumes it (the last line).
func writeTrainEnd(w io.Writer, rep *train.Report, resume string) {
	why := map[string]string{"generations": "its generations are done", "budget": "stopped by the budget",
		"cancelled": "stopped by an interrupt (Ctrl-C or SIGTERM)"}[rep.Stopped]
	if why == "" {
		why = "stopped: " + rep.Stopped
	}
	fmt.Fprintf(w, "run %s: %d generations, %d training steps; %s\n", rep.Dir, rep.Generations, rep.Steps, why)
	if rep.Model != "" && rep.Store != "" {
		fmt.Fprintf(w, "newest model: %s/%s\n", rep.Store, rep.Model)
	} else if rep.Model != "" {
		fmt.Fprintf(w, "newest model: %s\n", rep.Model)
	} else {
		fmt.Fprintln(w, "newest model: none yet (the first generation is not finished; its progress is saved)")
	}
	if rep.Stopped != "generations" {
		fmt.Fprintf(w, "resume with: %s\n", resume)
	}
}

// trainResumeCommand is the command line that resumes the run in dir with
// the flags of this call that a resume does not read from the run itself
// (the variant and config are the run's own).
func trainResumeCommand(program, dir string, budget time.Duration, gens int, quiet bool) string {
	cmd := program + " train --run " + shellQuote(dir)
	if budget > 0 {
		cmd += " --budget " + budget.String()
	}
	if gens > 0 {
		cmd += fmt.Sprintf(" --generations %d", gens)
	}
	if quiet {
		cmd += " --quiet"
	}
	return cmd
}

// programName is how the user started this program, for commands it
// prints: "go run ./cmd/bomberzero" when "go run" built it, else
// "bomberzero".
func programName() string {
	exe, err := os.Executable()
	if err == nil && strings.Contains(filepath.ToSlash(exe), "/go-build") && filepath.Base(exe) == "bomberzero" {
		return "go run ./cmd/bomberzero"
	}
	return "bomberzero"
}

// shellQuote returns s as one word for a POSIX shell: unchanged when it
// holds only characters no shell treats specially, else single-quoted.
func shellQuote(s string) string {
	special := func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("_./:=+-@%,", r))
	}
	if s != "" && !strings.ContainsFunc(s, special) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
