package runstore

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLeaseRefusesASecondHolderWhileTheFirstBeats(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["file"]
	a, err := AcquireLease(ctx, s, "trainer", "machine-a pid 1", 2*time.Second, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release(ctx)
	_, err = AcquireLease(ctx, s, "trainer", "machine-b pid 2", 2*time.Second, 3*time.Second, nil)
	if !errors.Is(err, ErrLeaseHeld) || !strings.Contains(err.Error(), "machine-a pid 1") {
		t.Fatalf("second holder: %v, want ErrLeaseHeld naming machine-a", err)
	}
	if err := a.Check(ctx); err != nil {
		t.Errorf("the first holder lost its lease: %v", err)
	}
}

func TestLeaseOfADeadHolderIsTakenOverAndTheOldHolderIsFenced(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["file"]
	a, err := AcquireLease(ctx, s, "trainer", "machine-a", time.Second, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	// a stops beating as a killed process would (its goroutine ends, no
	// successor term is written).
	close(a.stop)
	<-a.done
	var said []string
	b, err := AcquireLease(ctx, s, "trainer", "machine-b", time.Second, 10*time.Second,
		func(f string, args ...any) { said = append(said, f) })
	if err != nil {
		t.Fatalf("taking over a dead holder's lease: %v", err)
	}
	defer b.Release(ctx)
	if b.Term() != a.Term()+1 {
		t.Errorf("new term %d, want %d", b.Term(), a.Term()+1)
	}
	if len(said) != 1 {
		t.Errorf("the wait was announced %d times, want once", len(said))
	}
	if err := a.Check(ctx); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("old holder's check: %v, want ErrLeaseLost", err)
	}
	if err := b.Check(ctx); err != nil {
		t.Errorf("new holder's check: %v", err)
	}
}

func TestReleasedLeaseIsFreeAtOnce(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["mem"]
	a, err := AcquireLease(ctx, s, "trainer", "a", time.Hour, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	b, err := AcquireLease(ctx, s, "trainer", "b", time.Hour, 0, nil)
	if err != nil {
		t.Fatalf("after a release: %v", err)
	}
	defer b.Release(ctx)
	if time.Since(t0) > 5*time.Second {
		t.Errorf("took %s", time.Since(t0))
	}
}

func TestOfManyProcessesTakingAFreeLeaseOneWins(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["file"]
	var mu sync.Mutex
	var won []*Lease
	held := 0
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := AcquireLease(ctx, s, "trainer", Holder(), time.Minute, 0, nil)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won = append(won, l)
			case errors.Is(err, ErrLeaseHeld):
				held++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if len(won) != 1 || held != 5 {
		t.Errorf("%d won, %d refused; want 1 and 5", len(won), held)
	}
	for _, l := range won {
		l.Release(ctx)
	}
}
