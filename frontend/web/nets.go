package web

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"syscall"
	"time"

	"bomberzero/engine"
	"bomberzero/engine/nnue"
	"bomberzero/env"
	"bomberzero/frontend"
)

// EngineInfo is one alpha-beta engine the board offers: the engine with
// its classical evaluation (no file), or with a learned net found under
// --models or in a run under --runs.
type EngineInfo struct {
	// Spec is the player spec that plays it, as the command line writes
	// it: "engine" or "engine:eval=models/fbgc.nnue".
	Spec string `json:"spec"`
	// Label tells the engines apart for a person: the evaluation, and
	// the net's file, variant and size (and its generation, for a file
	// named gen-NNNN.nnue).
	Label string `json:"label"`
	// Net is the net's name under the server's folders (models/PATH or
	// runs/RUN/nets/FILE); "" for the classical evaluation.
	Net string `json:"net,omitempty"`
	// Variant is the variant the net was trained for, the only one it
	// plays; "" (the classical evaluation) plays every variant.
	Variant string `json:"variant,omitempty"`
	// Error says why the net cannot be played (its header does not
	// read); the page lists such a net, unplayable, with the reason.
	Error string `json:"error,omitempty"`
}

// openRegular opens rel under root for reading, refusing anything but a
// regular file without blocking on it (a named pipe opens at once with
// O_NONBLOCK and is then refused).
func openRegular(root *os.Root, rel string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("not a regular file")
	}
	return f, st, nil
}

// netInfo describes the net file rel of a server folder (root, whose nets
// are named prefix/PATH: models/PATH under --models, runs/PATH under
// --runs) for the board: its spec, label and variant from its header, or
// the reason it cannot be played.
func netInfo(root *os.Root, prefix, rel string) EngineInfo {
	name := prefix + "/" + rel
	info := EngineInfo{Spec: frontend.EngineModel + ":eval=" + name, Net: name}
	f, _, err := openRegular(root, rel)
	if err != nil {
		info.Error = fmt.Sprintf("net file %s: %v", name, err)
		info.Label = fmt.Sprintf("engine, net %s: unreadable", name)
		return info
	}
	defer f.Close()
	h, err := nnue.ReadHeader(f)
	if err != nil {
		info.Error = fmt.Sprintf("net file %s: %v", name, err)
		info.Label = fmt.Sprintf("engine, net %s: damaged", name)
		return info
	}
	info.Variant = h.Variant
	kind := "learned"
	if h.Base == nnue.BaseClassical {
		kind = "learned, over the classical"
	}
	if h.KingBuckets != "" {
		kind += ", king buckets " + h.KingBuckets
	}
	if h.Mirror {
		kind += ", file-mirrored"
	}
	gen := ""
	if g, ok := generationOf(rel); ok {
		gen = fmt.Sprintf(", generation %d", g)
	}
	info.Label = fmt.Sprintf("engine, net %s (%s, %s, %dx%d%s)", name, kind, h.Variant, h.Hidden, h.L2, gen)
	return info
}

// listEngines lists the engines the board offers: the classical one
// first, then the engine with each net (*.nnue) under --models, in path
// order, then with each net of the runs under --runs (RUN/nets/*.nnue, the
// nets bomberzero nnue writes), at most maxListed in all.
func (s *Server) listEngines() []EngineInfo {
	out := []EngineInfo{{Spec: frontend.EngineModel, Label: "engine (classical evaluation)"}}
	return listFiles(s, out, ".nnue", "*/nets/*.nnue", netInfo)
}

// listFiles appends to out describe(root, "models" or "runs", path) for
// every file ending in ext under --models (its whole tree) and every file
// matching runsGlob under --runs, until out holds maxListed entries.
func listFiles[T any](s *Server, out []T, ext, runsGlob string, describe func(*os.Root, string, string) T) []T {
	if root, err := openRoot(s.cfg.Models, "--models"); err == nil {
		_ = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(out) >= maxListed {
				return fs.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ext) {
				out = append(out, describe(root, "models", p))
			}
			return nil
		})
		root.Close()
	}
	if root, err := openRoot(s.cfg.Runs, "--runs"); err == nil {
		found, _ := fs.Glob(root.FS(), runsGlob)
		for _, p := range found {
			if len(out) >= maxListed {
				break
			}
			out = append(out, describe(root, "runs", p))
		}
		root.Close()
	}
	return out
}

