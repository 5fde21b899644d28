package deploy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the repository root, one directory up from this package.
const root = ".."

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	line  int      // the first line's number
	cmd   string   // upper case: FROM, RUN, COPY, ...
	flags []string // the leading --flag=value words of FROM, COPY and ADD
	args  string   // the rest
}

// parseDockerfile is a line scanner for the Dockerfile syntax this
// repository uses: comment lines (parser directives included) are
// skipped, a line ending in a backslash continues on the next, and
// comment lines inside a continuation are dropped as Docker drops them.
// It does not expand variables or read heredocs.
func parseDockerfile(r io.Reader) ([]instruction, error) {
	var out []instruction
	var cur strings.Builder
	start := 0
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") || (t == "" && cur.Len() == 0) {
			continue
		}
		if cur.Len() == 0 {
			start = n
		}
		if cont, ok := strings.CutSuffix(strings.TrimRight(line, " \t"), `\`); ok {
			cur.WriteString(cont)
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(line)
		text := strings.TrimSpace(cur.String())
		cur.Reset()
		cmd, rest, _ := strings.Cut(text, " ")
		in := instruction{line: start, cmd: strings.ToUpper(cmd)}
		rest = strings.TrimSpace(rest)
		if in.cmd == "FROM" || in.cmd == "COPY" || in.cmd == "ADD" {
			for strings.HasPrefix(rest, "--") {
				f, r, _ := strings.Cut(rest, " ")
				in.flags = append(in.flags, f)
				rest = strings.TrimSpace(r)
			}
		}
		in.args = rest
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if cur.Len() > 0 {
		return nil, errors.New("the last line ends in a backslash")
	}
	return out, nil
}

// words splits an instruction's arguments: the JSON array form, or
// words separated by white space.
func words(args string) ([]string, error) {
	if strings.HasPrefix(args, "[") {
		var w []string
		err := json.Unmarshal([]byte(args), &w)
		return w, err
	}
	return strings.Fields(args), nil
}

// hasFlag reports whether flags holds --name or --name=VALUE.
func hasFlag(flags []string, name string) bool {
	for _, f := range flags {
		if f == "--"+name || strings.HasPrefix(f, "--"+name+"=") {
			return true
		}
	}
	return false
}

// stage is one FROM and the instructions under it.
type stage struct {
	from, name string
	body       []instruction
}

// stages reads the repository's Dockerfile into its stages, with the
// ARGs declared before the first FROM substituted into FROM lines.
func stages(t *testing.T) []stage {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ins, err := parseDockerfile(f)
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	args := map[string]string{}
	var st []stage
	for _, in := range ins {
		switch {
		case in.cmd == "ARG" && len(st) == 0:
			k, v, _ := strings.Cut(in.args, "=")
			args[k] = strings.Trim(v, `"`)
		case in.cmd == "FROM":
			w := strings.Fields(os.Expand(in.args, func(k string) string { return args[k] }))
			s := stage{from: w[0]}
			if len(w) == 3 && strings.EqualFold(w[1], "AS") {
				s.name = w[2]
			}
			st = append(st, s)
		case len(st) == 0:
			t.Fatalf("Dockerfile line %d: %s before the first FROM", in.line, in.cmd)
		default:
			st[len(st)-1].body = append(st[len(st)-1].body, in)
		}
	}
	if len(st) < 2 {
		t.Fatalf("Dockerfile has %d stages, want a build stage and a final one", len(st))
	}
	return st
}

// goBuild matches the build's go build command.
var goBuild = regexp.MustCompile(`\bgo build\b`)

