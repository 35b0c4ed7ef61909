package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/crmem/crmem/tui/list"
)

// TestFitName pins issue 10 item 5: at 80×24 archive names must keep the
// part that tells them apart.
func TestFitName(t *testing.T) {
	a1 := "archive-sess-0001-1767300000000000000"
	a2 := "archive-sess-0002-1767400000000000000"
	a3 := "archive-sess-0003-1767500000000000000"
	tests := []struct {
		name, prev, next string
		w                int
		want             string
	}{
		{"short", "", "", 20, "short"},
		{a2, a1, a3, 18, "…0002-176…00000000"},
		{a1, "", a2, 18, "…0001-176…00000000"},
		{"archive-sess-0001-1767300000000000001", "", "archive-sess-0001-1767300000000000002", 18, "archive-sess-000…1"},
		{"long-design-notes-for-the-billing-service", "", "", 18, "long-des…g-service"},
		{"archive-sess-0021-1", "today", "archive-sess-0019-1", 18, "archive-ses…0021-1"},
		// Issue 17 item 1: wide names are cut in cells between whole
		// grapheme clusters (runes made fitFrom slice at [-2:]).
		{"x-日本語の名前の長いメモのタイトル", "", "x", 21, "…-日本語の…のタイトル"},
		{"x-日本語の名前の長いメモのタイトル", "", "x", 5, "…-…ル"},
		{"日本語-メモ-0001-長いタイトル", "日本語-メモ-0002-長いタイトル", "", 18, "…0001-長いタイトル"},
		{"👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦-family", "", "", 9, "👨‍👩‍👧‍👦👨‍👩‍👧‍👦…mily"},
		{"éééééé-note", "éééééé-noun", "", 8, "…éé-note"},
	}
	for _, tt := range tests {
		got := fitName(tt.name, tt.prev, tt.next, tt.w)
		if got != tt.want {
			t.Errorf("fitName(%q, w=%d) = %q, want %q", tt.name, tt.w, got, tt.want)
		}
		if ansi.StringWidth(got) > tt.w {
			t.Errorf("fitName(%q) = %q is wider than %d", tt.name, got, tt.w)
		}
	}
	// Neighbours never look the same.
	names := []string{a1, a2, a3}
	seen := map[string]bool{}
	for i, n := range names {
		prev, next := "", ""
		if i > 0 {
			prev = names[i-1]
		}
		if i+1 < len(names) {
			next = names[i+1]
		}
		got := fitName(n, prev, next, 18)
		if seen[got] {
			t.Errorf("two rows read %q", got)
		}
		seen[got] = true
	}
}

// TestListRowsLookDistinct pins the review of issue 10 (names "never cut
// so that two rows look the same", SPEC §7): at 80×24 on medium.db,
// `/roll` showed deploy-rollout-production and another name both as
// "deploy…production", rows 4 and 17 of the name-match section, because
// fitName only looked at the adjacent rows.
func TestListRowsLookDistinct(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 20}, {120, 40}} {
		m := openModel(t, copyFixture(t, "crmem/medium.db"), size[0], size[1])
		press(m, "/")
		typeText(m, "roll")
		checkDistinctRows(t, m, fmt.Sprintf("/roll at %dx%d", size[0], size[1]))
		press(m, "enter")
		for range 30 {
			press(m, "pgdown")
			checkDistinctRows(t, m, fmt.Sprintf("/roll, paged, at %dx%d", size[0], size[1]))
		}
	}
}

// checkDistinctRows fails if two visible list rows naming different
// entries show the same name text.
func checkDistinctRows(t *testing.T, m *Model, what string) {
	t.Helper()
	seen := map[string]string{} // shown text → entry name
	l := m.list
	h := m.bodyHeight()
	ls := list.Style{Now: m.c.now(), Marks: m.marks.ByID(), Searched: m.result != nil}
	lines := strings.Split(ansi.Strip(l.View(m.c.partContext(h), ls, m.c.listWidth(), h)), "\n")
	rows := l.Rows()
	for k, line := range lines {
		i := l.ShownOffset(h) + k
		if i >= len(rows) || !rows[i].IsEntry() {
			continue
		}
		r := rows[i]
		f := strings.Fields(line)
		if len(f) < 2 {
			t.Fatalf("%s: row %d is %q", what, i, line)
		}
		shown, name := f[1], m.c.snap.entries[r.Idx].Name
		if other, ok := seen[shown]; ok && other != name {
			t.Errorf("%s: %q and %q both read %q", what, other, name, shown)
		}
		seen[shown] = name
	}
}

