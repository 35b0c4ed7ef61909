package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/tui/dialog"
)

// TestDeleteMarked_WarningSurvivesANarrowScreen pins a finding of the
// review of issue 10: at 60 columns the delete confirmation joined the
// question and its warning and cut the middle of both, so "⚠ 737 of them
// not listed" lost its count ("…f them not listed") — the one thing SPEC
// §7 asks the confirmation to say about hidden entries. Counts read as
// everywhere else on the screen ("2,000", not "2000").
func TestDeleteMarked_WarningSurvivesANarrowScreen(t *testing.T) {
	for _, w := range []int{40, 60, 80, 120} {
		m := newEditHarness(t, copyFixture(t, "crmem/medium.db")).m
		drive(m, resizeCmd(w, 24))
		press(m, "*", "2")
		if s := statusText(m); !strings.Contains(s, "● 2,000 marked") {
			t.Errorf("the status line does not say \"● 2,000 marked\" (counts read as elsewhere, 1,263 notes):\n%s", s)
		}
		press(m, "D")
		o := plainOverlay(m)
		flat := strings.ReplaceAll(o, "\n", "")
		for _, want := range []string{"delete 2,000 entries", "737 of them not listed", "[y/n]"} {
			if !strings.Contains(flat, want) {
				t.Errorf("at %d columns the confirmation lost %q:\n%s", w, want, o)
			}
		}
		lines := strings.Split(o, "\n")
		if len(lines) > dialog.MaxLines {
			t.Errorf("at %d columns the confirmation takes %d lines", w, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Errorf("at %d columns a line is %d wide: %q", w, ansi.StringWidth(l), l)
			}
		}
	}
}