// TestDockerfileBuildStage checks the build stage: the Go of go.mod on
// Debian bookworm, the module download cached in a layer of its own
// (go.mod and go.sum copied before the sources), and the OpenBLAS build
// of ./cmd/bomberzero, trimmed of local paths.
func TestDockerfileBuildStage(t *testing.T) {
	build := stages(t)[0]
	goVersion := goDirective(t)
	if want := "golang:" + goVersion + "-bookworm"; build.from != want {
		t.Errorf("build stage FROM %s, want %s (go.mod's go %s on bookworm, like the final stage)", build.from, want, goVersion)
	}
	if build.name == "" {
		t.Error("build stage has no name for COPY --from")
	}
	step := func(match func(instruction) bool) int {
		return slices.IndexFunc(build.body, match)
	}
	copyMods := step(func(in instruction) bool {
		w, _ := words(in.args)
		return in.cmd == "COPY" && slices.Contains(w, "go.mod") && slices.Contains(w, "go.sum") && !slices.Contains(w[:len(w)-1], ".")
	})
	download := step(func(in instruction) bool { return in.cmd == "RUN" && strings.Contains(in.args, "go mod download") })
	copyAll := step(func(in instruction) bool {
		w, _ := words(in.args)
		return in.cmd == "COPY" && len(w) == 2 && w[0] == "."
	})
	compile := step(func(in instruction) bool { return in.cmd == "RUN" && goBuild.MatchString(in.args) })
	if copyMods < 0 || download < 0 || copyAll < 0 || compile < 0 || !(copyMods < download && download < copyAll && copyAll < compile) {
		t.Errorf("build stage steps at %d, %d, %d, %d: want COPY go.mod go.sum, RUN go mod download, COPY . ., RUN go build, in that order",
			copyMods, download, copyAll, compile)
	}
	if step(func(in instruction) bool { return in.cmd == "RUN" && strings.Contains(in.args, "libopenblas-dev") }) < 0 {
		t.Error("build stage installs no libopenblas-dev")
	}
	if compile < 0 {
		return
	}
	w := strings.Fields(build.body[compile].args)
	tags := ""
	for i, x := range w {
		if x == "-tags" && i+1 < len(w) {
			tags = w[i+1]
		} else if v, ok := strings.CutPrefix(x, "-tags="); ok {
			tags = v
		}
	}
	if !slices.Contains(strings.Split(strings.Trim(tags, `'"`), ","), "openblas") {
		t.Errorf("go build %q: no openblas build tag", build.body[compile].args)
	}
	for _, want := range []string{"-trimpath", "./cmd/bomberzero"} {
		if !slices.Contains(w, want) {
			t.Errorf("go build %q: no %s", build.body[compile].args, want)
		}
	}
}

// goDirective is go.mod's go version, major.minor.
func goDirective(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	return string(m[1])
}

// TestDockerfileFinalStage checks the image itself: bookworm-slim with
// only the OpenBLAS run-time library and CA certificates added, the
// binary on PATH as the entrypoint, a numeric non-root user that is the
// one the Kubernetes manifests run as.
func TestDockerfileFinalStage(t *testing.T) {
	st := stages(t)
	final := st[len(st)-1]
	if final.from != "debian:bookworm-slim" {
		t.Errorf("final stage FROM %s, want debian:bookworm-slim", final.from)
	}
	var installed []string
	var user, entrypoint string
	binary := false
	for _, in := range final.body {
		switch in.cmd {
		case "RUN":
			installed = append(installed, aptInstalls(in.args)...)
		case "USER":
			user = in.args
		case "ENTRYPOINT":
			entrypoint = in.args
		case "COPY":
			w, _ := words(in.args)
			if hasFlag(in.flags, "from") && len(w) == 2 && w[1] == "/usr/local/bin/bomberzero" {
				binary = true
			}
		}
	}
	slices.Sort(installed)
	if want := []string{"ca-certificates", "libopenblas0"}; !slices.Equal(installed, want) {
		t.Errorf("final stage installs %v, want only %v", installed, want)
	}
	if !binary {
		t.Error("final stage copies no bomberzero binary from the build stage to /usr/local/bin/bomberzero")
	}
	if w, err := words(entrypoint); err != nil || !strings.HasPrefix(entrypoint, "[") || !slices.Equal(w, []string{"bomberzero"}) {
		t.Errorf(`ENTRYPOINT %s, want ["bomberzero"] (exec form: SIGTERM reaches bomberzero, not a shell)`, entrypoint)
	}
	uid, _, _ := strings.Cut(user, ":")
	n, err := strconv.ParseInt(uid, 10, 64)
	if err != nil || n <= 0 {
		t.Fatalf("USER %q, want a numeric non-root uid (runAsNonRoot cannot check a name)", user)
	}
	for _, w := range workloads(manifests(t)) {
		if sc := w.pod.SecurityContext; sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != n {
			t.Errorf("%s: pod runAsUser is not the image's uid %d", w.where, n)
		}
	}
}

// aptInstalls lists the packages an apt-get install in a RUN names.
func aptInstalls(run string) []string {
	var pkgs []string
	for _, cmd := range regexp.MustCompile(`&&|;|\|\|`).Split(run, -1) {
		w := strings.Fields(cmd)
		i := slices.Index(w, "install")
		if i < 0 || !slices.ContainsFunc(w[:i], func(s string) bool { return s == "apt-get" || s == "apt" }) {
			continue
		}
		for _, p := range w[i+1:] {
			if !strings.HasPrefix(p, "-") {
				pkgs = append(pkgs, p)
			}
		}
	}
	return pkgs
}

