package env

import (
	"strings"
	"testing"
)

func TestEncoderChannelsFollowTheRules(t *testing.T) {
	cases := []struct {
		variant string
		want    int
	}{
		// 7 types x 2, repetitions, 4 castling rights, en passant, 50-move,
		// length cap.
		{"fbgc", 14 + 1 + 4 + 1 + 1 + 1},
		{"chess", 12 + 1 + 4 + 1 + 1 + 1},
		// 6 types (F G K M N P) x 2, holes, repetitions, en passant,
		// 50-move, scepter x 2, length cap; no castling, no colour (the
		// setup is mirror-symmetric).
		{"claustrophobia", 2*6 + 1 + 1 + 1 + 1 + 2 + 1},
	}
	for _, c := range cases {
		v, err := LoadVariant(c.variant)
		if err != nil {
			t.Fatal(err)
		}
		e := NewEncoder(v, 0)
		if e.Channels() != c.want || len(e.PlaneNames()) != c.want {
			t.Errorf("%s: %d channels (%s), want %d", c.variant, e.Channels(), strings.Join(e.PlaneNames(), ", "), c.want)
		}
	}
}

// mirrored returns p seen from the other side: the board flipped by ranks,
// the colours, rights, hands and side to move swapped.
func mirrored(t *testing.T, p *Position) *Position {
	t.Helper()
	v := p.v
	q := &Position{v: v, side: p.side.Other(), half: p.half, full: p.full, king: [2]Square{NoSquare, NoSquare}, epVictim: NoSquare}
	for s := 0; s < v.Geo.Cells(); s++ {
		if pc := p.board[s]; pc != NoPiece {
			q.put(v.mirrorSq(Black, Square(s)), MakePiece(pc.Color().Other(), pc.Type()))
		}
	}
	q.castle = (p.castle&3)<<2 | p.castle>>2
	q.epN = p.epN
	for i := 0; i < int(p.epN); i++ {
		q.ep[i] = v.mirrorSq(Black, p.ep[i])
	}
	q.hand[White], q.hand[Black] = p.hand[Black], p.hand[White]
	r, err := v.ParsePosition(q.String())
	if err != nil {
		t.Fatalf("mirror of %s: %v", p, err)
	}
	return r
}

func TestEncodingIsTheSameFromEitherSide(t *testing.T) {
	for _, name := range indexVariants() {
		v, err := LoadVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		e := NewEncoder(v, 0)
		a := make([]float32, e.Channels()*v.Geo.Cells())
		b := make([]float32, len(a))
		n := 0
		walkRandomGames(t, v, 3, 2, 80, func(p *Position, _ []Move) {
			q := mirrored(t, p)
			e.Encode(p, a)
			e.Encode(q, b)
			hw := v.Geo.Cells()
			for i := range a {
				if a[i] != b[i] && i/hw != e.colour {
					t.Fatalf("%s: %s and its mirror %s differ in plane %q at cell %d: %v vs %v",
						name, p, q, e.names[i/hw], i%hw, a[i], b[i])
				}
			}
			n++
		})
		if n < 50 {
			t.Fatalf("%s: only %d positions", name, n)
		}
	}
}

