package tui

import (
	"strings"
	"testing"
)

// Tests for issue 10 (the TUI as power users drive it), one per finding;
// each names the item it pins.

// Item 1: enter keeps the row the user moved to while typing.
func TestSearch_EnterKeepsTheRowTheUserPicked(t *testing.T) {
	tests := []struct {
		name string
		move []string
	}{
		{"arrows", []string{"down"}},
		{"ctrl+n", []string{"ctrl+n"}},
		{"ctrl+j", []string{"ctrl+j"}},
		{"pgdown", []string{"pgdown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
			m := h.m
			press(m, "/")
			typeText(m, "canary")
			best := selectedName(m)
			press(m, tt.move...)
			picked := selectedName(m)
			if picked == best || picked == "" {
				t.Fatalf("moving did not change the selection from %q", best)
			}
			press(m, "enter")
			if got := selectedName(m); got != picked {
				t.Fatalf("after enter %q is selected, want the picked %q", got, picked)
			}
			press(m, "d") // the next action acts on the picked entry
			if o := plainOverlay(m); !strings.Contains(o, picked) {
				t.Fatalf("delete asks about %q, want %q", o, picked)
			}
		})
	}
	// Unmoved, enter keeps the best hit; a changed query follows the best
	// hit again.
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "/")
	typeText(m, "canary")
	best := selectedName(m)
	press(m, "down")
	typeText(m, " ")
	typeText(m, "r")
	press(m, "backspace", "backspace")
	if got := selectedName(m); got != best {
		t.Fatalf("after the query changed the selection is %q, want the best hit %q", got, best)
	}
	press(m, "enter")
	if got := selectedName(m); got != best {
		t.Fatalf("enter without moving selected %q, want %q", got, best)
	}
}

// Item 2: q (and esc, ?, ctrl+c) closes the help; nothing quits from it.
func TestHelp_QClosesInsteadOfQuitting(t *testing.T) {
	for _, k := range []string{"q", "esc", "?", "ctrl+c", "x"} {
		m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
		press(m, "?")
		if !m.showHelp {
			t.Fatal("? did not open the help")
		}
		_, cmd := m.Update(keyMsg(k))
		if m.showHelp {
			t.Errorf("%s did not close the help", k)
		}
		if cmdQuits(cmd) {
			t.Errorf("%s on the help screen quits", k)
		}
	}
}

// Item 9: one-pane mode opens the preview with enter l → and goes back with
// esc h ← backspace; a help that does not fit scrolls to its last line.
func TestOnePane_OpenAndBackKeys(t *testing.T) {
	for _, open := range []string{"enter", "l", "right"} {
		for _, back := range []string{"esc", "h", "left", "backspace"} {
			m := openModel(t, copyFixture(t, "crmem/small.db"), 60, 20)
			sel := selectedName(m)
			press(m, open)
			if m.focus != focusPreview || !strings.Contains(plainScreen(m), "created ") {
				t.Fatalf("%s did not open the preview:\n%s", open, plainScreen(m))
			}
			press(m, back)
			if m.focus != focusList {
				t.Fatalf("%s did not go back to the list", back)
			}
			if got := selectedName(m); got != sel {
				t.Fatalf("the selection moved from %q to %q", sel, got)
			}
		}
	}
}

func TestHelp_ScrollsWhenItDoesNotFit(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	m := h.m
	drive(m, resizeCmd(60, 20))
	press(m, "?")
	screen := plainScreen(m)
	if strings.Contains(screen, "delete marked") {
		t.Fatalf("the whole help fits at 60×20; the test needs a longer one:\n%s", screen)
	}
	for range 40 {
		press(m, "j")
	}
	screen = plainScreen(m)
	for _, want := range []string{"delete marked", "mark all listed", "unmark all"} {
		if !strings.Contains(screen, want) {
			t.Errorf("after scrolling the help lacks %q:\n%s", want, screen)
		}
	}
	if !m.showHelp {
		t.Fatal("scrolling closed the help")
	}
	for range 40 {
		press(m, "k")
	}
	if s := plainScreen(m); !strings.Contains(s, "half page up") || !strings.Contains(s, "close)") {
		t.Errorf("scrolled back, the help lacks its top or its close hint:\n%s", s)
	}
}
