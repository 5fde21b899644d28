package engine

import (
	"strings"
	"testing"
	"time"
)

func TestParseSpecReadsEveryOptionAndNamesTheBadOne(t *testing.T) {
	good := []struct {
		text string
		want Spec
	}{
		{"", Spec{Limits: Limits{Nodes: DefaultNodes}, HashMB: 16, Threads: 1, DefaultLimit: true}},
		{"nodes=20000", Spec{Limits: Limits{Nodes: 20000}, HashMB: 16, Threads: 1}},
		{"depth=6", Spec{Limits: Limits{Depth: 6}, HashMB: 16, Threads: 1}},
		{"movetime=100ms", Spec{Limits: Limits{MoveTime: 100 * time.Millisecond}, HashMB: 16, Threads: 1}},
		{"movetime=250", Spec{Limits: Limits{MoveTime: 250 * time.Millisecond}, HashMB: 16, Threads: 1}},
		{"nodes=5000:hash=64:threads=2", Spec{Limits: Limits{Nodes: 5000}, HashMB: 64, Threads: 2}},
		{"hash=1", Spec{Limits: Limits{Nodes: DefaultNodes}, HashMB: 1, Threads: 1, DefaultLimit: true}},
	}
	for _, g := range good {
		got, err := ParseSpec(g.text)
		if err != nil || got != g.want {
			t.Errorf("%q: %+v, %v; want %+v", g.text, got, err, g.want)
		}
	}
	bad := []struct{ text, want string }{
		{"nodes", "KEY=VALUE"},
		{"nodes=0", "nodes \"0\""},
		{"nodes=-3", "from 1"},
		{"depth=1000", "depth \"1000\""},
		{"depth=x", "whole number"},
		{"movetime=0ms", "movetime"},
		{"movetime=fast", "duration"},
		{"hash=0", "hash"},
		{"hash=9999999", "hash"},
		{"threads=0", "threads"},
		{"nodez=5", "unknown key \"nodez\""},
		{"nodes=5:nodes=6", "twice"},
	}
	for _, b := range bad {
		_, err := ParseSpec(b.text)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%q: error %v, want one mentioning %q", b.text, err, b.want)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"", "nodes=20000", "depth=6", "movetime=100ms", "nodes=5000:hash=16:threads=1", "nodes", ":", "hash=-1", "movetime=1e9h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSpec(text)
		if err != nil {
			return
		}
		if err := s.Limits.Validate(); err != nil {
			t.Errorf("%q accepted with limits that do not validate: %v", text, err)
		}
		if s.HashMB < 1 || s.HashMB > MaxHashMB || s.Threads < 1 || s.Threads > MaxThreads {
			t.Errorf("%q accepted with hash %d, threads %d", text, s.HashMB, s.Threads)
		}
		if s.Limits.Depth == 0 && s.Limits.Nodes == 0 && s.Limits.MoveTime == 0 {
			t.Errorf("%q accepted with no limit", text)
		}
	})
}
