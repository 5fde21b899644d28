// Package values estimates piece values and compares variants from the
// games of self-play runs: the statistics behind "bomberzero values",
// "bomberzero imbalance" and "bomberzero compare".
//
// Piece values follow Tomašev et al. 2020 ("Assessing game balance with
// AlphaZero: exploring alternative rule sets in chess"): sample quiet
// positions, regress the game's result on the difference in piece counts
// per type from the side to move's view, and read the coefficients as
// values. Three fits are offered (logistic on decisive games, tanh with
// draws, and a fit on a network's value output), each with percentile
// intervals from a bootstrap over whole games. docs/values.md gives the
// formulas and the choices made.
//
// Variant comparison reports White's score, draw and decisive rates, game
// lengths, how games end and opening diversity, each with a 95% interval,
// tests whether a difference between two variants is within noise and how
// many more games would resolve it, and writes a Markdown report with plots.
//
// Everything works on an in-memory Dataset (games of positions with piece
// counts), built from training-data chunks by Load or from records by
// FromRecords, so the statistics can be tested without files.
package values
