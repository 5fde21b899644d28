package datasets

import (
	"path/filepath"

	"bomberzero/internal/readfile"
)

// trainRow is the part of Row a Window keeps. Reading only these columns
// skips decoding move texts, piece counts and the game-level strings, the
// larger part of a chunk.
type trainRow struct {
	GameID      string    `parquet:"game_id,dict"`
	Variant     string    `parquet:"variant,dict"`
	GameLength  int32     `parquet:"game_length"`
	Ply         int32     `parquet:"ply"`
	Position    string    `parquet:"position"`
	Repetitions int8      `parquet:"repetitions"`
	ResultSTM   int8      `parquet:"result_stm"`
	Value       float32   `parquet:"value"`
	FullSearch  bool      `parquet:"full_search"`
	PolicyIndex []int32   `parquet:"policy_index,list"`
	Visits      []float32 `parquet:"visits,list"`
}

// readTrainRows reads the training columns of the chunk at path. Its
// integrity rests on the content hash in the name (checked first), the
// footer checks and the page CRCs; the row SHA-256 needs every column and
// is left to ReadChunk. The rows are checked for what the window relies on.
func readTrainRows(path string) (info ChunkInfo, rows []trainRow, err error) {
	data, err := readfile.Regular(path, MaxChunkBytes)
	if err != nil {
		return info, nil, &ChunkError{Path: path, Err: err}
	}
	if err := checkNameHash(data, path); err != nil {
		return info, nil, err
	}
	return readTrainRowsBytes(data, path)
}

// readTrainRowsBytes is readTrainRows on the bytes of the file at path,
// after the name check.
func readTrainRowsBytes(data []byte, path string) (info ChunkInfo, rows []trainRow, err error) {
	info, pf, err := openChunk(data, path, true)
	if err != nil {
		return info, nil, err
	}
	corrupt := func(format string, args ...any) error { return corruptChunk(path, format, args...) }
	defer func() { // the checks below run on rows a damaged file produced
		if p := recover(); p != nil {
			rows, err = nil, corrupt("decoding rows: %v", p)
		}
	}()
	if rows, err = decodeRows[trainRow](pf, info.Positions, path); err != nil {
		return info, nil, err
	}
	full := 0
	for i := range rows {
		t := &rows[i]
		if t.FullSearch {
			full++
		}
		if len(t.PolicyIndex) != len(t.Visits) || t.ResultSTM < -1 || t.ResultSTM > 1 || (t.FullSearch && len(t.Visits) == 0) {
			return info, nil, corrupt("row %d (ply %d): %d policy indices, %d visit fractions, result_stm %d",
				i, t.Ply, len(t.PolicyIndex), len(t.Visits), t.ResultSTM)
		}
		if t.Ply < 0 || t.GameLength <= t.Ply {
			return info, nil, corrupt("row %d: ply %d of a game of length %d", i, t.Ply, t.GameLength)
		}
	}
	if full != info.FullPositions {
		return info, nil, corrupt("%d full-search rows, metadata says %d", full, info.FullPositions)
	}
	info.Name = filepath.Base(path)
	return info, rows, nil
}
