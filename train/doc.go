// Package train is bomberzero's self-play training loop: generations of
// self-play with the current model, training on a window of recent data,
// evaluation against the previous model and fixed baselines, and the next
// model, all kept in one run directory so that a stopped or killed run
// continues where it stopped.
//
// A run directory holds:
//
//	config.toml        the resolved configuration (a setup.Config), written once
//	state.json         counters, random state and the phase in progress (atomic, checksummed)
//	checkpoints/       gen-NNNN.safetensors per generation, step-NNNNNNNN.safetensors mid-training
//	data/              self-play training positions (package datasets chunks)
//	games/             one Game Courier record per self-play game
//	metrics.jsonl      one package metrics record per generation
//	plots/             the plots of package plot, redrawn after each generation
//
// Run starts a new run or resumes an existing one; docs/training.md describes
// every setting and the guarantees on resume.
package train
