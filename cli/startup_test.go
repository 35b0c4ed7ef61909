package cli

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestBinary_NoEagerInitDependencies pins what keeps crmem's start short:
// the binary links neither chroma (whose init registers every lexer and
// style), bluemonday (CSS tables), goldmark itself (its util and parser
// packages build the case-folding table and compile the HTML patterns at
// init: internal/glamour/goldmark is a copy that builds them on first use)
// nor a go-runewidth that builds its width tables at init (before v0.0.30).
//
// The binary's module list is read by `go version -m`, not by
// debug/buildinfo, which would build debug/elf, debug/dwarf and five more
// packages of the standard library for this test alone.
func TestBinary_NoEagerInitDependencies(t *testing.T) {
	out, err := exec.Command(goTool(), "version", "-m", crmemBin).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("go version -m: %v: %s", err, exit.Stderr)
		}
		t.Fatalf("go version -m: %v", err)
	}
	deps := 0
	for line := range strings.Lines(string(out)) {
		// "\tdep\tPATH\tVERSION\tSUM" (a replacement follows on a "=>" line)
		f := strings.Split(strings.TrimSpace(line), "\t")
		if len(f) < 3 || f[0] != "dep" {
			continue
		}
		deps++
		path, version := f[1], f[2]
		switch path {
		case "github.com/alecthomas/chroma/v2", "github.com/dlclark/regexp2",
			"github.com/microcosm-cc/bluemonday", "github.com/gorilla/css", "github.com/aymerick/douceur",
			"github.com/yuin/goldmark":
			t.Errorf("crmem links %s %s", path, version)
		case "github.com/mattn/go-runewidth":
			var patch int
			if _, err := fmt.Sscanf(version, "v0.0.%d", &patch); err != nil || patch < 30 {
				t.Errorf("crmem links go-runewidth %s: its tables are built at init before v0.0.30", version)
			}
		}
	}
	if deps == 0 {
		t.Fatalf("go version -m %s lists no module:\n%s", crmemBin, out)
	}
}

// TestBinary_NoEagerInitPackages pins, package by package, what the
// module list of TestBinary_NoEagerInitDependencies cannot see: crmem
// never links golang.org/x/net's html package nor goldmark's extension
// package (the root package's TestStartup_InitWithinBudget bounds the sum
// of every package's init).
func TestBinary_NoEagerInitPackages(t *testing.T) {
	// Packages with a costly init, each with what does its job instead.
	replaced := map[string]string{
		// Its entity tables (~2,250 entries, ~113 KB of heap) are built at
		// init. crmem parses no HTML: internal/sanitize escapes it before
		// rendering (internal/glamour's FuzzNoHTMLNode).
		"golang.org/x/net/html": "nothing: escape raw HTML with internal/sanitize",
		// linkify's URL patterns (~2,049 allocations) are compiled at
		// init; crmem's copy compiles them on first use.
		"github.com/yuin/goldmark/extension": "internal/glamour/extension",
	}
	out, err := exec.Command(goTool(), "list", "-deps", "..").Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("go list -deps: %v: %s", err, exit.Stderr)
		}
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if instead, ok := replaced[pkg]; ok {
			t.Errorf("crmem links %s, whose init is costly: use %s", pkg, instead)
		}
	}
}
