package datasets

import (
	"fmt"
	"strconv"
	"time"
)

// FormatVersion is the version of the chunk layout this package writes and
// the newest it reads. It changes when a column changes meaning or a
// reader of the old layout would misread the new one. Version 2 added the
// repetitions column; version 1 chunks still read, with it 0.
const FormatVersion = 2

// addedColumns names the columns added after version 1, with the version
// that added each: a chunk of an older version lacks them and reads them
// as zero.
var addedColumns = map[string]int{"repetitions": 2}

// The Parquet key-value metadata keys of a chunk.
const (
	keyFormat        = "bomberzero.format"  // always formatName
	keyVersion       = "bomberzero.version" // FormatVersion of the writer
	keyChecksum      = "bomberzero.sha256"  // hex SHA-256 over the rows (see rowHasher)
	keyWriter        = "bomberzero.writer"  // ChunkMeta.Writer
	keySequence      = "bomberzero.sequence"
	keyCreated       = "bomberzero.created" // RFC 3339 with nanoseconds, UTC
	keyPositions     = "bomberzero.positions"
	keyFullPositions = "bomberzero.full_positions"
	keyGames         = "bomberzero.games"
	formatName       = "bomberzero-selfplay-positions"
)

// ChunkInfo describes one chunk file from its footer alone (no row data is
// read): what the trainer needs to order chunks and count new positions.
type ChunkInfo struct {
	Path          string    // the file's path
	Name          string    // the file's base name
	Size          int64     // bytes
	Version       int       // format version that wrote it
	Writer        string    // the writer's identity (ChunkMeta.Writer)
	Sequence      int64     // the chunk's number among its writer's chunks, from 0
	Created       time.Time // when the chunk was written; chunks are ordered by it, then by Name
	Positions     int       // rows
	FullPositions int       // rows from full searches (the ones trained on)
	Games         int       // games
	Checksum      string    // hex SHA-256 over the rows
}

// Before reports whether c comes before d in chunk order: oldest first,
// ties broken by name.
func (c *ChunkInfo) Before(d *ChunkInfo) bool {
	if !c.Created.Equal(d.Created) {
		return c.Created.Before(d.Created)
	}
	return c.Name < d.Name
}

// metadata returns c's key-value metadata pairs for the Parquet footer.
func (c *ChunkInfo) metadata() [][2]string {
	return [][2]string{
		{keyFormat, formatName},
		{keyVersion, strconv.Itoa(c.Version)},
		{keyChecksum, c.Checksum},
		{keyWriter, c.Writer},
		{keySequence, strconv.FormatInt(c.Sequence, 10)},
		{keyCreated, c.Created.UTC().Format(time.RFC3339Nano)},
		{keyPositions, strconv.Itoa(c.Positions)},
		{keyFullPositions, strconv.Itoa(c.FullPositions)},
		{keyGames, strconv.Itoa(c.Games)},
	}
}

// parseMetadata fills c from a footer's key-value metadata, looked up with
// lookup, naming the first missing or malformed key.
func (c *ChunkInfo) parseMetadata(lookup func(string) (string, bool)) error {
	get := func(key string) (string, error) {
		v, ok := lookup(key)
		if !ok {
			return "", fmt.Errorf("metadata key %q missing", key)
		}
		return v, nil
	}
	format, err := get(keyFormat)
	if err != nil {
		return fmt.Errorf("not a bomberzero chunk: %w", err)
	}
	if format != formatName {
		return fmt.Errorf("metadata %s = %q, want %q", keyFormat, format, formatName)
	}
	ints := []struct {
		key string
		dst *int
	}{{keyVersion, &c.Version}, {keyPositions, &c.Positions}, {keyFullPositions, &c.FullPositions}, {keyGames, &c.Games}}
	for _, f := range ints {
		s, err := get(f.key)
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("metadata %s = %q, want a non-negative integer", f.key, s)
		}
		*f.dst = n
	}
	if c.Version > FormatVersion || c.Version < 1 {
		return fmt.Errorf("format version %d, this build reads versions 1 to %d", c.Version, FormatVersion)
	}
	if c.FullPositions > c.Positions || c.Games > c.Positions {
		return fmt.Errorf("metadata counts inconsistent: %d positions, %d full, %d games", c.Positions, c.FullPositions, c.Games)
	}
	s, err := get(keySequence)
	if err != nil {
		return err
	}
	if c.Sequence, err = strconv.ParseInt(s, 10, 64); err != nil || c.Sequence < 0 {
		return fmt.Errorf("metadata %s = %q, want a non-negative integer", keySequence, s)
	}
	if s, err = get(keyCreated); err != nil {
		return err
	}
	if c.Created, err = time.Parse(time.RFC3339Nano, s); err != nil {
		return fmt.Errorf("metadata %s = %q, want an RFC 3339 time", keyCreated, s)
	}
	if c.Writer, err = get(keyWriter); err != nil {
		return err
	}
	if c.Checksum, err = get(keyChecksum); err != nil {
		return err
	}
	if len(c.Checksum) != 64 {
		return fmt.Errorf("metadata %s = %q, want 64 hex digits", keyChecksum, c.Checksum)
	}
	return nil
}
