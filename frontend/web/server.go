// Package serve is bomberzero's web app: a JSON API under /api/ (variants,
// positions and their legal moves, moves, agent moves, analysis, training
// runs and their metrics, game records) and an embedded page (frontend/web/static/,
// plain HTML, CSS and JavaScript) to play, analyse, browse games and watch
// training. Every request is bounded (body size, moves, playouts, time,
// concurrent searches), bad input gets a 4xx JSON error with a message, and
// files are read only under the run, model and saved-games folders, through
// os.Root. docs/serve.md documents the API.
package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"bomberzero/agent"
	"bomberzero/datasets/record"
	"bomberzero/env"
	"bomberzero/mcts"
	"bomberzero/setup"
)

//go:embed static
var webFiles embed.FS

// Config holds the server's folders and limits. Zero limits take the
// defaults of DefaultConfig.
type Config struct {
	// Runs is the folder of training runs (one run directory each), read
	// only; "" for none.
	Runs string
	// Models is a folder of checkpoints (*.safetensors) and engine nets
	// (*.nnue) agents and analysis may use; "" for none.
	Models string
	// Games is the folder of saved games (match and play's --games-dir);
	// "" for none.
	Games string
	// MaxSearches is the number of searches (analysis and agent moves) that
	// may run at once; more get 503.
	MaxSearches int
	// MaxSims is the most playouts one request may ask for (at most
	// mcts.MaxSims).
	MaxSims int
	// MaxTime is the longest one search may take; a search still running
	// then is stopped.
	MaxTime time.Duration
	// MaxBody is the largest request body in bytes.
	MaxBody int64
	// MaxMoves is the most moves one request may carry.
	MaxMoves int
	// MaxDepth is the deepest alpha-beta agent allowed.
	MaxDepth int
	// Search is the search an agent's and an analysis's search derives
	// from (setup.AnalysisSearch), and Sims the playouts of a model spec
	// that names none: the training config's [selfplay] search and
	// eval.sims. Zero takes DefaultConfig's, the embedded defaults.
	Search mcts.Config
	Sims   int
	// PieceDefs, when set, gives a variant's piece definitions for the
	// [VariantMen] tag of a PGN export (the XBoard engine's piece lines;
	// serve sets it, since this package sits below frontend/xboard).
	PieceDefs func(v *env.Variant) (string, error)
	// PGN, when set, is the dialect PGN exports are written in and
	// imports read first (falling back to the canonical syntax), in place
	// of PieceDefs: serve sets XBoard's (frontend/xboard.PGNDialect),
	// whose rank numbers XBoard reads on a 10-rank board.
	PGN record.PGNDialect
}

// DefaultConfig returns the default limits: one search per core, 20000
// playouts, 10 s, 64 KiB bodies, 2000 moves, alpha-beta depth 3; and the
// match player's search of the embedded training defaults
// (setup.Config.PlayerSearch).
func DefaultConfig() Config {
	c := Config{MaxSearches: runtime.GOMAXPROCS(0), MaxSims: 20000, MaxTime: 10 * time.Second, MaxBody: 64 << 10, MaxMoves: 2000, MaxDepth: 3}
	// The embedded file always reads (a setup test checks it); were it
	// broken, the zero search would be refused at the first search.
	if tc, err := setup.DefaultConfig("fbgc"); err == nil {
		c.Search, c.Sims = tc.PlayerSearch(), tc.Eval.Sims
	}
	return c
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.MaxSearches <= 0 {
		c.MaxSearches = d.MaxSearches
	}
	if c.MaxSims <= 0 {
		c.MaxSims = d.MaxSims
	}
	// No request may ask for more than one search can hold.
	c.MaxSims = min(c.MaxSims, mcts.MaxSims)
	if c.MaxTime <= 0 {
		c.MaxTime = d.MaxTime
	}
	if c.MaxBody <= 0 {
		c.MaxBody = d.MaxBody
	}
	if c.MaxMoves <= 0 {
		c.MaxMoves = d.MaxMoves
	}
	if c.MaxDepth <= 0 {
		c.MaxDepth = d.MaxDepth
	}
	if c.Search == (mcts.Config{}) {
		c.Search = d.Search
	}
	if c.Sims <= 0 {
		c.Sims = d.Sims
	}
	return c
}

