package tui

import (
	"strings"
	"testing"
)

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
	if over <= len(h.m.list.Rows()) {
		t.Fatalf("the help overflows by %d, the list has %d rows; the test needs a shorter list", over, len(h.m.list.Rows()))
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
