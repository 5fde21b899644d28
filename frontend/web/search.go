package web

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/frontend"
	"bomberzero/match"
	"bomberzero/setup"
)

// model returns the search model called name: a network-free evaluator
// (none, material, uniform, rollout), or a checkpoint named
// models/PATH (under --models) or runs/PATH (under --runs).
func (s *Server) model(name string, rules *agent.Rules) (*agent.Model, error) {
	if frontend.IsBuiltinModel(name) {
		m, err := frontend.LoadModel(name, rules)
		if err != nil {
			return nil, fail(http.StatusBadRequest, "model %q: %v", name, err)
		}
		return m, nil
	}
	file, err := s.checkpointPath(name)
	if err != nil {
		return nil, err
	}
	key := rules.Variant.Name + "\x00" + file
	s.mu.Lock()
	m, ok := s.models[key]
	s.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err = frontend.LoadModel(file, rules)
	if err != nil {
		return nil, fail(http.StatusBadRequest, "model %q: %v", name, err)
	}
	s.mu.Lock()
	if len(s.models) >= 8 {
		clear(s.models)
	}
	s.models[key] = m
	s.mu.Unlock()
	return m, nil
}

// checkpointPath turns models/PATH or runs/PATH into a file path under the
// folder, checking that the file is inside it.
func (s *Server) checkpointPath(name string) (string, error) {
	root, flag, rel, err := s.openFolderOf(name, "%q: unknown player or model; want random, greedy, alphabeta:D, engine[:KEY=VALUE...], or a model none, material, uniform, rollout, models/PATH or runs/PATH, with :SIMS")
	if err != nil {
		return "", err
	}
	defer root.Close()
	st, err := fs.Stat(root.FS(), rel)
	if err != nil || !st.Mode().IsRegular() {
		return "", fail(http.StatusNotFound, "model %q: no such checkpoint file in %s", name, flag)
	}
	return filepath.Join(root.Name(), filepath.FromSlash(rel)), nil
}

type agentReq struct {
	gameReq
	Player string `json:"player"`
	Seed   uint64 `json:"seed"`
}

// agentReply is the agent's move and the position after it.
type agentReply struct {
	Move  MoveInfo `json:"move"`
	State State    `json:"state"`
}

// agentMove asks player spec for its move in g's position: random, greedy,
// alphabeta:D, the alpha-beta engine (engine[:KEY=VALUE...], Server.
// engineSpec: its limit, 20000 nodes without one, within nine tenths of
// the server's time limit), or MODEL[:SIMS] searching with a model.
func (s *Server) agentMove(ctx context.Context, spec string, seed uint64, g *game) (env.Move, error) {
	v := g.pos.Variant()
	kind, rest, _ := strings.Cut(spec, ":")
	switch kind {
	case frontend.EngineModel:
		es, err := s.engineSpec(spec, v)
		if err != nil {
			return env.NoMove, err
		}
		rep, err := s.engineSearch(ctx, g, es, s.engineLimits(es.Limits), 1)
		if err != nil {
			return env.NoMove, err
		}
		return rep.BestMove, nil
	case "random", "greedy", "alphabeta":
		if kind == "alphabeta" {
			d, err := strconv.Atoi(strings.SplitN(rest, ":", 2)[0])
			if err == nil && d > s.cfg.MaxDepth {
				return env.NoMove, fail(http.StatusBadRequest, "player %q: depth %d over this server's limit %d", spec, d, s.cfg.MaxDepth)
			}
		}
		mk, err := match.Parse(spec, v, match.Options{})
		if err != nil {
			return env.NoMove, fail(http.StatusBadRequest, "%v", err)
		}
		p, err := mk.New(seed)
		if err != nil {
			return env.NoMove, fail(http.StatusBadRequest, "%v", err)
		}
		return p.Choose(g.pos)
	}
	name, sims, err := frontend.ParseModelSpec(spec, s.cfg.Sims)
	if err != nil {
		return env.NoMove, fail(http.StatusBadRequest, "player: %v", err)
	}
	if sims > s.cfg.MaxSims {
		return env.NoMove, fail(http.StatusBadRequest, "player %q: %d playouts over this server's limit %d", spec, sims, s.cfg.MaxSims)
	}
	rules := s.rulesOf(v)
	m, err := s.model(name, rules)
	if err != nil {
		return env.NoMove, err
	}
	cfg := setup.AnalysisSearch(s.cfg.Search, sims)
	cfg.Seed = seed
	cfg.Solver = true
	rep, err := frontend.Search(ctx, g.pos, rules, m, cfg, 1)
	if err != nil {
		return env.NoMove, err
	}
	return rep.BestMove, nil
}

