package cli

import (
	"fmt"
	"strings"
	"testing"
)

// TestRecalls_ProblemsCountWhatTheListShows: the problems line counts the
// results that cannot be read as names as the list shows them. A result
// read against the entries (a block whose entry changed since, followed
// by a name no entry has) became unparsable after the sessions were read,
// and the line still counted only what the result's shape gave (demo: two
// "(unparsable" recalls, "1 result that cannot be read").
func TestRecalls_ProblemsCountWhatTheListShows(t *testing.T) {
	r := crmem(t, "", "--demo", "recalls")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	n := strings.Count(r.stdout, "(unparsable")
	if n == 0 {
		t.Fatalf("the demo has no unparsable recall to count:\n%s", r.stdout)
	}
	word := "results"
	if n == 1 {
		word = "result"
	}
	if want := fmt.Sprintf("%d %s that cannot be read as names", n, word); !strings.Contains(r.stderr, want) {
		t.Fatalf("stderr %q lacks %q (the list shows %d)", r.stderr, want, n)
	}
}
