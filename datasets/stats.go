package datasets

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"bomberzero/env"
	"bomberzero/stats"
)

// Stats summarizes a directory of chunks: the figures "bomberzero data
// stats" prints. Build it with Summarize, or add chunks one by one with Add.
type Stats struct {
	Chunks        int      `json:"chunks"`         // chunks read
	Skipped       int      `json:"skipped"`        // chunks skipped as unusable
	Problems      []string `json:"problems"`       // why each skipped chunk was skipped
	Positions     int      `json:"positions"`      // rows
	FullPositions int      `json:"full_positions"` // rows from full searches
	Games         int      `json:"games"`
	WhiteWins     int      `json:"white_wins"`
	Draws         int      `json:"draws"`
	BlackWins     int      `json:"black_wins"`
	// AverageLength is the mean game length in plies (0 without games).
	AverageLength float64 `json:"average_length"`
	Resignations  int     `json:"resignations"`
	// LengthCapDraws counts games drawn by reaching the maximum game length.
	LengthCapDraws int            `json:"length_cap_draws"`
	Terminations   map[string]int `json:"terminations"` // games per way of ending
	Variants       map[string]int `json:"variants"`     // games per variant
	// ResignDisabled counts games played with resignation off;
	// FalseResignMeasured those among them where a side fell under the
	// threshold, and FalseResignations those where that side did not lose.
	ResignDisabled      int `json:"resign_disabled"`
	FalseResignMeasured int `json:"false_resign_measured"`
	FalseResignations   int `json:"false_resignations"`
	// FalseResignRate is FalseResignations/FalseResignMeasured, or nil when
	// nothing was measured.
	FalseResignRate *float64 `json:"false_resign_rate"`
	// DuplicateGames counts game IDs met again in a later chunk (a game is
	// never split across chunks, so these are games written twice).
	DuplicateGames int `json:"duplicate_games"`
	// IdenticalGames counts games whose every row but the game ID is that
	// of an earlier game: the same game written under another ID (two
	// self-play runs with one seed), or, rarely, two short games that went
	// the same way.
	IdenticalGames int `json:"identical_games"`

	plies   int64
	seen    map[string]bool
	digests map[string]bool
}

// Add counts chunk c's games and positions into s.
func (s *Stats) Add(c *Chunk) {
	if s.seen == nil {
		s.seen = make(map[string]bool)
		s.digests = make(map[string]bool)
		s.Terminations = make(map[string]int)
		s.Variants = make(map[string]int)
	}
	s.Chunks++
	s.Positions += len(c.Rows)
	var white stats.WDL // White's results in c
	for i := range c.Rows {
		r := &c.Rows[i]
		if r.FullSearch {
			s.FullPositions++
		}
		if i > 0 && c.Rows[i-1].GameID == r.GameID {
			continue
		}
		if s.seen[r.GameID] {
			s.DuplicateGames++
		}
		s.seen[r.GameID] = true
		if d := gameDigest(c.Rows[i:], c.Info.Version); s.digests[d] {
			s.IdenticalGames++
		} else {
			s.digests[d] = true
		}
		s.Games++
		s.plies += int64(r.GameLength)
		white.Count(int(r.ResultWhite))
		t, err := env.ParseTermination(r.Termination)
		if err == nil {
			s.Terminations[t.String()]++
		} else {
			s.Terminations[r.Termination]++
		}
		s.Variants[r.Variant]++
		switch t {
		case env.Resignation:
			s.Resignations++
		case env.LengthCap:
			s.LengthCapDraws++
		}
		if r.ResignDisabled {
			s.ResignDisabled++
			if r.WouldResign != "" {
				s.FalseResignMeasured++
				if r.FalseResign {
					s.FalseResignations++
				}
			}
		}
	}
	s.WhiteWins += white.Wins
	s.Draws += white.Draws
	s.BlackWins += white.Losses
	s.finish()
}

// Skip records an unusable chunk.
func (s *Stats) Skip(err error) {
	s.Skipped++
	s.Problems = append(s.Problems, err.Error())
}

// finish updates the derived figures.
func (s *Stats) finish() {
	s.AverageLength = 0
	if s.Games > 0 {
		s.AverageLength = float64(s.plies) / float64(s.Games)
	}
	s.FalseResignRate = nil
	if s.FalseResignMeasured > 0 {
		r := float64(s.FalseResignations) / float64(s.FalseResignMeasured)
		s.FalseResignRate = &r
	}
}

