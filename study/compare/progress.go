package compare

import (
	"io"

	"bomberzero/internal/progress"
)

// bar returns a progress callback drawing a bar of unit items on w, or
// nil when w is not a terminal.
func bar(w io.Writer, what, unit string) func(done, total int) {
	return progress.Func(w, what, unit, 0)
}