// Server is the web app. Its handler is safe for concurrent use.
type Server struct {
	cfg  Config
	base context.Context // ends when the server shuts down: searches stop
	sem  chan struct{}
	mux  *http.ServeMux

	mu       sync.Mutex
	variants map[string]*env.Variant
	rules    map[string]*agent.Rules
	models   map[string]*agent.Model
	nets     map[string]cachedNet
}

// cacheLimit bounds each of the server's caches.
const cacheLimit = 64

// New returns a server with cfg's folders and limits; searches stop when
// ctx ends.
func New(ctx context.Context, cfg Config) *Server {
	cfg = cfg.withDefaults()
	s := &Server{cfg: cfg, base: ctx, sem: make(chan struct{}, cfg.MaxSearches), mux: http.NewServeMux(),
		variants: map[string]*env.Variant{}, rules: map[string]*agent.Rules{}, models: map[string]*agent.Model{}, nets: map[string]cachedNet{}}
	s.mux.HandleFunc("GET /api/variants", s.handleVariants)
	s.mux.HandleFunc("GET /api/variants/{name}", s.handleVariant)
	s.mux.HandleFunc("POST /api/game", s.handleGame)
	s.mux.HandleFunc("POST /api/move", s.handleMove)
	s.mux.HandleFunc("POST /api/agent", s.handleAgent)
	s.mux.HandleFunc("POST /api/analyse", s.handleAnalyse)
	s.mux.HandleFunc("GET /api/players", s.handlePlayers)
	s.mux.HandleFunc("GET /api/runs", s.handleRuns)
	s.mux.HandleFunc("GET /api/runs/{run}/metrics", s.handleMetrics)
	s.mux.HandleFunc("GET /api/runs/{run}/config", s.handleConfig)
	s.mux.HandleFunc("GET /api/games", s.handleGames)
	s.mux.HandleFunc("GET /api/games/record", s.handleRecord)
	s.mux.HandleFunc("GET /api/games/pgn", s.handlePGNExport)
	s.mux.HandleFunc("POST /api/games/import", s.handlePGNImport)
	s.mux.HandleFunc("POST /api/pgn", s.handlePGN)
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no API endpoint %s %s (docs/serve.md lists them)", r.Method, r.URL.Path)
	})
	sub, err := fs.Sub(webFiles, "static")
	if err != nil {
		panic(err) // the embedded folder is part of the binary
	}
	s.mux.Handle("/", http.FileServer(http.FS(sub)))
	return s
}

// ServeHTTP serves the API and the page.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:")
	h.Set("Referrer-Policy", "no-referrer")
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	}
	s.mux.ServeHTTP(w, r)
}

// apiError is every error response's body.
type apiError struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, apiError{fmt.Sprintf(format, args...)})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// httpError is an error with the status it answers.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func fail(code int, format string, args ...any) error {
	return &httpError{code, fmt.Sprintf(format, args...)}
}

// reply writes v, or err as the status it carries (500 for others).
func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		var he *httpError
		if errors.As(err, &he) {
			writeError(w, he.code, "%s", he.msg)
			return
		}
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// decode reads the request's JSON body into v, refusing unknown fields,
// trailing data and bodies over the limit.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return fail(http.StatusRequestEntityTooLarge, "request body over %d bytes", mb.Limit)
		}
		return fail(http.StatusBadRequest, "request body: %v", err)
	}
	if dec.More() {
		return fail(http.StatusBadRequest, "request body: more than one JSON value")
	}
	return nil
}

