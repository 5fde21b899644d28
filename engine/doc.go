// Package engine is an alpha-beta engine over the rules of package env:
// iterative deepening with principal-variation search and aspiration
// windows, a shared transposition table on env's Zobrist keys, quiescence
// over captures (double captures included), promotions and check evasions,
// null-move pruning, late-move reductions and a staged move order (hash
// move, captures by victim and attacker, killers, counter-moves, history).
// Every game end of the family (checkmate, stalemate, the scepter,
// repetition, the fifty-move rule) is scored inside the search.
//
// The files follow Stockfish's split: search.go (the iterative deepening
// loop and the search of one node, its pruning stages in a fixed order),
// quiesce.go, tt.go (buckets, generation aging, mate scores relative to the
// node), movepick.go (the move order), picker.go (its stages: moves
// generated as a node needs them), eval.go (the Evaluator interface)
// and classical.go (the hand-written evaluation, generic over boards and
// pieces), learned.go (the learned evaluation of package engine/nnue as
// an Evaluator, for eval=FILE; its trainer is engine/nnue/fit), limits.go and timeman.go (when to stop), spec.go (the options
// of a player spec). With one thread and a node limit a search is
// deterministic: the same position, seed and limit give the same move.
package engine
