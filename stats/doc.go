// Package stats is the statistics of games between two players and of a
// field of players: win/draw/loss counts (WDL), the score with its one 95%
// interval (Wilson on the effective sample size, which counts what draws
// take from the variance), Elo from a score and back, the likelihood of
// superiority (LOS), the sequential probability ratio test (SPRT) and the
// Bradley-Terry Elo ladder of many players. It is shared by matches, the
// trainer's gate and the studies, so that every report computes the same
// numbers the same way (docs/match.md).
package stats
