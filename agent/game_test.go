package agent

import (
	"testing"

	"bomberzero/env"
)

func mustRules(t testing.TB, name string, maxPlies int) *Rules {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return NewRules(v, maxPlies)
}

func play(t *testing.T, g *Game, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := g.Position().ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		g.Play(g.r.Index.Index(m, g.Position().SideToMove()))
	}
}

func TestGameHashSeesTheRepetitionCount(t *testing.T) {
	r := mustRules(t, "fbgc", 0)
	g := r.NewGame(nil)
	h0, z0 := g.Hash(), g.Position().Hash()
	play(t, g, "c1-d3", "c10-d8", "d3-c1", "d8-c10")
	if g.Position().Hash() != z0 {
		t.Fatal("the rules engine's hash differs after a round trip of knight moves")
	}
	if g.Hash() == h0 {
		t.Fatal("Game.Hash is the same for the first and the second occurrence of the start position")
	}
	if over, _ := g.Status(); over {
		t.Fatal("a second occurrence ended the game")
	}
	play(t, g, "c1-d3", "c10-d8", "d3-c1", "d8-c10")
	if over, value := g.Status(); !over || value != 0 {
		t.Fatalf("third occurrence: Status %v %v, want a draw", over, value)
	}
}

func TestGameStatusValuesAreForTheSideToMove(t *testing.T) {
	r := mustRules(t, "chess", 0)
	// Fool's mate: White to move is checkmated.
	g := r.NewGame(nil)
	play(t, g, "f2-f3", "e7-e5", "g2-g4", "d8-h4")
	if over, value := g.Status(); !over || value != -1 {
		t.Fatalf("mated side to move: Status %v %v, want true -1", over, value)
	}
	if res, why := g.Outcome(); res != env.BlackWins || why != env.Checkmate {
		t.Fatalf("Outcome %v %v", res, why)
	}
	if n := len(g.LegalMoves(nil)); n != 0 {
		t.Fatalf("%d legal moves in a mate", n)
	}
}

func TestGameLengthCapEndsInADraw(t *testing.T) {
	r := mustRules(t, "fbgc", 3)
	g := r.NewGame(nil)
	play(t, g, "e2-e4", "e9-e7")
	if over, _ := g.Status(); over {
		t.Fatal("over before the cap")
	}
	play(t, g, "d2-d4")
	over, value := g.Status()
	res, why := g.Outcome()
	if !over || value != 0 || res != env.Draw || why != env.LengthCap {
		t.Fatalf("at the cap: Status %v %v, Outcome %v %v; want a capped draw", over, value, res, why)
	}
}

func TestGameCopiesAreIndependentAndPlayByIndex(t *testing.T) {
	r := mustRules(t, "birds-ninjas", 0)
	g := r.NewGame(nil)
	moves := g.LegalMoves(nil)
	c := g.Clone().(*Game)
	d := r.NewGame(nil)
	d.CopyFrom(g)
	// Play the same index through the move list (c, after LegalMoves) and
	// through Decode (d, fresh from CopyFrom).
	c.LegalMoves(nil)
	last := moves[len(moves)-1] // a drop in Birds and Ninjas
	c.Play(last)
	d.Play(last)
	if c.Position().String() != d.Position().String() {
		t.Fatalf("same index, different positions: %s vs %s", c.Position(), d.Position())
	}
	if g.Position().Ply() != 0 {
		t.Fatal("playing a copy changed the original")
	}
	planes := make([]float32, r.Shape().InputSize())
	c.Encode(planes)
	nonzero := 0
	for _, x := range planes {
		if x != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Fatal("Encode wrote nothing")
	}
}

func TestMaterialIsFromTheSideToMove(t *testing.T) {
	r := mustRules(t, "fbgc", 0)
	g := r.NewGame(nil)
	if m := g.Material(); m != 0 {
		t.Fatalf("start material %v", m)
	}
	p, err := r.Variant.ParsePosition("5k4/10/10/10/10/10/10/10/10/Q4K4 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	g = r.NewGame(p)
	if m := g.Material(); m != -11 {
		t.Fatalf("Black to move a queen down: material %v, want -11", m)
	}
}

func TestEncodeTextMatchesTheGame(t *testing.T) {
	r := mustRules(t, "fbgc", 10) // a cap, so the length-cap plane is not 0
	g := r.NewGame(nil)
	play(t, g, "e2-e4", "f9-f7")
	s := r.Shape()
	want := make([]float32, s.InputSize())
	g.Encode(want)
	planes := make([]float32, s.InputSize())
	legal := make([]float32, s.PolicySize)
	legal[0] = 7 // stale values must be overwritten
	if err := r.EncodeText(g.Position().String(), g.Position().Ply(), g.Position().Repetitions(), planes, legal); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if planes[i] != want[i] {
			t.Fatalf("plane value %d: %v from text, %v from the game", i, planes[i], want[i])
		}
	}
	n := 0
	for _, x := range legal {
		n += int(x)
	}
	if moves := g.LegalMoves(nil); n != len(moves) {
		t.Fatalf("mask has %d moves, the game %d", n, len(moves))
	}
	// Without the ply, only the length-cap plane (the last) differs.
	if err := r.EncodeText(g.Position().String(), 0, g.Position().Repetitions(), planes, legal); err != nil {
		t.Fatal(err)
	}
	hw := s.Height * s.Width
	for i := range want {
		if last := i >= (s.Channels-1)*hw; (planes[i] != want[i]) != last {
			t.Fatalf("plane value %d: %v at ply 0, %v at ply %d", i, planes[i], want[i], g.Position().Ply())
		}
	}
	if err := r.EncodeText("not a position", 0, 0, planes, legal); err == nil {
		t.Fatal("bad position text accepted")
	}
	if err := r.EncodeText(g.Position().String(), 0, 0, planes[:10], legal); err == nil {
		t.Fatal("short planes accepted")
	}
}
