package compare

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// bar returns a progress callback drawing a bar of total steps on w, or
// nil when w is nil.
func bar(w io.Writer, total int, what string) func(done, total int) {
	if w == nil {
		return nil
	}
	b := progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
	return func(done, _ int) {
		_ = b.Set(done)
		if done >= total {
			_ = b.Finish()
		}
	}
}
