package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestFindings_BottomReachesTheLastFinding: G and g in the findings view
// go to its last and first finding however few rows the list behind it
// has (a search had narrowed it to one entry: G moved one finding).
func TestFindings_BottomReachesTheLastFinding(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	at := uint64(testNow.Unix()) - 86400
	var es []store.Entry
	// Six notes in their own words (notes that differ by a number alone
	// are near-duplicates by wording), each holding the token.
	lines := []string{"the billing worker reads", "nightly backups copy", "our staging deploy pulls",
		"grafana dashboards fetch", "the release script signs with", "ci runners cache"}
	for i := range 6 {
		es = append(es, store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("token-%d", i), Kind: store.Note, CreatedAt: at + uint64(i),
			Aliases: []string{}, Content: fmt.Sprintf("%s\n%s\n%s.", lines[i], fakeToken, strings.Fields(lines[(i+1)%6])[1])})
	}
	h := newEditHarnessIn(t, path, t.TempDir())
	writeEntries(t, path, es)
	reload(h.m)
	press(h.m, "/")
	typeText(h.m, "token-3")
	press(h.m, "enter", "L")
	if n := len(h.m.fv.Report().Findings); n != 6 {
		t.Fatalf("%d findings, want one secret per entry", n)
	}
	if rows := len(h.m.list.Rows()); rows >= 5 {
		t.Fatalf("the search left %d rows in the list: too many to show the bug", rows)
	}
	press(h.m, "G")
	if got := h.m.fv.Cursor(); got != 5 {
		t.Errorf("G: finding %d selected, want the last (5)", got)
	}
	press(h.m, "g")
	if got := h.m.fv.Cursor(); got != 0 {
		t.Errorf("g: finding %d selected, want the first (0)", got)
	}
}

// TestFindings_CompareBottomReachesTheEnd: G in the side by side view
// shows the end of the longer entry however few rows the list behind it
// has (it scrolled by the list's length).
func TestFindings_CompareBottomReachesTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	at := uint64(testNow.Unix()) - 86400
	content := ""
	for i := range 80 {
		content += fmt.Sprintf("step %02d of the release\n", i)
	}
	h := newEditHarnessIn(t, path, t.TempDir())
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "release-a", Kind: store.Note, CreatedAt: at, Aliases: []string{}, Content: content + "the end"},
		{ID: 2, Name: "release-b", Kind: store.Note, CreatedAt: at + 1, Aliases: []string{}, Content: content + "the end"},
	})
	reload(h.m)
	press(h.m, "/")
	typeText(h.m, "release-a")
	press(h.m, "enter", "L", "enter")
	if _, ok := h.m.fv.Compared(); !ok {
		t.Fatalf("no side by side view:\n%s", plainScreen(h.m))
	}
	press(h.m, "G")
	if scr := plainScreen(h.m); !strings.Contains(scr, "the end") {
		t.Errorf("G does not show the end of the entries:\n%s", scr)
	}
	press(h.m, "g")
	if scr := plainScreen(h.m); !strings.Contains(scr, "step 00") {
		t.Errorf("g does not show the start of the entries:\n%s", scr)
	}
}
