// Package envtest holds position helpers for the tests of the packages
// over env.
package envtest

import (
	"strconv"
	"strings"
	"testing"

	"bomberzero/env"
)

// ReflectFiles returns pos reflected file-wise (a<->j on 10 files, a<->h
// on 8): every rank's cells reversed, hands, side to move and move
// counters kept, castling rights and the en passant square dropped (they
// have no mirror image in a variant whose castling is not symmetric). A
// text that does not parse back fails the test.
func ReflectFiles(t testing.TB, pos *env.Position) *env.Position {
	t.Helper()
	fields := strings.Fields(pos.String())
	if len(fields) < 6 {
		t.Fatalf("position text %q: want six fields", pos)
	}
	board, hand, _ := strings.Cut(fields[0], "[")
	if hand != "" {
		hand = "[" + hand
	}
	rows := strings.Split(board, "/")
	for i, row := range rows {
		rows[i] = reverseRank(row)
	}
	text := strings.Join(rows, "/") + hand + " " + fields[1] + " - - " + fields[4] + " " + fields[5]
	q, err := pos.Variant().ParsePosition(text)
	if err != nil {
		t.Fatalf("the file-mirror of %s: %v", pos, err)
	}
	return q
}

// reverseRank returns one rank of position text with its cells in reverse
// order; runs of empty cells are numbers of any length ("10" on a 10-file
// board).
func reverseRank(row string) string {
	var cells []byte // one byte a cell, 0 for an empty one
	for j := 0; j < len(row); {
		if row[j] < '0' || row[j] > '9' {
			cells = append(cells, row[j])
			j++
			continue
		}
		k := j
		for k < len(row) && row[k] >= '0' && row[k] <= '9' {
			k++
		}
		n, _ := strconv.Atoi(row[j:k])
		cells = append(cells, make([]byte, n)...)
		j = k
	}
	var b strings.Builder
	empty := 0
	for j := len(cells) - 1; j >= 0; j-- {
		if cells[j] == 0 {
			empty++
			continue
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
			empty = 0
		}
		b.WriteByte(cells[j])
	}
	if empty > 0 {
		b.WriteString(strconv.Itoa(empty))
	}
	return b.String()
}
