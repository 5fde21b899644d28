// Package metrics is the record a training run appends to its metrics.jsonl
// after each generation, with an append-only writer that syncs every record
// to disk and a reader that survives a torn last line (a process killed in
// the middle of a write). The training loop writes it; "bomberzero plot"
// and the reports read it. docs/metrics.md documents every field.
package metrics

import (
	"time"

	"bomberzero/stats"
)

// Version is the schema version written into every record ("v"). A reader
// refuses records of a later version.
const Version = 1

// Record is one line of metrics.jsonl: what happened in one generation.
// Sections a generation did not run are left out (nil or empty).
type Record struct {
	Version int       `json:"v"`
	Time    time.Time `json:"time"` // when the record was written
	// Elapsed is the run's working time so far in seconds (time the run was
	// stopped is not counted), the x axis of the plots against time.
	Elapsed    float64 `json:"elapsed_s"`
	Generation int     `json:"generation"`
	// Model names this generation's model as it appears in Matches and
	// Ladder, e.g. "gen-0007".
	Model    string    `json:"model,omitempty"`
	SelfPlay *SelfPlay `json:"selfplay,omitempty"`
	Train    *Train    `json:"train,omitempty"`
	Matches  []Match   `json:"matches,omitempty"`
	// Ladder is the Elo ladder after this generation's matches, anchored
	// at random = 0 (stats.Ladder).
	Ladder []Rating `json:"ladder,omitempty"`
	// Heldout is the model's score on the variant's built-in held-out
	// mate-in-one set (package heldout), for rated generations of variants
	// that have one.
	Heldout *Heldout `json:"heldout,omitempty"`
}

// Heldout is how a model did on held-out mate-in-one puzzles, positions no
// run trains on: by its policy alone (the most probable legal move) and by
// its search at SearchSims playouts.
type Heldout struct {
	Puzzles      int `json:"puzzles"`
	PolicySolved int `json:"policy_solved"`
	SearchSims   int `json:"search_sims"`
	SearchSolved int `json:"search_solved"`
}

// SelfPlay summarizes the self-play games of one generation.
type SelfPlay struct {
	Games     int     `json:"games"`
	Positions int     `json:"positions"` // positions written for training
	Seconds   float64 `json:"seconds"`   // wall time spent on these games
	// GamesPerHour is Games per hour of Seconds.
	GamesPerHour float64 `json:"games_per_hour"`
	// MeanPlies is the mean game length in plies.
	MeanPlies float64 `json:"mean_plies"`
	// Results of the games.
	WhiteWins int `json:"white_wins"`
	Draws     int `json:"draws"`
	BlackWins int `json:"black_wins"`
	// Terminations counts the games per way of ending (env.Termination's
	// text: "checkmate", "length-cap", "adjudication", ...); absent in runs
	// recorded before it existed.
	Terminations map[string]int `json:"terminations,omitempty"`
}

// Train summarizes the training steps of one generation; losses and
// accuracies are means over the generation's steps.
type Train struct {
	Steps      int     `json:"steps"`       // steps this generation
	TotalSteps int     `json:"total_steps"` // steps since the run began
	Samples    int     `json:"samples"`     // positions trained on this generation
	Seconds    float64 `json:"seconds"`
	// PolicyLoss is the cross-entropy against the search policy, ValueLoss
	// the value head's loss (as the trainer defines it), Loss their
	// weighted sum with regularization.
	PolicyLoss float64 `json:"policy_loss"`
	ValueLoss  float64 `json:"value_loss"`
	// MovesLeftLoss is the moves-left head's loss (unweighted; absent in
	// runs before the head existed).
	MovesLeftLoss float64 `json:"moves_left_loss,omitempty"`
	// ShortValueLoss is the short-term value head's loss (unweighted;
	// absent without the head).
	ShortValueLoss float64 `json:"short_value_loss,omitempty"`
	Loss           float64 `json:"loss"`
	// PolicyAccuracy is the share of positions where the network's most
	// likely move is the search's most visited one.
	PolicyAccuracy float64 `json:"policy_accuracy"`
	// ValueError is the mean squared error of the network's expected value
	// (win - loss, in [-1, 1]) against the game result.
	ValueError   float64 `json:"value_error"`
	LearningRate float64 `json:"learning_rate"`
}

// Match is one match this generation played, from A's point of view.
type Match struct {
	A       string  `json:"a"`
	B       string  `json:"b"`
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	Score   float64 `json:"score"`
	Elo     float64 `json:"elo"` // A minus B, with its 95% interval
	EloLow  float64 `json:"elo_low"`
	EloHigh float64 `json:"elo_high"`
}

// Rating is one player's place on the ladder, with its 95% interval: the
// ladder's own type (stats.Ladder computes it), recorded as it is.
type Rating = stats.Rating

// Rating returns the ladder entry of player, if the record has one.
func (r *Record) Rating(player string) (Rating, bool) {
	for _, x := range r.Ladder {
		if x.Player == player {
			return x, true
		}
	}
	return Rating{}, false
}
