package mcts

import (
	"testing"
)

// checkTree verifies the arena's invariants: children point back to their
// parent, nothing is in flight, and every expanded node has one visit of
// its own plus its children's.
func checkTree(t *testing.T, tr *tree) {
	t.Helper()
	for i := range tr.nodes.all() {
		nd := tr.at(i)
		if nd.vl != 0 || nd.state == statePending {
			t.Fatalf("node %d: virtual visits %d, state %d after the search", i, nd.vl, nd.state)
		}
		if nd.state != stateExpanded {
			continue
		}
		sum := int32(0)
		for k := int32(0); k < nd.nChild; k++ {
			ch := tr.at(nd.first + k)
			if ch.parent != i {
				t.Fatalf("child %d of node %d has parent %d", nd.first+k, i, ch.parent)
			}
			sum += ch.n
		}
		// A solved node takes its later visits itself (its proven value is
		// backed up without descending further).
		if nd.n != sum+1 && !(nd.solved && nd.n > sum+1) {
			t.Fatalf("node %d: %d visits, want 1 + children's %d", i, nd.n, sum)
		}
	}
}

// subtreeVisits maps each node below c (move path -> visits) for
// comparison across a reroot.
func subtreeVisits(tr *tree, c int32, path string, out map[string]int32) {
	nd := tr.at(c)
	out[path] = nd.n
	for k := int32(0); k < nd.nChild; k++ {
		subtreeVisits(tr, nd.first+k, path+"/"+string(rune('a'+tr.at(nd.first+k).move)), out)
	}
}

func TestTreeReuseKeepsSubtreeVisitCounts(t *testing.T) {
	cfg := testConfig(500)
	ev, err := NewUniform(tttShape, 8)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSearcher(cfg, ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Reset(0, newTicTacToe()); err != nil {
		t.Fatal(err)
	}
	if err := s.SearchAll(); err != nil {
		t.Fatal(err)
	}
	tr := &s.slots[0].tree
	checkTree(t, tr)
	move := s.Result(0).Move
	c := tr.rootChild(move)
	before := map[string]int32{}
	subtreeVisits(tr, c, "", before)
	if before[""] < 2 {
		t.Fatalf("played child has %d visits, want a subtree", before[""])
	}
	if err := s.Play(0, move); err != nil {
		t.Fatal(err)
	}
	checkTree(t, tr)
	after := map[string]int32{}
	subtreeVisits(tr, 0, "", after)
	if len(after) != len(before) {
		t.Fatalf("reused tree has %d nodes, want the subtree's %d", len(after), len(before))
	}
	for p, n := range before {
		if after[p] != n {
			t.Errorf("node %q: %d visits after reuse, want %d", p, after[p], n)
		}
	}
	if tr.used != len(before) {
		t.Errorf("arena holds %d nodes, want only the subtree's %d", tr.used, len(before))
	}
	// The next search adds its playouts on top of the reused visits.
	if err := s.SearchAll(); err != nil {
		t.Fatal(err)
	}
	checkTree(t, tr)
	if got, want := tr.root().n, before[""]+int32(cfg.Sims); got != want {
		t.Errorf("root has %d visits after the next search, want reused %d + %d", got, before[""], cfg.Sims)
	}
}

func TestNoReuseStartsFromFreshRoot(t *testing.T) {
	for _, c := range []struct {
		name   string
		reuse  bool
		gumbel bool
	}{{"reuse off", false, false}, {"gumbel", true, true}} {
		cfg := testConfig(50)
		cfg.Reuse, cfg.Gumbel = c.reuse, c.gumbel
		ev, err := NewUniform(tttShape, 8)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSearcher(cfg, ev, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Reset(0, newTicTacToe()); err != nil {
			t.Fatal(err)
		}
		if err := s.SearchAll(); err != nil {
			t.Fatal(err)
		}
		if err := s.Play(0, s.Result(0).Move); err != nil {
			t.Fatal(err)
		}
		if tr := &s.slots[0].tree; tr.used != 1 || tr.root().n != 0 {
			t.Errorf("%s: %d nodes, root visits %d after Play; want a fresh root", c.name, tr.used, tr.root().n)
		}
	}
}

func TestPlayRejectsIllegalMoveAndMidSearch(t *testing.T) {
	ev, err := NewUniform(tttShape, 8)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSearcher(testConfig(20), ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Reset(0, tttFrom([]int{4}, nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Step(); err != nil {
		t.Fatal(err)
	}
	if err := s.Play(0, 0); err == nil {
		t.Error("Play during a search succeeded, want an error")
	}
	if err := s.SearchAll(); err != nil {
		t.Fatal(err)
	}
	if err := s.Play(0, 4); err == nil {
		t.Error("Play onto an occupied cell succeeded, want an error")
	}
	if err := s.Play(3, 0); err == nil {
		t.Error("Play on slot 3 of 1 succeeded, want an error")
	}
}
