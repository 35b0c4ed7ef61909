package tui

import (
	"strings"
	"testing"
)

// Issue 42 item 6: the smallest screens keep the point of what is open.

// TestTiny_MarkOlderQuestionKeepsItsPoint: at 20–24×3 the `O 6m`
// question still asks "did you mean months" (the point of asking) with
// its [y/n]. Before, the question's middle gave way, that phrase with it.
func TestTiny_MarkOlderQuestionKeepsItsPoint(t *testing.T) {
	for w := 20; w <= 24; w++ {
		path, _ := agedMemory(t)
		h := newEditHarnessIn(t, path, t.TempDir())
		drive(h.m, resizeCmd(w, 3))
		press(h.m, "O")
		typeText(h.m, "6m")
		press(h.m, "enter")
		screen := plainScreen(h.m)
		for _, want := range []string{"did you mean months", "6mo", "[y/n]"} {
			if !strings.Contains(squeeze(screen), squeeze(want)) {
				t.Errorf("at %d×3 the question lost %q:\n%s", w, want, screen)
			}
		}
		checkDialogRows(t, "O 6m", h.m.c.cells, screen, w)
	}
}

// TestTiny_RenamePromptKeepsItsTitle: at 20–24×3 the rename prompt keeps
// its "rename …" line above the field and its keys. Before, the title's
// two lines, the field and the keys took four, and the first went.
func TestTiny_RenamePromptKeepsItsTitle(t *testing.T) {
	for w := 20; w <= 24; w++ {
		h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
		drive(h.m, resizeCmd(w, 3))
		h.sel("commit-format")
		press(h.m, "r")
		screen := plainScreen(h.m)
		lines := strings.Split(screen, "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "rename") || !strings.Contains(screen, "esc") {
			t.Errorf("at %d×3 the rename prompt reads:\n%s", w, screen)
		}
	}
}

// TestTiny_HistoryKeepsALine: at 80×4 and 80×3 the history view keeps its
// title and a line of it, as stats does. Before, only its title was left.
func TestTiny_HistoryKeepsALine(t *testing.T) {
	for _, ht := range []int{3, 4} {
		h, _ := historyHarness(t)
		drive(h.m, resizeCmd(80, ht))
		h.sel("deploy-steps")
		press(h.m, "H")
		screen := plainScreen(h.m)
		if !strings.Contains(screen, "History of deploy-steps") || !strings.Contains(screen, "#3 write") {
			t.Errorf("at 80×%d the history view reads:\n%s", ht, screen)
		}
	}
}
