package values

import (
	"bufio"
	"bytes"
	_ "embed" // the calibration table
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Tomasev returns the chess piece values of Tomašev et al. 2020
// (AlphaZero's own games, pawn = 1), the reference of the chess check.
func Tomasev() map[string]float64 {
	return map[string]float64{"N": 3.05, "B": 3.33, "R": 5.63, "Q": 9.5}
}

// ChessCheck is the calibration's pass rule: every fitted N, B, R, Q within
// this share of Tomasev's value and Q/R within [QRLo, QRHi].
const (
	ChessCheckShare = 0.20
	QRLo, QRHi      = 1.5, 2.1
)

// TomasevCheck holds fit f of orthodox chess games to the chess check: each
// of N, B, R and Q within ChessCheckShare of Tomasev's value at its point,
// in pawns (its coefficient over the pawn's, whatever the report's unit),
// and Q/R within [QRLo, QRHi]. It returns one line saying whether the fit
// passes and, when not, each figure that misses and by how much; "" when
// the fit lacks the coefficient of P, N, B, R or Q or the pawn's is not
// positive, so there is nothing to hold.
func TomasevCheck(f *FitResult) string {
	coef := map[string]float64{}
	for _, p := range f.Pieces {
		if p.Coef != nil {
			coef[p.Piece] = p.Coef.Point
		}
	}
	pawn, ok := coef["P"]
	if !ok || pawn <= 0 {
		return ""
	}
	ref := Tomasev()
	var misses, figures []string
	for _, piece := range []string{"N", "B", "R", "Q"} {
		c, ok := coef[piece]
		if !ok {
			return ""
		}
		v := c / pawn
		off := v/ref[piece] - 1
		figures = append(figures, fmt.Sprintf("%s %.2f (%+.0f%%)", piece, v, 100*off))
		if math.Abs(off) > ChessCheckShare {
			misses = append(misses, fmt.Sprintf("%s %.2f is %.0f%% %s Tomašev's %.2f", piece, v, 100*math.Abs(off), map[bool]string{true: "above", false: "below"}[off > 0], ref[piece]))
		}
	}
	qr := coef["Q"] / coef["R"]
	figures = append(figures, fmt.Sprintf("Q/R %.2f", qr))
	if coef["R"] <= 0 || qr < QRLo || qr > QRHi {
		misses = append(misses, fmt.Sprintf("Q/R %.2f is outside [%.1f, %.1f]", qr, QRLo, QRHi))
	}
	verdict := "passes"
	if len(misses) > 0 {
		verdict = "fails: " + strings.Join(misses, "; ")
	}
	return fmt.Sprintf("chess check (%s): %s; %s", checkText, strings.Join(figures, ", "), verdict)
}

// CalibrationsFile is the name of the embedded calibration table, as
// errors about it name it.
const CalibrationsFile = "study/values/calibrations.txt"

//go:embed calibrations.txt
var calibrationsText []byte

// Verdict is a calibration run's outcome.
type Verdict string

// The verdicts a calibration record may carry.
const (
	// Passes: the player's values passed the chess check.
	Passes Verdict = "passes"
	// Fails: the check was run and missed.
	Fails Verdict = "fails"
	// NotPassed: a pilot or a diagnostic short of the calibration's
	// games that did not pass.
	NotPassed Verdict = "not passed"
)

// CalibrationRun is one chess calibration of a player, as docs/RESULTS.md
// records it: the player's orthodox-chess games fitted and held against
// Tomasev.
type CalibrationRun struct {
	Player   string  // the player spec
	Games    int     // games fitted
	Verdict  Verdict // passes, fails or not passed
	Strength string  // the player's strength, if measured ("" otherwise)
	Summary  string  // the fitted values, briefly
	Where    string  // where the run is written up
	// Phase is the sampling the verdict holds for: PhaseMiddlegame or
	// PhaseEndgame for a fit of that phase alone (values --officers), ""
	// for the fit the summary names, over the whole game.
	Phase string
}

// CalibrationTable is the calibration records with the table's version.
type CalibrationTable struct {
	Version int
	Runs    []CalibrationRun
}

// calibrationFields names the fields of a record line, for errors; the
// last, the phase, may be left out.
var calibrationFields = [...]string{"player", "games", "verdict", "strength", "summary", "where", "phase"}

// ParseCalibrations reads a calibration table: comment lines (#) and
// blank lines, one "version N" line before any record, then one record a
// line, six or seven fields separated by " | " (player, games, verdict,
// strength or "-", summary, where, and the phase the verdict holds for,
// PhaseMiddlegame or PhaseEndgame, when not the whole game). name is the
// file's name for errors, which give the line and the field and what was
// expected.
func ParseCalibrations(r io.Reader, name string) (CalibrationTable, error) {
	var t CalibrationTable
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if v, ok := strings.CutPrefix(text, "version "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 || t.Version != 0 {
				return t, fmt.Errorf("%s:%d: %q: want one \"version N\" line, N a whole number of at least 1, before the records", name, line, text)
			}
			t.Version = n
			continue
		}
		if t.Version == 0 {
			return t, fmt.Errorf("%s:%d: a record before the \"version N\" line", name, line)
		}
		fields := strings.Split(text, " | ")
		if len(fields) != len(calibrationFields) && len(fields) != len(calibrationFields)-1 {
			return t, fmt.Errorf("%s:%d: %d fields, want %d or %d separated by \" | \" (%s)", name, line, len(fields), len(calibrationFields)-1, len(calibrationFields), strings.Join(calibrationFields[:], ", "))
		}
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
			if fields[i] == "" {
				return t, fmt.Errorf("%s:%d: field %d (%s) is empty; want a value (\"-\" for an unmeasured strength)", name, line, i+1, calibrationFields[i])
			}
		}
		run := CalibrationRun{Player: fields[0], Verdict: Verdict(strings.ToLower(fields[2])), Strength: fields[3], Summary: fields[4], Where: fields[5]}
		if strings.ContainsAny(run.Player, " \t") {
			return t, fmt.Errorf("%s:%d: field 1 (player) %q: want one player spec without spaces, e.g. engine:nodes=3000", name, line, run.Player)
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil || n < 1 {
			return t, fmt.Errorf("%s:%d: field 2 (games) %q: want a whole number of games, at least 1", name, line, fields[1])
		}
		run.Games = n
		switch run.Verdict {
		case Passes, Fails, NotPassed:
		default:
			return t, fmt.Errorf("%s:%d: field 3 (verdict) %q: want %q, %q or %q", name, line, fields[2], Passes, Fails, NotPassed)
		}
		if run.Strength == "-" {
			run.Strength = ""
		}
		if len(fields) == len(calibrationFields) {
			run.Phase = fields[6]
			if run.Phase != PhaseMiddlegame && run.Phase != PhaseEndgame {
				return t, fmt.Errorf("%s:%d: field 7 (phase) %q: want %q or %q, or no seventh field for the whole game", name, line, fields[6], PhaseMiddlegame, PhaseEndgame)
			}
		}
		t.Runs = append(t.Runs, run)
	}
	if err := sc.Err(); err != nil {
		return t, fmt.Errorf("%s: %w", name, err)
	}
	if t.Version == 0 {
		return t, fmt.Errorf("%s: no \"version N\" line", name)
	}
	return t, nil
}

