package engine

import (
	"strings"
	"testing"
	"time"
)

func TestLimitsOutOfRangeAreRefusedNamingTheField(t *testing.T) {
	cases := []struct {
		lim  Limits
		want string // "" for valid
	}{
		{Limits{Depth: 6}, ""},
		{Limits{Nodes: 20000, MoveTime: time.Second}, ""},
		{Limits{Time: time.Minute, Inc: time.Second, MovesToGo: 30}, ""},
		{Limits{Infinite: true}, ""},
		{Limits{Depth: -1}, "depth"},
		{Limits{Depth: MaxDepth + 1}, "depth"},
		{Limits{Nodes: -5}, "nodes"},
		{Limits{Nodes: MaxNodes + 1}, "nodes"},
		{Limits{MoveTime: -time.Millisecond}, "movetime"},
		{Limits{Time: -time.Second}, "clock"},
		{Limits{Inc: -time.Second}, "increment"},
		{Limits{MovesToGo: -1}, "moves to go"},
	}
	for _, c := range cases {
		err := c.lim.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v refused: %v", c.lim, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want one naming %q", c.lim, err, c.want)
		}
	}
}

func TestClockBudgetStaysWithinTheTimeLeft(t *testing.T) {
	cases := []struct {
		lim        Limits
		maxHard    time.Duration
		wantSoftGT time.Duration
	}{
		{Limits{Time: 60 * time.Second}, 40 * time.Second, time.Second},
		{Limits{Time: 10 * time.Second, Inc: time.Second}, 7 * time.Second, 500 * time.Millisecond},
		{Limits{Time: time.Second, MovesToGo: 1}, time.Second, 100 * time.Millisecond},
		{Limits{Time: 5 * time.Millisecond}, 5 * time.Millisecond, 0},
	}
	for _, c := range cases {
		soft, hard := budget(c.lim)
		if hard > c.maxHard || hard <= 0 || soft > hard || soft <= c.wantSoftGT {
			t.Errorf("%+v: soft %v hard %v; want 0 < soft <= hard <= %v and soft > %v", c.lim, soft, hard, c.maxHard, c.wantSoftGT)
		}
	}
	if soft, hard := budget(Limits{MoveTime: 100 * time.Millisecond}); soft != 0 || hard != 100*time.Millisecond {
		t.Errorf("movetime 100ms: soft %v hard %v, want 0 and 100ms", soft, hard)
	}
	if soft, hard := budget(Limits{Depth: 5}); soft != 0 || hard != 0 {
		t.Errorf("depth limit: soft %v hard %v, want no time limit", soft, hard)
	}
}
