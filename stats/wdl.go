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