func TestEncodingReadsBackAsThePosition(t *testing.T) {
	for _, name := range indexVariants() {
		v, err := LoadVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		const maxPlies = 60 // shorter than some random games, so the plane reaches 1
		e := NewEncoder(v, maxPlies)
		g := v.Geo
		hw := g.Cells()
		planes := make([]float32, e.Channels()*hw)
		walkRandomGames(t, v, 5, 2, 100, func(p *Position, _ []Move) {
			e.Encode(p, planes)
			us := p.SideToMove()
			at := func(plane int, s Square) float32 { return planes[plane*hw+int(e.view[us][s])] }
			for s := Square(0); int(s) < hw; s++ {
				set := 0
				for k := 0; k < 2*e.types; k++ {
					if at(k, s) != 1 {
						continue
					}
					set++
					typ, c := k%e.types+1, us
					if k >= e.types {
						c = us.Other()
					}
					if p.At(s) != MakePiece(c, typ) {
						t.Fatalf("%s: %s: plane %q set at %s holding %v", name, p, e.names[k], g.Name(s), p.At(s))
					}
				}
				if (set == 1) != (p.At(s) != NoPiece) || set > 1 {
					t.Fatalf("%s: %s: %d piece planes set at %s holding %v", name, p, set, g.Name(s), p.At(s))
				}
				if e.holes >= 0 && (at(e.holes, s) == 1) == g.IsReal(s) {
					t.Fatalf("%s: hole plane wrong at cell %d", name, s)
				}
				if e.ep >= 0 && (at(e.ep, s) == 1) != (p.epN > 0 && p.isEP(s)) {
					t.Fatalf("%s: %s: en-passant plane wrong at %s", name, p, g.Name(s))
				}
			}
			if got := planes[e.fifty*hw]; got != float32(p.HalfMoveClock())/100 {
				t.Fatalf("%s: 50-move plane %v, clock %d", name, got, p.HalfMoveClock())
			}
			wantPly := min(float32(p.Ply())/maxPlies, 1)
			for i := range hw {
				if got := planes[e.ply*hw+i]; got != wantPly {
					t.Fatalf("%s: length-cap plane %v at cell %d after %d plies, want %v", name, got, i, p.Ply(), wantPly)
				}
			}
			if got := planes[e.rep*hw+hw-1]; got != float32(p.Repetitions()) {
				t.Fatalf("%s: repetition plane %v, want %d", name, got, p.Repetitions())
			}
			for i, b := range e.rights {
				c := us
				if i >= len(e.rights)/2 {
					c = us.Other()
				}
				letter := [2]byte{'K', 'Q'}[b]
				if c == Black {
					letter += 'a' - 'A'
				}
				field := strings.Fields(p.String())[2]
				if (planes[(e.castle+i)*hw] == 1) != (strings.IndexByte(field, letter) >= 0) {
					t.Fatalf("%s: %s: castling plane %q wrong", name, p, e.names[e.castle+i])
				}
			}
			if e.hand >= 0 {
				dt := v.DropType()
				if got, want := planes[e.hand*hw]/e.handScale, float32(p.InHand(us, dt)); got != want {
					t.Fatalf("%s: own hand plane says %v, hand holds %v", name, got, want)
				}
			}
		})
	}
}

func TestRepetitionPlaneCountsEarlierOccurrences(t *testing.T) {
	v, err := LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	e := NewEncoder(v, 0)
	p := v.NewPosition()
	planes := make([]float32, e.Channels()*v.Geo.Cells())
	for round := 1; round <= 2; round++ {
		for _, mv := range []string{"c1-d3", "c10-d8", "d3-c1", "d8-c10"} {
			m, err := p.ParseMove(mv)
			if err != nil {
				t.Fatal(err)
			}
			p.DoMove(m)
		}
		e.Encode(p, planes)
		hw := v.Geo.Cells()
		for i := 0; i < hw; i++ {
			if planes[e.rep*hw+i] != float32(round) {
				t.Fatalf("after %d round trips the repetition plane holds %v, want %d", round, planes[e.rep*hw+i], round)
			}
		}
	}
	if res, why := p.Status(); res != Draw || why != Repetition {
		t.Fatalf("third occurrence: status %v %v, want a draw by repetition", res, why)
	}
}

// TestLengthCapPlaneMeasuresPliesAgainstTheCap checks the cap plane on
// plies given explicitly (as training data gives them): ply/cap, clamped
// to [0, 1], 0 without a cap, the same in every cell, and the only plane
// the ply changes.
func TestLengthCapPlaneMeasuresPliesAgainstTheCap(t *testing.T) {
	v, err := LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	p := v.NewPosition()
	hw := v.Geo.Cells()
	cases := []struct {
		maxPlies, ply int
		want          float32
	}{
		{0, 0, 0}, {0, 500, 0}, {160, 0, 0}, {160, 40, 0.25}, {160, 159, 159.0 / 160}, {160, 160, 1}, {160, 400, 1}, {400, -3, 0},
	}
	for _, c := range cases {
		e := NewEncoder(v, c.maxPlies)
		if e.MaxPlies() != c.maxPlies {
			t.Errorf("MaxPlies() = %d, want %d", e.MaxPlies(), c.maxPlies)
		}
		at := make([]float32, e.Channels()*hw)
		base := make([]float32, e.Channels()*hw)
		e.EncodeAt(p, c.ply, at)
		e.EncodeAt(p, 0, base)
		if e.ply != e.Channels()-1 || e.names[e.ply] != "plies played / length cap" {
			t.Fatalf("the cap plane is %d (%q) of %d", e.ply, e.names[e.ply], e.Channels())
		}
		for i := range at {
			want := base[i]
			if i/hw == e.ply {
				want = c.want
			}
			if at[i] != want {
				t.Fatalf("cap %d, ply %d: plane %q cell %d is %v, want %v", c.maxPlies, c.ply, e.names[i/hw], i%hw, at[i], want)
			}
		}
	}
}

