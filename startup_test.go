package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// initBudget bounds what every crmem command pays before main runs: the
// allocations and bytes of all its packages' init functions (package-level
// variables included), as GODEBUG=inittrace=1 reports them. A regular
// expression compiled or a table built at package level is paid by every
// command, `crmem version` and a hook's one search included; an import
// that brings such work back (goldmark's own extension package did, 2,049
// allocations for linkify's patterns) fails TestStartup_InitWithinBudget.
// Today's figures (Go 1.26, linux/amd64): 479 allocations, 91 KB (516 in
// the crmem binary itself), down from 1,965 and 380 KB once goldmark's
// parser and util packages, which built their regular expressions and
// case-folding table at init, were copied into internal/glamour/goldmark
// to build them on first use (and its HTML attribute filters, which crmem
// never renders with). Raise the budget only for a reason a commit
// message gives.
var initBudget = struct{ allocs, bytes int }{allocs: 500, bytes: 96_000}

// initCost is one package's init as GODEBUG=inittrace=1 reports it.
type initCost struct {
	pkg           string
	allocs, bytes int
}

// parseInitTrace reads inittrace's lines ("init PKG @T ms, C ms clock, B
// bytes, A allocs") from out and ignores any other line.
func parseInitTrace(out []byte) ([]initCost, error) {
	var costs []initCost
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err := strconv.Atoi(f[7])
		if err != nil {
			return nil, fmt.Errorf("inittrace line %q: %w", sc.Text(), err)
		}
		a, err := strconv.Atoi(f[9])
		if err != nil {
			return nil, fmt.Errorf("inittrace line %q: %w", sc.Text(), err)
		}
		costs = append(costs, initCost{pkg: f[1], allocs: a, bytes: b})
	}
	return costs, sc.Err()
}

// crmemDeps is the set of packages the crmem binary links (go list -deps),
// tests' imports aside.
func crmemDeps(t *testing.T) map[string]bool {
	t.Helper()
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go list needs the go command: %v", err)
	}
	cmd := exec.Command(gotool, "list", "-deps", "-f", "{{.ImportPath}}", ".")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	return deps
}

// TestStartup_InitWithinBudget: the package inits of crmem's packages stay
// within initBudget. It starts this test binary again with
// GODEBUG=inittrace=1 and no test to run (the binary links every package
// crmem does, and runs their inits as crmem does), and counts only the
// packages crmem links but the main package, so the inits of the testing
// package and of this package's tests are left out: no build of crmem is
// needed.
func TestStartup_InitWithinBudget(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("-cover: coverage instrumentation adds work to the inits it would count")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$", "-test.count=1")
	godebug := "inittrace=1"
	if old := os.Getenv("GODEBUG"); old != "" {
		godebug = old + "," + godebug
	}
	cmd.Env = append(os.Environ(), "GODEBUG="+godebug)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", self, err, stderr.Bytes())
	}
	costs, err := parseInitTrace(stderr.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(costs) == 0 {
		t.Fatalf("no inittrace lines in the output of %s:\n%s", self, stderr.Bytes())
	}
	deps := crmemDeps(t)
	var ours []initCost
	allocs, size := 0, 0
	for _, c := range costs {
		// This package is left out too: in its test binary its inits are
		// its test files' as well (a pattern compiled at package level by a
		// test), and crmem's main.go has none.
		if !deps[c.pkg] || c.pkg == module {
			continue
		}
		ours = append(ours, c)
		allocs += c.allocs
		size += c.bytes
	}
	t.Logf("crmem's package inits: %d allocations, %d bytes (budget %d, %d)", allocs, size, initBudget.allocs, initBudget.bytes)
	if allocs <= initBudget.allocs && size <= initBudget.bytes {
		return
	}
	slices.SortFunc(ours, func(a, b initCost) int { return b.allocs - a.allocs })
	var worst strings.Builder
	for _, c := range ours[:min(8, len(ours))] {
		fmt.Fprintf(&worst, "\n  %-60s %6d allocs %8d bytes", c.pkg, c.allocs, c.bytes)
	}
	t.Errorf("crmem's package inits make %d allocations of %d bytes, over the budget of %d and %d: every command pays them before main (compile regular expressions and build tables on first use instead; see initBudget). The costliest:%s",
		allocs, size, initBudget.allocs, initBudget.bytes, worst.String())
}

// TestStartup_ParseInitTrace: inittrace's lines are read for their package,
// bytes and allocations; other lines are skipped.
func TestStartup_ParseInitTrace(t *testing.T) {
	out := []byte("init internal/bytealg @0.008 ms, 0 ms clock, 0 bytes, 0 allocs\n" +
		"init github.com/yuin/goldmark/extension @2.1 ms, 0.95 ms clock, 264240 bytes, 2049 allocs\n" +
		"PASS\n")
	got, err := parseInitTrace(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []initCost{{"internal/bytealg", 0, 0}, {"github.com/yuin/goldmark/extension", 2049, 264240}}
	if !slices.Equal(got, want) {
		t.Errorf("parseInitTrace = %+v, want %+v", got, want)
	}
}
