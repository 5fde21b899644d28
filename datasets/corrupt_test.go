package datasets

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestEveryByteFlipIsDetectedOrHarmless flips each byte of a chunk in turn.
// ReadChunk must refuse every one (the content hash in the name). Behind
// that first check, the Parquet-level checks alone (page CRCs, the row
// SHA-256, the record invariants) must either fail with a ChunkError naming
// the file or return exactly the rows that were written (a flip in, say,
// footer statistics that no reader uses): never silently different rows.
func TestEveryByteFlipIsDetectedOrHarmless(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	dir := t.TempDir()
	path := writeChunk(t, dir, "w", synthGames(rng, "g", 6))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := decodeChunk(data, path)
	if err != nil {
		t.Fatal(err)
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	detected, harmless := 0, 0
	bad := make([]byte, len(data))
	for i := 0; i < len(data); i += step {
		copy(bad, data)
		bad[i] ^= 0x10
		if _, err := readChunkBytes(bad, path); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
			t.Fatalf("flip at byte %d: ReadChunk error %v; want ErrCorrupt naming the file", i, err)
		}
		if raceEnabled {
			continue // the decoder behind the hash cannot take damaged bytes under checkptr
		}
		c, err := decodeChunk(bad, path)
		if err != nil {
			var ce *ChunkError
			if !errors.As(err, &ce) || ce.Path != path || !strings.Contains(err.Error(), path) {
				t.Fatalf("flip at byte %d: error %q does not name the chunk as a ChunkError", i, err)
			}
			detected++
			continue
		}
		if !reflect.DeepEqual(c.Rows, want.Rows) {
			t.Fatalf("flip at byte %d of %d: rows changed and nothing noticed", i, len(data))
		}
		harmless++
	}
	t.Logf("%d bytes: %d flips detected, %d harmless", len(data), detected, harmless)
	if raceEnabled {
		t.Log("-race build: only the name-hash layer was checked")
		return
	}
	if detected < harmless {
		t.Errorf("only %d of %d flips detected: the checks look too weak", detected, detected+harmless)
	}
}

// TestFlipInTheMiddleIsDetected is the plain case: one flipped byte in the
// middle of the row data.
func TestFlipInTheMiddleIsDetected(t *testing.T) {
	dir := t.TempDir()
	path := writeChunk(t, dir, "w", synthGames(rand.New(rand.NewPCG(7, 8)), "g", 10))
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadChunk(path)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), filepath.Base(path)) {
		t.Fatalf("ReadChunk of a flipped chunk: %v; want ErrCorrupt naming the file", err)
	}
}

func TestEveryTruncationIsDetected(t *testing.T) {
	dir := t.TempDir()
	path := writeChunk(t, dir, "w", synthGames(rand.New(rand.NewPCG(9, 10)), "g", 5))
	data, _ := os.ReadFile(path)
	step := 1
	if testing.Short() {
		step = 5
	}
	for n := 0; n < len(data); n += step {
		_, err := decodeChunk(data[:n], path)
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("chunk truncated to %d of %d bytes: error %v, want ErrCorrupt", n, len(data), err)
		}
	}
}

// TestCorruptChunksAreSkippedAndTheRestRead damages two of four chunks
// (a flip, a truncation) and checks that List and Scan name them and
// still deliver the other two in full.
func TestCorruptChunksAreSkippedAndTheRestRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	dir := t.TempDir()
	var paths []string
	for i := 0; i < 4; i++ {
		paths = append(paths, writeChunk(t, dir, "w", synthGames(rng, string(rune('a'+i)), 5)))
	}
	flipped, truncated := paths[1], paths[2]
	data, _ := os.ReadFile(flipped)
	data[len(data)/3] ^= 0x40
	os.WriteFile(flipped, data, 0o644)
	data, _ = os.ReadFile(truncated)
	os.WriteFile(truncated, data[:len(data)-100], 0o644)

	chunks, problems, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, p := range problems {
		if !errors.Is(p, ErrCorrupt) || !strings.Contains(p.Error(), p.Path) {
			t.Errorf("problem %v is not ErrCorrupt naming its file", p)
		}
		named = append(named, p.Path)
	}
	slices.Sort(named)
	if want := []string{flipped, truncated}; !slices.Equal(named, want) {
		t.Fatalf("List problems name %v; want %v", named, want)
	}
	var read []string
	for _, info := range chunks {
		c, err := ReadChunk(info.Path)
		if err != nil {
			t.Fatalf("List accepted %s but ReadChunk fails: %v", info.Path, err)
		}
		read = append(read, c.Info.Path)
	}
	if !reflect.DeepEqual(read, []string{paths[0], paths[3]}) {
		t.Errorf("read %v, want %v", read, []string{paths[0], paths[3]})
	}
	for _, bad := range []string{flipped, truncated} {
		if _, err := ReadChunk(bad); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "SHA-256") {
			t.Errorf("ReadChunk(%s): %v; want the content hash mismatch", bad, err)
		}
	}
}

func TestRenamedChunkIsRefusedWithAClearMessage(t *testing.T) {
	dir := t.TempDir()
	path := writeChunk(t, dir, "w", synthGames(rand.New(rand.NewPCG(2, 2)), "g", 2))
	renamed := filepath.Join(dir, "mine.parquet")
	if err := os.Rename(path, renamed); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadChunk(renamed); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "renamed?") {
		t.Errorf("ReadChunk of a renamed chunk: %v; want an error about the name", err)
	}
}

func TestForeignParquetAndNewerVersionsAreRefused(t *testing.T) {
	dir := t.TempDir()
	path := writeChunk(t, dir, "w", synthGames(rand.New(rand.NewPCG(1, 1)), "g", 2))
	c, err := ReadChunk(path)
	if err != nil {
		t.Fatal(err)
	}
	info := c.Info
	info.Version = FormatVersion + 1
	var newer bytes.Buffer
	if err := writeRows(&newer, c.Rows, &info); err != nil {
		t.Fatal(err)
	}
	if _, err := decodeChunk(newer.Bytes(), "newer.parquet"); err == nil || !strings.Contains(err.Error(), "format version") {
		t.Errorf("reading a newer format version: %v; want an error naming the format version", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "text.parquet"), []byte("hello, this is not parquet at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadChunk(filepath.Join(dir, "text.parquet")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("reading a text file: %v; want ErrCorrupt", err)
	}
}

func TestUnknownTerminationTextIsRefusedNamingTheColumn(t *testing.T) {
	path := writeChunk(t, t.TempDir(), "w", synthGames(rand.New(rand.NewPCG(1, 1)), "g", 2))
	c, err := ReadChunk(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Rows {
		if c.Rows[i].GameID == c.Rows[0].GameID {
			c.Rows[i].Termination = "boredom"
		}
	}
	info := c.Info
	info.Checksum = checksumRows(c.Rows, info.Version)
	var buf bytes.Buffer
	if err := writeRows(&buf, c.Rows, &info); err != nil {
		t.Fatal(err)
	}
	_, err = decodeChunk(buf.Bytes(), "bad.parquet")
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), `column termination: termination "boredom"`) {
		t.Errorf("reading an unknown termination: %v; want a corrupt-chunk error naming the column and the text", err)
	}
}
