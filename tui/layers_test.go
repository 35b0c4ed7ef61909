package tui

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/crmem/crmem/store"
)

// TestTop_ConflictOverTheHelpHasTheScreen: an edit conflict that arrives
// while the help is open (the user pressed ? while the write was in
// flight) takes the screen, the keys and the bindings live together:
// the diff is drawn, not the help, and its answer keys answer it. Before
// top(), the help kept the screen and the mode (the answer keys off)
// while the dialog took every key: the user saw the help and could not
// answer the question they could not see.
func TestTop_ConflictOverTheHelpHasTheScreen(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	h.editor = appendMine
	h.during = func() { apply(t, h.path, store.Write{Name: "commit-format", Content: "Theirs."}) }
	_, run := h.m.Update(keyMsg("e"))
	_, write := h.m.Update(run()) // the editor exited; the write is off the loop
	press(h.m, "?")               // the help, opened meanwhile
	if h.m.top() != layerHelp {
		t.Fatalf("top %v after ?, want the help", h.m.top())
	}
	drive(h.m, write) // the write meets their change
	if got := h.m.top(); got != layerDialog {
		t.Fatalf("top %v once the conflict is asked, want the dialog", got)
	}
	screen := plainScreen(h.m)
	if !strings.Contains(screen, "+ Mine.") || !strings.Contains(screen, "[m] keep mine") {
		t.Fatalf("the conflict is not what the screen shows:\n%s", screen)
	}
	press(h.m, "m")
	if got := h.onDisk()["commit-format"].Content; !strings.HasSuffix(got, "Mine.") {
		t.Fatalf("m did not keep mine: %q; screen:\n%s", got, plainScreen(h.m))
	}
	if got := h.m.top(); got != layerHelp {
		t.Fatalf("top %v once answered, want the help again (it was open below)", got)
	}
}

// TestTop_WhyPanelKeepsTheEditingKeys: while the why panel has the
// screen, the editing keys do nothing behind it. Before top(), the
// editing part saw every key first and only the key map's mode (the
// panel's) kept d, space and the rest from acting under the panel; now
// the key goes to the panel alone. A guard: it held before too.
func TestTop_WhyPanelKeepsTheEditingKeys(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.m.why = newWhyView()
	press(h.m, "/")
	typeText(h.m, "postgres migration")
	press(h.m, "enter")
	askWhy(h.m, "")
	if h.m.top() != layerWhy {
		t.Fatalf("top %v, want the why panel; overlay %q, status %q", h.m.top(), plainOverlay(h.m), statusText(h.m))
	}
	before := plainScreen(h.m)
	for _, k := range []string{"d", "space", "*", "D", "r", "a", "L", "o"} {
		press(h.m, k)
		if h.m.top() != layerWhy || h.m.ed.dlg != nil || h.m.marks.Len() != 0 || h.m.fv.Open() {
			t.Fatalf("%s acted behind the why panel: top %v, overlay %q, %d marked", k, h.m.top(), plainOverlay(h.m), h.m.marks.Len())
		}
	}
	if after := plainScreen(h.m); after != before {
		t.Fatalf("the screen changed under keys the panel does not take:\n%s", after)
	}
}

// TestLayers_EachGivesAll: every layer is registered once, in the list
// (layers), with everything the root asks of a layer: a name, whether
// it is open, the keys it enables, its key handling, paste, body,
// overlay, short help, mouse and the rows it keeps. A layer that has none of one says so (noBody,
// noPaste, …): before the list, each question was a switch of its own,
// and the history view was missing from one of them (rows: at 80×3 it
// kept only its title).
func TestLayers_EachGivesAll(t *testing.T) {
	names := map[string]layer{}
	for l := layer(0); l < numLayers; l++ {
		spec := reflect.ValueOf(layers()[l])
		for i := range spec.NumField() {
			f := spec.Type().Field(i)
			if v := spec.Field(i); v.IsZero() {
				t.Errorf("layer %d (%q) gives no %s", l, layers()[l].name, f.Name)
			}
		}
		if layers()[l].least != 1 && layers()[l].least != panelRows {
			t.Errorf("layer %v keeps %d rows, want 1 (a line) or %d (a panel's title and a line)", l, layers()[l].least, panelRows)
		}
		if prev, dup := names[layers()[l].name]; dup {
			t.Errorf("layers %d and %d are both named %q", prev, l, layers()[l].name)
		}
		names[layers()[l].name] = l
	}
	if !layers()[layerPanes].open(nil) {
		t.Errorf("the panes are not always open")
	}
}

// TestLayers_TheTopPartEnablesItsKeys: the part on top decides which keys
// are live (its SetKeys), not a table of modes: the stats panel leaves
// search off and its own key on, a rename prompt only its answers (its
// printable keys are text), the delete question only yes and no, and
// closing each gives the list its keys back.
func TestLayers_TheTopPartEnablesItsKeys(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("scratch")
	k := &h.m.c.keys
	for _, tt := range []struct {
		open     string
		top      layer
		on, off  []*key.Binding
		closeKey string
	}{
		{"i", layerStats, []*key.Binding{&k.Stats, &k.Quit, &k.Down}, []*key.Binding{&k.Search, &k.Edit, &k.Accept}, "esc"},
		{"r", layerDialog, []*key.Binding{&k.Accept, &k.Cancel}, []*key.Binding{&k.Search, &k.Quit, &k.Down, &k.Yes}, "esc"},
		{"d", layerDialog, []*key.Binding{&k.Yes, &k.No}, []*key.Binding{&k.Accept, &k.Edit, &k.Search}, "n"},
	} {
		press(h.m, tt.open)
		if h.m.top() != tt.top {
			t.Fatalf("%s: top %v, want %v", tt.open, h.m.top(), tt.top)
		}
		for _, b := range tt.on {
			if !b.Enabled() {
				t.Errorf("%s open: %q is off", tt.open, b.Help().Desc)
			}
		}
		for _, b := range tt.off {
			if b.Enabled() {
				t.Errorf("%s open: %q is live", tt.open, b.Help().Desc)
			}
		}
		press(h.m, tt.closeKey)
		if h.m.top() != layerPanes || !k.Search.Enabled() || !k.Edit.Enabled() || k.Yes.Enabled() {
			t.Errorf("%s closed: top %v, search %v, edit %v, yes %v", tt.open, h.m.top(), k.Search.Enabled(), k.Edit.Enabled(), k.Yes.Enabled())
		}
	}
}
