package web

import (
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"bomberzero/datasets/record"
	"bomberzero/env"
	"bomberzero/internal/atomicfile"
	"bomberzero/metrics"
	"bomberzero/setup"
)

// File size and count limits of what the server reads.
const (
	maxListed     = 500      // entries a listing returns
	maxRecordSize = 1 << 20  // bytes of one game record
	maxConfigSize = 1 << 20  // bytes of a config.toml
	maxMetrics    = 64 << 20 // bytes of a metrics.jsonl
)

// readLimited reads file rel of root, refusing one over limit bytes.
func readLimited(root *os.Root, rel string, limit int64) ([]byte, error) {
	f, err := root.Open(rel)
	if err != nil {
		return nil, fail(http.StatusNotFound, "%s: not found", rel)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fail(http.StatusInternalServerError, "%s: %v", rel, err)
	}
	if int64(len(b)) > limit {
		return nil, fail(http.StatusRequestEntityTooLarge, "%s: over %d bytes", rel, limit)
	}
	return b, nil
}

// RunInfo is one training run of --runs.
type RunInfo struct {
	Name        string `json:"name"`
	Generations int    `json:"generations"` // metrics records
	Updated     string `json:"updated"`     // when metrics.jsonl last changed, RFC 3339
	// Games counts the run's games: those its metrics record (self-play
	// and the teacher's), or the game records in games/ and data/records
	// (the generation in progress) when those are more. Records counts
	// the records in games/, the ones the games browser lists.
	Games   int `json:"games"`
	Records int `json:"records"`
}

func (s *Server) listRuns() ([]RunInfo, error) {
	root, err := openRoot(s.cfg.Runs, "--runs")
	if err != nil {
		return nil, err
	}
	defer root.Close()
	es, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return nil, fail(http.StatusInternalServerError, "--runs: %v", err)
	}
	out := []RunInfo{}
	for _, name := range sortedNames(es) {
		st, err1 := fs.Stat(root.FS(), name+"/metrics.jsonl")
		_, err2 := fs.Stat(root.FS(), name+"/config.toml")
		if err1 != nil && err2 != nil {
			continue
		}
		ri := RunInfo{Name: name}
		if err1 == nil {
			ri.Updated = st.ModTime().UTC().Format("2006-01-02T15:04:05Z")
			if b, err := readLimited(root, name+"/metrics.jsonl", maxMetrics); err == nil {
				ri.Generations = strings.Count(string(b), "\n")
				recs, _, _ := metrics.Decode(strings.NewReader(string(b)), name+"/metrics.jsonl")
				for _, r := range recs {
					if r.SelfPlay != nil {
						ri.Games += r.SelfPlay.Games
					}
				}
			}
		}
		games, _ := fs.Glob(root.FS(), name+"/games/*.txt")
		pending, _ := fs.Glob(root.FS(), name+"/data/records/*.txt")
		ri.Records = len(games)
		ri.Games = max(ri.Games, len(games)+len(pending))
		out = append(out, ri)
		if len(out) >= maxListed {
			break
		}
	}
	return out, nil
}

// runName checks a run's name from a request: one folder name of --runs.
func runName(r *http.Request) (string, error) {
	name := r.PathValue("run")
	if err := localPath(name); err != nil || strings.Contains(name, "/") {
		return "", fail(http.StatusBadRequest, "run %q: want the name of a folder of --runs", name)
	}
	return name, nil
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	name, err := runName(r)
	if err != nil {
		reply(w, nil, err)
		return
	}
	root, err := openRoot(s.cfg.Runs, "--runs")
	if err != nil {
		reply(w, nil, err)
		return
	}
	defer root.Close()
	// A run in its teacher phase has written no metrics.jsonl yet: its
	// config.toml is enough.
	var b []byte
	if _, serr := fs.Stat(root.FS(), name+"/metrics.jsonl"); serr == nil {
		if b, err = readLimited(root, name+"/metrics.jsonl", maxMetrics); err != nil {
			reply(w, nil, err)
			return
		}
	} else if _, cerr := fs.Stat(root.FS(), name+"/config.toml"); cerr != nil {
		reply(w, nil, fail(http.StatusNotFound, "%s/metrics.jsonl: not found", name))
		return
	}
	recs, torn, err := metrics.Decode(strings.NewReader(string(b)), name+"/metrics.jsonl")
	if err != nil {
		reply(w, nil, fail(http.StatusUnprocessableEntity, "%v", err))
		return
	}
	if recs == nil {
		recs = []metrics.Record{}
	}
	out := map[string]any{"run": name, "records": recs, "torn": torn}
	if tp := teacherProgress(root, name, recs); tp != nil {
		out["teacher"] = tp
	}
	writeJSON(w, http.StatusOK, out)
}

