package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"bomberzero/frontend/web"
	"bomberzero/frontend/xboard"
)

// runServe serves the web app until Ctrl-C or SIGTERM.
func runServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "usage: bomberzero serve [--addr HOST:PORT] [--runs DIR] [--models DIR] [--games-dir DIR]\n\nServes the web app (play, analyse, browse games, watch training) and its JSON API (docs/serve.md).", stderr)
	d := web.DefaultConfig()
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (the default takes connections from this machine only)")
	runs := fs.String("runs", "runs", "folder of training runs, read only; their checkpoints (RUN/checkpoints/gen-NNNN.safetensors) and engine nets (RUN/nets/*.nnue) are offered too (\"\": none)")
	models := fs.String("models", "", "folder of network checkpoints (*.safetensors) and engine nets (*.nnue) to play and analyse with, each offered for the variant it was trained for (\"\": none)")
	games := gamesDirFlag(fs)
	searches := fs.Int("max-searches", d.MaxSearches, "searches running at once; more get 503")
	sims := fs.Int("max-sims", d.MaxSims, "the most playouts one request may ask for")
	maxTime := fs.Duration("max-time", d.MaxTime, "the longest one search may run")
	mf := addMatchFlags(fs, false)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	tc, err := mf.load("fbgc") // the variant only picks a variant's own defaults file; none has one
	if err != nil {
		return usageErr(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", *addr, err)
	}
	ctx, stop := stopContext()
	defer stop()
	return serveOn(ctx, ln, web.Config{Runs: *runs, Models: *models, Games: *games, MaxSearches: *searches, MaxSims: *sims, MaxTime: *maxTime,
		Search: tc.PlayerSearch(), Sims: tc.Eval.Sims, PGN: xboard.PGNDialect}, stdout)
}

// serveOn serves on ln until ctx ends, then stops searches and waits for
// the requests in flight (at most 10 s).
func serveOn(ctx context.Context, ln net.Listener, cfg web.Config, stdout io.Writer) error {
	searchCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := &http.Server{
		Handler:           web.New(searchCtx, cfg),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      cfg.MaxTime + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	where := "this machine only"
	if host, _, err := net.SplitHostPort(ln.Addr().String()); err == nil && !net.ParseIP(host).IsLoopback() {
		where = "every network it can reach: anyone there can use it"
	}
	fmt.Fprintf(stdout, "bomberzero serve: http://%s/ (listening for %s; Ctrl-C stops)\n", ln.Addr(), where)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(stdout, "bomberzero serve: stopping")
	cancel() // searches in flight end now, answering 503
	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	err := srv.Shutdown(sctx)
	if e := <-done; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