// Summarize reads every chunk of dir once, in name order, skipping (and
// listing in Problems) the unusable ones. progress, if not nil, is called
// after each chunk with the number done and the total.
func Summarize(dir string, progress func(done, total int)) (*Stats, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("listing chunks: %w", err)
	}
	var paths []string
	for _, e := range entries {
		if !e.IsDir() && IsChunkName(e.Name()) {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	s := &Stats{Problems: []string{}, Terminations: map[string]int{}, Variants: map[string]int{}}
	bySum := map[string]string{}  // chunk names by row checksum
	gameIn := map[string]string{} // chunk names by game ID
	for i, path := range paths {
		c, err := ReadChunk(path)
		if err == nil {
			err = duplicateOf(c, bySum, gameIn)
		}
		if err != nil {
			s.Skip(err)
		} else {
			s.Add(c)
		}
		if progress != nil {
			progress(i+1, len(paths))
		}
	}
	s.finish()
	return s, nil
}

// duplicateOf returns a ChunkError wrapping ErrDuplicate when c's rows, or
// one of its games, were met in an earlier chunk (recorded in bySum and
// gameIn), else records c's identity and games there and returns nil.
func duplicateOf(c *Chunk, bySum, gameIn map[string]string) error {
	if first, ok := bySum[c.Info.Checksum]; ok {
		return &ChunkError{Path: c.Info.Path, Err: fmt.Errorf("%w: its rows are those of %s (SHA-256 %s)", ErrDuplicate, first, c.Info.Checksum)}
	}
	games := Games(c.Rows)
	for _, g := range games {
		if first, ok := gameIn[g.ID]; ok {
			return &ChunkError{Path: c.Info.Path, Err: fmt.Errorf("%w: game %s is also in %s", ErrDuplicate, g.ID, first)}
		}
	}
	bySum[c.Info.Checksum] = c.Info.Name
	for _, g := range games {
		gameIn[g.ID] = c.Info.Name
	}
	return nil
}

// gameDigest returns the identity of the game whose rows start rows (a
// chunk of format version): the hash of its rows without the game ID.
func gameDigest(rows []Row, version int) string {
	rh := newRowHasher(version)
	for i := range rows {
		if rows[i].GameID != rows[0].GameID {
			break
		}
		r := rows[i]
		r.GameID = ""
		rh.add(&r)
	}
	return rh.sum()
}

// WriteText prints s for a person, one figure a line.
func (s *Stats) WriteText(w io.Writer) error {
	var b strings.Builder
	pct := func(n, of int) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
	}
	fmt.Fprintf(&b, "chunks             %d read, %d skipped\n", s.Chunks, s.Skipped)
	fmt.Fprintf(&b, "positions          %d (%d full search)\n", s.Positions, s.FullPositions)
	fmt.Fprintf(&b, "games              %d\n", s.Games)
	fmt.Fprintf(&b, "white/draw/black   %d / %d / %d  (%s / %s / %s, White's view)\n", s.WhiteWins, s.Draws, s.BlackWins,
		pct(s.WhiteWins, s.Games), pct(s.Draws, s.Games), pct(s.BlackWins, s.Games))
	fmt.Fprintf(&b, "average length     %.1f plies\n", s.AverageLength)
	fmt.Fprintf(&b, "resignations       %d (%s)\n", s.Resignations, pct(s.Resignations, s.Games))
	fmt.Fprintf(&b, "length-cap draws   %d (%s)\n", s.LengthCapDraws, pct(s.LengthCapDraws, s.Games))
	if s.FalseResignRate != nil {
		fmt.Fprintf(&b, "false resignations %d of %d measured (%.1f%%) in %d resign-disabled games\n",
			s.FalseResignations, s.FalseResignMeasured, 100**s.FalseResignRate, s.ResignDisabled)
	} else {
		fmt.Fprintf(&b, "false resignations not measurable (%d resign-disabled games, none fell under the threshold)\n", s.ResignDisabled)
	}
	fmt.Fprintf(&b, "endings            %s\n", countList(s.Terminations))
	fmt.Fprintf(&b, "variants           %s\n", countList(s.Variants))
	if s.DuplicateGames > 0 {
		fmt.Fprintf(&b, "duplicate games    %d (game IDs written in more than one chunk)\n", s.DuplicateGames)
	}
	if s.IdenticalGames > 0 {
		fmt.Fprintf(&b, "identical games    %d (the same moves and searches as an earlier game under another ID)\n", s.IdenticalGames)
	}
	for _, p := range s.Problems {
		fmt.Fprintf(&b, "skipped: %s\n", p)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// countList formats counts as "a 3, b 1", largest first, then by name.
func countList(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
