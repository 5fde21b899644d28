package values

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"bomberzero/env"
)

// positionsData returns synthetic games whose positions have capture flags
// at random and a promotion-like count change late in some games, so that
// every sampling rule has something to leave out.
func positionsData(n int) *Dataset {
	m := ChessModel(true)
	ds := m.Games(n, 3)
	rng := rand.New(rand.NewPCG(5, 5))
	for gi := range ds.Games {
		g := &ds.Games[gi]
		for pi := range g.Positions {
			p := &g.Positions[pi]
			p.CaptureAvailable = rng.IntN(4) == 0
			if pi > 12 && gi%3 == 0 {
				p.White = append([]int32(nil), p.White...)
				p.White[4]++ // a promotion: the counts change again
			}
		}
		if gi%7 == 0 {
			g.Termination = env.NotOver // an ending not known
		}
		g.Player = "engine:nodes=3000"
		if gi%5 == 0 {
			g.Player = "" // not recorded
		}
	}
	return ds
}

// stripped is ds as a positions file keeps it: no texts, values or moves.
func stripped(ds *Dataset) *Dataset {
	out := &Dataset{Pieces: ds.Pieces, Games: make([]Game, len(ds.Games))}
	for gi, g := range ds.Games {
		g.Positions = append([]Position(nil), g.Positions...)
		for pi := range g.Positions {
			p := &g.Positions[pi]
			p.Text, p.Value, p.Played = "", 0, ""
		}
		out.Games[gi] = g
	}
	return out
}

func TestPositionsFileRoundTrip(t *testing.T) {
	ds := positionsData(300)
	path := filepath.Join(t.TempDir(), "p.bzpos")
	if err := WritePositions(path, ds); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPositions(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, stripped(ds)) {
		t.Fatal("the data set read back differs from the one written (texts, values and moves aside)")
	}
	// An empty data set and a game without positions round-trip too.
	empty := &Dataset{Pieces: []string{"P", "K"}, Games: []Game{{ID: "g", Variant: "chess", Result: -1, Termination: env.Checkmate}}}
	if err := WritePositions(path, empty); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadPositions(path); err != nil || !reflect.DeepEqual(got, empty) {
		t.Fatalf("empty game: got %+v, %v", got, err)
	}
}

// TestSampledPositionsFitAsTheFullData: a data set cut to the positions its
// sampling keeps, written to a positions file and read back, gives the same
// report under NoFilter as the full data set under the sampling, to the
// last digit: the point values, the intervals and the counts.
func TestSampledPositionsFitAsTheFullData(t *testing.T) {
	ds := positionsData(800)
	sc := SampleConfig{SkipPlies: 4, QuietPlies: 2, NoCaptures: true, Spacing: 2, MaxPerGame: 3, Seed: 9}
	for _, equal := range []bool{false, true} {
		sc.EqualGames = equal
		cfg := Config{Sample: sc, Methods: []Method{Logistic, Tanh}, Bootstrap: 30, Seed: 4, Workers: 2}
		want, err := PieceValues(ds, cfg)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "p.bzpos")
		if err := WritePositions(path, sc.Sampled(ds)); err != nil {
			t.Fatal(err)
		}
		small, err := ReadPositions(path)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Sample = NoFilter()
		cfg.Sample.EqualGames = equal
		got, err := PieceValues(small, cfg)
		if err != nil {
			t.Fatal(err)
		}
		// The file holds the sampled positions alone: its data set's
		// positions are the full one's sample.
		if got.Positions != want.Sampled || got.Sampled != want.Sampled {
			t.Fatalf("the file's data set has %d positions, %d sampled: want %d, all of them", got.Positions, got.Sampled, want.Sampled)
		}
		want.Sample, got.Sample = SampleConfig{}, SampleConfig{}
		got.Positions = want.Positions
		gj, _ := json.MarshalIndent(got, "", " ")
		wj, _ := json.MarshalIndent(want, "", " ")
		if string(gj) != string(wj) {
			t.Fatalf("equal games %v: the sampled file's report differs:\n%s", equal, firstDiff(string(gj), string(wj)))
		}
	}
}

// firstDiff returns the lines around the first line where a and b differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < min(len(la), len(lb)); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d: got %s, want %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(la), len(lb))
}

func TestPositionsFileRefusesWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.bzpos")
	if err := WritePositions(good, positionsData(20)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	flip := append([]byte(nil), data...)
	flip[len(flip)-3] ^= 0x40
	version := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(version[len(positionsMagic):], 7)
	badSum := append([]byte(nil), data...)
	badSum[len(positionsMagic)+5] ^= 1
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a positions file"},
		{"other file", []byte("PAR1 and more bytes than the header needs, which is forty-four bytes"), "not a positions file"},
		{"newer version", version, "version 7"},
		{"damaged checksum", badSum, "checksum mismatch"},
		{"damaged body", flip, "positions file"},
		{"truncated", data[:len(data)/2], "positions file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadPositions(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v: want one naming %s and saying %q", err, path, tc.want)
			}
		})
	}
}

// TestPositionsBodyBoundsAreCheckedBeforeAllocating hands the decoder bodies
// that declare more than they hold.
func TestPositionsBodyBoundsAreCheckedBeforeAllocating(t *testing.T) {
	uv := func(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }
	pieces := uv(uv(nil, 1), 1)
	pieces = append(pieces, 'P')
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"too many piece types", uv(nil, 1000), "piece types 1000"},
		{"games beyond the body", uv(append([]byte(nil), pieces...), 1<<20), "games declared"},
		{"positions beyond the body", func() []byte {
			b := uv(append([]byte(nil), pieces...), 1)
			b = uv(b, 1)
			b = append(b, 'g')
			b = uv(b, 0)                  // variant ""
			b = uv(b, 0)                  // player ""
			b = binary.AppendVarint(b, 1) // result
			b = uv(b, 0)                  // termination ""
			b = uv(b, 10)                 // length
			b = uv(b, 0)                  // index
			b = uv(b, 60000)              // positions
			return b
		}(), "declares 60000 positions"},
		{"bad result", func() []byte {
			b := uv(append([]byte(nil), pieces...), 1)
			b = uv(b, 1)
			b = append(b, 'g')
			b = uv(b, 0)
			b = uv(b, 0)
			b = binary.AppendVarint(b, 5)
			return append(b, make([]byte, 8)...)
		}(), "result 5"},
		{"trailing bytes", append(uv(append([]byte(nil), pieces...), 0), 1, 2, 3), "after the last game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodePositions(tc.body)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v: want one saying %q", err, tc.want)
			}
		})
	}
}

func FuzzDecodePositions(f *testing.F) {
	var buf bytes.Buffer
	path := filepath.Join(f.TempDir(), "seed.bzpos")
	if err := WritePositions(path, positionsData(3)); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	buf.WriteString(positionsMagic)
	f.Add(buf.Bytes())
	body, err := encodePositions(positionsData(2))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := DecodePositions(data)
		if err == nil && ds == nil {
			t.Fatal("no data set and no error")
		}
		// The body decoder alone, on the fuzzer's bytes after a valid body's
		// start, must not panic either.
		_, _ = decodePositions(append(body[:min(len(body), len(data)%(len(body)+1))], data...))
	})
}
