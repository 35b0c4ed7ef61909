package main

import (
	"bufio"
	"encoding/json"
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
func readTiers(r io.Reader) (tiers, error) { return readBlock(r, "tiers") }

// readBlock reads the ```name block of the architecture page: a line per
// tier, top first, "NAME: PACKAGES".
func readBlock(r io.Reader, name string) (tiers, error) {
	var out tiers
	in := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "```"+name:
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
	return nil, fmt.Errorf("no ```%s block", name)
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
func (ts tiers) against(graph map[string][]string) []string { return ts.check(graph, true) }

// within lists what runs against ts among the packages ts places: an
// import of a package in a higher tier (the order inside one tier of the
// coarse tiers; a package ts does not place is not checked).
func (ts tiers) within(graph map[string][]string) []string { return ts.check(graph, false) }

// check is against (every package must be placed: all) or within.
func (ts tiers) check(graph map[string][]string, all bool) []string {
	var out []string
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		from := ts.of(p)
		if from < 0 {
			if all {
				out = append(out, fmt.Sprintf("%s is in no tier", p))
			}
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

// importers lists what runs against only, a ```only block (a line per
// package: "PACKAGE: THE PACKAGES THAT MAY IMPORT IT"): an import of such
// a package by any other, save the package's own subpackages (its test
// helpers). A face (cli, tui) is imported only by the faces above it;
// the adapter of crabtalk's store only by store/open.
func (only tiers) importers(graph map[string][]string) []string {
	var out []string
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		for _, imp := range graph[p] {
			for _, rule := range only {
				if imp != rule.name || p == imp || strings.HasPrefix(p, imp+"/") || slices.Contains(rule.pkgs, p) {
					continue
				}
				out = append(out, fmt.Sprintf("%s imports %s, which only %s may import", p, imp, strings.Join(rule.pkgs, ", ")))
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

// readArch reads the ```name block of docs/ARCHITECTURE.md.
func readArch(t *testing.T, name string) tiers {
	t.Helper()
	f, err := os.Open("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := readBlock(f, name)
	if err != nil {
		t.Fatalf("docs/ARCHITECTURE.md: %v", err)
	}
	return ts
}

// TestArchitecture_ImportsGoDownTheTiers: every package of the module is
// in one tier of docs/ARCHITECTURE.md and imports only within its tier or
// below it; inside the library, only down the order the diagram draws
// (```library); and a face or an adapter only from where ```only says.
func TestArchitecture_ImportsGoDownTheTiers(t *testing.T) {
	graph := importGraph(t)
	for _, bad := range readArch(t, "tiers").against(graph) {
		t.Error(bad)
	}
	for _, bad := range readArch(t, "library").within(graph) {
		t.Error(bad)
	}
	for _, bad := range readArch(t, "only").importers(graph) {
		t.Error(bad)
	}
	for _, bad := range readArch(t, "screen").screen(graph) {
		t.Error(bad)
	}
	for _, bad := range readArch(t, "folders").folders(readArch(t, "tiers"), graph) {
		t.Error(bad)
	}
}

// folders lists what runs against ts, the ```folders block (a tier's
// name and the folders that hold it): a package in one of those folders
// that the tiers place in another tier. The folders then show the tiers:
// drawn by folder, the import graph runs down as the tiers do.
func (ts tiers) folders(tiers tiers, graph map[string][]string) []string {
	var out []string
	for p := range graph {
		f, t := ts.of(p), tiers.of(p)
		if f >= 0 && t >= 0 && ts[f].name != tiers[t].name {
			out = append(out, fmt.Sprintf("%s is in the %s folder but the %s tier", p, ts[f].name, tiers[t].name))
		}
	}
	slices.Sort(out)
	return out
}

// screen lists what runs against ts, the ```screen block (the root tui
// package, its parts, the package the parts share, top first): a
// package under tui/ the block does not place, and an import up its
// lines, a part importing the root above all. The ```only block lets a
// package's subpackages import it (its test helpers); this is what keeps
// a screen part, a subpackage of tui, from reaching the root.
func (ts tiers) screen(graph map[string][]string) []string {
	var out []string
	for p := range graph {
		if strings.HasPrefix(p, "tui/") && ts.of(p) < 0 {
			out = append(out, fmt.Sprintf("%s is in no line of the screen block", p))
		}
	}
	slices.Sort(out)
	return append(out, ts.within(graph)...)
}

// TestArchitecture_AgainstFindsWhatRunsUp: the check reports an import up
// the tiers (a leaf utility importing a face helper, the library a face
// helper) and a package in no tier, and nothing for imports that go down
// or stay level.
func TestArchitecture_AgainstFindsWhatRunsUp(t *testing.T) {
	ts, err := readTiers(strings.NewReader("```tiers\nfaces: cli\nhelpers: face/...\nlibrary: store bm25\nleaves: internal/humanize internal/sanitize\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := ts.against(map[string][]string{
		"cli":                    {"store", "face/config", "face/cellwidth"},
		"face/cellwidth":         {"internal/humanize"},
		"store":                  {"bm25", "face/config"},
		"bm25":                   {"internal/humanize"},
		"internal/humanize":      {"internal/sanitize"},
		"internal/sanitize":      {"face/mdbound"},
		"internal/somewhere/new": nil,
	})
	want := []string{
		"internal/sanitize (leaves) imports face/mdbound (helpers), a tier above it",
		"internal/somewhere/new is in no tier",
		"store (library) imports face/config (helpers), a tier above it",
	}
	if !slices.Equal(got, want) {
		t.Errorf("against = %q\nwant %q", got, want)
	}
}

// TestArchitecture_WithinFindsTheOrder: inside the library the order is
// checked line by line, so bm25 importing store (level in the coarse
// tiers) and store importing store/why run up it; a package the order
// does not place (a face) is left to the tiers.
func TestArchitecture_WithinFindsTheOrder(t *testing.T) {
	ts, err := readBlock(strings.NewReader("```library\nopen: store/open\nreaders: store/why store/history\ncore: store\nranking: bm25\n```\n"), "library")
	if err != nil {
		t.Fatal(err)
	}
	got := ts.within(map[string][]string{
		"cli":           {"store/open", "store"},
		"store/open":    {"store", "store/why"},
		"store/why":     {"store", "bm25", "store/history"},
		"store/history": {"store"},
		"store":         {"bm25", "store/why"},
		"bm25":          {"store"},
	})
	want := []string{
		"bm25 (ranking) imports store (core), a tier above it",
		"store (core) imports store/why (readers), a tier above it",
	}
	if !slices.Equal(got, want) {
		t.Errorf("within = %q\nwant %q", got, want)
	}
}

// TestArchitecture_ScreenFindsAPartReachingTheRoot: a screen part that
// imports the root tui package, or the shared package that imports a
// part, runs up the screen block; a package under tui/ the block does not
// place is reported; a part importing the shared package, and the root
// importing both, are not.
func TestArchitecture_ScreenFindsAPartReachingTheRoot(t *testing.T) {
	ts, err := readBlock(strings.NewReader("```screen\nroot: tui\nparts: tui/statspanel tui/helpscreen\nshared: tui/part\n```\n"), "screen")
	if err != nil {
		t.Fatal(err)
	}
	got := ts.screen(map[string][]string{
		"cli":            {"tui"},
		"tui":            {"tui/part", "tui/statspanel", "tui/helpscreen", "store"},
		"tui/statspanel": {"tui/part", "tui", "store"},
		"tui/helpscreen": {"tui/part"},
		"tui/part":       {"tui/helpscreen", "keymap"},
		"tui/newpanel":   {"tui/part"},
	})
	want := []string{
		"tui/newpanel is in no line of the screen block",
		"tui/part (shared) imports tui/helpscreen (parts), a tier above it",
		"tui/statspanel (parts) imports tui (root), a tier above it",
	}
	if !slices.Equal(got, want) {
		t.Errorf("screen = %q\nwant %q", got, want)
	}
}

// TestArchitecture_ImportersFindsWhoMayNot: a face imported by a library
// package or a helper, and the adapter imported by anything but
// store/open (its own test helpers aside), are reported.
func TestArchitecture_ImportersFindsWhoMayNot(t *testing.T) {
	only, err := readBlock(strings.NewReader("```only\ncli: main\ntui: cli\nstore/crabdb: store/open\n```\n"), "only")
	if err != nil {
		t.Fatal(err)
	}
	got := only.importers(map[string][]string{
		"main":                       {"cli"},
		"cli":                        {"tui", "store/open"},
		"face/config":                {"tui"},
		"store/why":                  {"cli", "store"},
		"store/open":                 {"store/crabdb"},
		"store/crabdb/crabdbtest/gl": {"store/crabdb"},
		"store/history":              {"store/crabdb"},
	})
	want := []string{
		"face/config imports tui, which only cli may import",
		"store/history imports store/crabdb, which only store/open may import",
		"store/why imports cli, which only main may import",
	}
	if !slices.Equal(got, want) {
		t.Errorf("importers = %q\nwant %q", got, want)
	}
}
