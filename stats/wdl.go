package stats

// WDL counts wins, draws and losses from one player's point of view.
type WDL struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games returns the number of games counted.
func (w WDL) Games() int { return w.Wins + w.Draws + w.Losses }

// Add returns the sum of two counts.
func (w WDL) Add(o WDL) WDL {
	return WDL{w.Wins + o.Wins, w.Draws + o.Draws, w.Losses + o.Losses}
}

// Count adds one game to w by its result from the counted player's view: a
// win when result is above 0, a loss below 0, a draw at 0. It takes
// env.Result.For's ±1 and the game records' White-view ±1 alike, so White's
// results are counted as a WDL whose Wins are White's and Losses Black's.
func (w *WDL) Count(result int) {
	switch {
	case result > 0:
		w.Wins++
	case result < 0:
		w.Losses++
	default:
		w.Draws++
	}
}