// TeacherProgress is a run's progress while its search teacher plays (the
// generation after metrics.jsonl's last is one the run's config.toml gives
// the teacher: generation 0, and the later ones of teacher.rounds, or 1
// when teacher.first_games splits its games in two rounds): the games of
// this round written so far, counted by their records in data/records (the
// trainer writes each game's record as the game ends, before the chunk
// holding it, and moves the generation's records out when it ends), of the
// round's share of teacher.games, and the run's data chunks so far.
type TeacherProgress struct {
	Games      int    `json:"games"`
	Total      int    `json:"total"`  // this round's games
	Chunks     int    `json:"chunks"` // the run's, every round's
	Player     string `json:"player"` // the config's teacher.player ("alphabeta" or "engine")
	Generation int    `json:"generation"`
	Round      int    `json:"round"` // from 1
	Rounds     int    `json:"rounds"`
}

// teacherProgress reads run name's teacher progress; nil when the run is
// not in its teacher phase or its config does not read.
func teacherProgress(root *os.Root, name string, recs []metrics.Record) *TeacherProgress {
	next := 0 // the generation being played: the one after the last recorded
	for _, r := range recs {
		next = max(next, r.Generation+1)
	}
	b, err := readLimited(root, name+"/config.toml", maxConfigSize)
	if err != nil {
		return nil
	}
	var cfg struct{ Teacher setup.TeacherConfig }
	if _, err := toml.Decode(string(b), &cfg); err != nil {
		return nil
	}
	// The trainer's own rule says which generations the teacher plays
	// (two with teacher.first_games, teacher.rounds when set) and how
	// many games each: none in a generation it does not play.
	total := cfg.Teacher.GamesIn(next)
	if total <= 0 {
		return nil
	}
	player := cfg.Teacher.Player
	if player == "" {
		player = "alphabeta"
	}
	records, _ := fs.Glob(root.FS(), name+"/data/records/*.txt")
	chunks, _ := fs.Glob(root.FS(), name+"/data/*.parquet")
	return &TeacherProgress{Games: len(records), Total: total, Chunks: len(chunks), Player: player,
		Generation: next, Round: next + 1, Rounds: cfg.Teacher.Rounds()}
}

func (s *Server) handleConfig(w http.ResponseWriter, r *http.Request) {
	name, err := runName(r)
	if err != nil {
		reply(w, nil, err)
		return
	}
	root, err := openRoot(s.cfg.Runs, "--runs")
	if err != nil {
		reply(w, nil, err)
		return
	}
	defer root.Close()
	b, err := readLimited(root, name+"/config.toml", maxConfigSize)
	reply(w, map[string]any{"run": name, "config": string(b)}, err)
}

// GameInfo is one game record the server can show.
type GameInfo struct {
	ID   string            `json:"id"` // saved/FILE or runs/RUN/games/FILE
	Tags map[string]string `json:"tags"`
}

// gameFiles lists the record ids: saved games first, then each run's.
func (s *Server) gameFiles() []string {
	var ids []string
	if root, err := openRoot(s.cfg.Games, "--games-dir"); err == nil {
		names, _ := fs.Glob(root.FS(), "*.txt")
		pgns, _ := fs.Glob(root.FS(), "*.pgn") // imported games, their variations kept
		names = append(names, pgns...)
		sort.Sort(sort.Reverse(sort.StringSlice(names)))
		for _, n := range names {
			ids = append(ids, "saved/"+n)
		}
		root.Close()
	}
	if root, err := openRoot(s.cfg.Runs, "--runs"); err == nil {
		names, _ := fs.Glob(root.FS(), "*/games/*.txt")
		sort.Sort(sort.Reverse(sort.StringSlice(names)))
		for _, n := range names {
			ids = append(ids, "runs/"+n)
		}
		root.Close()
	}
	return ids
}