// variant loads a built-in variant by name (with +options); variant files
// are refused, as the server reads no files but its folders'.
func (s *Server) variant(name string) (*env.Variant, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = "fbgc"
	}
	if strings.ContainsAny(name, `/\`) || strings.HasSuffix(name, ".toml") || len(name) > 200 {
		return nil, fail(http.StatusBadRequest, "variant %q: only built-in variants by name (see /api/variants)", name)
	}
	s.mu.Lock()
	v, ok := s.variants[name]
	s.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := env.LoadVariant(name)
	if err != nil {
		return nil, fail(http.StatusBadRequest, "variant %q: %v", name, err)
	}
	s.mu.Lock()
	if len(s.variants) >= cacheLimit {
		clear(s.variants)
	}
	s.variants[name] = v
	s.mu.Unlock()
	return v, nil
}

// rulesOf returns the (shared, read-only) self-play rules of v.
func (s *Server) rulesOf(v *env.Variant) *agent.Rules {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rules[v.Name]
	if !ok {
		if len(s.rules) >= cacheLimit {
			clear(s.rules)
		}
		r = agent.NewRules(v, 0)
		s.rules[v.Name] = r
	}
	return r
}

func (s *Server) handleVariants(w http.ResponseWriter, r *http.Request) {
	type item struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	out := []item{}
	for _, n := range env.VariantNames() {
		v, err := s.variant(n)
		if err != nil {
			reply(w, nil, err)
			return
		}
		out = append(out, item{n, v.Description})
	}
	writeJSON(w, http.StatusOK, map[string]any{"variants": out, "options": env.OptionNames()})
}

func (s *Server) handleVariant(w http.ResponseWriter, r *http.Request) {
	v, err := s.variant(r.PathValue("name"))
	if err != nil {
		reply(w, nil, err)
		return
	}
	writeJSON(w, http.StatusOK, variantInfo(v))
}

// gameReq names a game: a variant, a start position and moves from it.
type gameReq struct {
	Variant string   `json:"variant"`
	Start   string   `json:"start"` // position text; "" for the variant's start
	Moves   []string `json:"moves"`
	White   string   `json:"white"` // the players' names for the record
	Black   string   `json:"black"`
	// End ends a game the rules have not: a resignation, a flag fall
	// (forfeit), a draw agreed (agreement) or a referee's verdict
	// (adjudication).
	End *gameEnd `json:"end,omitempty"`
	// TimeControl is the clock, PGN's "BASE+INC" in seconds ("" untimed);
	// Clocks the mover's time left after each move, in milliseconds.
	TimeControl string  `json:"time_control,omitempty"`
	Clocks      []int64 `json:"clocks,omitempty"`
}

// gameEnd is how a game ended outside the rules.
type gameEnd struct {
	Result      string `json:"result"`      // "1-0", "0-1" or "1/2-1/2"
	Termination string `json:"termination"` // "resignation", "forfeit" (time), "agreement" or "adjudication"
}

// Limits of a game's clock.
const (
	maxBaseSeconds = 3 * 3600
	maxIncSeconds  = 600
	maxClockMS     = 24 * 3600 * 1000
)

// checkClock validates a game's time control and clock times.
func checkClock(q gameReq) error {
	if q.TimeControl != "" {
		b, i, ok := strings.Cut(q.TimeControl, "+")
		base, err1 := strconv.Atoi(b)
		inc, err2 := strconv.Atoi(i)
		if !ok || err1 != nil || err2 != nil || base < 1 || base > maxBaseSeconds || inc < 0 || inc > maxIncSeconds {
			return fail(http.StatusBadRequest, "time_control %.20q: want BASE+INC in seconds, BASE 1 to %d, INC 0 to %d", q.TimeControl, maxBaseSeconds, maxIncSeconds)
		}
	}
	if len(q.Clocks) > len(q.Moves) {
		return fail(http.StatusBadRequest, "clocks: %d times for %d moves", len(q.Clocks), len(q.Moves))
	}
	for i, c := range q.Clocks {
		if c < 0 || c > maxClockMS {
			return fail(http.StatusBadRequest, "clocks[%d] %d: want 0 to %d ms", i, c, maxClockMS)
		}
	}
	return nil
}

// parse reads the end's result and termination.
func (e *gameEnd) parse() (env.Result, env.Termination, error) {
	var res env.Result
	switch e.Result {
	case "1-0":
		res = env.WhiteWins
	case "0-1":
		res = env.BlackWins
	case "1/2-1/2":
		res = env.Draw
	default:
		return 0, 0, fail(http.StatusBadRequest, "end.result %.20q: want 1-0, 0-1 or 1/2-1/2", e.Result)
	}
	var why env.Termination
	switch e.Termination {
	case "resignation":
		why = env.Resignation
	case "forfeit":
		why = env.Forfeit
	case "agreement":
		why = env.Agreement
	case "adjudication":
		why = env.Adjudication
	default:
		return 0, 0, fail(http.StatusBadRequest, "end.termination %.20q: want resignation, forfeit, agreement or adjudication", e.Termination)
	}
	if decisive, known := why.Decisive(); known && decisive != (res != env.Draw) {
		return 0, 0, fail(http.StatusBadRequest, "end: %s with the result %s: a %s is always %s", e.Termination, e.Result, e.Termination, map[bool]string{true: "decisive", false: "a draw"}[decisive])
	}
	return res, why, nil
}

func (s *Server) game(q gameReq) (*game, error) {
	v, err := s.variant(q.Variant)
	if err != nil {
		return nil, err
	}
	if len(q.Moves) > s.cfg.MaxMoves {
		return nil, fail(http.StatusRequestEntityTooLarge, "%d moves: at most %d", len(q.Moves), s.cfg.MaxMoves)
	}
	start := v.NewPosition()
	if strings.TrimSpace(q.Start) != "" {
		if start, err = v.ParsePosition(q.Start); err != nil {
			return nil, fail(http.StatusBadRequest, "start position: %v", err)
		}
	}
	if err := checkClock(q); err != nil {
		return nil, err
	}
	g, err := replay(start, q.Moves)
	if err != nil {
		return nil, fail(http.StatusUnprocessableEntity, "%v", err)
	}
	g.white, g.black = q.White, q.Black
	g.timeControl, g.clocks = q.TimeControl, q.Clocks
	if q.End != nil {
		res, why, err := q.End.parse()
		if err != nil {
			return nil, err
		}
		if r, w := g.pos.Status(); r != env.Ongoing {
			return nil, fail(http.StatusUnprocessableEntity, "end: the game is already over (%s, %s)", r, w)
		}
		g.endResult, g.endWhy = res, why
	}
	return g, nil
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	var q gameReq
	if err := decode(r, &q); err != nil {
		reply(w, nil, err)
		return
	}
	g, err := s.game(q)
	if err != nil {
		reply(w, nil, err)
		return
	}
	writeJSON(w, http.StatusOK, g.state())
}

type moveReq struct {
	gameReq
	Move string `json:"move"`
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	var q moveReq
	if err := decode(r, &q); err != nil {
		reply(w, nil, err)
		return
	}
	g, err := s.game(q.gameReq)
	if err != nil {
		reply(w, nil, err)
		return
	}
	if len(g.moves) >= s.cfg.MaxMoves {
		reply(w, nil, fail(http.StatusRequestEntityTooLarge, "the game has %d moves: at most %d", len(g.moves), s.cfg.MaxMoves))
		return
	}
	if err := g.play(q.Move); err != nil {
		reply(w, nil, fail(http.StatusUnprocessableEntity, "move %q: %v", q.Move, err))
		return
	}
	writeJSON(w, http.StatusOK, g.state())
}

// search runs f holding one of the search slots, under a context that ends
// with the request, at the server's shutdown, or after MaxTime. With every
// slot taken it fails at once with 503.
func (s *Server) search(r *http.Request, f func(ctx context.Context) error) error {
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	default:
		return fail(http.StatusServiceUnavailable, "all %d search slots are busy; try again", s.cfg.MaxSearches)
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.MaxTime)
	defer cancel()
	stop := context.AfterFunc(s.base, cancel)
	defer stop()
	err := f(ctx)
	if err != nil && ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		if s.base.Err() != nil {
			return fail(http.StatusServiceUnavailable, "the server is shutting down")
		}
		return fail(http.StatusServiceUnavailable, "the search did not finish within %v", s.cfg.MaxTime)
	}
	return err
}

func (s *Server) handleRuns(w http.ResponseWriter, r *http.Request) {
	runs, err := s.listRuns()
	reply(w, map[string]any{"runs": runs}, err)
}

// sortedNames returns the names of entries, sorted.
func sortedNames(es []fs.DirEntry) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// openRoot opens folder dir (a flag's value) for reading under os.Root,
// which refuses every path that leaves it (.., absolute paths, symbolic
// links out).
func openRoot(dir, flag string) (*os.Root, error) {
	if dir == "" {
		return nil, fail(http.StatusNotFound, "no %s folder was given to the server", flag)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fail(http.StatusNotFound, "%s folder: %v", flag, err)
	}
	return root, nil
}

// localPath checks a path from a request: relative, slash-separated, with
// no "..", no empty or "." elements, at most 400 bytes.
func localPath(p string) error {
	if len(p) > 400 || !fs.ValidPath(p) || p == "." || strings.Contains(p, `\`) {
		return fail(http.StatusBadRequest, "path %q: want a relative path inside the folder, without ..", p)
	}
	return nil
}
