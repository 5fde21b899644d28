// Package layers holds the test that keeps docs/ARCHITECTURE.md and the
// import graph in step: the packages are listed there lowest first, and a
// package may only import those above it.
package layers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "bomberzero"

// root is the module root, two directories up from this package.
var root = filepath.Join("..", "..")

// documentedOrder reads the package table of docs/ARCHITECTURE.md: the
// package paths in their rows' order, lowest first.
func documentedOrder(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| `([a-z0-9/]+)` \\|")
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := row.FindStringSubmatch(sc.Text()); m != nil {
			order = append(order, module+"/"+m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(order) < 10 {
		t.Fatalf("docs/ARCHITECTURE.md lists %d packages; the table was not read", len(order))
	}
	return order
}

// imports runs "go list -json ./..." and returns each package's imports of
// the module's packages (tests' imports aside).
func imports(t *testing.T) map[string][]string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v: %s", err, errb.String())
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(&out)
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		var own []string
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				own = append(own, imp)
			}
		}
		graph[p.ImportPath] = own
	}
	return graph
}

// TestNoPackageImportsOneListedBelowIt checks the rule of
// docs/ARCHITECTURE.md: every package is in its table, and imports only
// packages listed above it.
func TestNoPackageImportsOneListedBelowIt(t *testing.T) {
	order := documentedOrder(t)
	graph := imports(t)
	rank := map[string]int{}
	for i, p := range order {
		if _, ok := graph[p]; !ok {
			t.Errorf("docs/ARCHITECTURE.md lists %s, which is not a package", p)
		}
		rank[p] = i
	}
	for p, deps := range graph {
		rp, listed := rank[p]
		if !listed {
			t.Errorf("%s is not in the package table of docs/ARCHITECTURE.md", p)
			continue
		}
		for _, d := range deps {
			if rd, ok := rank[d]; ok && rd >= rp {
				t.Errorf("%s imports %s, listed at or below it in docs/ARCHITECTURE.md", p, d)
			}
		}
	}
}

// TestTheLayersIssue15Separated checks the imports issue 15 removed, by
// name: the rules engine knows no evaluator, matches and self-play are
// siblings over agent, and the command line reaches the search only
// through agent.
func TestTheLayersIssue15Separated(t *testing.T) {
	graph := imports(t)
	for _, c := range []struct{ from, to string }{
		{"env", "eval"},
		{"match", "selfplay"},
		{"selfplay", "match"},
		{"cmd/bomberzero", "mcts"},
		{"cmd/bomberzero", "eval"},
	} {
		from, to := module+"/"+c.from, module+"/"+c.to
		deps, ok := graph[from]
		if !ok {
			t.Fatalf("no package %s", from)
		}
		if slices.Contains(deps, to) {
			t.Errorf("%s imports %s", from, to)
		}
	}
}