// TestFitApart pins the refit of rows that read the same: the shown part
// starts where a name first differs from every row it collided with.
func TestFitApart(t *testing.T) {
	tests := []struct {
		name   string
		others []string
		w      int
		want   string
	}{
		{"deploy-artifact-production", []string{"deploy-canary-production"}, 17, "…artifac…oduction"},
		{"deploy-canary-production", []string{"deploy-artifact-production"}, 17, "…canary-…oduction"},
		// the earliest difference wins: "deploy-a…" differs from the
		// second name at rune 7 though it shares 16 runes with the first
		{"deploy-artifact-production", []string{"deploy-artifact-pipeline", "deploy-canary-production"}, 17, "…artifac…oduction"},
		{"short", []string{"other"}, 17, "short"},
		{"archive-sess-0001-1767300000000000000", []string{"archive-sess-0002-1767300000000000000"}, 18, "…0001-176…00000000"},
	}
	for _, tt := range tests {
		got := fitApart(tt.name, tt.others, tt.w)
		if got != tt.want {
			t.Errorf("fitApart(%q, %q, %d) = %q, want %q", tt.name, tt.others, tt.w, got, tt.want)
		}
		if ansi.StringWidth(got) > tt.w {
			t.Errorf("fitApart(%q) = %q is wider than %d", tt.name, got, tt.w)
		}
		for _, o := range tt.others {
			if got == fitApart(o, []string{tt.name}, tt.w) {
				t.Errorf("%q and %q both read %q", tt.name, o, got)
			}
		}
	}
}

// TestListWidth pins the list pane's width: at 80 columns it takes 36
// cells (names get 21, not 17) so archive names keep more of what tells
// them apart, while the preview keeps 43 columns for reading; from 90
// columns on it is two fifths of the screen, at most 56.
func TestListWidth(t *testing.T) {
	for _, tt := range []struct{ w, list int }{{60, 60}, {79, 79}, {80, 36}, {89, 36}, {100, 40}, {120, 48}, {200, 56}} {
		m := openModel(t, copyFixture(t, "crmem/small.db"), tt.w, 24)
		if got := m.c.listWidth(); got != tt.list {
			t.Errorf("at %d columns the list is %d wide, want %d", tt.w, got, tt.list)
		}
		if m.c.twoPanes() && m.c.listWidth()+1+m.previewWidth() != tt.w {
			t.Errorf("at %d columns the panes take %d+1+%d", tt.w, m.c.listWidth(), m.previewWidth())
		}
	}
}

// TestMiddle_CutsBetweenClusters pins the middle cut in cells (issue 17
// item 1): ansi.TruncateLeft keeps a wide character that straddles its
// cut, so "日本語のa" at 5 cells came out 6 cells wide.
func TestMiddle_CutsBetweenClusters(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want string
	}{
		{"日本語のa", 5, "日…a"},
		{"long-design-notes", 9, "long…otes"},
		{"a日本語の", 4, "a…の"},
		{"👩\u200d💻👩\u200d💻👩\u200d💻", 9, "👩\u200d💻…👩\u200d💻"}, // 4 cells each as drawn per code point (drawnWidth)
		{"e\u0301e\u0301e\u0301e\u0301", 3, "e\u0301…e\u0301"},
		{"日本", 1, ""},
		{"short", 9, "short"},
	}
	for _, tt := range tests {
		got := middle(tt.s, tt.w)
		if got != tt.want {
			t.Errorf("middle(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
		if ansi.StringWidth(got) > tt.w {
			t.Errorf("middle(%q, %d) = %q is %d cells wide", tt.s, tt.w, got, ansi.StringWidth(got))
		}
	}
}
