package main

import (
	"bomberzero/agent"
	"bomberzero/match"
)

// playerOptions returns what match.Parse needs to build players for the
// match and play commands: piece values (text as "G=2.5,I=8", or empty) and
// the checkpoint loader.
func playerOptions(values string) (match.Options, error) {
	var opt match.Options
	if values != "" {
		v, err := agent.ParseValues(values)
		if err != nil {
			return opt, err
		}
		opt.Values = v
	}
	opt.Checkpoint = match.LoadCheckpoint
	return opt, nil
}
