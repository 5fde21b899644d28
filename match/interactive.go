package match

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"bomberzero/env"
)

// Interactive is a game between a person, typing moves, and an agent.
type Interactive struct {
	Start *env.Position // not changed
	Agent Player
	Human env.Color // the person's side
	// Top is how many of its best moves an Analyzer agent shows (0: none).
	Top int
	// MaxPlies ends the game as a draw by LengthCap (0: no cap).
	MaxPlies int
}

// Run plays the game, reading the person's moves from in, one a line, in
// Game Courier or canonical syntax, and writing the board, the agent's
// thinking and its moves to out. An illegal move is refused with the reason
// and asked again. "moves" lists the legal moves, "undo" takes back the
// person's last move and the agent's reply, "help" lists these commands,
// "quit" (or the end of the input) stops. It returns the final position.
func (s Interactive) Run(in io.Reader, out io.Writer) (*env.Position, error) {
	pos, _, err := s.RunGame(in, out)
	return pos, err
}

// RunGame is Run that also returns the game's record: the players, the
// moves played and, when the game ended, its result and termination (a
// stopped game's Result is env.Ongoing).
func (s Interactive) RunGame(in io.Reader, out io.Writer) (*env.Position, Game, error) {
	pos := s.Start.Clone()
	g := Game{White: "human", Black: s.Agent.Name()}
	if s.Human == env.Black {
		g.White, g.Black = g.Black, g.White
	}
	var history []*env.Position // the position before each move played
	play := func(m env.Move) {
		history = append(history, pos.Clone())
		g.Moves = append(g.Moves, pos.FormatGC(m))
		g.Plies++
		pos.DoMove(m)
	}
	// undo takes back plies up to and including the person's last move (the
	// agent's reply first); false when the person has no move to take back.
	undo := func() bool {
		k := len(history) - 1
		for k >= 0 && history[k].SideToMove() != s.Human {
			k--
		}
		if k < 0 {
			return false
		}
		pos = history[k]
		history, g.Moves, g.Plies = history[:k], g.Moves[:k], k
		return true
	}
	sc := bufio.NewScanner(in)
	fmt.Fprintf(out, "You play %s against %s. Type moves like e2-e4; %s.\n", s.Human, s.Agent.Name(), interactiveCommands)
outer:
	for {
		fmt.Fprintf(out, "\n%s", pos.Diagram())
		if res, why := pos.Status(); res != env.Ongoing {
			fmt.Fprintf(out, "Game over: %s (%s)\n", res, why)
			g.Result, g.Termination = res, why
			return pos, g, nil
		}
		if s.MaxPlies > 0 && pos.Ply() >= s.MaxPlies {
			fmt.Fprintf(out, "Game over: %s (%s)\n", env.Draw, env.LengthCap)
			g.Result, g.Termination = env.Draw, env.LengthCap
			return pos, g, nil
		}
		if pos.SideToMove() != s.Human {
			m, err := s.agentMove(pos, out)
			if err != nil {
				return pos, g, err
			}
			fmt.Fprintf(out, "%s plays %s\n", s.Agent.Name(), pos.FormatGC(m))
			play(m)
			continue
		}
		for {
			fmt.Fprintf(out, "your move (%s)> ", pos.SideToMove())
			if !sc.Scan() {
				if err := sc.Err(); err != nil {
					return pos, g, fmt.Errorf("reading moves: %w", err)
				}
				fmt.Fprintln(out, "\nInput ended; game stopped.")
				return pos, g, nil
			}
			line := strings.TrimSpace(sc.Text())
			switch line {
			case "":
				continue
			case "quit", "exit", "resign":
				fmt.Fprintln(out, "Game stopped.")
				return pos, g, nil
			case "help", "?":
				fmt.Fprintf(out, "Type a move in Game Courier (e2-e4) or canonical (e2e4) syntax; %s.\n", interactiveCommands)
				continue
			case "undo", "takeback":
				if !undo() {
					fmt.Fprintln(out, "nothing to take back: you have not moved yet")
					continue
				}
				fmt.Fprintln(out, "took back your last move and the reply")
				continue outer
			case "moves":
				var names []string
				for _, m := range pos.LegalMoves(nil) {
					names = append(names, pos.FormatGC(m))
				}
				fmt.Fprintf(out, "%d legal moves: %s\n", len(names), strings.Join(names, " "))
				continue
			}
			m, err := pos.ParseMove(line)
			if err != nil {
				fmt.Fprintf(out, "refused: move %q: %v\n", line, err)
				continue
			}
			fmt.Fprintf(out, "you play %s\n", pos.FormatGC(m))
			play(m)
			break
		}
	}
}

// interactiveCommands lists the words the prompt reads that are not moves.
const interactiveCommands = `"moves" lists the legal ones, "undo" takes back your last move and the reply, "help" shows this, "quit" stops`

// agentMove asks the agent for its move, showing its best moves first when
// it can list them.
func (s Interactive) agentMove(pos *env.Position, out io.Writer) (env.Move, error) {
	a, ok := s.Agent.(Analyzer)
	if !ok || s.Top <= 0 {
		m, err := s.Agent.Choose(pos)
		if err != nil {
			return env.NoMove, fmt.Errorf("agent: %w", err)
		}
		return m, nil
	}
	cands, err := a.Analyze(pos, s.Top)
	if err != nil {
		return env.NoMove, fmt.Errorf("agent: %w", err)
	}
	fmt.Fprintf(out, "%s thinks:\n", s.Agent.Name())
	for i, c := range cands {
		line := ""
		if len(c.PV) > 1 {
			line = "  line: " + formatLine(pos, c.PV)
		}
		fmt.Fprintf(out, "  %d. %-12s %s%s\n", i+1, pos.FormatGC(c.Move), c.Note, line)
	}
	return cands[0].Move, nil
}

// formatLine writes a sequence of moves from pos in Game Courier syntax.
func formatLine(pos *env.Position, pv []env.Move) string {
	p := pos.Clone()
	parts := make([]string, 0, len(pv))
	for _, m := range pv {
		parts = append(parts, p.FormatGC(m))
		p.DoMove(m)
	}
	return strings.Join(parts, " ")
}
