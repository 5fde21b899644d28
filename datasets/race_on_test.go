//go:build race

package datasets

// raceEnabled is true in -race builds, whose checkptr instrumentation turns
// a panic that parquet-go raises on some damaged pages (unsafe.Slice of a
// nil pointer), normally recovered as a ChunkError, into a fatal error.
const raceEnabled = true
