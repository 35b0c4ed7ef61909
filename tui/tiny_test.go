package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
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

// TestTiny_NamesKeepRoomAt20Columns: at 20 columns a list row keeps one
// right-hand column (the age) and gives the name the rest: every name
// shows at least eight cells of itself. Before, age and size took eleven
// cells and names shrank to a letter or two ("fi…te", "…0…00").
func TestTiny_NamesKeepRoomAt20Columns(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	drive(h.m, resizeCmd(20, 14))
	rows := 0
	for _, l := range strings.Split(ansi.Strip(h.m.listPane(20, 10)), "\n") {
		f := strings.Fields(l)
		if len(f) < 3 || len(f[0]) != 1 || !strings.Contains("NAT", f[0]) {
			continue
		}
		rows++
		if name := f[1]; drawnWidth(name) < 8 && strings.Contains(name, "…") {
			t.Errorf("at 20 columns a name shows as %q: %q", name, l)
		}
	}
	if rows < 5 {
		t.Fatalf("%d entry rows at 20 columns", rows)
	}
}

// TestTiny_HelpTitleKeepsItsCloseKeys: at 40×12 (and down to 30 columns)
// the ? help's title says how to close it, and narrower it is never cut
// in the middle. Before, it was cut at "q/esc/?", its "close)" lost.
func TestTiny_HelpTitleKeepsItsCloseKeys(t *testing.T) {
	for _, w := range []int{24, 30, 40, 60} {
		m := openModel(t, copyFixture(t, "crmem/small.db"), w, 12)
		press(m, "?")
		screen := plainScreen(m)
		title := ""
		for _, l := range strings.Split(screen, "\n") {
			if strings.HasPrefix(l, "Keys") {
				title = l
			}
		}
		if want := "close)"; w < 30 && !strings.HasSuffix(strings.TrimSpace(title), ")") || w >= 30 && !strings.Contains(title, want) {
			t.Errorf("at %d×12 the help's title reads %q:\n%s", w, title, screen)
		}
	}
}

// TestTiny_WelcomeTakesTheWidth: at 80×24 a blank memory's welcome is
// laid out across the screen, not squeezed into the list's 36 columns
// beside an empty preview.
func TestTiny_WelcomeTakesTheWidth(t *testing.T) {
	m := openModel(t, filepath.Join(t.TempDir(), "memory.db"), 80, 24)
	screen := plainScreen(m)
	if strings.Contains(screen, "┃") || !strings.Contains(screen, "crmem --demo     try a sample memory") {
		t.Errorf("at 80×24 the welcome is squeezed beside an empty pane:\n%s", screen)
	}
}
