package match

import (
	"bomberzero/metrics"
	"bomberzero/stats"
)

// Metrics returns the match as a metrics.jsonl entry.
func (r *Result) Metrics() metrics.Match {
	return metrics.Match{A: r.A, B: r.B, Wins: r.Total.Wins, Draws: r.Total.Draws, Losses: r.Total.Losses,
		Score: r.Est.Score, Elo: r.Est.Elo, EloLow: r.Est.EloLow, EloHigh: r.Est.EloHigh}
}

// Pairing returns the match as a stats.Ladder input.
func (r *Result) Pairing() stats.Pairing { return stats.Pairing{A: r.A, B: r.B, WDL: r.Total} }

// MetricsLadder returns ratings as metrics.jsonl entries: a copy,
// metrics.Rating being stats.Rating.
func MetricsLadder(rs []stats.Rating) []metrics.Rating {
	return append(make([]metrics.Rating, 0, len(rs)), rs...)
}
