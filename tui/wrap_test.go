package tui

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestWrapWords_NamesStayWhole: wrapping breaks at spaces only, so a
// hyphenated name is never split at its hyphen, a lone "-" or "," stays
// with the word before it, every line fits, and no text is lost.
func TestWrapWords_NamesStayWhole(t *testing.T) {
	cases := []struct {
		text  string
		width int
		want  []string
	}{
		{"delete commit-format and deploy-steps?", 20, []string{"delete commit-format", "and deploy-steps?"}},
		{"delete commit-format?", 12, []string{"delete", "commit-forma", "t?"}},
		{"keep notes - they matter", 10, []string{"keep", "notes -", "they", "matter"}},
		{"alpha-one , beta-two", 11, []string{"alpha-one ,", "beta-two"}},
		{"alpha-one , beta-two", 10, []string{"alpha-on", "e ,", "beta-two"}}, // no room for the comma: a letter goes with it
		{"in /tmp/some/long/path/memory.db now", 16, []string{"in /tmp/some/", "long/path/", "memory.db now"}},
	}
	for _, c := range cases {
		got := wrapWords(c.text, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapWords(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
	for _, text := range []string{"commit-format changed on disk while you were editing: 日本語の名前-👩🏽‍💻 , x - y", strings.Repeat("a-b ", 30)} {
		for w := 3; w <= 40; w++ {
			lines := wrapWords(text, w)
			for _, l := range lines {
				if lw := ansi.StringWidth(l); lw > w && ansi.StringWidth(strings.TrimSpace(l)) > 2 {
					t.Errorf("at %d a line is %d wide: %q", w, lw, l)
				}
				if f := strings.Fields(l); w >= 8 && len(f) > 0 && (f[0] == "-" || f[0] == ",") { // a word broken in a narrower line may break anywhere; "👩🏽‍💻 ," is 8 cells as drawn per code point (drawnWidth)
					t.Errorf("at %d a line starts with a lone %q: %q", w, f[0], lines)
				}
			}
			if squeeze(strings.Join(lines, "")) != squeeze(text) {
				t.Errorf("at %d text was lost: %q", w, lines)
			}
		}
	}
}

// TestWrapMessage_NamesStayWhole: a status message wrapped over two
// lines keeps each name whole. Before, "renamed commit-format to
// deploy-steps" broke after "deploy-" at 32–33 columns.
func TestWrapMessage_NamesStayWhole(t *testing.T) {
	for w := 24; w <= 40; w++ {
		lines := wrapMessage(lipgloss.NewStyle(), "renamed commit-format to deploy-steps (u undoes)", w)
		for _, l := range lines {
			if strings.HasSuffix(strings.TrimSpace(l), "-") {
				t.Errorf("at %d columns a name is split: %q", w, lines)
			}
		}
	}
}
