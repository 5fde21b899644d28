// Package match plays games between players and measures who is stronger.
//
// A Player chooses a move in a position: the uniform random mover, the greedy
// material grabber, a fixed-depth alpha-beta on material (the baselines every
// trained model is rated against) and, through a loader the caller supplies, a
// network checkpoint with a search budget. Players are named by spec strings
// ("random", "greedy", "alphabeta:2", "run/ckpt-0007.safetensors:200") that
// Parse turns into a Maker, which builds one independent, seeded Player per
// game so that games can run in parallel.
//
// Run plays a match: N games between two players with the colours alternating
// exactly, on all cores, with an optional SPRT stopping rule. Its Result holds
// the W/D/L counts per colour and an Estimate: the score, the Elo difference
// with a 95% interval and the likelihood of superiority. Ladder turns a set of
// pairwise results into ratings anchored at one player (random = 0 by
// convention) by maximum-likelihood Bradley-Terry.
//
// docs/match.md documents the players, the piece values and every formula.
package match
