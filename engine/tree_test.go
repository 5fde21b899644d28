package engine

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"bomberzero/env"
)

// treeSignatureEnv names the file TestSearchTreeSignature writes, or
// compares with when it exists.
const treeSignatureEnv = "BOMBERZERO_TREE_SIGNATURE"

// TestSearchTreeSignature is the check that a pure speed change leaves
// the search unchanged: 78 node-limited searches (30,000 nodes, one
// thread, seed 3, 6 positions of each of the 13 rule sets below) hashed
// by their nodes, move, score, depth and PV, one line a rule set. With
// BOMBERZERO_TREE_SIGNATURE=FILE it writes FILE when it does not exist
// (run it on the commit before the change) and otherwise fails naming
// every line that differs from FILE's (run it on the commit after; the
// hash runs on from one rule set to the next, so the first line named is
// the first rule set whose searches differ). Without the variable it is skipped: the signature changes,
// rightly, with every change of the search's tree.
func TestSearchTreeSignature(t *testing.T) {
	path := os.Getenv(treeSignatureEnv)
	if path == "" {
		t.Skipf("set %s=FILE to write or compare the search tree signature", treeSignatureEnv)
	}
	got := treeSignature(t)
	old, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("tree signature: %v", err)
		}
		t.Logf("tree signature written to %s:\n%s", path, got)
		return
	}
	if err != nil {
		t.Fatalf("tree signature: %v", err)
	}
	want := strings.Split(strings.TrimSpace(string(old)), "\n")
	have := strings.Split(strings.TrimSpace(got), "\n")
	if len(want) != len(have) {
		t.Fatalf("tree signature: %d lines, %s has %d", len(have), path, len(want))
	}
	for i := range want {
		if want[i] != have[i] {
			t.Errorf("tree signature differs from %s: %q, want %q", path, have[i], want[i])
		}
	}
}

// treeSignature searches 6 positions (plies 4, 13, 22, ... of seeded
// random games) of every built-in variant and fbgc+superpower to 30,000
// nodes and returns one line a rule set: its positions, nodes and a
// running FNV hash of every search's nodes, move, score, depth and PV.
func treeSignature(t *testing.T) string {
	t.Helper()
	h := fnv.New64a()
	var out strings.Builder
	for _, name := range append(env.VariantNames(), "fbgc+superpower") {
		v, err := env.LoadVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		var buf [env.MaxMoves]env.Move
		var sample []*env.Position
		for g := uint64(0); len(sample) < 6 && g < 100; g++ {
			rng := rand.New(rand.NewPCG(g, 7))
			p := v.NewPosition()
			for ply := 0; ply < 60 && len(sample) < 6; ply++ {
				moves := p.LegalMoves(buf[:0])
				if r, _ := p.StatusOf(len(moves)); r != env.Ongoing {
					break
				}
				if ply%9 == 4 {
					sample = append(sample, p.Clone())
				}
				p.DoMove(moves[rng.IntN(len(moves))])
			}
		}
		e, err := New(v, Options{HashMB: 4, Seed: 3, Table: testTable(v)})
		if err != nil {
			t.Fatal(err)
		}
		var nodes int64
		for _, p := range sample {
			e.Clear()
			r, err := e.Search(context.Background(), p, Limits{Nodes: 30000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%d %d %d %d %v;", r.Nodes, r.Move, r.Score, r.Depth, r.PV)
			nodes += r.Nodes
		}
		fmt.Fprintf(&out, "%s positions=%d nodes=%d hash=%x\n", name, len(sample), nodes, h.Sum64())
	}
	return out.String()
}