// openFolderOf opens the folder of a file called name, models/PATH (under
// --models) or runs/PATH (under --runs), returning the opened root, the
// folder's flag and PATH checked to stay inside it; another name is a bad
// request whose message is unknown with name in its %s.
func (s *Server) openFolderOf(name, unknown string) (*os.Root, string, string, error) {
	kind, rel, _ := strings.Cut(name, "/")
	var dir, flag string
	switch kind {
	case "models":
		dir, flag = s.cfg.Models, "--models"
	case "runs":
		dir, flag = s.cfg.Runs, "--runs"
	default:
		return nil, "", "", fail(http.StatusBadRequest, unknown, name)
	}
	if err := localPath(rel); err != nil {
		return nil, "", "", err
	}
	root, err := openRoot(dir, flag)
	if err != nil {
		return nil, "", "", err
	}
	return root, flag, rel, nil
}

// cachedNet is a net read from a file, with the file's size and time so
// that a file replaced is read again.
type cachedNet struct {
	net  *nnue.Net
	size int64
	mod  time.Time
}

// net reads the net called name (models/PATH under --models, or runs/PATH
// under --runs) through os.Root, at most nnue.MaxFileBytes, with every
// check of nnue.Decode (the checksum included). Errors name the net.
func (s *Server) net(name string) (*nnue.Net, error) {
	root, flag, rel, err := s.openFolderOf(name, "eval=%s: want classical or a net models/PATH (under --models) or runs/PATH (under --runs)")
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, st, err := openRegular(root, rel)
	if err != nil {
		return nil, fail(http.StatusNotFound, "eval=%s: no such net file in %s", name, flag)
	}
	defer f.Close()
	s.mu.Lock()
	c, ok := s.nets[name]
	s.mu.Unlock()
	if ok && c.size == st.Size() && c.mod.Equal(st.ModTime()) {
		return c.net, nil
	}
	if st.Size() > nnue.MaxFileBytes {
		return nil, fail(http.StatusRequestEntityTooLarge, "net file %s: %d bytes, over %d", name, st.Size(), nnue.MaxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, nnue.MaxFileBytes+1))
	if err != nil {
		return nil, fail(http.StatusInternalServerError, "net file %s: %v", name, err)
	}
	n, err := nnue.Decode(data)
	if err != nil {
		return nil, fail(http.StatusUnprocessableEntity, "net file %s: %v", name, err)
	}
	s.mu.Lock()
	if len(s.nets) >= 8 {
		clear(s.nets)
	}
	s.nets[name] = cachedNet{n, st.Size(), st.ModTime()}
	s.mu.Unlock()
	return n, nil
}

// engineSpec reads an engine model or player spec from a request for a
// game of variant v: "engine" or "engine:KEY=VALUE...", the keys of
// engine.ParseSpec, which reads them all. The server resolves eval=NAME
// itself, a net of its folders (Server.net), and refuses the keys that
// would read other files or size the engine (weights, hash, threads).
// es.DefaultLimit says whether the spec named no limit (depth, nodes or movetime).
// A net for another variant than v is refused naming both.
func (s *Server) engineSpec(spec string, v *env.Variant) (es engine.Spec, err error) {
	kind, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	if kind != frontend.EngineModel {
		return es, fail(http.StatusBadRequest, "%q: not an engine spec (want engine[:KEY=VALUE...])", spec)
	}
	// Only the value of eval is the server's to read: the rest of the
	// text goes to engine.ParseSpec with eval=classical in its place, so
	// that every key, value and repetition is checked there.
	var netName string
	var items []string
	if strings.TrimSpace(rest) != "" {
		items = strings.Split(rest, ":")
	}
	for i, item := range items {
		key, val, _ := strings.Cut(strings.TrimSpace(item), "=")
		switch key {
		case "eval":
			if val != "" && val != "classical" {
				netName = val
				items[i] = "eval=classical"
			}
		case "weights", "hash", "threads":
			return es, fail(http.StatusBadRequest, "engine %q: %s is not taken by the web board (it sets the table and threads, and reads nets of --models by eval=models/PATH)", spec, key)
		}
	}
	es, err = engine.ParseSpec(strings.Join(items, ":"))
	if err != nil {
		return es, fail(http.StatusBadRequest, "engine %q: %v", spec, err)
	}
	es.HashMB, es.Threads = engine.DefaultHashMB, 1
	if netName != "" {
		n, err := s.net(netName)
		if err != nil {
			return es, err
		}
		if n.Variant != v.Name {
			return es, fail(http.StatusBadRequest, "net file %s: a net for variant %s, not this game's %s", netName, n.Variant, v.Name)
		}
		es.Net, es.NetFile = n, netName
	}
	return es, nil
}

// isEngineSpec says whether a model or player spec names the alpha-beta
// engine.
func isEngineSpec(spec string) bool {
	kind, _, _ := strings.Cut(strings.TrimSpace(spec), ":")
	return kind == frontend.EngineModel
}