// openGame resolves a record id to its folder and path inside it.
func (s *Server) openGame(id string) (*os.Root, string, error) {
	kind, rel, _ := strings.Cut(id, "/")
	if err := localPath(rel); err != nil {
		return nil, "", err
	}
	if !strings.HasSuffix(rel, ".txt") && !(kind == "saved" && strings.HasSuffix(rel, ".pgn")) {
		return nil, "", fail(http.StatusBadRequest, "game %q: records end in .txt (a saved import in .pgn)", id)
	}
	switch kind {
	case "saved":
		root, err := openRoot(s.cfg.Games, "--games-dir")
		return root, rel, err
	case "runs":
		root, err := openRoot(s.cfg.Runs, "--runs")
		return root, rel, err
	}
	return nil, "", fail(http.StatusBadRequest, "game %q: want saved/FILE or runs/RUN/games/FILE", id)
}

func (s *Server) readGame(id string) (record.Game, string, error) {
	root, rel, err := s.openGame(id)
	if err != nil {
		return record.Game{}, "", err
	}
	defer root.Close()
	b, err := readLimited(root, rel, maxRecordSize)
	if err != nil {
		return record.Game{}, "", err
	}
	if strings.HasSuffix(rel, ".pgn") {
		// An import, saved as one game in the canonical PGN it declares.
		games, err := record.ParsePGN(string(b), "chess")
		if err != nil {
			return record.Game{}, "", fail(http.StatusUnprocessableEntity, "%s: %v", id, err)
		}
		if len(games) != 1 {
			return record.Game{}, "", fail(http.StatusUnprocessableEntity, "%s: %d games: want one", id, len(games))
		}
		if games[0].Get("Variant") == "" { // PGN's default
			games[0].Set("Variant", "chess")
		}
		return games[0], string(b), nil
	}
	g, err := record.Parse(string(b))
	if err != nil {
		return g, "", fail(http.StatusUnprocessableEntity, "%s: %v", id, err)
	}
	return g, string(b), nil
}

