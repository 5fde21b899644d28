package datasets

import "bomberzero/env"

// Row is one record of a chunk file: one searched position with its game's
// facts repeated. Its field tags are the Parquet schema; docs/datasets.md
// describes every column. The encoded input planes are not stored: the
// trainer re-encodes them from Position.
type Row struct {
	GameID         string `parquet:"game_id,dict"`
	Variant        string `parquet:"variant,dict"`
	Model          string `parquet:"model,dict"`
	Generation     int32  `parquet:"generation"`
	GameLength     int32  `parquet:"game_length"`
	Termination    string `parquet:"termination,dict"`
	ResultWhite    int8   `parquet:"result_white"`
	ResignDisabled bool   `parquet:"resign_disabled"`
	WouldResign    string `parquet:"would_resign,dict"`
	FalseResign    bool   `parquet:"false_resign"`

	Ply         int32  `parquet:"ply"`
	Position    string `parquet:"position"`
	WhiteToMove bool   `parquet:"white_to_move"`
	// Repetitions is the position's repetition count as the encoder sees
	// it (format version 2; 0 when read from a version 1 chunk).
	Repetitions int8      `parquet:"repetitions"`
	ResultSTM   int8      `parquet:"result_stm"`
	Value       float32   `parquet:"value"`
	FullSearch  bool      `parquet:"full_search"`
	Played      string    `parquet:"played"`
	PolicyIndex []int32   `parquet:"policy_index,list"`
	MoveText    []string  `parquet:"move_text,list"`
	Visits      []float32 `parquet:"visits,list"`
	PieceTypes  []string  `parquet:"piece_types,list"`
	WhitePieces []int32   `parquet:"white_pieces,list"`
	BlackPieces []int32   `parquet:"black_pieces,list"`
}

// appendRows appends g's positions to rows as Rows; g must be valid.
func appendRows(rows []Row, g *GameRecord) []Row {
	falseResign, _ := g.FalseResignation()
	for i := range g.Positions {
		p := &g.Positions[i]
		r := Row{
			GameID:         g.ID,
			Variant:        g.Variant,
			Model:          g.Model,
			Generation:     int32(g.Generation),
			GameLength:     int32(g.Length),
			Termination:    g.Termination.String(),
			ResultWhite:    int8(g.Result),
			ResignDisabled: g.ResignDisabled,
			WouldResign:    g.WouldResign,
			FalseResign:    falseResign,
			Ply:            int32(p.Ply),
			Position:       p.Position,
			WhiteToMove:    p.WhiteToMove,
			Repetitions:    int8(p.Repetitions),
			ResultSTM:      int8(g.Result),
			Value:          p.Value,
			FullSearch:     p.FullSearch,
			Played:         p.Played,
			PolicyIndex:    p.PolicyIndex,
			MoveText:       p.MoveText,
			Visits:         p.Visits,
			PieceTypes:     make([]string, len(p.Pieces)),
			WhitePieces:    make([]int32, len(p.Pieces)),
			BlackPieces:    make([]int32, len(p.Pieces)),
		}
		if !p.WhiteToMove {
			r.ResultSTM = -r.ResultSTM
		}
		for j, c := range p.Pieces {
			r.PieceTypes[j], r.WhitePieces[j], r.BlackPieces[j] = c.Piece, c.White, c.Black
		}
		rows = append(rows, r)
	}
	return rows
}

// Games regroups rows (as read from one chunk, where a game's rows are
// contiguous) into game records. A termination text that does not parse
// (ReadChunk refuses such a chunk) becomes env.NotOver, which Validate
// refuses.
func Games(rows []Row) []GameRecord {
	var games []GameRecord
	for i := 0; i < len(rows); {
		r := &rows[i]
		termination, _ := env.ParseTermination(r.Termination)
		g := GameRecord{
			ID:             r.GameID,
			Variant:        r.Variant,
			Model:          r.Model,
			Generation:     int(r.Generation),
			Result:         int(r.ResultWhite),
			Termination:    termination,
			Length:         int(r.GameLength),
			ResignDisabled: r.ResignDisabled,
			WouldResign:    r.WouldResign,
		}
		for ; i < len(rows) && rows[i].GameID == g.ID; i++ {
			p := &rows[i]
			pr := PositionRecord{
				Ply:         int(p.Ply),
				Position:    p.Position,
				WhiteToMove: p.WhiteToMove,
				Repetitions: int(p.Repetitions),
				PolicyIndex: nilIfEmpty(p.PolicyIndex),
				MoveText:    nilIfEmpty(p.MoveText),
				Visits:      nilIfEmpty(p.Visits),
				Value:       p.Value,
				FullSearch:  p.FullSearch,
				Played:      p.Played,
			}
			if len(p.PieceTypes) > 0 {
				pr.Pieces = make([]PieceCount, len(p.PieceTypes))
				for j := range p.PieceTypes {
					pr.Pieces[j] = PieceCount{Piece: p.PieceTypes[j], White: p.WhitePieces[j], Black: p.BlackPieces[j]}
				}
			}
			g.Positions = append(g.Positions, pr)
		}
		games = append(games, g)
	}
	return games
}

// nilIfEmpty returns nil for an empty slice, so records read back compare
// equal to records built by appending.
func nilIfEmpty[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return s
}
