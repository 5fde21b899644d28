package datasets

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadChunk feeds arbitrary bytes, under a chunk's name, to the chunk
// reader: it must never panic or run out of memory, every failure must be a
// ChunkError naming the file, and whatever it accepts must hold valid games
// whose rows match the stored checksum. (The Parquet decoder behind the
// name's content hash trusts the lengths in a file; see docs/datasets.md.)
func FuzzReadChunk(f *testing.F) {
	dir := f.TempDir()
	path := writeChunk(f, dir, "fuzz", synthGames(rand.New(rand.NewPCG(1, 1)), "g", 3))
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(good[len(good)/2:])
	f.Add([]byte{})
	f.Add([]byte("PAR1"))
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := readChunkBytes(data, path)
		if err != nil {
			var ce *ChunkError
			if !errors.As(err, &ce) || ce.Path != path {
				t.Fatalf("error %v is not a ChunkError naming the file", err)
			}
			return
		}
		if checksumRows(c.Rows, c.Info.Version) != c.Info.Checksum {
			t.Fatal("accepted rows that do not match the checksum")
		}
		for _, g := range Games(c.Rows) {
			if err := g.Validate(); err != nil {
				t.Fatalf("accepted an invalid game: %v", err)
			}
		}
	})
}

// FuzzDecodeChunk feeds arbitrary bytes to the decoder behind the name
// hash, as a forged file with a matching name would reach it: the Thrift
// and page guards must keep the Parquet decoder from panicking past
// recover or exhausting memory, and whatever is accepted must be exactly
// consistent with its checksum.
func FuzzDecodeChunk(f *testing.F) {
	dir := f.TempDir()
	path := writeChunk(f, dir, "fuzz", synthGames(rand.New(rand.NewPCG(2, 2)), "g", 3))
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)-1])
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"))
	golden, err := filepath.Glob(filepath.Join("testdata", "v*", "*.parquet")) // every format version
	if err != nil {
		f.Fatal(err)
	}
	for _, g := range golden {
		data, err := os.ReadFile(g)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeChunk(data, "fuzz.parquet")
		if err != nil {
			var ce *ChunkError
			if !errors.As(err, &ce) || ce.Path != "fuzz.parquet" {
				t.Fatalf("error %v is not a ChunkError naming the file", err)
			}
			return
		}
		if checksumRows(c.Rows, c.Info.Version) != c.Info.Checksum {
			t.Fatal("accepted rows that do not match the checksum")
		}
		if _, _, err := readTrainRowsBytes(data, "fuzz.parquet"); err != nil {
			t.Fatalf("the full read accepts the file, the window's read refuses it: %v", err)
		}
	})
}
