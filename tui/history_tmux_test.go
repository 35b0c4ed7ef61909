package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestTmux_HistoryViewRestoreAndUndo (issue 32 item 4): the built binary
// at 80×24 on a v1 memory whose sessions wrote deploy-steps three times:
// the card's provenance line, H opens the history on the current
// version, ↑ moves to the first, r asks, y restores it on disk, u undoes;
// no row is wider than the screen.
func TestTmux_HistoryViewRestoreAndUndo(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := storyMemory(t, time.Now())
	e.start("s", bin+" "+path)
	e.tmux("resize-window", "-t", "s", "-x", "80", "-y", "24")
	e.waitFor("s", 15*time.Second, "the list", contains("scratch", "deploy-steps"))
	e.keys("s", "j")
	e.waitFor("s", 15*time.Second, "the card's provenance line", contains("remembered by session «deploy", "3d ago · 3 versions"))
	e.keys("s", "H")
	e.waitFor("s", 15*time.Second, "the history view", contains("History of deploy-steps", "#3 write ● current", "#2 → #3", "+ Run the migrations first."))
	e.keys("s", "k", "k")
	e.waitFor("s", 15*time.Second, "the first version", contains("#1 · write · its whole content", "+ Ship it."))
	e.keys("s", "r")
	e.waitFor("s", 15*time.Second, "the confirmation", contains("restore deploy-steps to version #1", "[y/n]"))
	e.keys("s", "y")
	e.waitFor("s", 15*time.Second, "the restore", contains("restored deploy-steps to version #1", "#4 write ● current"))
	if got := byNameMap(decodeFile(t, path))["deploy-steps"].Content; got != deployV1 {
		t.Fatalf("on disk after the restore: %q, want version #1's %q", got, deployV1)
	}
	screen := e.screen("s")
	t.Logf("80×24 after the restore:\n%s", screen)
	checkRows(t, screen, 80, 24)
	e.keys("s", "u")
	e.waitFor("s", 15*time.Second, "the undo", contains("undone: restore deploy-steps to #1"))
	if got := byNameMap(decodeFile(t, path))["deploy-steps"].Content; got != deployV3 {
		t.Fatalf("on disk after the undo: %q, want %q back", got, deployV3)
	}
	e.keys("s", "Escape")
	e.waitFor("s", 15*time.Second, "the list again", func(s string) bool { return !strings.Contains(s, "History of") })
}

// checkRows fails when the screen has more than h rows or a row wider
// than w cells.
func checkRows(t *testing.T, screen string, w, h int) {
	t.Helper()
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(rows) > h {
		t.Errorf("%d rows, want ≤ %d", len(rows), h)
	}
	for i, r := range rows {
		if n := ansi.StringWidth(r); n > w {
			t.Errorf("row %d is %d cells: %q", i, n, r)
		}
	}
}

// TestTmux_DemoHistory: crmem --demo at 80×24 tells deploy-steps' story
// as its sessions wrote it: four versions over two sessions, the last
// one current, and staging-smoke-tests among the forgotten entries.
func TestTmux_DemoHistory(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	e.start("s", bin+" --demo")
	e.tmux("resize-window", "-t", "s", "-x", "80", "-y", "24")
	e.waitFor("s", 15*time.Second, "the list", contains("12 notes"))
	e.keys("s", "/")
	e.text("s", "deploy-steps")
	e.keys("s", "Enter")
	e.waitFor("s", 15*time.Second, "the card", contains("remembered by session «deploy", "4 versions"))
	e.keys("s", "H")
	e.waitFor("s", 15*time.Second, "the history", contains("History of deploy-steps  4 versions", "#4 write ● current", "«deploy pipeline»", "«billing release 2"))
	checkRows(t, e.screen("s"), 80, 24)
	e.keys("s", "q")
	e.waitFor("s", 15*time.Second, "the list again", func(s string) bool { return !strings.Contains(s, "History of") })
	e.keys("s", "F")
	e.waitFor("s", 15*time.Second, "the forgotten entries", contains("Forgotten entries", "staging-smoke-tests · removed"))
}
