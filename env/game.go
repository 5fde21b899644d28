package env

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// GameMove is one move of a game record as written, with the move number
// label it is played under ("20." for White's move, "20..." for Black's).
type GameMove struct {
	Number string
	Text   string
}

// ReplayError is the first illegal move of a game record.
type ReplayError struct {
	Number string // the move number as written, e.g. "20." or "20..."
	Text   string // the move text
	Err    error  // why it is illegal
}

// Error says where the replay stopped and why.
// Control characters from the game text (a terminal's escape sequences)
// are written escaped, as Go would quote them.
func (e *ReplayError) Error() string {
	return EscapeControl(fmt.Sprintf("move %s %s: %v", e.Number, e.Text, e.Err))
}

// EscapeControl returns s with every control character and invalid UTF-8
// byte written as a Go escape (\x1b, \n, \x80...), so that text read from
// a file can be printed on a terminal without acting on it.
func EscapeControl(s string) string {
	clean := utf8.ValidString(s)
	for _, r := range s {
		if unicode.IsControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case unicode.IsControl(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Unwrap returns why the move is illegal.
func (e *ReplayError) Unwrap() error { return e.Err }

// SplitGame reads a game in Game Courier text: move numbers ("1.", "1...",
// "12.e2-e4"), results ("1-0", "0-1", "1/2-1/2", "*"), comments in braces or
// after "#" or "%" to the end of the line, and [Tag "value"] lines are
// skipped; every other whitespace-separated token is a move.
func SplitGame(text string) []GameMove {
	var out []GameMove
	number, sinceNumber := "", 0
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			continue
		}
		if i := strings.IndexAny(line, "#%"); i >= 0 {
			line = line[:i]
		}
		for len(line) > 0 {
			if i := strings.IndexByte(line, '{'); i >= 0 {
				j := strings.IndexByte(line[i:], '}')
				if j < 0 {
					line = line[:i]
				} else {
					line = line[:i] + " " + line[i+j+1:]
				}
				continue
			}
			break
		}
		for _, tok := range strings.Fields(line) {
			switch tok {
			case "1-0", "0-1", "1/2-1/2", "½-½", "*":
				continue
			}
			// A move number, possibly glued to the move.
			j := 0
			for j < len(tok) && tok[j] >= '0' && tok[j] <= '9' {
				j++
			}
			if j > 0 && j < len(tok) && tok[j] == '.' {
				k := j
				for k < len(tok) && tok[k] == '.' {
					k++
				}
				number, sinceNumber = tok[:k], 0
				tok = tok[k:]
				if tok == "" {
					continue
				}
			}
			label := number
			if sinceNumber == 1 && strings.HasSuffix(number, ".") && !strings.HasSuffix(number, "...") {
				label = strings.TrimRight(number, ".") + "..."
			}
			sinceNumber++
			out = append(out, GameMove{label, tok})
		}
	}
	return out
}

// Replay plays a game record from position start (not changed) and returns
// the final position, or a *ReplayError for the first illegal move.
func Replay(start *Position, text string) (*Position, error) {
	p := start.Clone()
	for _, gm := range SplitGame(text) {
		if res, why := p.Status(); res != Ongoing {
			return p, &ReplayError{gm.Number, gm.Text, fmt.Errorf("the game already ended (%s, %s): no move may follow", res, why)}
		}
		m, err := p.ParseMove(gm.Text)
		if err != nil {
			return p, &ReplayError{gm.Number, gm.Text, err}
		}
		p.DoMove(m)
	}
	return p, nil
}

// PlayMoves plays a whitespace-separated list of moves in either syntax
// (move numbers and results skipped) and returns the new position.
func PlayMoves(start *Position, moves string) (*Position, error) {
	return Replay(start, moves)
}