// Calibrations returns the embedded calibration table
// (study/values/calibrations.txt, kept with docs/RESULTS.md).
func Calibrations() (CalibrationTable, error) {
	return ParseCalibrations(bytes.NewReader(calibrationsText), CalibrationsFile)
}

// Lookup returns the player's last record for a fit of phase (""
// for the whole game, or PhaseMiddlegame, PhaseEndgame), or nil when no
// calibration of it was recorded with that fit. Specs compare without case
// and surrounding spaces.
func (t CalibrationTable) Lookup(player, phase string) *CalibrationRun {
	return t.last(player, func(r *CalibrationRun) bool { return r.Phase == phase })
}

// lookupAny is Lookup over every phase: the player's last record of any
// fit.
func (t CalibrationTable) lookupAny(player string) *CalibrationRun {
	return t.last(player, func(*CalibrationRun) bool { return true })
}

// last returns the player's last record that keep accepts, nil for none.
func (t CalibrationTable) last(player string, keep func(*CalibrationRun) bool) *CalibrationRun {
	var run *CalibrationRun
	for i := range t.Runs {
		if strings.EqualFold(t.Runs[i].Player, strings.TrimSpace(player)) && keep(&t.Runs[i]) {
			run = &t.Runs[i]
		}
	}
	return run
}

