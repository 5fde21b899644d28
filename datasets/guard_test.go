package datasets

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

func TestThriftWalkerRefusesLengthsBeyondTheirBytes(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		want string // "" for accepted
	}{
		{"empty struct", []byte{0x00}, ""},
		{"i32 field then stop", []byte{0x15, 0x04, 0x00}, ""},
		{"binary field that fits", []byte{0x18, 0x02, 'h', 'i', 0x00}, ""},
		{"list of three i32", []byte{0x19, 0x35, 0x02, 0x04, 0x06, 0x00}, ""},
		{"list of bools", []byte{0x19, 0x21, 0x01, 0x02, 0x00}, ""},
		{"nested struct", []byte{0x1c, 0x15, 0x02, 0x00, 0x00}, ""},
		{"long field id", []byte{0x05, 0x80, 0x01, 0x02, 0x00}, ""},
		{"map of one i32 to binary", []byte{0x1b, 0x01, 0x58, 0x02, 0x01, 'x', 0x00}, ""},
		{"binary longer than the bytes", []byte{0x18, 0x10, 'h', 'i', 0x00}, "past the end"},
		{"list of 2^31 elements", []byte{0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00}, "list of 2147483648 elements"},
		{"map larger than the bytes", []byte{0x1b, 0x80, 0x80, 0x04, 0x55, 0x00}, "map of 65536 entries"},
		{"unknown type", []byte{0x1e, 0x00}, "unknown type 14"},
		{"missing stop", []byte{0x15, 0x04}, "unexpected end"},
		{"bad varint", []byte{0x15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, "bad varint"},
		{"nested too deep", append(bytes.Repeat([]byte{0x1c}, 40), 0x00), "nested too deep"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := thriftWalker{b: tc.b}
			err := w.structure(1, 0)
			if tc.want == "" {
				if err != nil || w.pos != len(tc.b) {
					t.Fatalf("walk = %v after %d of %d bytes; want the whole structure accepted", err, w.pos, len(tc.b))
				}
				return
			}
			if !errors.Is(err, errThrift) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("walk = %v; want errThrift containing %q", err, tc.want)
			}
		})
	}
}

func TestThriftWalkerReportsTopLevelAndNestedIntegers(t *testing.T) {
	// field 2 = 7, field 3 = 9, field 5 {field 1 = 11}
	b := []byte{0x25, 14, 0x15, 18, 0x2c, 0x15, 22, 0x00, 0x00}
	got := map[[2]int16]int64{}
	w := thriftWalker{b: b, onInt: func(parent, field int16, v int64) { got[[2]int16{parent, field}] = v }}
	if err := w.structure(1, 0); err != nil {
		t.Fatal(err)
	}
	want := map[[2]int16]int64{{0, 2}: 7, {0, 3}: 9, {5, 1}: 11}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("field %v = %d, want %d (got %v)", k, got[k], v, got)
		}
	}
}

// TestGuardAcceptsEveryWrittenChunk checks the guard on real chunks of
// varied sizes, so that it never refuses what the writer writes.
func TestGuardAcceptsEveryWrittenChunk(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	for _, games := range []int{1, 7, 60} {
		dir := t.TempDir()
		path := writeChunk(t, dir, "w", synthGames(rng, "g", games))
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkFooter(data); err != nil {
			t.Fatalf("%d games: footer refused: %v", games, err)
		}
		if _, pf, err := openChunk(data, path, true); err != nil || len(pf.Metadata().RowGroups) == 0 {
			t.Fatalf("%d games: pages refused: %v", games, err)
		}
	}
}

// TestGuardStopsAForgedPageSize forges a page header's compressed size (a
// file whose name hash matches, as only a forger could make): the read
// must fail with a clear error instead of allocating what the header says.
func TestGuardStopsAForgedPageSize(t *testing.T) {
	dir := t.TempDir()
	path := writeChunk(t, dir, "w", synthGames(rand.New(rand.NewPCG(1, 4)), "g", 3))
	data, _ := os.ReadFile(path)
	_, pf, err := openChunk(data, path, true)
	if err != nil {
		t.Fatal(err)
	}
	md := pf.Metadata().RowGroups[0].Columns[0].MetaData
	start := md.DataPageOffset
	if md.DictionaryPageOffset != 0 {
		start = md.DictionaryPageOffset
	}
	// Page header: field 1 (type, i32), field 2 (uncompressed, i32), field 3 (compressed, i32).
	hdr := data[start:]
	w := thriftWalker{b: hdr}
	var at int
	w.onInt = func(parent, field int16, v int64) {
		if parent == 0 && field == 2 {
			at = w.pos // the walker is just past field 2's value
		}
	}
	if err := w.structure(1, 0); err != nil || at == 0 {
		t.Fatalf("could not find the page header: %v", err)
	}
	if hdr[at] != 0x15 { // field 3, i32, delta 1
		t.Fatalf("byte after field 2 is %#x, want field 3's header 0x15", hdr[at])
	}
	// Splice in a compressed size of 2^30 (zigzag varint 2^31) in place of the real one.
	forged := append([]byte(nil), data[:int(start)+at+1]...)
	forged = append(forged, 0x80, 0x80, 0x80, 0x80, 0x08)
	_, n := uvarintLen(hdr[at+1:])
	forged = append(forged, data[int(start)+at+1+n:]...)
	_, err = decodeChunk(forged, path)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "claims 1073741824 bytes") {
		t.Fatalf("forged page size: %v; want ErrCorrupt naming the page's claim of 536870912 bytes", err)
	}
}

// uvarintLen returns a varint's value and length.
func uvarintLen(b []byte) (uint64, int) {
	var v uint64
	for i, c := range b {
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}
