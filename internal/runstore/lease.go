package runstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrLeaseHeld: another live holder has the lease.
var ErrLeaseHeld = errors.New("lease held by another process")

// ErrLeaseLost: a newer holder took the lease over (this holder was
// presumed dead); it must stop writing.
var ErrLeaseLost = errors.New("lease taken over by a newer holder")

// Lease makes one process at a time the writer of a store's run, the
// object-store counterpart of a directory lock. Holders take numbered
// terms: term N is the object lease/NAME-N, created with a conditional
// write, so of several processes taking term N one succeeds. The holder
// rewrites lease/NAME-N.beat every TTL/3; a process that finds the newest
// term's heartbeat older than TTL (by the store's own clock, so that
// skewed machine clocks do not matter) presumes its holder dead and
// takes the next term. A holder that sees a newer term than its own has
// lost the lease (Check).
type Lease struct {
	store  *Store
	name   string
	term   int
	holder string
	ttl    time.Duration

	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	err  error // the first heartbeat error, or ErrLeaseLost
}

// leaseRecord is a term's content.
type leaseRecord struct {
	Holder  string    `json:"holder"`
	Started time.Time `json:"started"`
	// Released marks a term that only records its predecessor's release:
	// it is free at once.
	Released bool `json:"released,omitempty"`
	// TTL is the holder's time to live: others presume it dead this long
	// after its last heartbeat, whatever their own TTL.
	TTL time.Duration `json:"ttl_ns,omitempty"`
}

// Holder returns a holder name for this process: host and process id.
func Holder() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s pid %d", host, os.Getpid())
}

// AcquireLease takes the lease NAME of the store for holder. When the newest
// term's holder still beats, it waits up to wait for the heartbeat to go
// stale (a holder killed a moment ago), and returns ErrLeaseHeld, naming
// the holder, if it does not. logf (nil: none) is told about the wait.
func AcquireLease(ctx context.Context, s *Store, name, holder string, ttl, wait time.Duration, logf func(string, ...any)) (*Lease, error) {
	if ttl < time.Second {
		return nil, fmt.Errorf("lease %s: ttl %s, want at least 1s", name, ttl)
	}
	deadline := time.Now().Add(wait)
	announced := false
	for {
		term, rec, beat, err := newestTerm(ctx, s, name)
		if err != nil {
			return nil, err
		}
		free := term == 0 || rec.Released
		var age time.Duration
		holderTTL := rec.TTL
		if holderTTL <= 0 {
			holderTTL = ttl
		}
		if !free {
			now, err := s.Now(ctx)
			if err != nil {
				return nil, fmt.Errorf("lease %s: %w", name, err)
			}
			age = now.Sub(beat)
			free = age > holderTTL
		}
		if free {
			data, _ := json.Marshal(leaseRecord{Holder: holder, Started: time.Now().UTC(), TTL: ttl})
			err := s.Create(ctx, termKey(name, term+1), data)
			if errors.Is(err, ErrExists) {
				continue // another process took term+1 first: look again
			}
			if err != nil {
				return nil, fmt.Errorf("lease %s: %w", name, err)
			}
			l := &Lease{store: s, name: name, term: term + 1, holder: holder, ttl: ttl,
				stop: make(chan struct{}), done: make(chan struct{})}
			if err := l.beat(ctx); err != nil {
				return nil, err
			}
			go l.heartbeat()
			return l, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("%s: %w: %s (term %d, last heartbeat %s ago; it is presumed dead after %s without one)",
				s, ErrLeaseHeld, rec.Holder, term, age.Round(time.Second), holderTTL)
		}
		if !announced && logf != nil {
			logf("%s: waiting for the lease of %s (last heartbeat %s ago) to expire after %s", s, rec.Holder, age.Round(time.Second), holderTTL)
			announced = true
		}
		select {
		case <-ctx.Done():
		case <-time.After(min(holderTTL/4, time.Until(deadline)+time.Millisecond)):
		}
	}
}

func termKey(name string, term int) string { return fmt.Sprintf("lease/%s-%08d", name, term) }

// newestTerm returns the newest term of lease name (0 when there is none),
// its record and the time of its last heartbeat (its creation when it has
// never beaten).
func newestTerm(ctx context.Context, s *Store, name string) (int, leaseRecord, time.Time, error) {
	objs, err := s.List(ctx, "lease/"+name+"-")
	if err != nil {
		return 0, leaseRecord{}, time.Time{}, fmt.Errorf("lease %s: %w", name, err)
	}
	term := 0
	var created, beat time.Time
	for _, o := range objs {
		rest := strings.TrimPrefix(o.Key, "lease/"+name+"-")
		num, isBeat := strings.CutSuffix(rest, ".beat")
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		switch {
		case n > term:
			term, created, beat = n, time.Time{}, time.Time{}
			fallthrough
		case n == term:
			if isBeat {
				beat = o.ModTime
			} else {
				created = o.ModTime
			}
		}
	}
	if term == 0 {
		return 0, leaseRecord{}, time.Time{}, nil
	}
	var rec leaseRecord
	data, err := s.Read(ctx, termKey(name, term), 4<<10)
	if err == nil {
		json.Unmarshal(data, &rec)
	}
	if rec.Holder == "" {
		rec.Holder = "an unknown holder"
	}
	if beat.Before(created) {
		beat = created
	}
	return term, rec, beat, nil
}

// beat writes the heartbeat of the lease's term.
func (l *Lease) beat(ctx context.Context) error {
	if err := l.store.Write(ctx, termKey(l.name, l.term)+".beat", []byte(l.holder)); err != nil {
		return fmt.Errorf("lease %s: heartbeat: %w", l.name, err)
	}
	return nil
}

func (l *Lease) heartbeat() {
	defer close(l.done)
	t := time.NewTicker(l.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), l.ttl)
			err := l.beat(ctx)
			cancel()
			if err != nil {
				l.mu.Lock()
				if l.err == nil {
					l.err = err
				}
				l.mu.Unlock()
			}
		}
	}
}

// Term is the lease's term number.
func (l *Lease) Term() int { return l.term }

// Check returns ErrLeaseLost when a newer term exists, or the first
// heartbeat error: either way this holder must stop writing.
func (l *Lease) Check(ctx context.Context) error {
	l.mu.Lock()
	err := l.err
	l.mu.Unlock()
	if err != nil {
		return err
	}
	term, rec, _, err := newestTerm(ctx, l.store, l.name)
	if err != nil {
		return err
	}
	if term > l.term {
		err := fmt.Errorf("%s: %w: term %d of %s after this process's term %d (its heartbeat was presumed dead)",
			l.store, ErrLeaseLost, term, rec.Holder, l.term)
		l.mu.Lock()
		l.err = err
		l.mu.Unlock()
		return err
	}
	return nil
}

// Release stops the heartbeat and ends the term at once (a later holder
// need not wait for it to go stale).
func (l *Lease) Release(ctx context.Context) error {
	close(l.stop)
	<-l.done
	// Backdating is impossible, so the term ends by a successor: an empty
	// next term marks this one released.
	data, _ := json.Marshal(leaseRecord{Holder: l.holder, Started: time.Now().UTC(), Released: true})
	err := l.store.Create(ctx, termKey(l.name, l.term+1), data)
	if errors.Is(err, ErrExists) {
		return nil
	}
	return err
}
