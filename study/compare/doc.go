// Package compare runs the studies behind "bomberzero compare" and
// "bomberzero imbalance": it gathers each variant's games (from existing
// runs, from equal-budget training runs of package train, or from matches of
// a fixed baseline player against itself), hands them to package values for
// the statistics, plays cross-play matches where the variants' trained agents
// can meet, and writes one report folder (report.md with its PNG charts and
// comparison.json) that reads without running anything.
//
// Imbalance matches play one player against itself from the start position
// with one piece removed from each side, half the games with each colour
// arrangement, and read the score as a value difference (docs/compare.md).
package compare
