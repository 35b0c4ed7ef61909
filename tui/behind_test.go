package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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
	path := copyFixture(t, "crmem/small.db")
	// Opened at its size (no second layout), the editor's temporary files
	// beside the memory: a thousand harnesses made one folder each, not two.
	hs := newEditHarnessTemp(t, path, fixtureSessions, nil, w, h, filepath.Dir(path))
	hs.m.why = newWhyView()
	// scratch selected without drawing its card (sel draws it): the
	// delete draws the screen again; a thousand harnesses saved its
	// rendering.
	if e, ok := hs.m.writer().Memory().Lookup("scratch"); !ok || !hs.m.list.SelectID(hs.m.c.snap, e.ID) {
		t.Fatal("scratch is not listed")
	}
	press(hs.m, "d", "y")
	if hs.f.UndoLen() != 1 {
		t.Fatalf("setup: %d undo steps, want 1 (status %q)", hs.f.UndoLen(), hs.status())
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

// screenState is what a key could change on the screen behind the help:
// the selection, the rows, the marks, the focus, the modes.
func screenState(m *Model) string {
	return fmt.Sprintf("sel=%q rows=%q marks=%d focus=%v mouse=%v typing=%v query=%q explain=%v recall=%v order=%v filter=%v zoom=%v top=%v",
		selectedName(m), listNames(m), m.marks.Len(), m.focus, m.mouse, m.bar.Typing(), m.bar.Input.Value(), m.pv.Explaining(), m.list.RecallView, m.list.Order, m.list.Filter, m.read.zoom, m.top())
}

// TestHelp_AnyOtherKeyOnlyClosesIt: a key the help does not use closes
// it and does nothing else, as every other overlay swallows the keys it
// does not use (issue 42 item 3). Before, Y after ? copied the selected
// entry's content (a secret included) to the clipboard, * marked every
// entry, v ran $PAGER, and o N s 1–4 M R space ctrl+r . acted on the
// list behind the help.
func TestHelp_AnyOtherKeyOnlyClosesIt(t *testing.T) {
	for _, k := range []string{"Y", "y", "*", "v", "o", "N", "s", "1", "2", "3", "4", "M", "R", " ", "ctrl+r", ".", "/", "enter", "tab", "e", "x"} {
		h := behindHarness(t, 120, 40)
		press(h.m, "2") // notes only: 1 then has something to change
		before, disk := screenState(h.m), fileBytes(t, h.path)
		press(h.m, "?")
		if !h.m.hp.Open() {
			t.Fatal("? did not open the help")
		}
		msg := keyMsg(k)
		_, cmd := h.m.Update(msg)
		if got := ranMessages(cmd); len(got) > 0 {
			t.Errorf("%q after ?: the key's commands ran %v; want none (the help only closes)", k, got)
		}
		drive(h.m, cmd)
		if after := screenState(h.m); after != before {
			t.Errorf("%q after ?: the screen behind changed:\n was %s\n now %s", k, before, after)
		}
		if h.m.hp.Open() || !bytes.Equal(fileBytes(t, h.path), disk) || h.f.UndoLen() != 1 {
			t.Errorf("%q after ?: help open %v, %d undo steps", k, h.m.hp.Open(), h.f.UndoLen())
		}
	}
}

// ranMessages runs cmd and the commands it batches, without feeding
// anything to a model, and names the messages they produced (by type).
func ranMessages(cmd tea.Cmd) []string {
	var out []string
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			out = append(out, fmt.Sprintf("%T", msg))
		}
	}
	return out
}

// TestHelp_AWriteKeyIsSwallowedVisibly: a key that would write closes the
// help without writing, and the status says it was not run.
func TestHelp_AWriteKeyIsSwallowedVisibly(t *testing.T) {
	h := behindHarness(t, 120, 40)
	before := fileBytes(t, h.path)
	press(h.m, "?", "u")
	if h.m.hp.Open() {
		t.Fatal("u did not close the help")
	}
	if !bytes.Equal(fileBytes(t, h.path), before) || h.f.UndoLen() != 1 {
		t.Fatal("u on the help screen undid the last write")
	}
	h.wantStatus("u not run")
	press(h.m, "u") // offered now: the short help lists it
	if h.f.UndoLen() != 0 {
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
		// Each overlay's cases beside the other overlays'.
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			made := 0
			for _, size := range [][2]int{{80, 24}, {120, 40}} {
				// Every key acts on the overlay as it opened. One harness
				// serves the keys in turn while a key leaves everything as
				// it found it (the file, the undo steps, the frame, the
				// state behind it, the status line: most keys an overlay
				// does not use); a new one is made once a key changed any
				// of it. A harness per key, over 1,500, made this the
				// package's costliest test (8.6 CPU-s), for the same
				// starting points.
				var h *editHarness
				var opened string
				for _, k := range keys {
					if k == keymap.InterruptKey {
						continue // quits: nothing is left to act behind
					}
					if h == nil {
						h = behindHarness(t, size[0], size[1])
						o.open(h)
						if got := h.m.top(); got != o.want {
							t.Fatalf("%s: top %v, want %v (overlay %q)", o.name, got, o.want, plainOverlay(h.m))
						}
						opened = asOpened(h)
						made++
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
					if asOpened(h) != opened {
						h = nil
					}
				}
			}
			t.Logf("%d harnesses for %d keys at 2 sizes", made, len(keys)-1)
		})
	}
}

// asOpened is all a key could change of h: the file, the undo steps, the
// frame, the state behind it and the status line.
func asOpened(h *editHarness) string {
	return fmt.Sprintf("%x\n%d\n%s\n%s\n%s", fileBytes(h.t, h.path), h.f.UndoLen(), h.m.screen(), screenState(h.m), h.status())
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