// withFit is the words after "the chess check" naming the fit r vouches
// for: "" for the whole game.
func (r *CalibrationRun) withFit() string {
	if r.Phase == "" {
		return ""
	}
	return " with " + phaseFit(r.Phase)
}

// phaseFit names the fit of a phase in the lines below.
func phaseFit(phase string) string {
	switch phase {
	case "":
		return "the whole game"
	case PhaseMiddlegame, PhaseEndgame:
		return "the " + phase + " fit (--officers " + phase + ")"
	}
	return "the fit of " + phase
}

// checkText is the chess check in words, for the lines below.
const checkText = "N, B, R, Q within 20% of Tomašev's 3.05, 3.33, 5.63, 9.5 and Q/R in [1.5, 2.1]"

// CalibrationLine says which player a set of piece values comes from, its
// strength if known, and whether it passes the chess check with a fit of
// phase ("" for the whole game) by the embedded table (Calibrations,
// CalibrationTable.Line).
func CalibrationLine(player, phase string) string {
	t, err := Calibrations()
	if err != nil {
		return fmt.Sprintf("Calibration: unknown for %s: the calibration table cannot be read (%v)", player, err)
	}
	return t.Line(player, phase)
}

// Line says which player a set of piece values comes from, its strength if
// known, and whether it passes the chess check with a fit of phase (""
// for the whole game), naming the table's version; when no calibration
// has been run for the player it says so, and when one was run with
// another fit only, it quotes that one and says so.
func (t CalibrationTable) Line(player, phase string) string {
	run := t.Lookup(player, phase)
	other := false
	if run == nil {
		run, other = t.lookupAny(player), true
	}
	if run == nil {
		return fmt.Sprintf("Calibration: %s is not calibrated: no chess calibration has been run for it, so its piece values are not known to match strong play "+
			"(calibration table v%d; the check: %s)", player, t.Version, checkText)
	}
	strength := run.Strength
	if strength == "" {
		strength = "strength not measured against a rated ladder"
	}
	line := fmt.Sprintf("Calibration: %s (%s) %s the chess check%s on %d games: %s (%s; calibration table v%d)",
		run.Player, strength, run.Verdict.verb(), run.withFit(), run.Games, run.Summary, run.Where, t.Version)
	if other {
		line += fmt.Sprintf("; no calibration of this player covers this report's fit, %s", phaseFit(phase))
	}
	return line
}

// verb is the verdict as the verb of a sentence on the check.
func (v Verdict) verb() string {
	switch v {
	case Passes:
		return "passes"
	case Fails:
		return "fails"
	}
	return "has not passed"
}

// UncalibratedPlayer returns a one-line warning for a player without a
// passing chess calibration in the embedded table (CalibrationTable.Warning),
// and "" for a player that passed.
func UncalibratedPlayer(player, phase string) string {
	t, err := Calibrations()
	switch {
	case err == nil:
		return t.Warning(player, phase)
	case WeakPlayer(player) != "":
		return WeakPlayer(player)
	}
	return fmt.Sprintf("%s: whether it passes the chess check is unknown: the calibration table cannot be read (%v)", player, err)
}

// Warning returns a one-line warning for a player without a passing
// record (WeakPlayer's line for a player known to be too weak, otherwise
// what its record says or that it has none), and "" for a player that
// passed: piece values from such a player's games are the player's, not
// the game's, until a calibration says otherwise.
func (t CalibrationTable) Warning(player, phase string) string {
	if w := WeakPlayer(player); w != "" {
		return w
	}
	run, other := t.Lookup(player, phase), t.lookupAny(player)
	switch {
	case run == nil && other != nil:
		return fmt.Sprintf("%s's chess calibration (it %s the check; %d games, %s) is of %s, not of this fit, %s: these values may be the player's, not the game's",
			player, other.Verdict.verb(), other.Games, other.Where, phaseFit(other.Phase), phaseFit(phase))
	case run == nil:
		return fmt.Sprintf("%s has no chess calibration, so these values may be the player's, not the game's "+
			"(no record in calibration table v%d; docs/values.md)", player, t.Version)
	case run.Verdict == Passes:
		return ""
	}
	return fmt.Sprintf("%s %s the chess check%s (%d games, %s): these values may be the player's, not the game's",
		player, run.Verdict.verb(), run.withFit(), run.Games, run.Where)
}
