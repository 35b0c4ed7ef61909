package cli

import (
	"debug/buildinfo"
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
func TestBinary_NoEagerInitDependencies(t *testing.T) {
	info, err := buildinfo.ReadFile(crmemBin)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range info.Deps {
		switch d.Path {
		case "github.com/alecthomas/chroma/v2", "github.com/dlclark/regexp2",
			"github.com/microcosm-cc/bluemonday", "github.com/gorilla/css", "github.com/aymerick/douceur",
			"github.com/yuin/goldmark":
			t.Errorf("crmem links %s %s", d.Path, d.Version)
		case "github.com/mattn/go-runewidth":
			var patch int
			if _, err := fmt.Sscanf(d.Version, "v0.0.%d", &patch); err != nil || patch < 30 {
				t.Errorf("crmem links go-runewidth %s: its tables are built at init before v0.0.30", d.Version)
			}
		}
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
