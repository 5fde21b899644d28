package agent

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// shippedNet is the path of a net the repository ships, from this
// package's directory.
func shippedNet(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "models", name)
}

func TestSetLeafEngineRefusesWhatALeafCannotUse(t *testing.T) {
	r := mustRules(t, "fbgc", 0)
	tests := []struct{ spec, want string }{
		{"alphabeta:3", "want engine[:depth=D]"},
		{"engines", "want engine[:depth=D]"},
		{"engine:nodes=500", "nodes, movetime and threads do not apply"},
		{"engine:movetime=10ms", "nodes, movetime and threads do not apply"},
		{"engine:threads=2", "nodes, movetime and threads do not apply"},
		{"engine:depth=5", "leaf depth 5: want 0"},
		{"engine:eval=" + filepath.Join(t.TempDir(), "missing.nnue"), "missing.nnue"},
		// chess's net on fbgc's board: refused, naming the variants.
		{"engine:eval=" + shippedNet("chess.nnue"), "chess"},
	}
	for _, tc := range tests {
		err := r.SetLeafEngine(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SetLeafEngine(%q) = %v, want an error with %q", tc.spec, err, tc.want)
		}
		if r.LeafEngine() != "" {
			t.Fatalf("a refused leaf engine %q was kept as %q", tc.spec, r.LeafEngine())
		}
	}
}

// With a leaf engine, Quiescence is the engine's score in pawns: on a
// hanging queen the engine and the material search agree on who is ahead,
// and a quiet mate that only a search of depth 1 sees is a sure win there.
func TestQuiescenceByTheLeafEngine(t *testing.T) {
	r := mustRules(t, "chess", 0)
	hanging, err := r.Variant.ParsePosition("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	material := r.NewGame(hanging).Quiescence()
	for _, spec := range []string{"engine", "engine:depth=1", "engine:eval=" + shippedNet("chess.nnue")} {
		if err := r.SetLeafEngine(spec); err != nil {
			t.Fatal(err)
		}
		if r.LeafEngine() != spec {
			t.Errorf("LeafEngine() = %q after setting %q", r.LeafEngine(), spec)
		}
		q := r.NewGame(hanging).Quiescence()
		if q <= 0 || q > 4 || material <= 0 {
			t.Errorf("%s: a pawn takes the queen: engine %.2f, material %.2f pawns; want both a little ahead", spec, q, material)
		}
	}
	mate, err := r.Variant.ParsePosition("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetLeafEngine("engine:depth=1"); err != nil {
		t.Fatal(err)
	}
	if q := r.NewGame(mate).Quiescence(); q != quiescenceMate/100 {
		t.Errorf("depth 1 on a mate in one: %.2f pawns, want the sure win %d", q, quiescenceMate/100)
	}
	if err := r.SetLeafEngine(""); err != nil || r.LeafEngine() != "" {
		t.Fatalf("clearing the leaf engine: %v, %q", err, r.LeafEngine())
	}
	if q := r.NewGame(mate).Quiescence(); q == quiescenceMate/100 {
		t.Errorf("the material search saw a quiet mate: %.2f", q)
	}
}

// Games of one Rules score their leaves from many goroutines at once, each
// on an engine of its own, and every goroutine sees the same scores.
func TestLeafEngineIsSharedByGoroutines(t *testing.T) {
	r := mustRules(t, "fbgc", 0)
	if err := r.SetLeafEngine("engine:depth=1"); err != nil {
		t.Fatal(err)
	}
	g := r.NewGame(nil)
	want := g.Quiescence()
	var wg sync.WaitGroup
	errs := make(chan float64, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := g.Clone().(*Game)
			for j := 0; j < 20; j++ {
				if q := mine.Quiescence(); q != want {
					errs <- q
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for q := range errs {
		t.Errorf("a goroutine scored the start %.2f, want %.2f", q, want)
	}
}