// TestDockerfileCopiesExistingPaths checks every COPY and ADD from the
// build context: each source exists in the repository and is not
// excluded by .dockerignore, so the build cannot fail on a missing path.
func TestDockerfileCopiesExistingPaths(t *testing.T) {
	ignore := dockerignore(t)
	copies := 0
	for _, s := range stages(t) {
		for _, in := range s.body {
			if (in.cmd != "COPY" && in.cmd != "ADD") || hasFlag(in.flags, "from") {
				continue
			}
			w, err := words(in.args)
			if err != nil || len(w) < 2 {
				t.Errorf("Dockerfile line %d: %s %s: want sources and a destination", in.line, in.cmd, in.args)
				continue
			}
			for _, src := range w[:len(w)-1] {
				copies++
				matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(src)))
				if err != nil || len(matches) == 0 {
					t.Errorf("Dockerfile line %d: %s %s: no such path in the repository", in.line, in.cmd, src)
				}
				if clean := path.Clean(src); clean != "." && excluded(ignore, clean) {
					t.Errorf("Dockerfile line %d: %s %s: excluded by .dockerignore", in.line, in.cmd, src)
				}
			}
		}
	}
	if copies < 3 {
		t.Errorf("%d sources copied from the context; the scanner read nothing", copies)
	}
}

// dockerignore reads the repository's .dockerignore patterns, refusing
// the ones excluded cannot interpret ("!" exceptions and "**").
func dockerignore(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	var pats []string
	for line := range strings.Lines(string(data)) {
		p := strings.TrimSpace(line)
		if p == "" || strings.HasPrefix(p, "#") {
			continue
		}
		if strings.HasPrefix(p, "!") || strings.Contains(p, "**") {
			t.Fatalf(".dockerignore pattern %q: this test's matcher knows no ! or ** (extend excluded)", p)
		}
		p = strings.TrimPrefix(path.Clean(p), "/")
		if _, err := path.Match(p, ""); err != nil {
			t.Fatalf(".dockerignore pattern %q: %v", p, err)
		}
		pats = append(pats, p)
	}
	return pats
}

// excluded reports whether the context path p (slash-separated, relative
// to the root) is left out by one of the patterns, as Docker matches
// them: a pattern matching p or any directory above it.
func excluded(patterns []string, p string) bool {
	parts := strings.Split(p, "/")
	for i := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		for _, pat := range patterns {
			if ok, _ := path.Match(pat, prefix); ok {
				return true
			}
		}
	}
	return false
}

// TestExcludedMatchesLikeDocker checks the matcher on the cases the
// .dockerignore relies on.
func TestExcludedMatchesLikeDocker(t *testing.T) {
	pats := []string{"docs", "bomberzero", "*.test", "testdata/fuzz-cache"}
	for p, want := range map[string]bool{
		"docs":                          true,
		"docs/scaling.md":               true,
		"bomberzero":                    true,
		"cmd/bomberzero/main.go":        false,
		"nn.test":                       true,
		"nn/nn.test":                    false,
		"testdata/fuzz-cache/x":         true,
		"datasets/testdata/fuzz-cache":  false,
		"configs/training/default.toml": false,
	} {
		if got := excluded(pats, p); got != want {
			t.Errorf("excluded(%v, %q) = %v, want %v", pats, p, got, want)
		}
	}
}

// TestDockerignoreKeepsTheBuildInputs checks .dockerignore both ways: it
// leaves out runs, build outputs and .git, and excludes no file the
// image's go build reads (every Go, cgo, assembly and embedded file of
// the packages ./cmd/bomberzero is built from, by go list, and go.mod
// and go.sum).
func TestDockerignoreKeepsTheBuildInputs(t *testing.T) {
	ignore := dockerignore(t)
	for _, p := range []string{".git", "runs/fbgc-1/data/x.parquet", "bin/bomberzero", "bomberzero"} {
		if !excluded(ignore, p) {
			t.Errorf(".dockerignore keeps %s in the context", p)
		}
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command("go", "list", "-deps", "-json", "-tags", "openblas", "./cmd/bomberzero")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v: %s", err, errb.String())
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	inputs := []string{"go.mod", "go.sum"}
	dec := json.NewDecoder(&out)
	for {
		var p struct {
			Dir                                                   string
			Module                                                *struct{ Main bool }
			GoFiles, CgoFiles, SFiles, HFiles, CFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Module == nil || !p.Module.Main {
			continue
		}
		rel, err := filepath.Rel(abs, p.Dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.SFiles, p.HFiles, p.CFiles, p.EmbedFiles} {
			for _, f := range list {
				inputs = append(inputs, filepath.ToSlash(filepath.Join(rel, f)))
			}
		}
	}
	if len(inputs) < 50 {
		t.Fatalf("%d build inputs: go list read nothing", len(inputs))
	}
	for _, p := range inputs {
		if excluded(ignore, p) {
			t.Errorf(".dockerignore excludes %s, which go build reads", p)
		}
	}
}
