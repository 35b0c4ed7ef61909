package tui

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
)

// Issue 29 item 6: no key acts behind your back.

// behindHarness is an editing model at w×h with the why view, one write
// already made (deleting scratch), so that u has something to undo.
func behindHarness(t *testing.T, w, h int) *editHarness {
	t.Helper()
	hs := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	hs.m.why = newWhyView()
	drive(hs.m, resizeCmd(w, h))
	hs.sel("scratch")
	press(hs.m, "d", "y")
	if len(hs.f.undo) != 1 {
		t.Fatalf("setup: %d undo steps, want 1 (status %q)", len(hs.f.undo), hs.status())
	}
	hs.sel("commit-format")
	return hs
}

// fileBytes is the memory file as it is now.
func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHelp_TheKeyThatClosesItDoesItsJob: at 80×24 the help does not fit
// (the movement keys scroll it); ? then /undo closes the help with the /,
// which starts the search, and "undo" is the query. Before, the / only
// closed the help, and u then undid the last write, n asked for a new
// note, d asked to delete, o filtered the list.
func TestHelp_TheKeyThatClosesItDoesItsJob(t *testing.T) {
	h := behindHarness(t, 80, 24)
	before := fileBytes(t, h.path)
	press(h.m, "?")
	if h.m.hp.overflow(h.m) == 0 {
		t.Fatal("the help fits at 80×24; the test needs one that scrolls")
	}
	press(h.m, "/")
	typeText(h.m, "undo")
	if !h.m.typing || h.m.input.Value() != "undo" {
		t.Fatalf("after ? /undo: typing %v, query %q; want the search for \"undo\"", h.m.typing, h.m.input.Value())
	}
	if !bytes.Equal(fileBytes(t, h.path), before) || len(h.f.undo) != 1 || h.f.dlg != nil {
		t.Fatalf("? /undo acted on the memory: %d undo steps, dialog %q", len(h.f.undo), plainOverlay(h.m))
	}
}

// TestHelp_AWriteKeyIsSwallowedVisibly: a key that would write closes the
// help without writing, and the status says it was not run.
func TestHelp_AWriteKeyIsSwallowedVisibly(t *testing.T) {
	h := behindHarness(t, 120, 40)
	before := fileBytes(t, h.path)
	press(h.m, "?", "u")
	if h.m.hp.open {
		t.Fatal("u did not close the help")
	}
	if !bytes.Equal(fileBytes(t, h.path), before) || len(h.f.undo) != 1 {
		t.Fatal("u on the help screen undid the last write")
	}
	h.wantStatus("u not run")
	press(h.m, "u") // offered now: the short help lists it
	if len(h.f.undo) != 0 {
		t.Fatalf("u from the list did not undo (status %q)", h.status())
	}
}

// TestMouse_NothingMovesBehindAnOverlay: a click on a list row while a
// question, the help or the reload log is open does not move the
// selection behind it. Before, the click selected another entry under a
// delete question about the first.
func TestMouse_NothingMovesBehindAnOverlay(t *testing.T) {
	for _, open := range [][]string{{"d"}, {"?"}, {"r"}} {
		h := behindHarness(t, 120, 40)
		sel := selectedName(h.m)
		press(h.m, open...)
		top := h.m.top()
		for y := bodyTop; y < bodyTop+8; y++ {
			drive(h.m, func() tea.Msg { return tea.MouseClickMsg{X: 5, Y: y, Button: tea.MouseLeft} })
			drive(h.m, func() tea.Msg { return tea.MouseWheelMsg{X: 5, Y: y, Button: tea.MouseWheelDown} })
		}
		if got := selectedName(h.m); got != sel || h.m.top() != top {
			t.Errorf("after %v: clicks behind %v selected %q (was %q), top now %v", open, top, got, sel, h.m.top())
		}
	}
}