func (s *Server) handleAgent(w http.ResponseWriter, r *http.Request) {
	var q agentReq
	if err := decode(r, &q); err != nil {
		reply(w, nil, err)
		return
	}
	g, err := s.game(q.gameReq)
	if err != nil {
		reply(w, nil, err)
		return
	}
	if res, why := g.pos.Status(); res != env.Ongoing || g.endResult != env.Ongoing {
		if res == env.Ongoing {
			res, why = g.endResult, g.endWhy
		}
		reply(w, nil, fail(http.StatusUnprocessableEntity, "the game is over (%s, %s)", res, why))
		return
	}
	if len(g.moves) >= s.cfg.MaxMoves {
		reply(w, nil, fail(http.StatusRequestEntityTooLarge, "the game has %d moves: at most %d", len(g.moves), s.cfg.MaxMoves))
		return
	}
	var out agentReply
	err = s.search(r, func(ctx context.Context) error {
		m, err := s.agentMove(ctx, strings.TrimSpace(q.Player), q.Seed, g)
		if err != nil {
			return err
		}
		out.Move = moveInfo(g.pos, m)
		g.playMove(m)
		out.State = g.state()
		return nil
	})
	reply(w, out, err)
}

type analyseReq struct {
	gameReq
	Model      string `json:"model"`       // engine[:KEY=VALUE...] (the alpha-beta engine, its top MultiPV lines; eval=models/NET.nnue a learned net) or MODEL, as the agent's; "" for material
	Sims       int    `json:"sims"`        // playouts (the most, with movetime_ms); 0: setup.DefaultSims (400), or the limit with movetime_ms
	MovetimeMS int    `json:"movetime_ms"` // search with doubling playouts for this long; 0: one search of sims
	Top        int    `json:"top"`         // root moves listed; 0: 8
	Gumbel     bool   `json:"gumbel"`
	Seed       uint64 `json:"seed"`
}

// analyseReply is the analysis of the game's current position.
type analyseReply struct {
	frontend.Report
	ElapsedMS int64 `json:"elapsed_ms"`
}

func (s *Server) handleAnalyse(w http.ResponseWriter, r *http.Request) {
	var q analyseReq
	if err := decode(r, &q); err != nil {
		reply(w, nil, err)
		return
	}
	g, err := s.game(q.gameReq)
	if err != nil {
		reply(w, nil, err)
		return
	}
	if res, why := g.pos.Status(); res != env.Ongoing {
		reply(w, nil, fail(http.StatusUnprocessableEntity, "the game is over (%s, %s): nothing to analyse", res, why))
		return
	}
	maxMS := s.cfg.MaxTime.Milliseconds()
	switch {
	case q.Sims < 0 || q.Sims > s.cfg.MaxSims:
		err = fail(http.StatusBadRequest, "sims %d: want 1 to %d (0: the default)", q.Sims, s.cfg.MaxSims)
	case q.MovetimeMS < 0 || int64(q.MovetimeMS) > maxMS:
		err = fail(http.StatusBadRequest, "movetime_ms %d: want 0 to %d", q.MovetimeMS, maxMS)
	case q.Top < 0 || q.Top > 100:
		err = fail(http.StatusBadRequest, "top %d: want 0 to 100", q.Top)
	}
	if err != nil {
		reply(w, nil, err)
		return
	}
	if q.Model == "" {
		q.Model = "material"
	}
	if q.Top == 0 {
		q.Top = 8
	}
	if isEngineSpec(q.Model) {
		out, err := s.analyseEngine(r, g, q)
		reply(w, out, err)
		return
	}
	rules := s.rulesOf(g.pos.Variant())
	m, err := s.model(q.Model, rules)
	if err != nil {
		reply(w, nil, err)
		return
	}
	var out analyseReply
	err = s.search(r, func(ctx context.Context) error {
		began := time.Now()
		cfg := setup.AnalysisSearch(s.cfg.Search, max(q.Sims, 1))
		cfg.Seed, cfg.Gumbel, cfg.Solver = q.Seed, q.Gumbel, true
		var rep frontend.Report
		var err error
		if q.MovetimeMS > 0 {
			limit := q.Sims
			if limit == 0 {
				limit = s.cfg.MaxSims
			}
			cfg.Sims = min(64, limit)
			rep, err = frontend.Deepen(ctx, g.pos, rules, m, cfg, q.Top, limit, began.Add(time.Duration(q.MovetimeMS)*time.Millisecond), nil)
		} else {
			if q.Sims == 0 {
				cfg.Sims = setup.DefaultSims
			}
			rep, err = frontend.Search(ctx, g.pos, rules, m, cfg, q.Top)
		}
		if err != nil {
			return err
		}
		rep.Model = fmt.Sprintf("%s:%d", q.Model, rep.Sims)
		out = analyseReply{rep, time.Since(began).Milliseconds()}
		return nil
	})
	reply(w, out, err)
}