func (s *Server) handleGames(w http.ResponseWriter, r *http.Request) {
	ids := s.gameFiles()
	total := len(ids)
	if len(ids) > maxListed {
		ids = ids[:maxListed]
	}
	out := []GameInfo{}
	for _, id := range ids {
		g, _, err := s.readGame(id)
		if err != nil {
			continue
		}
		tags := map[string]string{}
		for _, t := range g.Tags {
			tags[t.Name] = t.Value
		}
		out = append(out, GameInfo{id, tags})
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": out, "total": total})
}

func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	g, text, err := s.readGame(id)
	if err != nil {
		reply(w, nil, err)
		return
	}
	tags := map[string]string{}
	for _, t := range g.Tags {
		tags[t.Name] = t.Value
	}
	variant := g.Get("Variant")
	if variant == "" {
		variant = "fbgc"
	}
	vars := g.Variations
	if vars == nil {
		vars = []record.Variation{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "tags": tags, "variant": variant, "start": g.Get("FEN"), "moves": nonNil(g.Moves), "variations": vars, "text": text})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// handlePGNExport answers a record as a PGN file (record.Game.PGNWith, in
// the dialect of pgnOptions).
func (s *Server) handlePGNExport(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	g, _, err := s.readGame(id)
	if err != nil {
		reply(w, nil, err)
		return
	}
	if g.Get("Variant") == "" {
		g.Set("Variant", "fbgc")
	}
	v, err := env.LoadVariant(g.Get("Variant"))
	if err != nil {
		reply(w, nil, fail(http.StatusUnprocessableEntity, "%s: Variant: %v", id, err))
		return
	}
	o, err := s.pgnOptions(v)
	if err != nil {
		reply(w, nil, err)
		return
	}
	text, err := g.PGNWith("fbgc", o)
	if err != nil {
		reply(w, nil, fail(http.StatusUnprocessableEntity, "%s: %v", id, err))
		return
	}
	name := strings.TrimSuffix(strings.TrimSuffix(path.Base(id), ".txt"), ".pgn") + ".pgn"
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = io.WriteString(w, text)
}

// pgnReq is a game (the main line) and its variations.
type pgnReq struct {
	gameReq
	Variations []record.Variation `json:"variations"`
}

// handlePGN answers a game played or analysed in the page as PGN, its
// variations as the standard's recursive variations (record.Game.PGNWith,
// in the dialect of pgnOptions). The
// variations' moves count against MaxMoves with the main line's.
func (s *Server) handlePGN(w http.ResponseWriter, r *http.Request) {
	var q pgnReq
	if err := decode(r, &q); err != nil {
		reply(w, nil, err)
		return
	}
	if n := len(q.Moves) + countMoves(q.Variations); n > s.cfg.MaxMoves {
		reply(w, nil, fail(http.StatusRequestEntityTooLarge, "%d moves with the variations': at most %d", n, s.cfg.MaxMoves))
		return
	}
	g, err := s.game(q.gameReq)
	if err != nil {
		reply(w, nil, err)
		return
	}
	res, why := g.outcome()
	rec := g.record(res, why)
	rec.Variations = q.Variations
	o, err := s.pgnOptions(g.start.Variant())
	if err != nil {
		reply(w, nil, err)
		return
	}
	text, err := rec.PGNWith("fbgc", o)
	if err != nil {
		reply(w, nil, fail(http.StatusUnprocessableEntity, "%v", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"pgn": text})
}

// countMoves is the number of moves of vars and their variations.
func countMoves(vars []record.Variation) int {
	n := 0
	for _, v := range vars {
		n += len(v.Moves) + countMoves(v.Variations)
	}
	return n
}

// pgnOptions is the PGN dialect of v's exports: Config.PGN's, or the
// canonical syntax with Config.PieceDefs's [VariantMen].
func (s *Server) pgnOptions(v *env.Variant) (record.PGNOptions, error) {
	var o record.PGNOptions
	var err error
	switch {
	case s.cfg.PGN != nil:
		o, err = s.cfg.PGN(v)
	case s.cfg.PieceDefs != nil:
		o.Pieces, err = s.cfg.PieceDefs(v)
	}
	if err != nil {
		return o, fail(http.StatusUnprocessableEntity, "the PGN dialect of %s: %v", v.Name, err)
	}
	return o, nil
}

type importReq struct {
	PGN string `json:"pgn"`
	// Notation declares the moves' notation (record.ParsePGNAs: the
	// dialect's Name or record.CanonicalNotation); "" finds it.
	Notation string `json:"notation"`
}

// handlePGNImport reads the games of a PGN text (record.ParsePGNAs, in
// Config.PGN's dialect or the canonical syntax: every move and variation
// checked; a game without a Variant tag is orthodox chess) and saves each
// with its variations in the games folder as one canonical PGN game,
// pgn-TIME-N.pgn, answering their ids. Nothing is saved unless every game
// reads.
func (s *Server) handlePGNImport(w http.ResponseWriter, r *http.Request) {
	var q importReq
	if err := decode(r, &q); err != nil {
		reply(w, nil, err)
		return
	}
	if s.cfg.Games == "" {
		reply(w, nil, fail(http.StatusConflict, "no games folder to import into: start serve with --games-dir"))
		return
	}
	games, err := record.ParsePGNAs(q.PGN, "chess", s.cfg.PGN, q.Notation)
	if err != nil {
		reply(w, nil, fail(http.StatusUnprocessableEntity, "%v", err))
		return
	}
	if len(games) == 0 {
		reply(w, nil, fail(http.StatusUnprocessableEntity, "the PGN text holds no game"))
		return
	}
	if len(games) > maxListed {
		reply(w, nil, fail(http.StatusRequestEntityTooLarge, "%d games: at most %d an import", len(games), maxListed))
		return
	}
	stamp := time.Now().UTC().Format("20060102-150405.000")
	ids := make([]string, 0, len(games))
	for i := range games {
		g := &games[i]
		if g.Get("Variant") == "" {
			g.Set("Variant", "chess")
		}
		text, err := g.PGN("chess", "")
		if err != nil { // ParsePGNAs replayed every move
			reply(w, nil, fail(http.StatusUnprocessableEntity, "game %d: %v", i+1, err))
			return
		}
		name := fmt.Sprintf("pgn-%s-%03d.pgn", stamp, i+1)
		if err := os.MkdirAll(s.cfg.Games, 0o755); err != nil {
			reply(w, nil, fmt.Errorf("saving the game: %w", err))
			return
		}
		if err := atomicfile.WriteFile(filepath.Join(s.cfg.Games, name), []byte(text)); err != nil {
			reply(w, nil, fmt.Errorf("saving the game: %w", err))
			return
		}
		ids = append(ids, "saved/"+name)
	}
	writeJSON(w, http.StatusOK, map[string]any{"ids": ids})
}
