package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestMouse_ClickSelectsTheRowShown pins a finding of the review of issue
// 10: a message on a line of its own shortens the list pane, and the pane
// is drawn scrolled so the selection stays visible, but a click mapped the
// pointer through the list's unscrolled offset and selected the row next
// to the one clicked; a click on the status or help line selected a row
// below the pane, one the user could not see.
func TestMouse_ClickSelectsTheRowShown(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/medium.db"), 120, 30)
	press(m, "2", "s", "s") // notes by name: short names, shown whole, no headers
	h := m.bodyHeight()
	for range h - 1 {
		press(m, "down") // the selection on the pane's last row
	}
	press(m, "x") // "explain on: …" takes a line of its own
	if m.bodyHeight() >= h {
		t.Fatalf("the message did not shorten the pane (%d rows, was %d)", m.bodyHeight(), h)
	}
	click := func(y int) {
		drive(m, func() tea.Msg { return tea.MouseClickMsg{X: 5, Y: y, Button: tea.MouseLeft} })
	}
	first := plainScreen(m)
	lines := strings.Split(first, "\n")
	for _, y := range []int{bodyTop, bodyTop + 3, bodyTop + m.bodyHeight() - 1} {
		shown := strings.Fields(strings.Split(lines[y], "┃")[0])[1]
		click(y)
		if got := selectedName(m); got != shown {
			t.Errorf("a click on screen row %d, which shows %q, selected %q", y, shown, got)
		}
		if now := strings.Split(plainScreen(m), "\n"); listPart(now[y]) != listPart(lines[y]) {
			t.Errorf("after a click on row %d the list moved: it shows %q, was %q", y, listPart(now[y]), listPart(lines[y]))
		}
	}
	before := selectedName(m)
	for y := bodyTop + m.bodyHeight(); y < len(lines); y++ {
		click(y)
		if got := selectedName(m); got != before {
			t.Errorf("a click on screen row %d (below the list: %q) selected %q", y, strings.TrimSpace(lines[y]), got)
		}
	}
}

// listPart is a screen line's list pane, without the selection's marks.
func listPart(line string) string {
	return strings.Join(strings.Fields(strings.Split(line, "┃")[0]), " ")
}
