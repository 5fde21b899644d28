package selfplay

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	"bomberzero/datasets/record"
)

// RecordVersion is the version of the game-record text layout.
const RecordVersion = 1

// GameText is a finished game as a game record: tags and the moves in Game
// Courier syntax, from the variant's start position.
type GameText struct {
	ID          string
	Variant     string
	Model       string
	Generation  int
	Result      string // "1-0", "0-1" or "1/2-1/2"
	Termination string
	Start       string   // the start position text, "" for the variant's start
	Moves       []string // Game Courier move text, in order
}

// Record returns t as a game record (package record writes it) in the
// layout of RecordVersion: the Event, Format, Variant, GameID, Model,
// Generation, Result and Termination tags, FEN when the game has a start
// position of its own, Plies and a SHA-256 of the move text (MovesSHA256),
// then the numbered moves ("1. e2-e4 e9-e7") and the result.
// "bomberzero replay --variant V FILE" reads it.
func (t *GameText) Record() record.Game {
	g := record.Game{Moves: t.Moves}
	g.Set("Event", "bomberzero self-play")
	g.Set("Format", fmt.Sprintf("bomberzero-record %d", RecordVersion))
	g.Set("Variant", t.Variant)
	g.Set("GameID", t.ID)
	g.Set("Model", t.Model)
	g.Set("Generation", strconv.Itoa(t.Generation))
	g.Set("Result", t.Result)
	g.Set("Termination", t.Termination)
	if t.Start != "" {
		g.Set("FEN", t.Start)
	}
	g.Set("Plies", strconv.Itoa(len(t.Moves)))
	sum := sha256.Sum256([]byte(g.MoveText()))
	g.Set("MovesSHA256", hex.EncodeToString(sum[:]))
	return g
}

// WriteRecord writes t's Record to dir/<ID>.txt atomically (record.Save)
// and returns the path.
func WriteRecord(dir string, t *GameText) (string, error) {
	g := t.Record()
	path, err := record.Save(dir, t.ID, &g)
	if err != nil {
		return "", fmt.Errorf("game record %s: %w", t.ID, err)
	}
	return path, nil
}
