package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fuzzTarget is a fuzz target's declaration, as .ci/run's fuzz phase finds
// them (grep '^func Fuzz[A-Za-z0-9_]+\(').
const fuzzTarget = `(?m)^func Fuzz[A-Za-z0-9_]+\(`

// statedTargets is where README.md says how many targets the fuzz phase
// runs: "the fuzz phase … runs 24 targets".
const statedTargets = `fuzz phase[^.]*?(\d+)\s+targets`

// fuzzTargets counts the fuzz targets of the module's packages. go list
// names the test files (a walk of the module would read the root folder,
// and go test's cache of this package would then depend on every file
// there).
func fuzzTargets(t *testing.T) int {
	t.Helper()
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go list needs the go command: %v", err)
	}
	cmd := exec.Command(gotool, "list", "-f", `{{$d := .Dir}}{{range .TestGoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .XTestGoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}`, "./...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	target := regexp.MustCompile(fuzzTarget)
	n := 0
	for _, name := range strings.Fields(string(out)) {
		src, err := os.ReadFile(filepath.Clean(name))
		if err != nil {
			t.Fatal(err)
		}
		n += len(target.FindAll(src, -1))
	}
	return n
}

// TestReadme_FuzzTargetsCounted: the number of fuzz targets the
// documentation gives for CI's fuzz phase (README.md, else the first page
// under docs/ that gives one) is the number there is. It was typed once
// (13) and stayed while the targets grew to 24.
func TestReadme_FuzzTargetsCounted(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	stated := regexp.MustCompile(statedTargets)
	for _, page := range append([]string{"README.md"}, pages...) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		m := stated.FindSubmatch(text)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(string(m[1]))
		if got := fuzzTargets(t); got != n {
			t.Errorf("%s says the fuzz phase runs %d targets; the module has %d (func Fuzz… in its test files)", page, n, got)
		}
		return
	}
	t.Fatalf("neither README.md nor a page under docs/ says how many targets the fuzz phase runs (%q)", statedTargets)
}
