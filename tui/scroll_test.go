package tui

import (
	"strings"
	"testing"
)

// TestScroller_StaysWithinItsLines: the window never starts before the
// first line nor leaves rows empty below the last once it overflows, and
// a window pulled back after the lines shrank shows their end.
func TestScroller_StaysWithinItsLines(t *testing.T) {
	lines := strings.Split(strings.Repeat("x\n", 49)+"x", "\n") // 50
	var s scroller
	s.by(-5, len(lines), 11)
	if s.top != 0 {
		t.Fatalf("up from the top: %d", s.top)
	}
	s.by(1000, len(lines), 11)
	if s.top != 40 || len(s.window(lines, 11)) != 10 {
		t.Fatalf("to the end: top %d, %d shown; want 40, 10", s.top, len(s.window(lines, 11)))
	}
	if got := s.window(lines[:20], 11); s.top != 10 || len(got) != 10 {
		t.Fatalf("after the lines shrank to 20: top %d, %d shown; want 10, 10", s.top, len(got))
	}
	if got := s.window(lines[:5], 11); s.top != 0 || len(got) != 5 {
		t.Fatalf("lines that fit: top %d, %d shown", s.top, len(got))
	}
	if p := (&scroller{top: 2}).position(50, 11); p != "3–12/50" {
		t.Fatalf("position %q", p)
	}
	if p := (&scroller{}).position(105, 1); p != "0 of 105 shown" { // the title alone: no row to number (it said "1–0/105")
		t.Fatalf("position with no row %q", p)
	}
}

// TestHelp_BottomKeyReachesTheEnd: G (last) scrolls the help to its last
// line. The help scrolled by the list's movement (moveDelta's "last" is
// the list's length), so with a list shorter than the help's overflow G
// stopped short, and g with an empty list did not move at all.
func TestHelp_BottomKeyReachesTheEnd(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	drive(h.m, resizeCmd(60, 14))
	press(h.m, "3") // archives only: a short list
	press(h.m, "?")
	over := helpOverflow(h.m)
	if over <= len(h.m.list.rows) {
		t.Fatalf("the help overflows by %d, the list has %d rows; the test needs a shorter list", over, len(h.m.list.rows))
	}
	press(h.m, "G")
	if h.m.hp.Top() != over || !strings.Contains(plainScreen(h.m), "undo: drop it from the list") {
		t.Fatalf("G: top %d, want %d; screen:\n%s", h.m.hp.Top(), over, plainScreen(h.m))
	}
	press(h.m, "g")
	if h.m.hp.Top() != 0 {
		t.Fatalf("g: top %d", h.m.hp.Top())
	}
}