// analyseEngine is the analysis with the alpha-beta engine of q.Model
// (engine[:KEY=VALUE...], Server.engineSpec: the classical evaluation or a
// learned net of --models): its top lines (MultiPV) with their scores, for
// movetime_ms, else the spec's limit, else frontend.DefaultAnalysisNodes
// nodes; always within nine tenths of the server's time limit, so that it
// answers with the lines it has.
func (s *Server) analyseEngine(r *http.Request, g *game, q analyseReq) (analyseReply, error) {
	es, err := s.engineSpec(q.Model, g.pos.Variant())
	if err != nil {
		return analyseReply{}, err
	}
	lim := engine.Limits{Nodes: frontend.DefaultAnalysisNodes}
	switch {
	case q.MovetimeMS > 0:
		lim = engine.Limits{MoveTime: time.Duration(q.MovetimeMS) * time.Millisecond}
	case !es.DefaultLimit:
		lim = es.Limits
	}
	var out analyseReply
	err = s.search(r, func(ctx context.Context) error {
		began := time.Now()
		rep, err := s.engineSearch(ctx, g, es, s.engineLimits(lim), q.Top)
		if err != nil {
			return err
		}
		out = analyseReply{rep, time.Since(began).Milliseconds()}
		return nil
	})
	return out, err
}

// engineLimits bounds an engine search's limits by nine tenths of the
// server's time limit (at least a millisecond).
func (s *Server) engineLimits(lim engine.Limits) engine.Limits {
	most := max(s.cfg.MaxTime*9/10, time.Millisecond)
	if lim.MoveTime <= 0 || lim.MoveTime > most {
		lim.MoveTime = most
	}
	return lim
}

// engineSearch builds the engine of es for g's variant (frontend.NewEngine,
// which refuses a net of another variant naming both) and searches g's
// position within lim for its top lines (frontend.EngineSearch). The
// report's model is the spec's evaluation: "engine" or
// "engine:eval=NAME".
func (s *Server) engineSearch(ctx context.Context, g *game, es engine.Spec, lim engine.Limits, top int) (frontend.Report, error) {
	e, err := frontend.NewEngine(g.pos.Variant(), es)
	if err != nil {
		return frontend.Report{}, fail(http.StatusBadRequest, "engine: %v", err)
	}
	rep, err := frontend.EngineSearch(ctx, g.pos, e, lim, top)
	if err != nil {
		return rep, err
	}
	if es.NetFile != "" {
		rep.Model = frontend.EngineModel + ":eval=" + es.NetFile
	}
	return rep, nil
}

func (s *Server) handlePlayers(w http.ResponseWriter, r *http.Request) {
	players := []string{"random", "greedy", "alphabeta:1", "alphabeta:2"}
	for d := 3; d <= s.cfg.MaxDepth; d++ {
		players = append(players, "alphabeta:"+strconv.Itoa(d))
	}
	players = append(players, "material:200", "material:800", "rollout:200")
	models := s.listModels()
	writeJSON(w, http.StatusOK, map[string]any{"players": players, "models": models, "engines": s.listEngines(), "evaluators": []string{frontend.EngineModel, "material", "uniform", "rollout"},
		"limits": map[string]any{"max_sims": s.cfg.MaxSims, "max_time_ms": s.cfg.MaxTime.Milliseconds(), "max_depth": s.cfg.MaxDepth, "max_searches": s.cfg.MaxSearches}})
}
