package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestSearch_PrefixSectionHoldsOnlyPrefixMatches pins a finding of the
// review of issue 10: when recall has more hits than the list keeps
// (maxHits), a recall hit ranked beyond the cap that also matched the
// expanded word was listed under "prefix matches (N, mig*)" with a "~"
// score, so the section listed more rows than its own count said (on
// 10k.db `/postgres mig` showed "30 prefix · showing 1,149").
func TestSearch_PrefixSectionHoldsOnlyPrefixMatches(t *testing.T) {
	var es []store.Entry
	add := func(name, content string) {
		es = append(es, store.Entry{ID: uint64(len(es) + 1), Name: name, CreatedAt: 1767000000 + uint64(len(es)), Content: content})
	}
	for i := range maxHits {
		add(fmt.Sprintf("short-%04d", i), "postgres postgres postgres")
	}
	long := strings.Repeat("filler ", 300)
	for i := range 20 { // recall hits ranked below the cap, with the expansion
		add(fmt.Sprintf("long-%02d", i), "postgres migration "+long)
	}
	for i := range 5 { // the only true prefix matches
		add(fmt.Sprintf("only-%d", i), "migration plan")
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, es)
	m := openModel(t, path, 120, 40)
	press(m, "/")
	typeText(m, "postgres mig")
	r := m.result
	if r == nil || r.ExactTotal != maxHits+20 || r.PrefixOnly != 5 {
		t.Fatalf("result %+v: want %d hits, 5 prefix-only", r, maxHits+20)
	}
	inPrefix := 0
	for _, row := range m.list.Rows() {
		if !row.IsEntry() || row.Hit != hitPrefix {
			continue
		}
		inPrefix++
		if e := m.c.snap.entries[row.Idx]; strings.Contains(e.Content, "postgres") {
			t.Errorf("%s, a recall hit, is listed as a prefix match", e.Name)
		}
	}
	if inPrefix != r.PrefixOnly {
		t.Errorf("the prefix section lists %d rows, its count says %d", inPrefix, r.PrefixOnly)
	}
}

// TestSearch_RecallStartsOnTheFirstScreen pins a finding of the review of
// issue 10: at 80×24 `/canary` on medium.db listed 20 name matches, their
// title and the "more" row, and the agent's ranking began below the first
// screen (SPEC §7: the name section is short "so that the agent's own
// ranking starts within the first screen").
func TestSearch_RecallStartsOnTheFirstScreen(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 20}, {120, 40}, {100, 14}} {
		m := openModel(t, copyFixture(t, "crmem/medium.db"), size[0], size[1])
		press(m, "/")
		typeText(m, "canary")
		screen := plainScreen(m)
		if !strings.Contains(screen, "recall (") {
			t.Errorf("at %dx%d the recall section is not on the first screen:\n%s", size[0], size[1], screen)
		}
		if !strings.Contains(screen, "more name matches") {
			t.Errorf("at %dx%d the name matches are not cut with a \"more\" row:\n%s", size[0], size[1], screen)
		}
	}
	// The default 20 rows stay where they fit, and a resize re-lays the
	// section out.
	m := openModel(t, copyFixture(t, "crmem/medium.db"), 80, 24)
	press(m, "/")
	typeText(m, "canary")
	drive(m, resizeCmd(120, 40))
	names := 0
	for _, r := range m.list.Rows() {
		if r.IsEntry() && r.Hit == hitName {
			names++
		}
	}
	if names != 20 {
		t.Errorf("at 120x40 after a resize %d name rows are listed, want the default 20", names)
	}
}

// TestSort_OrderBuiltDuringASearchWaitsForIt pins a finding of the review
// of issue 10: `s` at 100k builds the name order off the loop (0.4–1.4 s);
// when `/` and a query came before it was built, the order landed on the
// search, which switched from relevance to name sorting while the user
// typed, and clearing the search went back to the order before the `s`.
func TestSort_OrderBuiltDuringASearchWaitsForIt(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/medium.db"), 120, 40)
	m.c.snap.mu.Lock()
	delete(m.c.snap.sorted, sortName) // as at 100k: not built yet
	m.c.snap.mu.Unlock()
	building := m.setOrder(sortName) // what `s` `s` does; its result held back
	press(m, "/")
	typeText(m, "canary")
	drive(m, building) // the order arrives while searching
	if m.list.Order != sortRelevance {
		t.Fatalf("the search is sorted by %s, want relevance", m.list.Order)
	}
	if h := headers(m); len(h) == 0 || !strings.HasPrefix(h[0], "name matches") {
		t.Fatalf("the search lost its sections: %q", h)
	}
	press(m, "esc")
	if m.list.Order != sortName {
		t.Fatalf("after the search the list is sorted by %s, want name (the order asked for)", m.list.Order)
	}
}

// TestSearch_PrefixOnlyMatchesListedPastTheCap: when the expanded query's
// best 1,000 are all recall hits (beyond recall's cap), the entries only
// the expansion finds are still listed in the prefix section (at 100k,
// `/postgres migration roll` counted 20,666 prefix matches and, without
// this, listed none).
func TestSearch_PrefixOnlyMatchesListedPastTheCap(t *testing.T) {
	var es []store.Entry
	add := func(name, content string) {
		es = append(es, store.Entry{ID: uint64(len(es) + 1), Name: name, CreatedAt: 1767000000 + uint64(len(es)), Content: content})
	}
	for i := range maxHits {
		add(fmt.Sprintf("both-%04d", i), "postgres migration migration") // recall hits that the expansion ranks first
	}
	for i := range 200 {
		add(fmt.Sprintf("plain-%03d", i), "postgres")
	}
	long := strings.Repeat("filler ", 300)
	for i := range 5 {
		add(fmt.Sprintf("only-%d", i), "migration "+long) // found only through mig*
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, es)
	m := openModel(t, path, 120, 40)
	press(m, "/")
	typeText(m, "postgres mig")
	if r := m.result; r == nil || r.ExactTotal != maxHits+200 || r.PrefixOnly != 5 {
		t.Fatalf("result %+v: want %d hits, 5 prefix-only", r, maxHits+200)
	}
	var got []string
	for _, row := range m.list.Rows() {
		if row.IsEntry() && row.Hit == hitPrefix {
			got = append(got, m.c.snap.entries[row.Idx].Name)
		}
	}
	if len(got) != 5 {
		t.Errorf("the prefix section lists %q, want the 5 only-* entries", got)
	}
}
