package heldout

import (
	"fmt"
	"strings"

	"bomberzero/env"
	"bomberzero/match"
)

// GenerateConfig says how Generate plays its games.
type GenerateConfig struct {
	// Pairs are the player specs (match.Parse) of White and Black, used in
	// turn, one game each.
	Pairs [][2]string
	// Want is the number of puzzles to collect.
	Want int
	// Seed seeds the players; game g uses Seed+2g and Seed+2g+1. Keep it
	// apart from every training seed (DefaultGenerate's is).
	Seed uint64
	// MaxPlies ends a game that goes on this long.
	MaxPlies int
	// PerGame is the most puzzles taken from one game, so that a few long
	// won endings do not make up the set.
	PerGame int
	// MaxGames is the most games played before Generate gives up.
	MaxGames int
}

// DefaultGenerate is the configuration that made the files under
// configs/heldout: alpha-beta players (which convert won games into mates)
// against random and each other, seeds from 0x4e1d0000 on (no training
// run uses them: training seeds are small numbers), at most 3 puzzles a game.
func DefaultGenerate() GenerateConfig {
	return GenerateConfig{
		Pairs: [][2]string{
			{"alphabeta:2", "random"}, {"random", "alphabeta:2"},
			{"alphabeta:1", "alphabeta:2"}, {"alphabeta:2", "alphabeta:1"},
			{"greedy", "alphabeta:1"}, {"random", "random"},
		},
		Want:     240,
		Seed:     0x4e1d0000,
		MaxPlies: 300,
		PerGame:  3,
		MaxGames: 5000,
	}
}

// Generate plays games of v between cfg's players and collects the
// positions where the side to move can win at once but not with every legal
// move, each position once (by board, hand, side, castling and en passant
// rights; the move counters are ignored).
func Generate(v *env.Variant, cfg GenerateConfig) ([]Puzzle, error) {
	if len(cfg.Pairs) == 0 || cfg.Want < 1 || cfg.MaxPlies < 1 || cfg.PerGame < 1 || cfg.MaxGames < 1 {
		return nil, fmt.Errorf("heldout: generate: want players, and Want, MaxPlies, PerGame and MaxGames >= 1 (got %+v)", cfg)
	}
	makers := make([][2]match.Maker, len(cfg.Pairs))
	for i, pair := range cfg.Pairs {
		for c, spec := range pair {
			m, err := match.Parse(spec, v, match.Options{})
			if err != nil {
				return nil, fmt.Errorf("heldout: generate: %w", err)
			}
			makers[i][c] = m
		}
	}
	seen := map[string]bool{}
	var out []Puzzle
	var buf [env.MaxMoves]env.Move
	for g := 0; g < cfg.MaxGames && len(out) < cfg.Want; g++ {
		pair := makers[g%len(makers)]
		var players [2]match.Player
		for c := range players {
			p, err := pair[c].New(cfg.Seed + 2*uint64(g) + uint64(c))
			if err != nil {
				return nil, fmt.Errorf("heldout: generate: %w", err)
			}
			players[c] = p
		}
		pos := v.NewPosition()
		taken := 0
		for ply := 0; ply < cfg.MaxPlies && len(out) < cfg.Want; ply++ {
			if res, _ := pos.Status(); res != env.Ongoing {
				break
			}
			if taken < cfg.PerGame {
				wins := WinningMoves(pos)
				n := len(pos.LegalMoves(buf[:0]))
				text := pos.String()
				if key := puzzleKey(text); len(wins) > 0 && len(wins) < n && !seen[key] {
					seen[key] = true
					pz := Puzzle{Position: text}
					for _, m := range wins {
						pz.Wins = append(pz.Wins, pos.FormatGC(m))
					}
					out = append(out, pz)
					taken++
				}
			}
			side := 0
			if pos.SideToMove() == env.Black {
				side = 1
			}
			m, err := players[side].Choose(pos)
			if err != nil {
				return nil, fmt.Errorf("heldout: generate: game %d ply %d: %w", g, ply, err)
			}
			pos.DoMove(m)
		}
	}
	if len(out) < cfg.Want {
		return out, fmt.Errorf("heldout: generate: %d puzzles after %d games, want %d", len(out), cfg.MaxGames, cfg.Want)
	}
	return out, nil
}

// puzzleKey is position text without its two move counters.
func puzzleKey(text string) string {
	f := strings.Fields(text)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}
