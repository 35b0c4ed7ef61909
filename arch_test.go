package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/crmem/crmem"

// tiers are the package tiers of docs/ARCHITECTURE.md, top first: each a
// name and its packages (module-relative; "main" is the module's root, a
// trailing "/..." takes a package and everything under it).
type tiers []struct {
	name string
	pkgs []string
}

// readTiers reads the ```tiers block of the architecture page.
func readTiers(r io.Reader) (tiers, error) {
	var out tiers
	in := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "```tiers":
			in = true
		case in && line == "```":
			return out, nil
		case in:
			name, pkgs, ok := strings.Cut(line, ":")
			if !ok {
				return nil, fmt.Errorf("tier line %q: want NAME: PACKAGES", line)
			}
			out = append(out, struct {
				name string
				pkgs []string
			}{strings.TrimSpace(name), strings.Fields(pkgs)})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, errors.New("no ```tiers block")
}

// of is the index of the tier holding pkg (module-relative), or -1.
func (ts tiers) of(pkg string) int {
	for i, t := range ts {
		for _, p := range t.pkgs {
			if p == pkg || (strings.HasSuffix(p, "/...") && (pkg == strings.TrimSuffix(p, "/...") || strings.HasPrefix(pkg, p[:len(p)-3]))) {
				return i
			}
		}
	}
	return -1
}

// against lists what runs against ts in graph (a module-relative package
// → the module packages it imports): a package in no tier, and an import
// of a package in a higher tier.
func (ts tiers) against(graph map[string][]string) []string {
	var out []string
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		from := ts.of(p)
		if from < 0 {
			out = append(out, fmt.Sprintf("%s is in no tier", p))
			continue
		}
		for _, imp := range graph[p] {
			to := ts.of(imp)
			if to >= 0 && to < from {
				out = append(out, fmt.Sprintf("%s (%s) imports %s (%s), a tier above it", p, ts[from].name, imp, ts[to].name))
			}
		}
	}
	return out
}

// importGraph is go list's view of the module: each package and the
// module packages it imports (tests' imports aside).
func importGraph(t *testing.T) map[string][]string {
	t.Helper()
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go list needs the go command: %v", err)
	}
	cmd := exec.Command(gotool, "list", "-json=ImportPath,Imports", "./...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	rel := func(p string) string {
		if p == module {
			return "main"
		}
		return strings.TrimPrefix(p, module+"/")
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		var own []string
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				own = append(own, rel(imp))
			}
		}
		graph[rel(p.ImportPath)] = own
	}
	return graph
}

// TestArchitecture_ImportsGoDownTheTiers: every package of the module is
// in one tier of docs/ARCHITECTURE.md and imports only within its tier or
// below it.
func TestArchitecture_ImportsGoDownTheTiers(t *testing.T) {
	f, err := os.Open("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := readTiers(f)
	if err != nil {
		t.Fatalf("docs/ARCHITECTURE.md: %v", err)
	}
	for _, bad := range ts.against(importGraph(t)) {
		t.Error(bad)
	}
}

// TestArchitecture_AgainstFindsWhatRunsUp: the check reports an import up
// the tiers (a leaf utility importing a face helper, the library a face
// helper) and a package in no tier, and nothing for imports that go down
// or stay level.
func TestArchitecture_AgainstFindsWhatRunsUp(t *testing.T) {
	ts, err := readTiers(strings.NewReader("```tiers\nfaces: cli\nhelpers: internal/config internal/glamour/...\nlibrary: store bm25\nleaves: internal/humanize internal/sanitize\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := ts.against(map[string][]string{
		"cli":                    {"store", "internal/config", "internal/glamour/ansi"},
		"internal/glamour/ansi":  {"internal/humanize"},
		"store":                  {"bm25", "internal/config"},
		"bm25":                   {"store"},
		"internal/humanize":      {"internal/sanitize"},
		"internal/sanitize":      {"internal/glamour/extension"},
		"internal/somewhere/new": nil,
	})
	want := []string{
		"internal/sanitize (leaves) imports internal/glamour/extension (helpers), a tier above it",
		"internal/somewhere/new is in no tier",
		"store (library) imports internal/config (helpers), a tier above it",
	}
	if !slices.Equal(got, want) {
		t.Errorf("against = %q\nwant %q", got, want)
	}
}
