package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
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
