package selfplay

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"bomberzero/internal/atomicfile"
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

// Format writes the record: [Tag "value"] lines, including a SHA-256 of
// the move text, then numbered moves ("1. e2-e4 e9-e7") and the result.
// "bomberzero replay --variant V FILE" reads it.
func (t *GameText) Format() string {
	var mv strings.Builder
	for i, m := range t.Moves {
		switch {
		case i%2 == 0:
			if i > 0 {
				if i%16 == 0 {
					mv.WriteByte('\n')
				} else {
					mv.WriteByte(' ')
				}
			}
			fmt.Fprintf(&mv, "%d. %s", i/2+1, m)
		default:
			mv.WriteString(" " + m)
		}
	}
	if len(t.Moves) > 0 {
		mv.WriteByte(' ')
	}
	mv.WriteString(t.Result)
	sum := sha256.Sum256([]byte(mv.String()))
	var b strings.Builder
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s %q]\n", k, v) }
	tag("Event", "bomberzero self-play")
	tag("Format", fmt.Sprintf("bomberzero-record %d", RecordVersion))
	tag("Variant", t.Variant)
	tag("GameID", t.ID)
	tag("Model", t.Model)
	tag("Generation", fmt.Sprint(t.Generation))
	tag("Result", t.Result)
	tag("Termination", t.Termination)
	if t.Start != "" {
		tag("FEN", t.Start)
	}
	tag("Plies", fmt.Sprint(len(t.Moves)))
	tag("MovesSHA256", hex.EncodeToString(sum[:]))
	b.WriteByte('\n')
	b.WriteString(mv.String())
	b.WriteByte('\n')
	return b.String()
}

// WriteRecord writes t to dir/<ID>.txt atomically (temporary file, fsync,
// rename, fsync of the directory) and returns the path.
func WriteRecord(dir string, t *GameText) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("game record: %w", err)
	}
	path := filepath.Join(dir, t.ID+".txt")
	if err := atomicfile.WriteFile(path, []byte(t.Format())); err != nil {
		return "", fmt.Errorf("game record: %w", err)
	}
	return path, nil
}
