// Package datasets stores self-play training data on disk and reads it back.
//
// One record per searched position, written as Parquet so that pandas,
// polars and DuckDB open the files directly (docs/datasets.md documents
// every column). Self-play workers append finished games to a ChunkWriter;
// every Flush writes the buffered games as one new chunk file, atomically
// (temporary file, fsync, rename, fsync of the directory), so a chunk is
// either complete or invisible and a game is never split across chunks.
// Each chunk carries the format version and a SHA-256 over its rows in the
// Parquet key-value metadata, and Parquet page CRCs on every page.
//
// Readers list a directory of chunks (List), read and verify one chunk
// (ReadChunk), and skip a corrupt or truncated chunk with a ChunkError that
// names the file and the fault. A Window holds the newest N positions of a
// directory compactly in memory and draws uniform training batches from
// them; Summarize computes the figures "bomberzero data stats" prints.
package datasets
