package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/nn"
	"bomberzero/study/values"
	"bomberzero/train"
)

// heldOutMetrics names the figures of "data eval", in column order.
var heldOutMetrics = []string{"accuracy", "policy loss", "value loss", "value error"}

// HeldOutModel is one network's quality on the positions "data eval" drew:
// each figure a mean over positions with its 95% interval from a bootstrap
// over whole games.
type HeldOutModel struct {
	Model      string          `json:"model"`
	Accuracy   values.Estimate `json:"accuracy"`    // share whose most likely move is the target's most visited
	PolicyLoss values.Estimate `json:"policy_loss"` // cross-entropy of the visit target, nats
	ValueLoss  values.Estimate `json:"value_loss"`  // WDL cross-entropy of the game result, nats
	ValueError values.Estimate `json:"value_error"` // squared error of win - loss against the result
}

// HeldOutReport is what "data eval" prints: the positions drawn and every
// model's figures, with each later model's paired difference from the first.
type HeldOutReport struct {
	Dir         string         `json:"dir"`
	Variant     string         `json:"variant"`
	Games       int            `json:"games"`
	Positions   int            `json:"positions"`
	PerGame     int            `json:"per_game"`
	MaxPlies    int            `json:"max_plies"`
	Seed        uint64         `json:"seed"`
	Bootstrap   int            `json:"bootstrap"`
	Models      []HeldOutModel `json:"models"`
	Differences []HeldOutModel `json:"differences,omitempty"` // model i+1 minus model 0, Model "B − A"
}

func runDataEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data eval", "usage: bomberzero data eval --model CHECKPOINT[,CHECKPOINT...] [flags] DIR\n\n"+
		"Measures networks on the positions of DIR (a directory of chunks or a run\n"+
		"directory) the way the trainer would train on them: top-1 agreement with the\n"+
		"target's most visited move, the policy and value cross-entropies and the\n"+
		"value's squared error. Give it games the networks never trained on (another\n"+
		"seed's teacher games, say) to measure them on held-out data. Positions are\n"+
		"drawn at random, at most --per-game a game, the same for every model; the\n"+
		"95% intervals come from a bootstrap over whole games, and each model after\n"+
		"the first gets its paired difference from the first (docs/training.md).", stderr)
	models := fs.String("model", "", "comma-separated checkpoints to measure (one variant)")
	perGame := fs.Int("per-game", 8, "positions drawn at most from each game")
	maxGames := fs.Int("games", 0, "games read at most, oldest chunks first (0: all)")
	maxPlies := fs.Int("max-plies", 400, "the length cap the data's games were played under (the networks' length-cap input is relative to it)")
	seed := fs.Uint64("seed", 1, "random seed of the positions drawn and of the bootstrap")
	boot := fs.Int("bootstrap", 200, "bootstrap replicates over games")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	quiet := quietFlag(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	const synopsis = "data eval --model CHECKPOINT[,CHECKPOINT...] [flags] DIR"
	switch {
	case len(pos) != 1:
		return fmt.Errorf("%w: %s", errUsage, synopsis)
	case *models == "":
		return fmt.Errorf("%w: --model: give at least one checkpoint (%s)", errUsage, synopsis)
	case *perGame < 1:
		return fmt.Errorf("%w: --per-game %d: want 1 or more", errUsage, *perGame)
	case *maxGames < 0:
		return fmt.Errorf("%w: --games %d: want 0 (all) or more", errUsage, *maxGames)
	case *maxPlies < 0:
		return fmt.Errorf("%w: --max-plies %d: want 0 (no cap) or more", errUsage, *maxPlies)
	case *boot < 1:
		return fmt.Errorf("%w: --bootstrap %d: want 1 or more", errUsage, *boot)
	}
	paths := strings.Split(*models, ",")
	nets, variant, err := loadHeldOutModels(paths)
	if err != nil {
		return err
	}
	v, err := env.LoadVariant(variant)
	if err != nil {
		return fmt.Errorf("variant %q of %s: %w", variant, paths[0], err)
	}
	rules := agent.NewRules(v, *maxPlies)
	chunks, err := listChunks(pos[0], stderr)
	if err != nil {
		return err
	}
	skipped := func(err error) { fmt.Fprintln(stderr, "skipped:", err) }
	games := datasets.DrawGames(chunks, variant, *perGame, *maxGames, *seed, chunkProgress(progressTo(stderr, *quiet)), skipped)
	if len(games) == 0 {
		return fmt.Errorf("%s: no full-search position of variant %s in its chunks", pos[0], variant)
	}
	rep := HeldOutReport{Dir: pos[0], Variant: variant, Games: len(games), PerGame: *perGame, MaxPlies: *maxPlies, Seed: *seed, Bootstrap: *boot}
	for _, g := range games {
		rep.Positions += len(g)
	}
	sums := make([]*train.GameSums, len(nets))
	for i, f := range nets {
		if sums[i], err = train.AssessGames(rules, f, games); err != nil {
			return fmt.Errorf("model %s: %w", paths[i], err)
		}
		m, err := heldOutModel(paths[i], sums[i], *boot, *seed)
		if err != nil {
			return err
		}
		rep.Models = append(rep.Models, m)
	}
	for i := 1; i < len(nets); i++ {
		diff, err := sums[i].Minus(sums[0])
		if err != nil {
			return err
		}
		d, err := heldOutModel(paths[i]+" − "+paths[0], diff, *boot, *seed)
		if err != nil {
			return err
		}
		rep.Differences = append(rep.Differences, d)
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	return rep.writeText(stdout)
}

// loadHeldOutModels reads the checkpoints, which must all be of one variant.
func loadHeldOutModels(paths []string) ([]*nn.Folded, string, error) {
	var nets []*nn.Folded
	variant := ""
	for _, p := range paths {
		if p == "" {
			return nil, "", fmt.Errorf("%w: --model: an empty checkpoint path in the list", errUsage)
		}
		ck, err := nn.ReadCheckpoint(p)
		if err != nil {
			return nil, "", fmt.Errorf("model %s: %w", p, err)
		}
		if variant != "" && ck.Variant != variant {
			return nil, "", fmt.Errorf("model %s is for variant %q, %s for %q: compare models of one variant", p, ck.Variant, paths[0], variant)
		}
		variant = ck.Variant
		net, err := ck.Net(ck.Config, ck.Variant)
		if err != nil {
			return nil, "", fmt.Errorf("model %s: %w", p, err)
		}
		nets = append(nets, net.Fold())
	}
	return nets, variant, nil
}

// heldOutModel is the report line of sums: each figure's clustered mean
// over games with its bootstrap interval (values.ClusteredMean).
func heldOutModel(name string, sums *train.GameSums, boot int, seed uint64) (HeldOutModel, error) {
	var e [4]values.Estimate
	for m := range e {
		var err error
		if e[m], err = values.ClusteredMean(sums.Sums[m], sums.Positions, boot, seed); err != nil {
			return HeldOutModel{}, fmt.Errorf("%s, %s: %w", name, heldOutMetrics[m], err)
		}
	}
	return HeldOutModel{Model: name, Accuracy: e[0], PolicyLoss: e[1], ValueLoss: e[2], ValueError: e[3]}, nil
}

func (r *HeldOutReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "data: %s, variant %s: %d positions from %d games (at most %d a game, seed %d, cap %d plies)\n",
		r.Dir, r.Variant, r.Positions, r.Games, r.PerGame, r.Seed, r.MaxPlies)
	fmt.Fprintf(w, "95%% intervals from a bootstrap over games (B = %d)\n\n", r.Bootstrap)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "model\t%s\n", strings.Join(heldOutMetrics, "\t"))
	row := func(m HeldOutModel) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", filepath.ToSlash(m.Model), m.Accuracy.Format(3), m.PolicyLoss.Format(3), m.ValueLoss.Format(3), m.ValueError.Format(3))
	}
	for _, m := range r.Models {
		row(m)
	}
	for _, d := range r.Differences {
		row(d)
	}
	return tw.Flush()
}
