// Package teacher plays the games of a search teacher, for a network's
// first generation: an alpha-beta player on material (package match) or
// the engine (package engine, at a node limit, Config.Player) plays both
// sides, after a few random opening plies so that games differ (the
// engine also draws its move among its MultiPV lines within a margin of
// the best), and
// every position it searched becomes a training row of package datasets,
// the same Parquet chunks and Game Courier records self-play writes, so
// the trainer and "bomberzero data" read them unchanged.
//
// The targets: the value is the game's result (side to move's view), and
// the value column holds either that result or, with Config.ValueScale,
// the teacher's own score squashed into [-1, 1] (a search value the
// trainer's value_mix can blend in); the policy is either the move the
// teacher played (the engine's: its best move) or a softmax over the
// teacher's scores of every root move (match.AlphaBeta.RootScores; the
// engine's: of its MultiPV lines). The
// model column of every teacher game starts with datasets.TeacherPrefix
// ("teacher:alphabeta:2", "teacher:engine:nodes=2000"), so that piece-value fits and variant
// comparisons can leave out games that carry the teacher's piece table.
//
// Fairy-Stockfish trains a new variant's first network from its classical
// search in the same way; expert iteration is the same idea. The teacher
// mates where a network-free MCTS on material draws at the length cap
// (docs/training.md has the measurements).
package teacher