func TestEncodeAllocatesNothing(t *testing.T) {
	v, err := LoadVariant("birds-ninjas+scepter+insane-knight")
	if err != nil {
		t.Fatal(err)
	}
	e := NewEncoder(v, 0)
	p := v.NewPosition()
	planes := make([]float32, e.Channels()*v.Geo.Cells())
	if a := testing.AllocsPerRun(100, func() { e.Encode(p, planes) }); a != 0 {
		t.Fatalf("Encode allocates %v times per call", a)
	}
}

func BenchmarkEncodeFBGC(b *testing.B) {
	v, err := LoadVariant("fbgc")
	if err != nil {
		b.Fatal(err)
	}
	e := NewEncoder(v, 0)
	p := v.NewPosition()
	planes := make([]float32, e.Channels()*v.Geo.Cells())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		e.Encode(p, planes)
	}
}

// TestSetRepetitionsRestoresWhatTheGameSaw plays every variant's random
// games and a knight shuffle that repeats: each position read back from its
// text, given its repetition count, encodes to the same planes and has the
// same status as the position in its game.
func TestSetRepetitionsRestoresWhatTheGameSaw(t *testing.T) {
	check := func(name string, e *Encoder, p *Position, want, got []float32) {
		t.Helper()
		q, err := p.Variant().ParsePosition(p.String())
		if err != nil {
			t.Fatal(err)
		}
		if err := q.SetRepetitions(p.Repetitions()); err != nil {
			t.Fatalf("%s: %s: %v", name, p, err)
		}
		e.Encode(p, want)
		e.Encode(q, got)
		for i := range want {
			if want[i] != got[i] {
				t.Fatalf("%s: %s (%d repetitions): plane %s differs read back from text", name, p, p.Repetitions(), e.names[i/p.v.Geo.Cells()])
			}
		}
		r1, w1 := p.Status()
		r2, w2 := q.Status()
		if r1 != r2 || w1 != w2 || q.Repetitions() != p.Repetitions() {
			t.Fatalf("%s: %s: status %v %v read back as %v %v", name, p, r1, w1, r2, w2)
		}
	}
	reps := map[int]int{}
	for _, name := range indexVariants() {
		v := mustLoad(t, name)
		e := NewEncoder(v, 0)
		want, got := make([]float32, e.Channels()*v.Geo.Cells()), make([]float32, e.Channels()*v.Geo.Cells())
		walkRandomGames(t, v, 9, 2, 80, func(p *Position, _ []Move) { check(name, e, p, want, got) })
		if name != "fbgc" {
			continue
		}
		p := v.NewPosition()
		for i, text := range strings.Fields("e2-e4 e9-e7 c1-d3 c10-d8 d3-c1 d8-c10 c1-d3 c10-d8 d3-c1 d8-c10 c1-d3 c10-d8") {
			m, err := p.ParseMove(text)
			if err != nil {
				t.Fatalf("ply %d: %v", i, err)
			}
			p.DoMove(m)
			reps[p.Repetitions()]++
			check(name, e, p, want, got)
		}
	}
	if reps[1] == 0 || reps[2] == 0 {
		t.Fatalf("the shuffle reached repetition counts %v, want 1 and 2", reps)
	}
}

func TestSetRepetitionsRefusesACountTheClockCannotHold(t *testing.T) {
	v := mustLoad(t, "chess")
	p, err := v.ParsePosition("7k/8/6K1/8/8/8/8/R7 w - - 7 80")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{-1, 2} {
		if err := p.SetRepetitions(n); err == nil || p.Repetitions() != 0 || p.Ply() != 0 {
			t.Errorf("SetRepetitions(%d) at clock 7: %v, repetitions %d, ply %d; want an error and no change", n, err, p.Repetitions(), p.Ply())
		}
	}
	if err := p.SetRepetitions(1); err != nil || p.Repetitions() != 1 {
		t.Errorf("SetRepetitions(1) at clock 7: %v, repetitions %d", err, p.Repetitions())
	}
}