// bindingKeys is every key of every binding of the key map.
func bindingKeys(k keymap.KeyMap) []string {
	seen := map[string]bool{}
	var out []string
	v := reflect.ValueOf(k)
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		b, ok := v.Field(i).Interface().(key.Binding)
		if !ok {
			continue
		}
		for _, s := range b.Keys() {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// offered reports whether k is a key of a binding enabled now: one the
// screen offers (the short help, the dialog's answers, the panel's hints
// are drawn from the enabled bindings).
func offered(keys keymap.KeyMap, k tea.KeyPressMsg) bool {
	v := reflect.ValueOf(keys)
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if b, ok := v.Field(i).Interface().(key.Binding); ok && key.Matches(k, b) {
			return true
		}
	}
	return false
}

// behindOverlay is one overlay of the properties over every overlay: how
// to open it on a behindHarness, and the layer it puts on top.
type behindOverlay struct {
	name string
	open func(h *editHarness)
	want layer
}

// behindOverlays is every overlay the screen has, each opened as a user
// would.
func behindOverlays() []behindOverlay {
	return []behindOverlay{
		{"help", func(h *editHarness) { press(h.m, "?") }, layerHelp},
		{"stats", func(h *editHarness) { press(h.m, "i") }, layerStats},
		{"reload log", func(h *editHarness) {
			apply(h.t, h.path, store.Add{Name: "from-the-agent", Content: "new"})
			reload(h.m)
			press(h.m, "c")
		}, layerLog},
		{"findings", func(h *editHarness) { press(h.m, "L") }, layerFindings},
		{"date prompt", func(h *editHarness) { press(h.m, "f") }, layerDatePrompt},
		{"question", func(h *editHarness) { press(h.m, "d") }, layerDialog},
		{"prompt", func(h *editHarness) { press(h.m, "a") }, layerDialog},
		{"choice", func(h *editHarness) { // an edit conflict
			h.editor = appendMine
			h.during = func() { apply(h.t, h.path, store.Write{Name: "commit-format", Content: "Theirs."}) }
			press(h.m, "e")
			h.during = nil
		}, layerDialog},
		{"search", func(h *editHarness) { press(h.m, "/") }, layerSearch},
		{"why prompt", func(h *editHarness) { press(h.m, "/"); typeText(h.m, "deploy"); press(h.m, "enter", "w") }, layerWhyPrompt},
		{"why panel", func(h *editHarness) {
			press(h.m, "/")
			typeText(h.m, "deploy")
			press(h.m, "enter")
			askWhy(h.m, "")
		}, layerWhy},
	}
}

// TestOverlays_NoWriteFromAKeyNotOffered is the property of issue 29
// item 6 over every overlay × every key of every binding: a key that
// writes to the memory file is one the visible screen offered; a key
// that closes an overlay without being one of its keys does its job on
// the screen below or says so on the status line, never nothing.
func TestOverlays_NoWriteFromAKeyNotOffered(t *testing.T) {
	overlays := behindOverlays()
	keys := bindingKeys(keymap.DefaultKeyMap())
	for _, o := range overlays {
		// Each overlay's cases on their own harnesses, beside the other
		// overlays': over a thousand harnesses, the package's longest test.
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			for _, size := range [][2]int{{80, 24}, {120, 40}} {
				for _, k := range keys {
					if k == keymap.InterruptKey {
						continue // quits: nothing is left to act behind
					}
					h := behindHarness(t, size[0], size[1])
					o.open(h)
					if got := h.m.top(); got != o.want {
						t.Fatalf("%s: top %v, want %v (overlay %q)", o.name, got, o.want, plainOverlay(h.m))
					}
					before := fileBytes(t, h.path)
					msg := keyMsg(k)
					wasOffered := offered(h.m.c.keys, msg)
					msgBefore := h.status()
					press(h.m, k)
					if !wasOffered && !bytes.Equal(fileBytes(t, h.path), before) {
						t.Errorf("%s at %dx%d: %q wrote to the memory; the screen did not offer it", o.name, size[0], size[1], k)
					}
					if closed := h.m.top() != o.want; closed && !wasOffered && h.status() == msgBefore {
						t.Errorf("%s at %dx%d: %q, not one of its keys, closed it and said nothing (top now %v)", o.name, size[0], size[1], k, h.m.top())
					}
				}
			}
		})
	}
}

// TestOverlays_KeyNamesRoundTrip is a guard of the helper: keyMsg must name every binding's keys
// the way key.Matches reads them, or the property above tests nothing.
func TestOverlays_KeyNamesRoundTrip(t *testing.T) {
	for _, k := range bindingKeys(keymap.DefaultKeyMap()) {
		if got := keyMsg(k).String(); got != k && !strings.HasPrefix(k, "shift+") {
			t.Errorf("keyMsg(%q).String() = %q", k, got)
		}
	}
}
