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
	n, _ := fuzzCount(t)
	return n
}

// fuzzCount is the number of fuzz targets and of packages holding one
// (.ci/run builds one instrumented test binary for each).
func fuzzCount(t *testing.T) (targets, packages int) {
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
	dirs := map[string]bool{}
	for _, name := range strings.Fields(string(out)) {
		src, err := os.ReadFile(filepath.Clean(name))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(target.FindAll(src, -1)); n > 0 {
			targets += n
			dirs[filepath.Dir(name)] = true
		}
	}
	return targets, len(dirs)
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

// fuzzPhaseFigures are the figures of CI's fuzz phase that
// docs/development.md gives: each the default .ci/run sets (a pattern of
// the script, its number the first group) and how the page says it (a
// pattern of the page, its number the first group, commas allowed).
var fuzzPhaseFigures = []struct{ name, script, page string }{
	{"FUZZ_EXECS", `default_execs=\$\{FUZZ_EXECS:-(\d+)\}`, "`FUZZ_EXECS`, ([\\d,]+)\\)"},
	{"FUZZ_PHASE", `phase_budget=\$\{FUZZ_PHASE:-(\d+)\}`, "([\\d,]+) s \\(`FUZZ_PHASE`"},
	{"FUZZ_CEILING", `max_ceiling=\$\{FUZZ_CEILING:-(\d+)\}`, "([\\d,]+) s \\(`FUZZ_CEILING`\\)"},
}

// firstNumber is the first group of pattern's first match in text, read as
// a number with its thousands' commas; ok is false without a match.
func firstNumber(pattern, text string) (n int, ok bool) {
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return n, err == nil
}

// TestDocs_FuzzPhaseFigures: the fuzz phase's budgets that
// docs/development.md gives are the defaults .ci/run sets, and a number of
// instrumented builds, if it gives one, is the number of packages with a
// fuzz target (the page said 11 builds when there were 12, and a package
// split later made 13). Typed figures drift; these are checked.
func TestDocs_FuzzPhaseFigures(t *testing.T) {
	script, err := os.ReadFile(filepath.Join(".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join("docs", "development.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(page)), " ") // lines joined
	for _, f := range fuzzPhaseFigures {
		want, ok := firstNumber(f.script, string(script))
		if !ok {
			t.Errorf(".ci/run: no default for %s (%q)", f.name, f.script)
			continue
		}
		got, ok := firstNumber(f.page, text)
		if !ok {
			t.Errorf("docs/development.md does not give %s's default (%q)", f.name, f.page)
			continue
		}
		if got != want {
			t.Errorf("docs/development.md gives %s as %d; .ci/run's default is %d", f.name, got, want)
		}
	}
	// The page says "one instrumented build per package with a target";
	// a number of builds, if it gives one again, must be right.
	_, packages := fuzzCount(t)
	if got, ok := firstNumber(`(\d+) instrumented builds`, text); ok && got != packages {
		t.Errorf("docs/development.md says the fuzz phase makes %d instrumented builds; %d packages have a fuzz target (one build each)", got, packages)
	}
}

// TestDocs_FuzzPhaseFiguresRead: the patterns read the figures as the page
// words them.
func TestDocs_FuzzPhaseFiguresRead(t *testing.T) {
	text := "a new target gets `FUZZ_EXECS`, 50,000) and … of the phase's 280 s (`FUZZ_PHASE`, builds included), at most 45 s (`FUZZ_CEILING`), so"
	for f, want := range map[int]int{0: 50000, 1: 280, 2: 45} {
		if got, ok := firstNumber(fuzzPhaseFigures[f].page, text); !ok || got != want {
			t.Errorf("%s: read %d %v, want %d", fuzzPhaseFigures[f].name, got, ok, want)
		}
	}
}
