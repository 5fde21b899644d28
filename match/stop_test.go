package match

import (
	"bomberzero/agent"
	"context"
	"errors"
	"testing"
	"time"
)

// TestDeepAlphaBetaStopsWithinASecondOfCancel is finding 6 of issue 16:
// match and imbalance with alphabeta:8 ignored Ctrl-C and SIGTERM for 30 s
// and more. A game between two depth-8 searchers must end within a second
// of its context's cancel, with the context's error.
func TestDeepAlphaBetaStopsWithinASecondOfCancel(t *testing.T) {
	pos := midgame(t)
	white, err := NewAlphaBeta(pos.Variant(), 8, agent.DefaultValues(), 1)
	if err != nil {
		t.Fatal(err)
	}
	black, _ := NewAlphaBeta(pos.Variant(), 8, agent.DefaultValues(), 2)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := PlayGame(ctx, white, black, pos, 0)
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	cancel()
	t0 := time.Now()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("PlayGame after cancel: %v, want context.Canceled", err)
		}
		if d := time.Since(t0); d > time.Second {
			t.Errorf("stopped %s after cancel, want under a second", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("PlayGame still searching 5 s after cancel")
	}
	// The player is usable again after a stop.
	a, _ := NewAlphaBeta(pos.Variant(), 2, agent.DefaultValues(), 1)
	if _, err := a.ChooseContext(context.Background(), pos); err != nil {
		t.Fatal(err)
	}
}
